//! Writing a test set back without losing what someone else wrote since it was read
//! (optimistic concurrency). Every command that changes a test set — `generate`, `audit
//! --write`, `import`, `remap` and each decision of `review` — reads it as a [`Tracked`] set
//! and saves through [`Tracked::save`], the one place that checks, merges and writes.
//!
//! A tracked set remembers the text it was read from. Saving takes a lock on the file's
//! directory (ragsynth writers queue up), reads the file again and compares: unchanged, the set
//! is written as is; changed, this command's changes are merged onto the file as it is now
//! (`three_way`) and the merge is written; a collision (both changed the same field) writes
//! nothing and returns [`Error::Conflict`] naming it.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::three_way::{self, Merged};
use super::{Format, TestSet, load_str, to_string};
use crate::fsutil::{DirLock, resolve_links, write_atomic};
use crate::{Error, Result};

/// A test set read from a file, to be saved back into it.
#[derive(Debug)]
pub struct Tracked {
    /// The set this command works on; change it, then [`Tracked::save`].
    pub set: TestSet,
    file: TrackedFile,
}

/// The file side of a [`Tracked`] set: where it lives and what it held when last read or
/// written. Kept apart from the set so a caller can hold the set in a struct of its own (the
/// workspace) and still save through here.
#[derive(Debug)]
pub struct TrackedFile {
    path: PathBuf,
    /// The file as last read or written; `None` when it did not exist.
    base: Option<Base>,
}

/// A file's text and its version.
#[derive(Debug)]
struct Base {
    text: String,
    version: String,
}

impl Base {
    fn new(text: String) -> Base {
        Base {
            version: version_of(text.as_bytes()),
            text,
        }
    }
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// Version of the file as written (see [`version_of`]).
    pub version: String,
    /// The file had changed on disk and this command's changes were merged onto it.
    pub merged: bool,
    /// Changes of this command that were left out of the merge, and why.
    pub notes: Vec<String>,
}

/// The version of a file's content: the first 12 bytes of its sha256, in hex.
pub fn version_of(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..12])
}

/// Reads a file as UTF-8, `None` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    String::from_utf8(bytes).map(Some).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: None,
        column: None,
        message: format!("not valid UTF-8 at byte {}", e.utf8_error().valid_up_to()),
    })
}

impl Tracked {
    /// Reads the test set at `path`, which must exist.
    pub fn open(path: &Path) -> Result<Tracked> {
        let text = read_text(path)?.ok_or_else(|| Error::NotFound {
            path: path.to_path_buf(),
            what: "test set",
        })?;
        let set = load_str(&text, path, Format::of(path))?;
        Ok(Tracked {
            set,
            file: TrackedFile {
                path: path.to_path_buf(),
                base: Some(Base::new(text)),
            },
        })
    }

    /// Reads the test set at `path`, or starts an empty one when there is no such file (a
    /// file created by someone else before the save is then merged with like any other).
    pub fn open_or_new(path: &Path) -> Result<Tracked> {
        match read_text(path)? {
            Some(_) => Tracked::open(path),
            None => Ok(Tracked {
                set: TestSet::default(),
                file: TrackedFile {
                    path: path.to_path_buf(),
                    base: None,
                },
            }),
        }
    }

    /// Splits into the set and its file.
    pub fn into_parts(self) -> (TestSet, TrackedFile) {
        (self.set, self.file)
    }

    /// Joins a set to the file it was read from.
    pub fn from_parts(set: TestSet, file: TrackedFile) -> Tracked {
        Tracked { set, file }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// Whether the file existed when it was read.
    pub fn existed(&self) -> bool {
        self.file.existed()
    }

    /// Version of the file as last read or written; `None` while it does not exist.
    pub fn version(&self) -> Option<&str> {
        self.file.version()
    }

    /// Writes the set into the file (see [`TrackedFile::save`]).
    pub fn save(&mut self) -> Result<Saved> {
        self.file.save(&mut self.set)
    }
}

impl TrackedFile {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file existed when it was read.
    pub fn existed(&self) -> bool {
        self.base.is_some()
    }

    /// Version of the file as last read or written; `None` while it does not exist.
    pub fn version(&self) -> Option<&str> {
        self.base.as_ref().map(|b| b.version.as_str())
    }

    /// Writes `set` into the file (atomically; through a symlink, into its target). If the
    /// file changed since it was read, this command's changes are merged onto it first and
    /// `set` becomes the merge; when they collide, nothing is written and the error names the
    /// case and field.
    pub fn save(&mut self, set: &mut TestSet) -> Result<Saved> {
        let target = resolve_links(&self.path);
        let _lock = DirLock::acquire(target.parent().unwrap_or(Path::new(".")));
        let format = Format::of(&self.path);
        let now = read_text(&target)?;
        let merged = if now.as_deref() == self.base.as_ref().map(|b| b.text.as_str()) {
            None
        } else {
            Some(self.merge_onto(set, now, format)?)
        };
        let text = to_string(merged.as_ref().map_or(&*set, |m| &m.set), format);
        write_atomic(&target, text.as_bytes())?;
        let base = Base::new(text);
        let version = base.version.clone();
        self.base = Some(base);
        Ok(match merged {
            None => Saved {
                version,
                merged: false,
                notes: Vec::new(),
            },
            Some(m) => {
                *set = m.set;
                Saved {
                    version,
                    merged: true,
                    notes: m.notes,
                }
            }
        })
    }

    /// `mine`, this command's set, merged onto `now`, the file's current text.
    fn merge_onto(&self, mine: &TestSet, now: Option<String>, format: Format) -> Result<Merged> {
        let conflict = |message: String| Error::Conflict {
            path: self.path.clone(),
            message: format!(
                "{message}; nothing was written (run the command again to start from the file as it is now)"
            ),
        };
        let Some(now) = now else {
            return Err(conflict("the file was removed since it was read".into()));
        };
        let theirs = load_str(&now, &self.path, format).map_err(|e| {
            conflict(format!(
                "the file was changed since it was read and no longer loads ({e})"
            ))
        })?;
        let base = match &self.base {
            Some(b) => load_str(&b.text, &self.path, format)?,
            None => TestSet::default(),
        };
        three_way::merge(&base, mine, theirs)
            .map_err(|m| conflict(format!("changed by another writer since it was read: {m}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testset::{Case, Review};

    const SET: &str = "ragsynth: 1\ncases:\n  - id: syn-1\n    question: Q one?\n    review: pending\n  - id: syn-2\n    question: Q two?\n    review: pending\n";

    #[test]
    fn an_unchanged_file_is_written_as_is_and_a_changed_one_merged() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("set.yaml");
        std::fs::write(&p, SET).unwrap();
        let mut t = Tracked::open(&p).unwrap();
        let v0 = t.version().unwrap().to_string();
        t.set.case_mut("syn-1").unwrap().review = Some(Review::Accepted);
        let saved = t.save().unwrap();
        assert!(!saved.merged);
        assert_ne!(saved.version, v0);

        // Someone else rejects syn-2 and adds a case; this command then adds one too.
        let mut other = Tracked::open(&p).unwrap();
        other.set.case_mut("syn-2").unwrap().review = Some(Review::Rejected);
        other.set.cases.push(Case::new("syn-3", "Three?"));
        other.save().unwrap();
        t.set.cases.push(Case::new("syn-4", "Four?"));
        let saved = t.save().unwrap();
        assert!(saved.merged);
        let now = crate::testset::load(&p).unwrap();
        let review = |id: &str| now.case(id).unwrap().review;
        assert_eq!(review("syn-1"), Some(Review::Accepted));
        assert_eq!(review("syn-2"), Some(Review::Rejected));
        let ids: Vec<&str> = now.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["syn-1", "syn-2", "syn-3", "syn-4"]);
        assert_eq!(
            t.version().unwrap(),
            version_of(std::fs::read(&p).unwrap().as_slice())
        );
    }

    #[test]
    fn a_collision_writes_nothing_and_names_the_other_change() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("set.yaml");
        std::fs::write(&p, SET).unwrap();
        let mut t = Tracked::open(&p).unwrap();
        let edited = SET.replacen("review: pending", "review: rejected", 1);
        std::fs::write(&p, &edited).unwrap();
        t.set.case_mut("syn-1").unwrap().review = Some(Review::Accepted);
        let e = t.save().unwrap_err().to_string();
        assert!(
            e.contains("`syn-1` field `review`") && e.contains("rejected"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), edited);
    }

    #[test]
    fn a_file_created_meanwhile_is_merged_with_not_replaced() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("set.jsonl");
        let mut t = Tracked::open_or_new(&p).unwrap();
        assert!(!t.existed());
        t.set.cases.push(Case::new("mine", "Mine?"));
        std::fs::write(&p, "{\"id\":\"theirs\",\"question\":\"Theirs?\"}\n").unwrap();
        assert!(t.save().unwrap().merged);
        let ids: Vec<String> = crate::testset::load(&p)
            .unwrap()
            .cases
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, ["theirs", "mine"]);
    }
}
