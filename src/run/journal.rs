//! The run's journal: each case's outcome appended as one JSON line and synced to disk as it
//! arrives, so a run killed at any moment (even `kill -9`) loses at most the replies in
//! flight, and the next run with the same output folder asks only what has no answer yet. Its
//! first line names the system, so answers of another system are never mixed in.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Error, Result};

/// One case's outcome, as journaled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    /// The answer, when the system gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// What it retrieved, as `eval --run` items.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retrieved: Vec<Value>,
    /// Why there is no answer (`http_500`, `timeout`, `malformed_reply`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The last failure's message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Attempts made for this outcome.
    pub attempts: u32,
}

impl Entry {
    pub fn answered(&self) -> bool {
        self.answer.is_some()
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    ragsynth_run: u32,
    target: String,
}

/// The journal file, open for appending.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    /// Opens `dir/journal.jsonl` for `target` and returns it with the latest outcome of every
    /// case already in it. A torn last line (the run was killed while writing it) is ignored.
    pub fn open(dir: &Path, target: &str) -> Result<(Journal, HashMap<String, Entry>)> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let path = dir.join("journal.jsonl");
        let mut done = HashMap::new();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Error::io(&path, e)),
        };
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let last = i + 1 == lines.len() && !text.ends_with('\n');
            if i == 0 {
                match serde_json::from_str::<Header>(line) {
                    Ok(h) if h.target == target => continue,
                    Ok(h) => {
                        return Err(Error::Config(format!(
                            "{} holds the answers of {}, not of {target}: use another output folder or remove it",
                            dir.display(),
                            h.target
                        )));
                    }
                    Err(_) if last => break,
                    Err(e) => return Err(bad_line(&path, 1, e)),
                }
            }
            match serde_json::from_str::<Entry>(line) {
                Ok(entry) => {
                    // A later answer wins; a failure never replaces an answer.
                    let keep = done
                        .get(&entry.id)
                        .is_some_and(|e: &Entry| e.answered() && !entry.answered());
                    if !keep {
                        done.insert(entry.id.clone(), entry);
                    }
                }
                Err(_) if last => break,
                Err(e) => return Err(bad_line(&path, i + 1, e)),
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        if !text.ends_with('\n') {
            // Drop the torn line, so the next entry starts a line of its own.
            let whole = text.rfind('\n').map_or(0, |i| i + 1);
            file.set_len(whole as u64).map_err(|e| Error::io(&path, e))?;
        }
        if !text.contains('\n') {
            let header = serde_json::to_string(&Header {
                ragsynth_run: 1,
                target: target.to_string(),
            })
            .expect("a header serializes");
            writeln!(file, "{header}").map_err(|e| Error::io(&path, e))?;
        }
        Ok((
            Journal {
                path,
                file: Mutex::new(file),
            },
            done,
        ))
    }

    /// Appends `entry` and waits until it is on disk.
    pub fn append(&self, entry: &Entry) -> Result<()> {
        let mut line = serde_json::to_string(entry).expect("an entry serializes");
        line.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .map_err(|e| Error::io(&self.path, e))?;
        file.sync_data().map_err(|e| Error::io(&self.path, e))
    }
}

fn bad_line(path: &Path, line: usize, e: serde_json::Error) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line: Some(line),
        column: None,
        message: format!("not a journal entry ({e}); the file was not written by `ragsynth run`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, answer: Option<&str>) -> Entry {
        Entry {
            id: id.into(),
            answer: answer.map(str::to_string),
            retrieved: Vec::new(),
            error: answer.is_none().then(|| "timeout".to_string()),
            message: None,
            attempts: 1,
        }
    }

    #[test]
    fn a_reopened_journal_knows_every_outcome_and_skips_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let (j, done) = Journal::open(dir.path(), "http://x").unwrap();
        assert!(done.is_empty());
        j.append(&entry("a", Some("yes"))).unwrap();
        j.append(&entry("b", None)).unwrap();
        j.append(&entry("a", None)).unwrap();
        drop(j);
        let path = dir.path().join("journal.jsonl");
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        write!(f, "{{\"id\": \"c\", \"ans").unwrap();
        drop(f);
        let (j, done) = Journal::open(dir.path(), "http://x").unwrap();
        assert!(done["a"].answered(), "an answer is not undone by a later failure");
        assert!(!done["b"].answered());
        assert!(!done.contains_key("c"));
        j.append(&entry("c", Some("ok"))).unwrap();
        let (_, done) = Journal::open(dir.path(), "http://x").unwrap();
        assert!(done["c"].answered());
        let e = Journal::open(dir.path(), "`./other`").err().unwrap().to_string();
        assert!(e.contains("holds the answers of http://x"), "{e}");
    }
}
