//! The workspace every command stands on: the test set, the corpus its labels point into and
//! the chunking chunk ids derive under, opened once from the command line.
//!
//! Every command needs the same preparation: read the set (through
//! [`crate::testset::Tracked`] when it will be written back), resolve the corpus directory
//! (`--corpus`, else the set's `corpus.root` relative to the set's file), read the corpus,
//! compare its fingerprint with the one the labels were anchored in, pick the chunking, cut the
//! corpus into chunks and index them. [`Workspace::open`] does the reading and resolving, with
//! what each command may do without a corpus said in [`OpenOptions`]; [`Workspace::chunk`]
//! cuts the corpus into a [`ChunkedCorpus`] whose BM25 index is built on first use. What the
//! user should hear about (skipped files, a missing or changed corpus) comes back as [`Note`]s
//! for the command to print; nothing here prints.
//!
//! Writes go through [`Workspace::save`], which keeps `Tracked`'s promise: a change made to the
//! file meanwhile is merged, not lost.

mod chunked;
mod note;
pub mod passages;
mod root;

use std::path::{Path, PathBuf};

pub use chunked::{ChunkedCorpus, Evidence};
pub use note::Note;
pub use root::{relative_root, same_dir};

use crate::chunk::Chunking;
use crate::corpus::{Corpus, WalkOptions};
use crate::locate::CorpusIndex;
use crate::testset::foreign::{self, ConvertOptions, Format, ReadOptions};
use crate::testset::{self, CorpusRef, Saved, TestSet, Tracked, TrackedFile};
use crate::{Error, Result};

/// How to read the test set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetSource {
    /// A ragsynth set that must exist, to be written back.
    Existing,
    /// A ragsynth set, empty when the file does not exist yet; written back (created).
    CreateIfMissing,
    /// A ragsynth set only read, never written.
    ReadOnly,
    /// Another tool's export, read into a set (its contexts located in the corpus); never
    /// written.
    Export(Format),
}

/// What a command needs of the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CorpusNeed {
    /// It cannot work without one: none named is [`Error::NoCorpus`].
    Required,
    /// It works without one, but one that is named must exist ([`Error::CorpusMissing`], as
    /// for every need but a root from the set that is `Optional`).
    IfNamed,
    /// It works without one; a root from the set that does not exist is only a [`Note`].
    Optional {
        /// What the command does without a corpus, for the note.
        without: &'static str,
    },
}

/// How to open a workspace.
#[derive(Debug, Clone)]
pub struct OpenOptions {
    /// How to read the set.
    pub set: SetSource,
    /// The corpus directory given on the command line (else the set's `corpus.root`).
    pub corpus: Option<PathBuf>,
    /// What the command needs of the corpus.
    pub need: CorpusNeed,
    /// How the corpus is walked.
    pub walk: WalkOptions,
    /// The chunking when the set names none (the set's own wins).
    pub chunking: Chunking,
    /// Note when the corpus is not the one the labels were anchored in.
    pub check_fingerprint: bool,
    /// Column names, for a plain question file read as an export.
    pub columns: foreign::Columns,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            set: SetSource::Existing,
            corpus: None,
            need: CorpusNeed::IfNamed,
            walk: WalkOptions::default(),
            chunking: Chunking::default(),
            check_fingerprint: false,
            columns: foreign::Columns::default(),
        }
    }
}

/// A test set with its corpus and chunking, ready for a command.
#[derive(Debug)]
pub struct Workspace {
    /// The test-set file.
    pub path: PathBuf,
    /// The set: change it, then [`Workspace::save`].
    pub set: TestSet,
    /// The corpus, when one was named and read.
    pub corpus: Option<Corpus>,
    /// The chunking chunk ids derive under: the set's, else the one opened with; a command
    /// that changes it (remap) sets it before [`Workspace::chunk`].
    pub chunking: Chunking,
    /// What the user should know, in the order it was found.
    pub notes: Vec<Note>,
    /// Where the set is saved; `None` when it is only read.
    file: Option<TrackedFile>,
}

impl Workspace {
    /// Reads the set at `path` and the corpus it names (or `options.corpus`).
    pub fn open(path: &Path, options: &OpenOptions) -> Result<Workspace> {
        let (set, file) = match options.set {
            SetSource::Existing => split(Tracked::open(path)?),
            SetSource::CreateIfMissing => split(Tracked::open_or_new(path)?),
            SetSource::ReadOnly => (testset::load(path)?, None),
            SetSource::Export(_) => (TestSet::default(), None),
        };
        let mut notes = Vec::new();
        let named = options.corpus.clone();
        let root = named.clone().or_else(|| set.corpus_root(path));
        let corpus = match (root, options.need) {
            (None, CorpusNeed::Required) => {
                return Err(Error::NoCorpus {
                    path: path.to_path_buf(),
                    exists: file.as_ref().is_none_or(TrackedFile::existed),
                });
            }
            (None, CorpusNeed::IfNamed) => None,
            (None, CorpusNeed::Optional { without }) => {
                notes.push(Note::NoCorpus { without });
                None
            }
            (Some(root), CorpusNeed::Optional { without }) if named.is_none() && !root.exists() => {
                notes.push(Note::CorpusNotFound { root, without });
                None
            }
            (Some(root), _) if !root.exists() => {
                return Err(Error::CorpusMissing {
                    root,
                    from_set: named.is_none(),
                });
            }
            (Some(root), _) => {
                let corpus = Corpus::load(&root, options.walk.clone()).map_err(|e| Error::Corpus {
                    root: root.clone(),
                    error: Box::new(e),
                })?;
                notes.extend(corpus.skipped.iter().cloned().map(Note::Skipped));
                Some(corpus)
            }
        };
        let set = match options.set {
            SetSource::Export(format) => {
                let (set, note) = read_export(path, format, options, corpus.as_ref())?;
                notes.push(Note::Export(note));
                set
            }
            _ => set,
        };
        if options.check_fingerprint
            && let (Some(c), Some(recorded)) =
                (&corpus, set.corpus.as_ref().and_then(|c| c.fingerprint.as_ref()))
            && *recorded != c.fingerprint()
        {
            notes.push(Note::CorpusChanged {
                root: c.root.clone(),
                testset: path.to_path_buf(),
            });
        }
        let chunking = set.chunking.clone().unwrap_or_else(|| options.chunking.clone());
        Ok(Workspace {
            path: path.to_path_buf(),
            set,
            corpus,
            chunking,
            notes,
            file,
        })
    }

    /// The corpus cut into chunks under the workspace's chunking (no chunks without a corpus).
    pub fn chunk(&self) -> Result<ChunkedCorpus> {
        ChunkedCorpus::new(self.corpus.as_ref(), &self.chunking)
    }

    /// The corpus cut under the set's own chunking; `None` when the set names none (chunk ids
    /// of the set's cannot be derived then).
    pub fn set_chunks(&self) -> Result<Option<ChunkedCorpus>> {
        self.set
            .chunking
            .as_ref()
            .map(|c| ChunkedCorpus::new(self.corpus.as_ref(), c))
            .transpose()
    }

    /// Gives a set without a header the workspace's: the corpus (its root relative to the
    /// set's file, its fingerprint) and the chunking. A header already there is kept.
    pub fn adopt_header(&mut self) {
        if self.set.corpus.is_none()
            && let Some(c) = &self.corpus
        {
            self.set.corpus = Some(CorpusRef {
                root: relative_root(&self.path, &c.root),
                fingerprint: Some(c.fingerprint()),
                ..CorpusRef::default()
            });
        }
        if self.set.chunking.is_none() {
            self.set.chunking = Some(self.chunking.clone());
        }
    }

    /// How the header should spell the loaded corpus's root: as the header already does when
    /// that names the same directory, else relative to the set's file.
    pub fn header_root(&self) -> Option<String> {
        let corpus = self.corpus.as_ref()?;
        let spelled = self.set.corpus.as_ref().zip(self.set.corpus_root(&self.path));
        Some(match spelled {
            Some((header, dir)) if same_dir(&dir, &corpus.root) => header.root.clone(),
            _ => relative_root(&self.path, &corpus.root),
        })
    }

    /// True when the set can be saved (a ragsynth set opened for writing).
    pub fn is_writable(&self) -> bool {
        self.file.is_some()
    }

    /// Whether the set's file existed when it was opened.
    pub fn existed(&self) -> bool {
        self.file.as_ref().is_none_or(TrackedFile::existed)
    }

    /// Saves the set through [`Tracked`]: merged onto the file when another writer changed it
    /// meanwhile (the set then becomes the merge), refused when both changed the same field.
    pub fn save(&mut self) -> Result<Saved> {
        match &mut self.file {
            Some(file) => file.save(&mut self.set),
            None => Err(Error::ReadOnly {
                path: self.path.clone(),
            }),
        }
    }

    /// The set as a [`Tracked`] one (`None` when opened read-only) and the corpus, for a
    /// caller that keeps saving after the command returns (the review server).
    pub fn into_parts(self) -> (Option<Tracked>, Option<Corpus>) {
        let set = self.set;
        (self.file.map(|f| Tracked::from_parts(set, f)), self.corpus)
    }
}

/// Reads another tool's export as a set, its passages located in `corpus`; with a summary of
/// how they were located, for the user.
fn read_export(
    path: &Path,
    format: Format,
    options: &OpenOptions,
    corpus: Option<&Corpus>,
) -> Result<(TestSet, String)> {
    let read = foreign::read(
        path,
        &ReadOptions {
            family: format.family(),
            columns: options.columns.clone(),
        },
    )?;
    let index = corpus.map(CorpusIndex::new);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let converted = foreign::convert(
        &read,
        index.as_ref(),
        &ConvertOptions {
            file_name: name,
            ..ConvertOptions::default()
        },
    );
    let stats = &converted.stats;
    let note = match corpus {
        Some(c) => {
            converted.require_located(path, &c.root)?;
            format!(
                "{}: read as {}: {} case(s); {} of {} context passage(s) located ({} exact, {} normalised, {} fuzzy){}",
                path.display(),
                converted.format,
                converted.cases.len(),
                stats.located(),
                stats.passages,
                stats.exact,
                stats.normalized,
                stats.fuzzy,
                if stats.unlocated.is_empty() {
                    String::new()
                } else {
                    "; the rest are reported by RS406".into()
                }
            )
        }
        None => format!(
            "{}: read as {}: no corpus (--corpus), so its contexts cannot be located and labels stay empty",
            path.display(),
            converted.format
        ),
    };
    let lines: Vec<usize> = read.cases.iter().map(|c| c.line).collect();
    let cases = converted
        .cases
        .into_iter()
        .zip(lines)
        .map(|(c, l)| c.at_line(l))
        .collect();
    Ok((
        TestSet {
            cases,
            ..TestSet::default()
        },
        note,
    ))
}

fn split(tracked: Tracked) -> (TestSet, Option<TrackedFile>) {
    let (set, file) = tracked.into_parts();
    (set, Some(file))
}
