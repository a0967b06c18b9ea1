//! Telling the format of a file from the fields it has (field names in any case), and saying,
//! when none fits, what was found and what each format needs.

use std::path::Path;

use serde_json::{Map, Value};

use super::records::{self, Input, Record};
use super::{Format, ReadOptions};
use crate::{Error, Result};

/// The tool a user says wrote a file (`--from`); the reader still picks the version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Ragas, any version.
    Ragas,
    /// DeepEval.
    DeepEval,
    /// Giskard.
    Giskard,
    /// LlamaIndex, either dataset.
    LlamaIndex,
    /// promptfoo.
    Promptfoo,
    /// A plain question file.
    Plain,
}

/// The format of the file at `path`: a `.yaml`/`.yml` file, or JSON Lines whose first record
/// is a ragsynth header or case, is a ragsynth set; anything else is read and told apart by its
/// fields.
pub fn detect(path: &Path, options: &ReadOptions) -> Result<Format> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ext == "yaml" || ext == "yml" {
        return Ok(Format::Ragsynth);
    }
    if records::layout_of(path).is_none() {
        return Err(Error::UnknownFileType {
            path: path.to_path_buf(),
            what: "test-set",
            expected: ".yaml, .yml, .jsonl, .ndjson, .json, .csv or .tsv",
        });
    }
    if options.family.is_none() && (ext == "jsonl" || ext == "ndjson") && first_is_ragsynth(path)? {
        return Ok(Format::Ragsynth);
    }
    resolve(path, &records::read(path)?, options)
}

/// Whether the first non-blank line of a JSON Lines file is a ragsynth header or case; read
/// alone, so a large set is not parsed twice.
fn first_is_ragsynth(path: &Path) -> Result<bool> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        if let Some(fields) = crate::limits::json_object_line(path, n + 1, &line)? {
            return Ok(is_ragsynth(&Record { line: n + 1, fields }));
        }
    }
    Ok(true) // an empty file reads as an empty ragsynth set
}

fn is_ragsynth(r: &Record) -> bool {
    r.has("ragsynth") || (r.has("id") && r.has("question") && (r.has("relevant") || r.has("tags")))
}

fn keys_all(map: &Map<String, Value>, keys: &[&str]) -> bool {
    keys.iter().all(|k| map.keys().any(|m| m.eq_ignore_ascii_case(k)))
}

/// The format `input` is in, by its fields alone; `None` when no format fits.
pub fn detect_input(input: &Input) -> Option<Format> {
    if let Some(doc) = &input.document
        && keys_all(doc, &["queries", "corpus", "relevant_docs"])
    {
        return Some(Format::LlamaPairs);
    }
    let r = input.records.first()?;
    let has = |k: &str| r.has(k);
    Some(if is_ragsynth(r) {
        Format::Ragsynth
    } else if matches!(r.get("vars"), Some(Value::Object(_))) {
        Format::Promptfoo
    } else if has("query") && (has("reference_contexts") || has("query_by")) {
        Format::LlamaLabelled
    } else if has("user_input") || has("eval_sample") {
        Format::Ragas
    } else if has("question")
        && has("contexts")
        && (has("ground_truth") || has("ground_truths") || has("evolution_type"))
    {
        Format::RagasLegacy
    } else if has("input") && (has("expected_output") || has("context") || has("retrieval_context")) {
        Format::DeepEval
    } else if has("question") && (has("reference_context") || has("reference_answer")) {
        Format::Giskard
    } else if has("question") || has("query") {
        Format::Plain
    } else {
        return None;
    })
}

/// The format to read `input` as, given what the user said (`--from`, `--question-col`).
pub fn resolve(path: &Path, input: &Input, options: &ReadOptions) -> Result<Format> {
    let detected = detect_input(input);
    // A named question column makes the file a plain one whatever else it holds.
    if options.columns.question.is_some() || options.family == Some(Family::Plain) {
        return Ok(Format::Plain);
    }
    let fits = |f: Format| -> bool {
        match options.family {
            None => true,
            Some(Family::Ragas) => matches!(f, Format::Ragas | Format::RagasLegacy),
            Some(Family::DeepEval) => f == Format::DeepEval,
            Some(Family::Giskard) => f == Format::Giskard,
            Some(Family::LlamaIndex) => matches!(f, Format::LlamaPairs | Format::LlamaLabelled),
            Some(Family::Promptfoo) => f == Format::Promptfoo,
            Some(Family::Plain) => f == Format::Plain,
        }
    };
    match detected {
        Some(f) if fits(f) => Ok(f),
        // An empty file has no fields to tell: it is an empty set of the format named.
        None if input.records.is_empty() && input.document.is_none() => Ok(match options.family {
            Some(Family::Ragas) => Format::Ragas,
            Some(Family::DeepEval) => Format::DeepEval,
            Some(Family::Giskard) => Format::Giskard,
            Some(Family::LlamaIndex) => Format::LlamaLabelled,
            Some(Family::Promptfoo) => Format::Promptfoo,
            _ => Format::Plain,
        }),
        _ => Err(unknown(path, input, detected, options.family)),
    }
}

fn unknown(path: &Path, input: &Input, detected: Option<Format>, family: Option<Family>) -> Error {
    let mut found: Vec<String> = match &input.document {
        Some(doc) if input.records.is_empty() => doc.keys().cloned().collect(),
        _ => input.columns.clone(),
    };
    found.truncate(20);
    let what = if input.layout == records::Layout::Csv {
        "columns"
    } else {
        "fields"
    };
    let wanted: Vec<String> = Format::ALL
        .iter()
        .map(|f| format!("  {f}: {}", f.needs()))
        .collect();
    let said = match (family, detected) {
        (Some(fam), Some(d)) => format!("it was named as {fam:?} but looks like {d}; "),
        (Some(fam), None) => format!("it was named as {fam:?}, but "),
        _ => String::new(),
    };
    Error::Parse {
        path: path.to_path_buf(),
        line: Some(input.records.first().map_or(1, |r| r.line)),
        column: None,
        message: format!(
            "{said}no known test-set format fits: found {what} {}; each format needs:\n{}",
            if found.is_empty() {
                "(none)".to_string()
            } else {
                found.join(", ")
            },
            wanted.join("\n")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(json: serde_json::Value) -> Input {
        let fields = json.as_object().unwrap().clone();
        Input {
            layout: records::Layout::Jsonl,
            columns: fields.keys().cloned().collect(),
            records: vec![Record { line: 1, fields }],
            document: None,
        }
    }

    #[test]
    fn formats_are_told_apart_by_their_fields_in_any_case() {
        use serde_json::json;
        let cases = [
            (
                json!({"User_Input": "q", "reference_contexts": []}),
                Format::Ragas,
            ),
            (json!({"eval_sample": {}, "synthesizer_name": "x"}), Format::Ragas),
            (
                json!({"question": "q", "contexts": "[]", "ground_truth": "a"}),
                Format::RagasLegacy,
            ),
            (
                json!({"input": "q", "expected_output": "a", "context": []}),
                Format::DeepEval,
            ),
            (
                json!({"question": "q", "reference_context": "Document 1: x"}),
                Format::Giskard,
            ),
            // LabelledRagDataset has a reference answer too: it is not Giskard.
            (
                json!({"query": "q", "reference_contexts": [], "reference_answer": "a"}),
                Format::LlamaLabelled,
            ),
            (json!({"Question": "q", "context": "p"}), Format::Plain),
            (
                json!({"vars": {"question": "q"}, "assert": []}),
                Format::Promptfoo,
            ),
        ];
        for (fields, want) in cases {
            assert_eq!(detect_input(&input(fields.clone())), Some(want), "{fields}");
        }
        assert_eq!(detect_input(&input(json!({"foo": 1}))), None);
    }

    #[test]
    fn no_format_lists_what_was_found_and_what_each_needs() {
        let i = input(serde_json::json!({"prompt": "q", "gold": "a"}));
        let e = resolve(Path::new("x.jsonl"), &i, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x.jsonl:1: no known test-set format fits: found fields prompt, gold"),
            "{e}"
        );
        assert!(e.contains("Ragas 0.1: `question` + `contexts`"), "{e}");
        assert!(e.contains("--question-col"), "{e}");
        let named = ReadOptions {
            family: Some(Family::Giskard),
            ..ReadOptions::default()
        };
        let i = input(serde_json::json!({"user_input": "q"}));
        let e = resolve(Path::new("x.jsonl"), &i, &named).unwrap_err().to_string();
        assert!(e.contains("named as Giskard but looks like Ragas"), "{e}");
    }
}
