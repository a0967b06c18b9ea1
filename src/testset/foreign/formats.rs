//! One record of a row-shaped format (Ragas, DeepEval, Giskard, plain) into a
//! [`ForeignCase`]: which field holds what, how its contexts are written, which type names it
//! uses. Fields a format does not use are kept in `fields`.

use std::path::Path;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use super::lists::{self, NotAList};
use super::records::{Input, Record};
use super::{Columns, ForeignCase, Format, Passage, map_type};
use crate::testset::{QuestionType, Source};
use crate::{Error, Result};

/// The fields each format reads (lower case); every other field is kept as written.
fn used(format: Format) -> &'static [&'static str] {
    match format {
        Format::Ragas => &[
            "id",
            "user_input",
            "reference",
            "reference_contexts",
            "synthesizer_name",
            "eval_sample",
        ],
        Format::RagasLegacy => &[
            "question",
            "contexts",
            "ground_truth",
            "ground_truths",
            "evolution_type",
        ],
        Format::DeepEval => &["input", "expected_output", "context", "source_file"],
        Format::Promptfoo => &["vars"],
        Format::Giskard => &[
            "id",
            "question",
            "reference_answer",
            "reference_context",
            "conversation_history",
        ],
        _ => &[],
    }
}

pub(super) fn field_error(path: &Path, r: &Record, id: Option<&str>, field: &str, message: String) -> Error {
    Error::Field {
        path: path.to_path_buf(),
        line: Some(r.line),
        case: id.map(str::to_string),
        field: field.to_string(),
        message,
    }
}

/// Checks that every column named on the command line exists.
pub fn check_columns(path: &Path, input: &Input, cols: &Columns) -> Result<()> {
    let named = [
        &cols.question,
        &cols.answer,
        &cols.context,
        &cols.doc,
        &cols.quote,
        &cols.topic,
        &cols.kind,
        &cols.id,
    ];
    for name in named.into_iter().flatten() {
        let present = input.columns.iter().any(|c| c.eq_ignore_ascii_case(name))
            || input.records.iter().any(|r| r.has(name));
        if !present {
            return Err(Error::Field {
                path: path.to_path_buf(),
                line: Some(1),
                case: None,
                field: name.clone(),
                message: format!("no such column; the header has: {}", input.columns.join(", ")),
            });
        }
    }
    Ok(())
}

/// The record `r` of a file in `format` as a case.
pub fn case(path: &Path, format: Format, r: &Record, cols: &Columns) -> Result<ForeignCase> {
    // Ragas' `Testset.to_list()` nests each sample under `eval_sample`: lift it up.
    let flat;
    let r = match r.get("eval_sample") {
        Some(Value::Object(inner)) if format == Format::Ragas => {
            let mut fields = inner.clone();
            for (k, v) in &r.fields {
                if !k.eq_ignore_ascii_case("eval_sample") {
                    fields.insert(k.clone(), v.clone());
                }
            }
            flat = Record { line: r.line, fields };
            &flat
        }
        _ => r,
    };
    let (q_keys, a_keys): (Vec<&str>, Vec<&str>) = match format {
        Format::Ragas => (vec!["user_input"], vec!["reference"]),
        Format::RagasLegacy => (vec!["question"], vec!["ground_truth"]),
        Format::DeepEval => (vec!["input"], vec!["expected_output"]),
        Format::Giskard => (vec!["question"], vec!["reference_answer"]),
        _ => (
            cols.question
                .as_deref()
                .map_or(vec!["question", "query"], |c| vec![c]),
            cols.answer.as_deref().map_or(
                vec!["answer", "reference", "ground_truth", "expected_answer"],
                |c| vec![c],
            ),
        ),
    };
    let id = match format {
        // Ragas and DeepEval write no id; ragsynth's exports add one.
        Format::Giskard | Format::Ragas => r.text(&["id"]),
        Format::DeepEval => r.text(&["additional_metadata.id"]),
        Format::Plain => r.text(&[cols.id.as_deref().unwrap_or("id")]),
        _ => None,
    };
    let question = r.text(&q_keys).ok_or_else(|| {
        field_error(
            path,
            r,
            id.as_deref(),
            q_keys[0],
            format!("missing: a {format} record needs `{}`", q_keys[0]),
        )
    })?;
    let mut case = ForeignCase {
        line: r.line,
        id,
        question,
        answer: r.text(&a_keys),
        ..ForeignCase::default()
    };
    if format == Format::RagasLegacy && case.answer.is_none() {
        // Ragas 0.1's first versions wrote a list of answers.
        case.answer = r
            .get("ground_truths")
            .and_then(|v| lists::list_field(v).ok()?.into_iter().next());
    }
    let listed = |field: &str, parsed: std::result::Result<Vec<String>, NotAList>| {
        parsed.map_err(|NotAList(m)| field_error(path, r, case.id.as_deref(), field, m))
    };
    match format {
        Format::Ragas | Format::RagasLegacy => {
            let field = if format == Format::Ragas {
                "reference_contexts"
            } else {
                "contexts"
            };
            let items = listed(field, r.get(field).map_or(Ok(Vec::new()), lists::list_field))?;
            case.passages = passages(items.iter().map(|p| lists::strip_hop(p).to_string()));
            let kind = if format == Format::Ragas {
                "synthesizer_name"
            } else {
                "evolution_type"
            };
            case.question_type = r.text(&[kind]);
            if format == Format::RagasLegacy {
                case.doc = r.get("metadata").and_then(source_in_metadata);
            }
        }
        Format::DeepEval => {
            let items = match r.get("context") {
                // DeepEval's CSV writer joins a golden's contexts with `|`.
                Some(Value::String(s)) if !s.trim_start().starts_with('[') => {
                    s.split('|').map(str::to_string).collect()
                }
                Some(v) => listed("context", lists::list_field(v))?,
                None => Vec::new(),
            };
            case.passages = passages(items);
            case.doc = r.text(&["source_file"]);
            case.question_type = deepeval_evolutions(r);
        }
        Format::Giskard => {
            let text = r.text(&["reference_context"]).unwrap_or_default();
            case.passages = lists::giskard_documents(&text)
                .into_iter()
                .filter(|(_, t)| !t.is_empty())
                .map(|(n, text)| Passage {
                    text,
                    name: n.map(|n| format!("Document {n}")),
                })
                .collect();
            case.question_type = r.text(&["metadata.question_type"]);
            case.topic = r.text(&["metadata.topic"]);
            case.conversation = match r.get("conversation_history") {
                Some(Value::Array(turns)) => turns.clone(),
                _ => Vec::new(),
            };
        }
        _ => plain(path, r, cols, &mut case)?,
    }
    if case.kind.is_none() {
        case.kind = case.question_type.as_deref().and_then(map_type);
    }
    case.fields = unused(r, format, cols);
    Ok(case)
}

pub(super) fn passages(items: impl IntoIterator<Item = String>) -> Vec<Passage> {
    items
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .map(|text| Passage { text, name: None })
        .collect()
}

/// The fields of a plain file (names from `cols`, or the usual ones).
fn plain(path: &Path, r: &Record, cols: &Columns, case: &mut ForeignCase) -> Result<()> {
    let pick = |given: &Option<String>, usual: &[&'static str]| -> Vec<String> {
        given
            .clone()
            .map_or(usual.iter().map(|s| s.to_string()).collect(), |c| vec![c])
    };
    let names = pick(
        &cols.context,
        &["context", "contexts", "passage", "passages", "reference_contexts"],
    );
    if let Some((name, v)) = names.iter().find_map(|n| r.get(n).map(|v| (n, v))) {
        let items = match v {
            // One passage per cell, unless the cell holds a list.
            Value::String(s) if !s.trim_start().starts_with('[') => vec![s.clone()],
            Value::String(s) => lists::parse_list(s).unwrap_or_else(|_| vec![s.clone()]),
            other => lists::list_field(other)
                .map_err(|NotAList(m)| field_error(path, r, case.id.as_deref(), name, m))?,
        };
        case.passages = passages(items.iter().map(|p| lists::strip_hop(p).to_string()));
    }
    let get = |given: &Option<String>, usual: &[&'static str]| {
        let names = pick(given, usual);
        r.text(&names.iter().map(String::as_str).collect::<Vec<_>>())
    };
    case.doc = get(&cols.doc, &["doc", "document"]);
    case.quote = get(&cols.quote, &["quote"]);
    case.topic = get(&cols.topic, &["topic"]);
    if let Some(t) = get(&cols.kind, &["type", "question_type"]) {
        case.kind = QuestionType::parse(&t.to_lowercase()).or_else(|| map_type(&t));
        case.question_type = Some(t);
    }
    case.source = match r.text(&["source"]).map(|s| s.to_lowercase()).as_deref() {
        Some("real") => Some(Source::Real),
        Some("synthetic") => Some(Source::Synthetic),
        _ => None,
    };
    Ok(())
}

/// DeepEval's evolutions (`additional_metadata.evolutions`, or `evolutions`), joined.
fn deepeval_evolutions(r: &Record) -> Option<String> {
    let v = r
        .get("additional_metadata.evolutions")
        .or_else(|| r.get("evolutions"))?;
    match v {
        Value::Array(items) => {
            let names: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// The document Ragas 0.1 recorded in `metadata` (a Python-written list of dicts, or JSON).
fn source_in_metadata(v: &Value) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r#"['"](?:file_name|source|file_path|filename)['"]\s*:\s*['"]([^'"]+)['"]"#)
            .expect("valid regex")
    });
    let text = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    re.captures(&text).map(|c| c[1].to_string())
}

/// Every non-empty field of `r` the format did not read, as written. A pandas index column
/// (blank name, `Unnamed: 0`) is noise and dropped.
pub(super) fn unused(r: &Record, format: Format, cols: &Columns) -> Map<String, Value> {
    let given: Vec<&str> = [
        &cols.question,
        &cols.answer,
        &cols.context,
        &cols.doc,
        &cols.quote,
        &cols.topic,
        &cols.kind,
        &cols.id,
    ]
    .into_iter()
    .flatten()
    .map(String::as_str)
    .collect();
    let plain_used = [
        "question",
        "query",
        "answer",
        "reference",
        "ground_truth",
        "expected_answer",
        "context",
        "contexts",
        "passage",
        "passages",
        "reference_contexts",
        "doc",
        "document",
        "quote",
        "topic",
        "type",
        "question_type",
        "id",
        "source",
    ];
    let skip = |k: &str| {
        let k = k.to_lowercase();
        k.is_empty()
            || k.starts_with("unnamed:")
            || used(format).contains(&k.as_str())
            || (format == Format::Plain
                && (plain_used.contains(&k.as_str()) || given.iter().any(|g| g.eq_ignore_ascii_case(&k))))
    };
    r.fields
        .iter()
        .filter(|(k, v)| !skip(k) && !v.is_null() && v.as_str() != Some(""))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(v: Value) -> Record {
        Record {
            line: 2,
            fields: v.as_object().unwrap().clone(),
        }
    }

    #[test]
    fn ragas_multi_hop_becomes_one_passage_per_hop() {
        let r = rec(json!({"user_input": "How do A and B relate?",
            "reference_contexts": "['<1-hop>\\n\\nA is x.', '<2-hop>\\n\\nB is y.']",
            "reference": "Via x.", "synthesizer_name": "multi_hop_abstract_query_synthesizer", "persona_name": "Dev"}));
        let c = case(Path::new("t.csv"), Format::Ragas, &r, &Columns::default()).unwrap();
        let texts: Vec<&str> = c.passages.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["A is x.", "B is y."]);
        assert_eq!(c.kind, Some(QuestionType::MultiHop));
        assert_eq!(c.fields["persona_name"], "Dev");
        assert!(!c.fields.contains_key("user_input"));
    }

    #[test]
    fn a_context_that_is_no_list_names_file_line_and_field() {
        let r = rec(json!({"user_input": "q", "reference_contexts": "just text"}));
        let e = case(Path::new("t.csv"), Format::Ragas, &r, &Columns::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.csv:2: field `reference_contexts`: expected a list"),
            "{e}"
        );
    }

    #[test]
    fn giskard_keeps_conversation_type_and_documents() {
        let r = rec(
            json!({"id": "g1", "question": "What is its purpose?", "reference_answer": "x",
            "reference_context": "Document 3: First.\n\nDocument 9: Second.",
            "conversation_history": [{"role": "user", "content": "Tell me about the fund."}],
            "metadata": {"question_type": "distracting element", "seed_document_id": 3, "topic": "Funds"}}),
        );
        let c = case(Path::new("g.jsonl"), Format::Giskard, &r, &Columns::default()).unwrap();
        assert_eq!(c.id.as_deref(), Some("g1"));
        assert_eq!(c.passages.len(), 2);
        assert_eq!(c.passages[1].name.as_deref(), Some("Document 9"));
        assert_eq!(c.conversation.len(), 1);
        assert_eq!(c.topic.as_deref(), Some("Funds"));
        assert_eq!(c.kind, Some(QuestionType::Lookup));
        assert_eq!(c.fields["metadata"]["seed_document_id"], 3);
    }

    #[test]
    fn deepeval_csv_cells_split_on_pipes_and_source_file_is_the_doc() {
        let r = rec(
            json!({"input": "q", "expected_output": "a", "context": "one|two", "source_file": "docs/a.pdf"}),
        );
        let c = case(Path::new("g.csv"), Format::DeepEval, &r, &Columns::default()).unwrap();
        assert_eq!(c.passages.len(), 2);
        assert_eq!(c.doc.as_deref(), Some("docs/a.pdf"));
    }

    #[test]
    fn ragas_legacy_reads_its_metadata_source() {
        let r = rec(
            json!({"question": "q", "contexts": "['c']", "ground_truth": "a", "evolution_type": "multi_context",
            "metadata": "[{'source': 'data/report.pdf', 'page': 3}]"}),
        );
        let c = case(Path::new("t.csv"), Format::RagasLegacy, &r, &Columns::default()).unwrap();
        assert_eq!(c.doc.as_deref(), Some("data/report.pdf"));
        assert_eq!(c.kind, Some(QuestionType::MultiHop));
    }
}
