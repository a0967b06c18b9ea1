//! A person's marks on the judges' verdicts: was this verdict right or wrong?
//!
//! They live beside the per-case file they mark, `per-question.jsonl` →
//! `per-question.marks.jsonl`, one JSON object a line that a person can read:
//!
//! ```json
//! {"id":"q7","judge":"correct","verdict":true,"mark":"wrong","truth":false,"at":"2026-12-01T10:12:03Z"}
//! ```
//!
//! `verdict` is what the judge said when the person looked, `mark` what the person said of it,
//! and `truth` the label that follows (the verdict when right, its opposite when wrong) — the
//! human label `eval --calibration` compares any later run of the judge with.
//!
//! Saving one mark ([`save`]) locks the folder, reads the file as it is on disk, changes that
//! one (id, judge) entry and renames a new file into place: two pages or two servers marking
//! at once never lose each other's marks, and a crash leaves the old file whole. Two people
//! marking the *same* verdict: the later mark wins.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::fsutil::{DirLock, write_atomic};
use crate::{Error, Result, limits};

/// The judges a person can mark, in display order.
pub const JUDGES: [&str; 3] = ["correct", "refused", "grounded"];

/// One mark.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Case id.
    pub id: String,
    /// Which judge (one of [`JUDGES`]).
    pub judge: &'static str,
    /// The verdict the person saw.
    pub verdict: bool,
    /// Whether the person found it right.
    pub right: bool,
    /// When it was marked.
    pub at: Option<jiff::Timestamp>,
    /// 1-based line in the file it was read from (0 when new).
    pub line: usize,
}

impl Mark {
    /// The human label: the verdict if it was right, its opposite if not.
    pub fn truth(&self) -> bool {
        self.verdict == self.right
    }

    fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "judge": self.judge,
            "verdict": self.verdict,
            "mark": if self.right { "right" } else { "wrong" },
            "truth": self.truth(),
            "at": self.at.map(|t| t.to_string()),
        })
    }
}

/// The marks file of `per_question`: same folder, `.marks.jsonl` after its stem.
pub fn path_for(per_question: &Path) -> PathBuf {
    let stem = per_question
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "answers".into());
    per_question.with_file_name(format!("{stem}.marks.jsonl"))
}

/// Every mark of a file, by (case id, judge).
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// The file.
    pub path: PathBuf,
    /// The marks.
    pub by_key: BTreeMap<(String, &'static str), Mark>,
}

impl Marks {
    /// Reads `path` (no file: no marks); `known` says whether a case id is in the file marked.
    pub fn load(path: &Path, known: impl Fn(&str) -> bool) -> Result<Marks> {
        match std::fs::read_to_string(path) {
            Ok(text) => Marks::parse(path, &text, known),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Marks {
                path: path.to_path_buf(),
                ..Marks::default()
            }),
            Err(e) => Err(Error::io(path, e)),
        }
    }

    /// Reads the marks in `text` (the contents of `path`), strictly.
    pub fn parse(path: &Path, text: &str, known: impl Fn(&str) -> bool) -> Result<Marks> {
        let mut by_key: BTreeMap<(String, &'static str), Mark> = BTreeMap::new();
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
                _ => return Err(field("id", None, "missing or not a non-empty string".into())),
            };
            if !known(&id) {
                return Err(field(
                    "id",
                    Some(&id),
                    "no case of the marked file has this id".into(),
                ));
            }
            let judge = obj
                .get("judge")
                .and_then(Value::as_str)
                .and_then(|j| JUDGES.into_iter().find(|k| *k == j))
                .ok_or_else(|| {
                    field(
                        "judge",
                        Some(&id),
                        "must be one of correct, refused, grounded".into(),
                    )
                })?;
            let verdict = obj
                .get("verdict")
                .and_then(Value::as_bool)
                .ok_or_else(|| field("verdict", Some(&id), "must be true or false".into()))?;
            let right = match obj.get("mark").and_then(Value::as_str) {
                Some("right") => true,
                Some("wrong") => false,
                _ => return Err(field("mark", Some(&id), "must be \"right\" or \"wrong\"".into())),
            };
            let mark = Mark {
                id: id.clone(),
                judge,
                verdict,
                right,
                at: obj.get("at").and_then(Value::as_str).and_then(|t| t.parse().ok()),
                line,
            };
            if let Some(t) = obj.get("truth").filter(|t| !t.is_null())
                && t.as_bool() != Some(mark.truth())
            {
                return Err(field(
                    "truth",
                    Some(&id),
                    "contradicts `verdict` and `mark` (truth = verdict when right, its opposite when wrong)"
                        .into(),
                ));
            }
            if let Some(first) = by_key.get(&(id.clone(), judge)) {
                return Err(field(
                    "judge",
                    Some(&id),
                    format!("`{judge}` marked twice (first on line {})", first.line),
                ));
            }
            by_key.insert((id, judge), mark);
        }
        Ok(Marks {
            path: path.to_path_buf(),
            by_key,
        })
    }

    /// The file's text: cases in `order` (others after, by id), judges in [`JUDGES`] order.
    pub fn render(&self, order: &[String]) -> String {
        let pos: BTreeMap<&str, usize> = order.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
        let judge_pos = |j: &str| JUDGES.iter().position(|k| *k == j).unwrap_or(0);
        let mut marks: Vec<&Mark> = self.by_key.values().collect();
        marks.sort_by(|a, b| {
            let key = |m: &Mark| {
                (
                    pos.get(m.id.as_str()).copied().unwrap_or(usize::MAX),
                    m.id.clone(),
                    judge_pos(m.judge),
                )
            };
            key(a).cmp(&key(b))
        });
        let mut out = String::new();
        for m in marks {
            out.push_str(&m.to_json().to_string());
            out.push('\n');
        }
        out
    }
}

/// One change a person made on the page.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Mark (id, judge): the verdict seen, and whether it was right.
    Set {
        /// Case id.
        id: String,
        /// Judge.
        judge: &'static str,
        /// Verdict seen.
        verdict: bool,
        /// Right or wrong.
        right: bool,
    },
    /// Take the mark of (id, judge) back.
    Clear {
        /// Case id.
        id: String,
        /// Judge.
        judge: &'static str,
    },
}

/// Applies `change` to the marks file at `path` as it is on disk now, under the folder's lock,
/// and writes it atomically; returns the marks as saved. `order` is the per-case file's order.
pub fn save(path: &Path, order: &[String], known: impl Fn(&str) -> bool, change: Change) -> Result<Marks> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let _lock = DirLock::acquire(dir);
    let mut marks = Marks::load(path, &known)?;
    match change {
        Change::Set {
            id,
            judge,
            verdict,
            right,
        } => {
            marks.by_key.insert(
                (id.clone(), judge),
                Mark {
                    id,
                    judge,
                    verdict,
                    right,
                    at: Some(
                        jiff::Timestamp::from_second(jiff::Timestamp::now().as_second()).unwrap_or_default(),
                    ),
                    line: 0,
                },
            );
        }
        Change::Clear { id, judge } => {
            marks.by_key.remove(&(id, judge));
        }
    }
    write_atomic(path, marks.render(order).as_bytes())?;
    // Read back what is on disk, so lines are numbered as in the file.
    Marks::load(path, known)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(id: &str) -> bool {
        ["a", "b"].contains(&id)
    }

    #[test]
    fn saves_merge_with_the_file_on_disk_and_read_back() {
        let d = tempfile::tempdir().unwrap();
        let p = path_for(&d.path().join("pq.jsonl"));
        assert_eq!(p.file_name().unwrap(), "pq.marks.jsonl");
        let order = vec!["b".to_string(), "a".to_string()];
        let set = |id: &str, judge, verdict, right| Change::Set {
            id: id.into(),
            judge,
            verdict,
            right,
        };
        save(&p, &order, known, set("a", "correct", true, false)).unwrap();
        // Another writer's mark, added behind this one's back, survives the next save.
        let other = save(&p, &order, known, set("b", "refused", false, true)).unwrap();
        assert_eq!(other.by_key.len(), 2);
        let m = save(&p, &order, known, set("a", "refused", true, true)).unwrap();
        assert_eq!(m.by_key.len(), 3);
        let text = std::fs::read_to_string(&p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("{\"id\":\"b\",\"judge\":\"refused\""),
            "{text}"
        );
        assert!(
            lines[1].contains("\"judge\":\"correct\",\"verdict\":true,\"mark\":\"wrong\",\"truth\":false")
        );
        assert!(!m.by_key[&("a".into(), "correct")].truth());
        let m = save(
            &p,
            &order,
            known,
            Change::Clear {
                id: "a".into(),
                judge: "correct",
            },
        )
        .unwrap();
        assert_eq!(m.by_key.len(), 2);
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        for (text, want) in [
            (
                "{\"id\":\"zz\",\"judge\":\"correct\",\"verdict\":true,\"mark\":\"right\"}",
                "m.jsonl:1: case `zz`: field `id`: no case",
            ),
            (
                "\n{\"id\":\"a\",\"judge\":\"nice\",\"verdict\":true,\"mark\":\"right\"}",
                "m.jsonl:2: case `a`: field `judge`",
            ),
            (
                "{\"id\":\"a\",\"judge\":\"correct\",\"verdict\":true,\"mark\":\"ok\"}",
                "m.jsonl:1: case `a`: field `mark`",
            ),
            (
                "{\"id\":\"a\",\"judge\":\"correct\",\"verdict\":true,\"mark\":\"right\",\"truth\":false}",
                "field `truth`: contradicts",
            ),
            (
                "{\"id\":\"a\",\"judge\":\"correct\",\"verdict\":1,\"mark\":\"right\"}",
                "field `verdict`",
            ),
            (
                "{\"id\":\"a\",\"judge\":\"correct\",\"verdict\":true,\"mark\":\"right\"}\n{\"id\":\"a\",\"judge\":\"correct\",\"verdict\":true,\"mark\":\"wrong\"}",
                "m.jsonl:2: case `a`: field `judge`: `correct` marked twice (first on line 1)",
            ),
            ("{\"id\":\"a\",", "m.jsonl:1:"),
        ] {
            let e = Marks::parse(Path::new("m.jsonl"), text, known)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want) || e.contains(want), "{text:?}: {e}");
        }
    }
}
