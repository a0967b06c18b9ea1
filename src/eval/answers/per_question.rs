//! Reading back the per-case file `eval --answers --out` writes (JSON Lines, one case a line),
//! for `review --answers` and `eval --calibration`.
//!
//! Strict like the answers file: a line that is not a JSON object, lacks `id`, repeats one, or
//! has a verdict that is neither `true`, `false` nor `null` is an error naming file and line.
//! The question, references, answer and contexts are optional (files written before they were
//! added still load; the page then says they are missing).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::marks::JUDGES;
use crate::{Error, Result, limits};

/// One case of the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgedCase {
    /// Case id.
    pub id: String,
    /// 1-based line in the file.
    pub line: usize,
    /// True when the corpus does not answer the question.
    pub unanswerable: bool,
    /// Each judge's verdict (`correct`, `refused`, `grounded`), `None` when it gave none.
    pub verdicts: BTreeMap<&'static str, Option<bool>>,
    /// The judges' reasons.
    pub reasons: BTreeMap<String, String>,
    /// The question.
    pub question: Option<String>,
    /// The reference answers.
    pub references: Vec<String>,
    /// The system's answer (`None`: unanswered or not in the file).
    pub answer: Option<String>,
    /// The contexts the answer was given with.
    pub contexts: Option<Vec<String>>,
    /// SQuAD exact match and F1.
    pub exact_match: Option<f64>,
    /// SQuAD token F1.
    pub f1: Option<f64>,
}

/// Who a judge is, for a calibration record: `(model, prompt id)`.
pub type JudgeId = (String, Option<String>);

/// Who judged the file's verdicts: `judged_by` of its lines.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct JudgedBy {
    /// `provider:model`; `None` when only the lexical refusal detector ran.
    pub model: Option<String>,
    /// Each judge's prompt id.
    pub prompts: BTreeMap<String, String>,
}

impl JudgedBy {
    /// The identity of judge `judge` for a calibration record: `(model, prompt)`; the lexical
    /// detector is `("lexical", None)` for `refused`, and `None` for a judge that did not run.
    pub fn of(&self, judge: &str) -> Option<JudgeId> {
        match &self.model {
            Some(m) => Some((m.clone(), self.prompts.get(judge).cloned())),
            None if judge == "refused" => Some(("lexical".into(), None)),
            None => None,
        }
    }
}

/// A whole per-case file.
#[derive(Debug, Clone, Default)]
pub struct PerQuestion {
    /// The file.
    pub path: PathBuf,
    /// Its cases in file order.
    pub cases: Vec<JudgedCase>,
    /// Who judged them (from the first line that says).
    pub judged_by: JudgedBy,
}

impl PerQuestion {
    /// Reads `path`.
    pub fn load(path: &Path) -> Result<PerQuestion> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        PerQuestion::parse(path, &text)
    }

    /// The case with id `id`.
    pub fn case(&self, id: &str) -> Option<&JudgedCase> {
        self.cases.iter().find(|c| c.id == id)
    }

    /// Reads the cases in `text` (the contents of `path`).
    pub fn parse(path: &Path, text: &str) -> Result<PerQuestion> {
        let mut out = PerQuestion {
            path: path.to_path_buf(),
            ..PerQuestion::default()
        };
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut judged_by: Option<JudgedBy> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let Some(obj) = limits::json_object_line(path, line, raw)? else {
                continue;
            };
            let field = |field: &str, case: Option<&str>, message: String| {
                Error::field_at(path, line, case, field, message)
            };
            let id = match obj.get("id") {
                Some(Value::String(s)) if !s.is_empty() => s.clone(),
                Some(_) => return Err(field("id", None, "must be a non-empty string".into())),
                None => return Err(field("id", None, "missing: every line needs the case id".into())),
            };
            if let Some(first) = seen.insert(id.clone(), line) {
                return Err(field(
                    "id",
                    Some(&id),
                    format!("repeated (first on line {first})"),
                ));
            }
            let mut verdicts = BTreeMap::new();
            for judge in JUDGES {
                let v = match obj.get(judge) {
                    None | Some(Value::Null) => None,
                    Some(Value::Bool(b)) => Some(*b),
                    Some(_) => return Err(field(judge, Some(&id), "must be true, false or null".into())),
                };
                verdicts.insert(judge, v);
            }
            let text_of = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
            let strings = |v: Option<&Value>| -> Option<Vec<String>> {
                v.and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            };
            let reasons = obj
                .get("reasons")
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                        .collect()
                })
                .unwrap_or_default();
            if judged_by.is_none()
                && let Some(j) = obj.get("judged_by").filter(|v| v.is_object())
            {
                judged_by = Some(JudgedBy {
                    model: text_of(j.get("model")),
                    prompts: j
                        .get("prompts")
                        .and_then(Value::as_object)
                        .map(|m| {
                            m.iter()
                                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                                .collect()
                        })
                        .unwrap_or_default(),
                });
            }
            out.cases.push(JudgedCase {
                id,
                line,
                unanswerable: obj.get("unanswerable").and_then(Value::as_bool).unwrap_or(false),
                verdicts,
                reasons,
                question: text_of(obj.get("question")),
                references: strings(obj.get("references")).unwrap_or_default(),
                answer: text_of(obj.get("answer")),
                contexts: strings(obj.get("contexts")),
                exact_match: obj.get("exact_match").and_then(Value::as_f64),
                f1: obj.get("f1").and_then(Value::as_f64),
            });
        }
        out.judged_by = judged_by.unwrap_or_default();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_verdicts_and_refuses_bad_lines_by_number() {
        let ok = "{\"id\":\"a\",\"correct\":true,\"refused\":false,\"grounded\":null,\"question\":\"Q?\",\"references\":[\"R\"],\"answer\":\"A\",\"judged_by\":{\"model\":\"m\",\"prompts\":{\"correct\":\"judge_correct@1\"}}}\n\n{\"id\":\"b\",\"refused\":true}\n";
        let p = PerQuestion::parse(Path::new("pq.jsonl"), ok).unwrap();
        assert_eq!(p.cases.len(), 2);
        assert_eq!(p.cases[0].verdicts["correct"], Some(true));
        assert_eq!(p.cases[1].line, 3);
        assert_eq!(
            p.judged_by.of("correct"),
            Some(("m".into(), Some("judge_correct@1".into())))
        );
        assert_eq!(JudgedBy::default().of("refused"), Some(("lexical".into(), None)));
        assert_eq!(JudgedBy::default().of("grounded"), None);
        for (text, want) in [
            (
                "{\"id\":\"a\"}\n{\"id\":\"a\"}",
                "pq.jsonl:2: case `a`: field `id`: repeated (first on line 1)",
            ),
            (
                "{\"id\":\"a\",\"correct\":\"yes\"}",
                "pq.jsonl:1: case `a`: field `correct`: must be true",
            ),
            ("{\"id\":\"a\"}\n{nope", "pq.jsonl:2:"),
            ("{\"correct\":true}", "pq.jsonl:1: field `id`: missing"),
        ] {
            let e = PerQuestion::parse(Path::new("pq.jsonl"), text)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
