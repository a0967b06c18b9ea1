//! The on-disk journal that makes runs resumable: every accepted answer is appended as one JSON
//! line the moment it arrives, keyed by a hash of everything that determines it. A rerun after a
//! crash, Ctrl-C or `kill -9` replays those answers instead of paying for them again. An answer
//! still malformed after every re-ask is journaled too, as a rejection: the same request gets
//! the same verdict on a rerun without paying for the re-asks again.
//!
//! Append-only JSONL, one write per line, flushed per line. A torn last line (killed mid-write)
//! is skipped on load and the next append starts on a fresh line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The file inside the cache folder.
pub const FILE_NAME: &str = "journal.jsonl";

/// One journaled answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    /// `key()` of the request.
    pub key: String,
    /// The LLM's id (`provider:model`), for people reading the file.
    pub llm: String,
    /// The request's tag.
    pub tag: String,
    /// The validated answer.
    pub value: Value,
    /// Tokens the original call used.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// When it was journaled; absent in journals written before this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<jiff::Timestamp>,
    /// Why the answer was rejected as malformed after every re-ask (`value` is then null).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<String>,
}

/// A journaled answer (or rejection) and when it was journaled.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stored {
    pub value: Value,
    pub time: Option<jiff::Timestamp>,
    pub rejected: Option<String>,
}

impl From<&Entry> for Stored {
    fn from(e: &Entry) -> Stored {
        Stored {
            value: e.value.clone(),
            time: e.time,
            rejected: e.rejected.clone(),
        }
    }
}

/// Everything that determines an answer; its hash is the journal key.
#[derive(Debug, Serialize)]
pub(crate) struct KeyParts<'a> {
    pub llm: &'a str,
    pub system: &'a str,
    pub user: &'a str,
    pub schema: &'a Value,
    pub max_tokens: u32,
    pub temperature: f32,
    pub seed: Option<u64>,
}

/// `sha256:` + hex of the canonical JSON of `parts`.
pub(crate) fn key(parts: &KeyParts<'_>) -> String {
    let bytes = serde_json::to_vec(parts).expect("key parts serialize");
    format!("sha256:{}", hex::encode(Sha256::digest(&bytes)))
}

/// The folder, inside the default journal folder, of a run over `corpus`: the corpus
/// directory's name and 8 hex digits of its absolute path's sha256. Two checkouts or two
/// corpora never share a file (their entries would interleave), and a rerun over the same
/// directory finds its own answers again.
pub fn folder_for(corpus: &Path) -> String {
    let full = corpus
        .canonicalize()
        .or_else(|_| std::path::absolute(corpus))
        .unwrap_or_else(|_| corpus.to_path_buf());
    let name: String = full
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = hex::encode(&Sha256::digest(full.to_string_lossy().as_bytes())[..4]);
    match name.trim_matches('.') {
        "" => hash,
        name => format!("{name}-{hash}"),
    }
}

/// An open journal: the answers loaded so far plus the file to append to.
#[derive(Debug)]
pub(crate) struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    entries: Mutex<HashMap<String, Stored>>,
}

impl Journal {
    /// Opens (creating) `dir/journal.jsonl` and loads every complete line.
    pub(crate) fn open(dir: &Path) -> std::io::Result<Journal> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(FILE_NAME);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)?;
        let mut text = Vec::new();
        file.read_to_end(&mut text)?;
        let mut entries = HashMap::new();
        for line in text.split(|&b| b == b'\n') {
            if let Ok(e) = serde_json::from_slice::<Entry>(line) {
                let stored = Stored::from(&e);
                entries.entry(e.key).or_insert(stored);
            }
        }
        if text.last().is_some_and(|&b| b != b'\n') {
            // A torn line from a killed run: end it so the next entry starts clean.
            file.seek(SeekFrom::End(0))?;
            file.write_all(b"\n")?;
        }
        Ok(Journal {
            path,
            file: Mutex::new(file),
            entries: Mutex::new(entries),
        })
    }

    /// Also replays the answers journaled in `file` (the one journal every run shared before
    /// journals were kept per corpus), without copying them: a rerun after the upgrade still
    /// pays nothing for what it asked before.
    pub(crate) fn replaying(self, file: &Path) -> Journal {
        if let Ok(text) = std::fs::read(file) {
            let mut entries = self.entries.lock().expect("journal lock");
            for line in text.split(|&b| b == b'\n') {
                if let Ok(e) = serde_json::from_slice::<Entry>(line) {
                    let stored = Stored::from(&e);
                    entries.entry(e.key).or_insert(stored);
                }
            }
        }
        self
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn get(&self, key: &str) -> Option<Stored> {
        self.entries.lock().expect("journal lock").get(key).cloned()
    }

    /// Appends `entry` unless its key is already journaled (so each answer appears once).
    pub(crate) fn append(&self, entry: &Entry) -> std::io::Result<()> {
        // A model that echoes a key (it cannot see one, but a gateway's error could) leaves
        // no key on disk.
        let text = serde_json::to_string(entry).map_err(std::io::Error::other)?;
        let mut line = crate::redact::secrets(&text).into_owned().into_bytes();
        line.push(b'\n');
        let mut file = self.file.lock().expect("journal lock");
        {
            let mut entries = self.entries.lock().expect("journal lock");
            if entries.contains_key(&entry.key) {
                return Ok(());
            }
            entries.insert(entry.key.clone(), Stored::from(entry));
        }
        file.write_all(&line)?;
        file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, n: u64) -> Entry {
        Entry {
            key: key.into(),
            llm: "t:m".into(),
            tag: "t".into(),
            value: serde_json::json!({"n": n}),
            prompt_tokens: 1,
            completion_tokens: 1,
            time: jiff::Timestamp::from_second(1_790_000_000 + n as i64).ok(),
            rejected: None,
        }
    }

    #[test]
    fn survives_a_torn_last_line_and_keeps_one_entry_per_key() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::open(dir.path()).unwrap();
        j.append(&entry("a", 1)).unwrap();
        j.append(&entry("a", 2)).unwrap();
        j.append(&entry("b", 3)).unwrap();
        drop(j);
        // Simulate `kill -9` in the middle of a write.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.path().join(FILE_NAME))
            .unwrap();
        f.write_all(br#"{"key":"c","llm":"t:m","val"#).unwrap();
        drop(f);
        let j = Journal::open(dir.path()).unwrap();
        assert_eq!(
            j.get("a"),
            Some(Stored {
                value: serde_json::json!({"n": 1}),
                time: jiff::Timestamp::from_second(1_790_000_001).ok(),
                rejected: None,
            })
        );
        assert_eq!(j.get("c"), None);
        j.append(&entry("c", 4)).unwrap();
        drop(j);
        let j = Journal::open(dir.path()).unwrap();
        assert_eq!(j.get("c").map(|e| e.value), Some(serde_json::json!({"n": 4})));
        let text = std::fs::read_to_string(j.path()).unwrap();
        assert_eq!(text.lines().filter(|l| l.contains(r#""key":"a""#)).count(), 1);
    }

    #[test]
    fn key_covers_every_part() {
        let schema = serde_json::json!({"type": "object"});
        let base = KeyParts {
            llm: "openai:m",
            system: "s",
            user: "u",
            schema: &schema,
            max_tokens: 10,
            temperature: 0.0,
            seed: None,
        };
        let k = key(&base);
        assert!(k.starts_with("sha256:"));
        assert_ne!(k, key(&KeyParts { user: "u2", ..base }));
        assert_ne!(
            k,
            key(&KeyParts {
                seed: Some(1),
                ..base
            })
        );
        assert_ne!(
            k,
            key(&KeyParts {
                llm: "openai:n",
                ..base
            })
        );
        assert_ne!(
            k,
            key(&KeyParts {
                max_tokens: 11,
                ..base
            })
        );
    }
}
