//! What opening a workspace found that the user should know, as data: the command decides
//! how to show it (`warning:` or `note:`), the wording is the same everywhere.

use std::fmt;
use std::path::PathBuf;

use crate::corpus::Skipped;

/// One thing opening a workspace noticed.
#[derive(Debug, Clone)]
pub enum Note {
    /// A corpus file was left out.
    Skipped(Skipped),
    /// The set names no corpus and none was given; `without` says what the command does then.
    NoCorpus {
        /// What the command does without a corpus, e.g. "relevance by span coverage only".
        without: &'static str,
    },
    /// The set's `corpus.root` does not exist.
    CorpusNotFound {
        /// The directory, as resolved against the set's file.
        root: PathBuf,
        /// What the command does without a corpus.
        without: &'static str,
    },
    /// The corpus differs from the one the labels were anchored in (fingerprints differ).
    CorpusChanged {
        /// The corpus directory.
        root: PathBuf,
        /// The test-set file.
        testset: PathBuf,
    },
    /// Another tool's export could not be fully read (a context not found in the corpus).
    Export(String),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Skipped(s) => write!(f, "{s}"),
            Note::NoCorpus { without } => {
                write!(f, "the test set names no corpus: {without}; pass --corpus DIR")
            }
            Note::CorpusNotFound { root, without } => write!(
                f,
                "corpus {} (from the test set) not found: {without}; pass --corpus DIR",
                root.display()
            ),
            Note::CorpusChanged { root, testset } => write!(
                f,
                "corpus {} changed since the labels of {} were anchored (fingerprint differs); run `ragsynth remap` to re-anchor them",
                root.display(),
                testset.display()
            ),
            Note::Export(message) => f.write_str(message),
        }
    }
}
