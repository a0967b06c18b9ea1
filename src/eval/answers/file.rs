//! Reading a system's answers: JSON Lines, one `{"id", "answer", "contexts"?}` per case.
//!
//! Strict, because a silently ignored line is a silently wrong score: a line that is not a
//! JSON object, lacks `id` or `answer`, has a `contexts` that is not a list of strings, names a
//! case the test set does not have, or repeats an id is an error naming the file and line.
//! Other keys are ignored (systems log latency, model names, ...). Blank lines are skipped.

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;
use serde_json::Value;

use crate::{Error, Result, limits};

/// One case's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// What the system answered.
    pub answer: String,
    /// The passages it answered from, when the line gives them.
    pub contexts: Option<Vec<String>>,
    /// 1-based line in the file.
    pub line: usize,
}

/// Every answer of a file, by case id.
#[derive(Debug, Clone, Default)]
pub struct Answers {
    /// The file.
    pub path: PathBuf,
    /// Answers by case id.
    pub by_id: FxHashMap<String, Answer>,
}

impl Answers {
    /// Reads `path`; `known` says whether a case id is in the test set.
    pub fn load(path: &Path, known: impl Fn(&str) -> bool) -> Result<Answers> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Answers::parse(path, &text, known)
    }

    /// Reads answers from `text` (the contents of `path`).
    pub fn parse(path: &Path, text: &str, known: impl Fn(&str) -> bool) -> Result<Answers> {
        let mut by_id: FxHashMap<String, Answer> = FxHashMap::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let Some(obj) = limits::json_object_line(path, line, raw)? else {
                continue;
            };
            let field = |field: &str, case: Option<&str>, message: &str| {
                Error::field_at(path, line, case, field, message)
            };
            let id = match obj.get("id") {
                Some(Value::String(s)) if !s.is_empty() => s.clone(),
                // Numeric ids are common in exported data; the set's ids are strings.
                Some(Value::Number(n)) => n.to_string(),
                Some(_) => return Err(field("id", None, "must be a non-empty string")),
                None => return Err(field("id", None, "missing: every line needs the case id")),
            };
            if !known(&id) {
                return Err(field("id", Some(&id), "no case of the test set has this id"));
            }
            let answer = match obj.get("answer") {
                Some(Value::String(s)) => s.clone(),
                Some(_) => {
                    return Err(field(
                        "answer",
                        Some(&id),
                        "must be a string (\"\" for no answer)",
                    ));
                }
                None => return Err(field("answer", Some(&id), "missing")),
            };
            let contexts = match obj.get("contexts") {
                None | Some(Value::Null) => None,
                Some(Value::Array(items)) => Some(
                    items
                        .iter()
                        .map(|v| v.as_str().map(str::to_string))
                        .collect::<Option<Vec<String>>>()
                        .ok_or_else(|| field("contexts", Some(&id), "must be a list of strings"))?,
                ),
                Some(_) => return Err(field("contexts", Some(&id), "must be a list of strings")),
            };
            if let Some(first) = by_id.get(&id) {
                return Err(field(
                    "id",
                    Some(&id),
                    &format!("answered twice (first on line {})", first.line),
                ));
            }
            by_id.insert(
                id,
                Answer {
                    answer,
                    contexts,
                    line,
                },
            );
        }
        Ok(Answers {
            path: path.to_path_buf(),
            by_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Answers> {
        Answers::parse(Path::new("a.jsonl"), text, |id| ["q1", "q2", "7"].contains(&id))
    }

    #[test]
    fn reads_answers_and_contexts() {
        let a = parse(
            "{\"id\":\"q1\",\"answer\":\"France\",\"contexts\":[\"Normandy is in France.\"],\"ms\":12}\n\n{\"id\":7,\"answer\":\"\"}\n",
        )
        .unwrap();
        assert_eq!(a.by_id.len(), 2);
        assert_eq!(
            a.by_id["q1"].contexts.as_deref(),
            Some(&["Normandy is in France.".to_string()][..])
        );
        assert_eq!((a.by_id["7"].answer.as_str(), a.by_id["7"].line), ("", 3));
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let cases = [
            (
                "{\"id\":\"q1\",\"answer\":\"x\"}\n{\"id\":\"zz\",\"answer\":\"x\"}",
                "a.jsonl:2: case `zz`: field `id`: no case",
            ),
            (
                "{\"id\":\"q1\",\"answer\":\"x\"}\n\n{\"id\":\"q1\",\"answer\":\"y\"}",
                "a.jsonl:3: case `q1`: field `id`: answered twice (first on line 1)",
            ),
            ("{\"id\":\"q1\",\"answer\":\"x\"}\n{\"id\":\"q2\",", "a.jsonl:2:"),
            ("[1,2]", "a.jsonl:1: expected a JSON object"),
            ("{\"answer\":\"x\"}", "a.jsonl:1: field `id`: missing"),
            ("{\"id\":\"q1\"}", "a.jsonl:1: case `q1`: field `answer`: missing"),
            (
                "{\"id\":\"q1\",\"answer\":null}",
                "field `answer`: must be a string",
            ),
            (
                "{\"id\":\"q1\",\"answer\":\"x\",\"contexts\":[1]}",
                "field `contexts`: must be a list of strings",
            ),
            (
                "{\"id\":\"q1\",\"answer\":\"x\",\"contexts\":\"text\"}",
                "field `contexts`: must be a list of strings",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.starts_with(want) || err.contains(want), "{text:?}: {err}");
        }
    }
}
