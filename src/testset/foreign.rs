//! Test sets exported by other tools, read into a [`TestSet`] so the same rules run on them.
//!
//! Ragas (`user_input, reference_contexts, reference`), DeepEval goldens (`input,
//! expected_output, context`), Giskard RAGET (`question, reference_answer, reference_context,
//! metadata.question_type`) and plain CSV/JSONL with a question and a context column. Contexts
//! are text, so each is located in the corpus ([`crate::locate::locate_in_corpus`]: exact, then
//! normalised, then fuzzy) to recover a document and span; a context that cannot be found is
//! reported as a warning and the case keeps its other labels.

use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};

use super::{Case, Label, Source, TestSet};
use crate::corpus::Corpus;
use crate::locate::{DEFAULT_MIN_SIMILARITY, locate_in_corpus};
use crate::{Error, Result, limits};

/// Which tool wrote the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exporter {
    /// ragsynth's own format.
    Ragsynth,
    /// Ragas.
    Ragas,
    /// DeepEval goldens.
    DeepEval,
    /// Giskard RAGET.
    Giskard,
    /// Question + context columns.
    Plain,
}

impl fmt::Display for Exporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Exporter::Ragsynth => "ragsynth",
            Exporter::Ragas => "Ragas",
            Exporter::DeepEval => "DeepEval",
            Exporter::Giskard => "Giskard",
            Exporter::Plain => "CSV/JSONL",
        })
    }
}

/// A foreign export read as a test set.
#[derive(Debug)]
pub struct Imported {
    /// The cases (no header: the corpus comes from `--corpus`).
    pub set: TestSet,
    /// Contexts that could not be located, records without a context, ...
    pub warnings: Vec<String>,
}

/// One record with the line it starts on.
struct Record {
    line: usize,
    fields: Map<String, Value>,
}

fn ext(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Detects the format from the extension and the first record's fields.
pub fn detect(path: &Path) -> Result<Exporter> {
    let e = ext(path);
    if e == "yaml" || e == "yml" {
        return Ok(Exporter::Ragsynth);
    }
    if e != "csv" && e != "json" {
        // JSON Lines: the first record decides; parsing a 100,000-line file twice would not.
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let first = text.lines().find(|l| !l.trim().is_empty());
        return Ok(match first.map(serde_json::from_str::<Value>) {
            Some(Ok(Value::Object(fields))) => kind_of(&fields),
            _ => Exporter::Ragsynth,
        });
    }
    let records = read_records(path)?;
    let Some(first) = records.first() else {
        return Ok(if e == "csv" {
            Exporter::Plain
        } else {
            Exporter::Ragsynth
        });
    };
    Ok(kind_of(&first.fields))
}

fn kind_of(f: &Map<String, Value>) -> Exporter {
    let has = |k: &str| f.contains_key(k);
    if has("ragsynth") || (has("id") && has("question") && (has("relevant") || has("tags"))) {
        Exporter::Ragsynth
    } else if has("user_input") {
        Exporter::Ragas
    } else if has("input") {
        Exporter::DeepEval
    } else if has("reference_context") || has("reference_answer") {
        Exporter::Giskard
    } else {
        Exporter::Plain
    }
}

fn read_records(path: &Path) -> Result<Vec<Record>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let parse_err = |line: Option<usize>, column: Option<usize>, message: String| Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message,
    };
    match ext(path).as_str() {
        "csv" => {
            let mut rdr = csv::Reader::from_reader(text.as_bytes());
            let headers = rdr
                .headers()
                .map_err(|e| parse_err(Some(1), None, e.to_string()))?
                .clone();
            let mut out = Vec::new();
            for row in rdr.records() {
                let row =
                    row.map_err(|e| parse_err(e.position().map(|p| p.line() as usize), None, e.to_string()))?;
                let line = row.position().map_or(0, |p| p.line() as usize);
                limits::check_line(path, line, row.as_slice())?;
                for (h, v) in headers.iter().zip(row.iter()) {
                    limits::check_field(path, Some(line), h, v)?;
                }
                let fields = headers
                    .iter()
                    .zip(row.iter())
                    .map(|(h, v)| (h.to_string(), Value::String(v.to_string())))
                    .collect();
                out.push(Record { line, fields });
            }
            Ok(out)
        }
        "json" => {
            let v: Value = serde_json::from_str(&text)
                .map_err(|e| parse_err(Some(e.line()), Some(e.column()), e.to_string()))?;
            let items = match v {
                Value::Array(a) => a,
                Value::Object(mut o) => match ["samples", "goldens", "data", "examples"]
                    .iter()
                    .find_map(|k| o.remove(*k))
                {
                    Some(Value::Array(a)) => a,
                    _ => return Err(parse_err(None, None, "expected a list of records (or an object with `samples`, `goldens`, `data` or `examples`)".into())),
                },
                _ => return Err(parse_err(None, None, "expected a list of records".into())),
            };
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::Object(fields) => {
                        limits::check_strings(path, None, &Value::Object(fields.clone()))?;
                        Ok(Record { line: i + 1, fields })
                    }
                    _ => Err(parse_err(
                        None,
                        None,
                        format!("record #{} is not an object", i + 1),
                    )),
                })
                .collect()
        }
        _ => {
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if let Some(fields) = limits::json_object_line(path, i + 1, line)? {
                    out.push(Record { line: i + 1, fields });
                }
            }
            Ok(out)
        }
    }
}

/// The first present, non-empty string field among `keys` (dotted keys look into objects).
fn text_field(f: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| {
        let mut parts = k.split('.');
        let mut v = f.get(parts.next()?)?;
        for p in parts {
            v = v.get(p)?;
        }
        match v {
            Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
            _ => None,
        }
    })
}

/// Contexts given as a list, one string, or (CSV) a JSON list inside a string.
fn contexts(f: &Map<String, Value>, keys: &[&str]) -> Vec<String> {
    for k in keys {
        match f.get(*k) {
            Some(Value::Array(a)) => {
                return a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
            }
            Some(Value::String(s)) if !s.trim().is_empty() => {
                let t = s.trim();
                if t.starts_with('[')
                    && let Ok(Value::Array(a)) = serde_json::from_str::<Value>(t)
                {
                    return a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
                }
                return vec![s.clone()];
            }
            _ => {}
        }
    }
    Vec::new()
}

/// Maps a generator's question type to ours.
fn question_type(kind: Exporter, f: &Map<String, Value>) -> Option<&'static str> {
    let raw = match kind {
        Exporter::Ragas => text_field(f, &["synthesizer_name"])?,
        Exporter::Giskard => text_field(f, &["metadata.question_type", "question_type"])?,
        _ => text_field(f, &["type", "question_type"])?,
    };
    let r = raw.to_ascii_lowercase();
    Some(
        if r.contains("multi") || r.contains("double") || r.contains("comparison") {
            "multi_hop"
        } else if r.contains("unanswerable") || r.contains("out_of_scope") || r.contains("out of scope") {
            "unanswerable"
        } else {
            "lookup"
        },
    )
}

/// Reads an export of `kind`; contexts are located in `corpus` when given.
pub fn load(path: &Path, kind: Exporter, corpus: Option<&Corpus>) -> Result<Imported> {
    let (q_keys, a_keys, c_keys): (&[&str], &[&str], &[&str]) = match kind {
        Exporter::Ragas => (&["user_input"], &["reference"], &["reference_contexts"]),
        Exporter::DeepEval => (
            &["input"],
            &["expected_output"],
            &["context", "retrieval_context"],
        ),
        Exporter::Giskard => (&["question"], &["reference_answer"], &["reference_context"]),
        Exporter::Plain | Exporter::Ragsynth => (
            &["question", "query"],
            &["answer", "reference", "ground_truth"],
            &["context", "contexts", "reference_context", "passage", "quote"],
        ),
    };
    let records = read_records(path)?;
    let mut set = TestSet::default();
    let mut warnings = Vec::new();
    if corpus.is_none() {
        warnings.push(format!(
            "{}: no corpus (--corpus): contexts cannot be located, labels stay empty",
            path.display()
        ));
    }
    let prefix = if kind == Exporter::Plain {
        "csv".to_string()
    } else {
        kind.to_string().to_ascii_lowercase()
    };
    for rec in records {
        let f = &rec.fields;
        let question = text_field(f, q_keys).ok_or_else(|| Error::Field {
            path: path.to_path_buf(),
            line: Some(rec.line),
            case: None,
            field: q_keys[0].to_string(),
            message: format!("missing: a {kind} record needs `{}`", q_keys.join("` or `")),
        })?;
        let id = text_field(f, &["id", "case_id", "qid"]).unwrap_or_else(|| format!("{prefix}-{}", rec.line));
        let mut case = Case::new(id.clone(), question);
        case.answer = text_field(f, a_keys);
        case.tags.kind = question_type(kind, f).map(str::to_string);
        case.tags.source = Some(match text_field(f, &["source"]).as_deref() {
            Some("real") => Source::Real,
            Some("synthetic") => Source::Synthetic,
            _ if kind == Exporter::Plain => Source::Real,
            _ => Source::Synthetic,
        });
        let ctxs = contexts(f, c_keys);
        if ctxs.is_empty() && case.tags.kind.as_deref() != Some("unanswerable") {
            warnings.push(format!(
                "{}:{}: case `{id}` has no context",
                path.display(),
                rec.line
            ));
        }
        let prefer = text_field(f, &["doc", "document", "source_doc"]);
        if let Some(corpus) = corpus {
            for (k, ctx) in ctxs.iter().enumerate() {
                let near = prefer.as_deref().map(|d| (d, None));
                match locate_in_corpus(corpus, ctx, near, DEFAULT_MIN_SIMILARITY) {
                    Some((doc, found)) => {
                        let text = &corpus.doc(&doc).expect("located in it").text;
                        let span: String = text
                            .chars()
                            .skip(found.start)
                            .take(found.end - found.start)
                            .collect();
                        let quote: String = span.chars().take(200).collect();
                        case.relevant.push(Label {
                            doc,
                            start: found.start,
                            end: found.end,
                            quote: quote.trim_end().to_string(),
                            chunk: None,
                            grade: None,
                            extra: Map::new(),
                        });
                    }
                    None => warnings.push(format!(
                        "{}:{}: case `{id}`: context #{} not found in the corpus",
                        path.display(),
                        rec.line,
                        k + 1
                    )),
                }
            }
        }
        set.cases.push(case);
    }
    Ok(Imported { set, warnings })
}
