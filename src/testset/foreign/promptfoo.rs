//! A promptfoo tests file (a JSON list of tests) as cases: the question is the `question`
//! var (else `query`, `input`, `prompt`, else the only text var), the reference answer what a
//! `factuality` / `similar` / `equals` / `contains` assertion compares with (or
//! `metadata.reference_answer`), the passages `metadata.reference_contexts` (else a `context`
//! var), and `metadata.id`, `type` and `topic` what `ragsynth export --to promptfoo` wrote.

use std::path::Path;

use serde_json::Value;

use super::formats::{field_error, passages, unused};
use super::lists::{self, NotAList};
use super::records::Record;
use super::{Columns, ForeignCase, Format, map_type};
use crate::Result;

/// Assertions whose value is the expected answer.
const ANSWER_ASSERTIONS: [&str; 6] = [
    "factuality",
    "similar",
    "equals",
    "contains",
    "icontains",
    "answer-relevance",
];

/// The test `r` as a case.
pub fn case(path: &Path, r: &Record) -> Result<ForeignCase> {
    let id = r.text(&["metadata.id"]);
    let vars = match r.get("vars") {
        Some(Value::Object(vars)) => vars,
        _ => {
            return Err(field_error(
                path,
                r,
                id.as_deref(),
                "vars",
                "expected an object of variables".into(),
            ));
        }
    };
    let texts: Vec<(&String, &str)> = vars.iter().filter_map(|(k, v)| Some((k, v.as_str()?))).collect();
    let question = ["question", "query", "input", "prompt"]
        .iter()
        .find_map(|name| texts.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)))
        .or(if texts.len() == 1 { texts.first() } else { None })
        .map(|(_, t)| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            field_error(
                path,
                r,
                id.as_deref(),
                "vars.question",
                "missing: a promptfoo test needs the question in `vars.question` (or `query`, `input`)"
                    .into(),
            )
        })?;
    let mut case = ForeignCase {
        line: r.line,
        id,
        question,
        answer: r.text(&["metadata.reference_answer"]).or_else(|| expected(r)),
        topic: r.text(&["metadata.topic"]),
        question_type: r.text(&["metadata.type"]),
        ..ForeignCase::default()
    };
    let contexts = match (r.get("metadata.reference_contexts"), r.get("vars.context")) {
        (Some(v), _) | (None, Some(v)) => lists::list_field(v)
            .or_else(|e| v.as_str().map(|s| vec![s.to_string()]).ok_or(e))
            .map_err(|NotAList(m)| {
                field_error(path, r, case.id.as_deref(), "metadata.reference_contexts", m)
            })?,
        (None, None) => Vec::new(),
    };
    case.passages = passages(contexts);
    case.kind = case.question_type.as_deref().and_then(map_type);
    case.fields = unused(r, Format::Promptfoo, &Columns::default());
    Ok(case)
}

/// The value of the first assertion that compares the output with an expected answer.
fn expected(r: &Record) -> Option<String> {
    let Some(Value::Array(asserts)) = r.get("assert") else {
        return None;
    };
    asserts.iter().find_map(|a| {
        let kind = a.get("type")?.as_str()?;
        let value = a.get("value")?.as_str()?.trim();
        (ANSWER_ASSERTIONS.contains(&kind) && !value.is_empty()).then(|| value.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testset::QuestionType;
    use serde_json::json;

    fn rec(v: Value) -> Record {
        Record {
            line: 3,
            fields: v.as_object().unwrap().clone(),
        }
    }

    #[test]
    fn a_test_gives_its_question_answer_passages_and_type() {
        let r = rec(json!({"description": "q1", "vars": {"question": "How long?"},
            "assert": [{"type": "factuality", "value": "30 days"}],
            "metadata": {"id": "syn-1", "type": "multi_hop", "topic": "retention",
                "reference_contexts": ["Snapshots are kept 30 days.", "Other."]}}));
        let c = case(Path::new("t.json"), &r).unwrap();
        assert_eq!(c.id.as_deref(), Some("syn-1"));
        assert_eq!(c.question, "How long?");
        assert_eq!(c.answer.as_deref(), Some("30 days"));
        assert_eq!(c.passages.len(), 2);
        assert_eq!(c.kind, Some(QuestionType::MultiHop));
        assert_eq!(c.topic.as_deref(), Some("retention"));
        assert!(c.fields.contains_key("assert"));
    }

    #[test]
    fn a_hand_written_test_with_a_context_var_and_no_question_var_names_the_field() {
        let r = rec(json!({"vars": {"query": "Where?", "context": "In the vault."},
            "assert": [{"type": "contains", "value": "vault"}]}));
        let c = case(Path::new("t.json"), &r).unwrap();
        assert_eq!(
            (c.question.as_str(), c.answer.as_deref()),
            ("Where?", Some("vault"))
        );
        assert_eq!(c.passages[0].text, "In the vault.");
        let r = rec(json!({"vars": {"a": "x", "b": "y"}}));
        let e = case(Path::new("t.json"), &r).unwrap_err().to_string();
        assert!(e.starts_with("t.json:3: field `vars.question`: missing"), "{e}");
    }
}
