//! A promptfoo tests file (a JSON list of tests) as cases: the question is the `question`
//! var (else `query`, `input`, `prompt`, else the only text var), the reference answer what a
//! `factuality` / `similar` / `equals` / `contains` assertion compares with (or
//! `metadata.reference_answer`), the passages `metadata.reference_contexts` (else a `context`
//! var), and `metadata.id`, `type` and `topic` what `ragsynth export --to promptfoo` wrote.
//!
//! promptfoo does more with a string than read it ([`SINKS`]): a `vars` value or an assertion
//! `value` that starts with `file://` is loaded — a `.js` or `.py` file is *run* —, one that
//! starts with `package:` runs a function of an installed package, and values are rendered as
//! Nunjucks templates (`{{ }}`, `{% %}`, `{# #}`), with every environment variable in reach as
//! `env`. [`inert`] makes a text plain for promptfoo by putting a WORD JOINER (U+2060, drawn as
//! nothing) inside each such opener, so a person, and a model, read the same words; [`restore`]
//! takes them out again when the file is read back.

use std::borrow::Cow;
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

/// What promptfoo would load, run or render in a string, and where the joiner goes.
pub const SINKS: &[Sink] = &[
    Sink::Prefix("file://", 4),
    Sink::Prefix("package:", 7),
    Sink::Opener("{{"),
    Sink::Opener("{%"),
    Sink::Opener("{#"),
];

/// One way promptfoo treats a string as more than text.
#[derive(Debug, Clone, Copy)]
pub enum Sink {
    /// The value, leading spaces aside, starts with this (any case); the joiner goes after
    /// that many bytes.
    Prefix(&'static str, usize),
    /// A Nunjucks opener anywhere; the joiner goes between its two characters.
    Opener(&'static str),
}

/// WORD JOINER: invisible, not a space, so promptfoo's prefix checks and template lexer miss
/// the opener it sits in.
pub const JOINER: char = '\u{2060}';

/// `text` with every opener of [`SINKS`] broken by a [`JOINER`]; borrowed when there is none.
pub fn inert(text: &str) -> Cow<'_, str> {
    let mut cuts: Vec<usize> = Vec::new();
    let lead = text.len() - text.trim_start().len();
    for sink in SINKS {
        match *sink {
            Sink::Prefix(p, at) => {
                let head = text.get(lead..lead + p.len());
                if head.is_some_and(|h| h.eq_ignore_ascii_case(p)) {
                    cuts.push(lead + at);
                }
            }
            // Overlapping: `{{{` holds two openers, and each gets its joiner.
            Sink::Opener(o) => cuts.extend(
                text.as_bytes()
                    .windows(o.len())
                    .enumerate()
                    .filter(|(_, w)| *w == o.as_bytes())
                    .map(|(i, _)| i + 1),
            ),
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    if cuts.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 3 * cuts.len());
    let mut from = 0;
    for cut in cuts {
        out.push_str(&text[from..cut]);
        out.push(JOINER);
        from = cut;
    }
    out.push_str(&text[from..]);
    Cow::Owned(out)
}

/// `text` with the joiners [`inert`] put in taken out (one sitting inside an opener).
pub fn restore(text: &str) -> Cow<'_, str> {
    if !text.contains(JOINER) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == JOINER {
            let (before, after) = (&text[..i], &text[i + c.len_utf8()..]);
            let put = SINKS.iter().any(|sink| match *sink {
                Sink::Prefix(p, at) => {
                    let lower = |s: &str| s.to_ascii_lowercase();
                    lower(before.trim_start()) == p[..at] && lower(after).starts_with(&p[at..])
                }
                Sink::Opener(o) => before.ends_with(&o[..1]) && after.starts_with(&o[1..]),
            });
            if put {
                continue;
            }
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// Every string of `v` [`restore`]d.
fn restore_all(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let Cow::Owned(plain) = restore(s) {
                *s = plain;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(restore_all),
        Value::Object(fields) => fields.values_mut().for_each(restore_all),
        _ => {}
    }
}

/// The test `r` as a case, the joiners an export put in taken out.
pub fn case(path: &Path, r: &Record) -> Result<ForeignCase> {
    let mut fields = Value::Object(r.fields.clone());
    restore_all(&mut fields);
    let Value::Object(fields) = fields else {
        unreachable!("an object stays one")
    };
    let r = &Record { line: r.line, fields };
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

    /// Issue 66, defect 3: promptfoo runs `file://…js|py` values, loads `package:` ones and
    /// renders `{{ }}`/`{% %}`/`{# #}`; each opener gets a joiner and reads back unchanged.
    #[test]
    fn every_sink_is_made_inert_and_restored() {
        let hostile = [
            "file://corpus/helper.js",
            "  FILE://corpus/helper.py",
            "package:left-pad:run",
            "{{ range.constructor(\"return process.mainModule.require('child_process').execSync('id')\")() }}",
            "What is {{ env.GITHUB_TOKEN }}?",
            "{% for x in [1] %}{{x}}{% endfor %}",
            "{# hidden #} and {{{ triple",
        ];
        for text in hostile {
            let safe = inert(text);
            let plain: String = safe.chars().filter(|&c| c != JOINER).collect();
            assert_eq!(plain, text, "reads the same");
            assert!(
                !safe.trim_start().to_ascii_lowercase().starts_with("file://"),
                "{safe}"
            );
            assert!(!safe.trim_start().starts_with("package:"), "{safe}");
            for opener in ["{{", "{%", "{#"] {
                assert!(!safe.contains(opener), "{opener} in {safe}");
            }
            assert_eq!(restore(&safe), text);
        }
        for harmless in [
            "How long are snapshots kept?",
            "see file://x in the middle",
            "a {b} c",
        ] {
            assert!(matches!(inert(harmless), Cow::Borrowed(_)), "{harmless}");
        }
        let r = rec(json!({"vars": {"question": inert("{{ env.HOME }}")},
            "assert": [{"type": "factuality", "value": inert("file://a.js")}]}));
        let c = case(Path::new("t.json"), &r).unwrap();
        assert_eq!(
            (c.question.as_str(), c.answer.as_deref()),
            ("{{ env.HOME }}", Some("file://a.js"))
        );
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
