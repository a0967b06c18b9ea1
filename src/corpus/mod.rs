//! The corpus: a directory of documents, walked with gitignore-aware rules, read as UTF-8 text.
//!
//! A file that cannot be used (binary, not UTF-8, empty, unreadable, too large, a symlink loop,
//! a link leaving the corpus) is skipped with a [`Skipped`] entry naming it and the reason; the
//! walk never stops for one file. Documents can be streamed one at a time ([`Walk::documents`])
//! so memory stays bounded by the largest single document, or collected into a [`Corpus`].

mod read;
mod walk;

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::lang::{self, Language};
use std::fmt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::Result;

pub use read::read_document;
pub use walk::Walk;

/// File extensions read as documents.
pub const EXTENSIONS: &[&str] = &["md", "markdown", "txt", "rst", "html", "htm"];

/// Files larger than this are skipped by default (a 50 MB log dump is not documentation).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// How a document's text was written, which decides how it is split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// Markdown (`.md`, `.markdown`).
    Markdown,
    /// Plain text or reStructuredText.
    Text,
    /// HTML converted to text; offsets refer to the converted text.
    Html,
}

impl DocKind {
    fn from_path(path: &Path) -> Option<DocKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "md" | "markdown" => Some(DocKind::Markdown),
            "txt" | "rst" => Some(DocKind::Text),
            "html" | "htm" => Some(DocKind::Html),
            _ => None,
        }
    }
}

/// One document: its path relative to the corpus root (always `/`-separated) and its text.
#[derive(Debug, Clone)]
pub struct Document {
    /// Path relative to the corpus root, `/`-separated: the `doc` of a label.
    pub path: String,
    /// The text labels index into (for HTML: the converted text).
    pub text: String,
    /// How the text is written.
    pub kind: DocKind,
    /// sha256 of the file's bytes, hex.
    pub sha256: String,
}

impl Document {
    /// Number of Unicode scalar values: the upper bound of a label's `end`.
    pub fn char_len(&self) -> usize {
        self.text.chars().count()
    }
}

/// Why a file was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Holds NUL bytes.
    Binary,
    /// Not valid UTF-8 (byte offset of the first bad byte).
    NotUtf8(usize),
    /// Empty or only white space.
    Empty,
    /// Larger than the size limit.
    TooLarge(u64),
    /// Could not be read (permissions, vanished, ...).
    Unreadable(String),
    /// A directory symlink pointing back into its own ancestry.
    SymlinkLoop,
    /// A symlink whose target (resolved) lies outside the corpus root.
    OutsideCorpus(PathBuf),
    /// Not a regular file: a FIFO, device or socket.
    NotRegular,
    /// Reported a size within the limit but held more (a pseudo-file); the limit in bytes.
    ReadPastLimit(u64),
    /// The file name is not valid UTF-8, so it has no label path.
    NonUtf8Name,
    /// Anything else the walker reported.
    Walk(String),
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Binary => write!(f, "binary file (contains NUL bytes)"),
            SkipReason::NotUtf8(at) => write!(f, "not valid UTF-8 (bad byte at offset {at})"),
            SkipReason::Empty => write!(f, "empty file"),
            SkipReason::TooLarge(n) => write!(f, "too large ({n} bytes; see --max-file-size)"),
            SkipReason::Unreadable(e) => write!(f, "unreadable: {e}"),
            SkipReason::SymlinkLoop => write!(f, "symlink loop"),
            SkipReason::OutsideCorpus(target) => write!(
                f,
                "symlink to {}, outside the corpus (--follow-outside-links reads it)",
                target.display()
            ),
            SkipReason::NotRegular => write!(f, "not a regular file (FIFO, device or socket)"),
            SkipReason::ReadPastLimit(max) => write!(
                f,
                "holds more than {max} bytes though its size reads smaller (see --max-file-size)"
            ),
            SkipReason::NonUtf8Name => write!(f, "file name is not valid UTF-8"),
            SkipReason::Walk(e) => write!(f, "{e}"),
        }
    }
}

/// A file that was left out, and why.
#[derive(Debug, Clone)]
pub struct Skipped {
    /// The file (as found on disk).
    pub path: PathBuf,
    /// Why.
    pub reason: SkipReason,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.to_str() {
            Some(p) => write!(f, "skipped {p}: {}", self.reason),
            // Escaped bytes, so two such names never print alike.
            None => write!(f, "skipped {:?}: {}", self.path, self.reason),
        }
    }
}

/// Options for walking a corpus.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Files above this size are skipped.
    pub max_file_bytes: u64,
    /// Follow symlinks whose target lies outside the corpus root (off: they are skipped).
    pub follow_outside_links: bool,
    /// The documents' language, when configured (`--language`, `[corpus] language`); else each
    /// document's is detected.
    pub language: Option<Language>,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            follow_outside_links: false,
            language: None,
        }
    }
}

/// A corpus read into memory.
#[derive(Debug, Default)]
pub struct Corpus {
    /// The directory (or file) it was read from.
    pub root: PathBuf,
    /// Documents in path order.
    pub docs: Vec<Document>,
    /// Files left out, with reasons.
    pub skipped: Vec<Skipped>,
    /// The configured language of every document (see [`WalkOptions::language`]).
    pub language: Option<Language>,
    /// Each document's detected language, told on first use.
    pub(crate) detected: OnceLock<Vec<Language>>,
}

impl Corpus {
    /// A corpus of one Markdown page, for tests that need a page and its chunks.
    #[cfg(test)]
    pub(crate) fn of_one_page(path: &str, text: &str) -> Corpus {
        Corpus {
            docs: vec![Document {
                path: path.into(),
                text: text.into(),
                kind: DocKind::Markdown,
                sha256: String::new(),
            }],
            ..Corpus::default()
        }
    }

    /// Walks and reads every document under `root`.
    pub fn load(root: &Path, options: WalkOptions) -> Result<Corpus> {
        let language = options.language;
        let walk = Walk::new(root, options)?;
        let mut corpus = Corpus {
            root: root.to_path_buf(),
            skipped: walk.walk_skips().to_vec(),
            language,
            ..Default::default()
        };
        for doc in walk.documents() {
            match doc {
                Ok(d) => corpus.docs.push(d),
                Err(s) => corpus.skipped.push(s),
            }
        }
        Ok(corpus)
    }

    /// The document with this label path.
    pub fn doc(&self, path: &str) -> Option<&Document> {
        self.docs
            .binary_search_by(|d| d.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.docs[i])
    }

    /// The language of document `i`: the configured one, else the detected one.
    pub fn language_of(&self, i: usize) -> Language {
        if let Some(l) = self.language {
            return l;
        }
        let detected = self.detected.get_or_init(|| {
            self.docs
                .par_iter()
                .map(|d| lang::detect_document(&d.text))
                .collect()
        });
        detected.get(i).copied().unwrap_or(Language::ENGLISH)
    }

    /// The language most of the corpus's text is in (by characters): what a query with no
    /// language of its own is read in. English for an empty corpus.
    pub fn main_language(&self) -> Language {
        let mut by: Vec<(Language, usize)> = Vec::new();
        for (i, d) in self.docs.iter().enumerate() {
            let l = self.language_of(i);
            match by.iter_mut().find(|(x, _)| *x == l) {
                Some((_, n)) => *n += d.text.len(),
                None => by.push((l, d.text.len())),
            }
        }
        by.into_iter()
            .max_by_key(|(_, n)| *n)
            .map_or(Language::ENGLISH, |(l, _)| l)
    }

    /// `sha256:` over the sorted (relative path, content sha256) pairs of every document.
    pub fn fingerprint(&self) -> String {
        fingerprint(self.docs.iter().map(|d| (d.path.as_str(), d.sha256.as_str())))
    }

    /// Total size of the documents' text in bytes.
    pub fn total_bytes(&self) -> usize {
        self.docs.iter().map(|d| d.text.len()).sum()
    }
}

/// Fingerprint over (path, content hash) pairs given in path order.
pub fn fingerprint<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut h = Sha256::new();
    for (path, sha) in pairs {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(sha.as_bytes());
        h.update([b'\n']);
    }
    format!("sha256:{}", hex::encode(h.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, bytes: &[u8]) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    #[test]
    fn walks_sorted_with_slash_paths_and_respects_ignores() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "b.md", b"# B\nbody");
        write(d.path(), "a/z.txt", b"zed");
        write(d.path(), ".hidden.md", b"secret");
        write(d.path(), "skip/me.md", b"ignored");
        write(d.path(), ".gitignore", b"skip/\n");
        write(d.path(), "image.png", b"\x89PNG");
        let c = Corpus::load(d.path(), WalkOptions::default()).unwrap();
        let paths: Vec<_> = c.docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["a/z.txt", "b.md"]);
        assert!(c.skipped.is_empty());
        assert!(c.doc("b.md").is_some());
    }

    #[test]
    fn fingerprint_changes_with_content_and_path_only() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "a.md", b"one");
        let f1 = Corpus::load(d.path(), WalkOptions::default())
            .unwrap()
            .fingerprint();
        let f1b = Corpus::load(d.path(), WalkOptions::default())
            .unwrap()
            .fingerprint();
        write(d.path(), "a.md", b"two");
        let f2 = Corpus::load(d.path(), WalkOptions::default())
            .unwrap()
            .fingerprint();
        assert_eq!(f1, f1b);
        assert_ne!(f1, f2);
        assert!(f1.starts_with("sha256:"));
    }

    #[cfg(unix)]
    #[test]
    fn links_leaving_the_corpus_are_skipped_unless_asked_for() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        write(outside.path(), "secret.txt", b"TOP SECRET");
        write(outside.path(), "dir/more.md", b"more secret");
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "a.md", b"# A");
        write(d.path(), "sub/b.md", b"# B");
        symlink(outside.path().join("secret.txt"), d.path().join("passwd.txt")).unwrap();
        symlink(outside.path().join("dir"), d.path().join("linked")).unwrap();
        symlink("sub", d.path().join("alias")).unwrap();
        symlink("a.md", d.path().join("same.md")).unwrap();
        let c = Corpus::load(d.path(), WalkOptions::default()).unwrap();
        let paths: Vec<_> = c.docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["a.md", "alias/b.md", "same.md", "sub/b.md"]);
        let outside_links: Vec<String> = c
            .skipped
            .iter()
            .filter(|s| matches!(s.reason, SkipReason::OutsideCorpus(_)))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(outside_links.len(), 2, "{:?}", c.skipped);
        assert!(
            outside_links
                .iter()
                .any(|s| s.contains("passwd.txt") && s.contains("outside the corpus"))
        );
        assert!(outside_links.iter().any(|s| s.contains("linked")));

        let follow = WalkOptions {
            follow_outside_links: true,
            ..WalkOptions::default()
        };
        let c = Corpus::load(d.path(), follow).unwrap();
        assert!(c.doc("passwd.txt").is_some() && c.doc("linked/more.md").is_some());
    }

    #[cfg(unix)]
    #[test]
    fn two_names_that_are_not_utf8_are_skipped_and_told_apart() {
        use std::os::unix::ffi::OsStrExt;
        let d = tempfile::tempdir().unwrap();
        for name in [&b"name-\xff.md"[..], &b"name-\xfe.md"[..]] {
            std::fs::write(d.path().join(std::ffi::OsStr::from_bytes(name)), b"# Same text").unwrap();
        }
        write(d.path(), "ok.md", b"# Fine");
        let c = Corpus::load(d.path(), WalkOptions::default()).unwrap();
        let paths: Vec<_> = c.docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["ok.md"]);
        let shown: std::collections::HashSet<String> = c.skipped.iter().map(|s| s.to_string()).collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(c.skipped.iter().all(|s| s.reason == SkipReason::NonUtf8Name));
    }
}
