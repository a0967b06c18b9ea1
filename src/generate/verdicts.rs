//! The run's verdicts file: one JSON line per candidate as the run decides it — written,
//! turned away (with the check's code and the candidate as far as it was built), or beyond the
//! plan — appended as each round is accounted for, so a person can read what every check turned
//! away (issue 67's "what it rejects"), and a killed run keeps what it decided.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;

use super::candidate::{Accepted, Shape};
use super::checks::Check;
use crate::testset::{Hop, Label, Side};

/// The file's name beside the LLM journal, where a run writes it unless told otherwise.
pub const FILE_NAME: &str = "verdicts.jsonl";

/// Where verdicts go: a file opened for appending.
#[derive(Debug)]
pub struct VerdictLog {
    path: PathBuf,
    file: Mutex<File>,
}

/// What became of a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Written to the set.
    Accepted,
    /// Turned away by `code`.
    Rejected,
    /// Passed every check, beyond its kind's planned count: not written.
    Surplus,
    /// Accepted earlier, then given way to a later case (a bridge whose second hop it asked).
    Displaced,
}

/// One line of the file.
#[derive(Debug, Serialize)]
struct Line<'a> {
    run: &'a str,
    round: u32,
    kind: &'a str,
    fate: Fate,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<Check>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    question: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<&'a str>,
    #[serde(skip_serializing_if = "<[Label]>::is_empty")]
    relevant: &'a [Label],
    #[serde(skip_serializing_if = "Option::is_none")]
    identifier: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sides: Option<&'a [Side]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hops: Option<&'a [Hop]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bridge: Option<&'a str>,
}

impl VerdictLog {
    /// Opens `path` for appending, creating it and its folder.
    pub fn open(path: &Path) -> std::io::Result<VerdictLog> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().append(true).create(true).open(path)?;
        Ok(VerdictLog {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends the verdict on one candidate of `kind` in `round` of run `run`: its fate, the
    /// check that turned it away, and the candidate as far as it was built. A failed write is
    /// returned; the run goes on without the file.
    pub fn record(
        &self,
        run: &str,
        round: u32,
        kind: &str,
        fate: Fate,
        code: Option<Check>,
        case: Option<&Accepted>,
    ) -> std::io::Result<()> {
        let (identifier, sides, hops, bridge) = match case.map(|c| &c.shape) {
            Some(Shape::Identifier(id)) => (Some(id.as_str()), None, None, None),
            Some(Shape::Comparison(s)) => (None, Some(s.as_slice()), None, None),
            Some(Shape::Bridge { hops, bridge }) => {
                (None, None, Some(hops.as_slice()), Some(bridge.as_str()))
            }
            _ => (None, None, None, None),
        };
        let line = Line {
            run,
            round,
            kind,
            fate,
            code,
            name: code.map(Check::name),
            question: case.map(|c| c.question.as_str()),
            answer: case.and_then(|c| c.answer.as_deref()),
            relevant: case.map_or(&[], |c| c.relevant.as_slice()),
            identifier,
            sides,
            hops,
            bridge,
        };
        let mut text = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        text.push('\n');
        let mut file = self.file.lock().expect("verdicts lock");
        file.write_all(text.as_bytes())?;
        file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::candidate::Kind;
    use crate::lang::Language;

    #[test]
    fn each_verdict_is_a_line_with_its_code_and_candidate() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs").join("verdicts.jsonl");
        let log = VerdictLog::open(&path).unwrap();
        let label = Label::spanning("a.md", 0, "Backups are kept for 30 days.");
        let draft = Accepted::draft(
            Kind::Lookup,
            "How long?",
            Some("30 days"),
            vec![label],
            Language::ENGLISH,
        );
        log.record(
            "r1",
            1,
            "lookup",
            Fate::Rejected,
            Some(Check::TooShort),
            Some(&draft),
        )
        .unwrap();
        log.record("r1", 2, "lookup", Fate::Accepted, None, Some(&draft))
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["code"], "RS201");
        assert_eq!(lines[0]["name"], "too-short");
        assert_eq!(lines[0]["question"], "How long?");
        assert_eq!(lines[0]["relevant"][0]["doc"], "a.md");
        assert_eq!(lines[1]["fate"], "accepted");
        assert!(lines[1].get("code").is_none());
        // Reopened, it appends.
        let log = VerdictLog::open(&path).unwrap();
        log.record("r2", 1, "lookup", Fate::Surplus, None, None).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);
    }
}
