//! The corpus: a directory of documents, walked with gitignore-aware rules, read as UTF-8 text.
//!
//! A file that cannot be used (binary, not UTF-8, empty, unreadable, too large, a symlink loop)
//! is skipped with a [`Skipped`] entry naming it and the reason; the walk never stops for one
//! file. Documents can be streamed one at a time ([`Walk::documents`]) so memory stays bounded by
//! the largest single document, or collected into a [`Corpus`].

use std::fmt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::fsutil::relative_slash_path;
use crate::{Error, Result, html};

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
        write!(f, "skipped {}: {}", self.path.display(), self.reason)
    }
}

/// Options for walking a corpus.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Files above this size are skipped.
    pub max_file_bytes: u64,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        }
    }
}

/// The list of candidate files of a corpus, sorted, not yet read.
#[derive(Debug)]
pub struct Walk {
    root: PathBuf,
    files: Vec<PathBuf>,
    walk_skips: Vec<Skipped>,
    options: WalkOptions,
}

impl Walk {
    /// Lists the documents under `root` (a directory, or a single file). Hidden files and paths
    /// matched by `.gitignore`, `.ignore` or `.ragsynthignore` files are left out, also outside a
    /// git repository.
    pub fn new(root: &Path, options: WalkOptions) -> Result<Walk> {
        let meta = std::fs::metadata(root).map_err(|e| Error::io(root, e))?;
        let mut files = Vec::new();
        let mut walk_skips = Vec::new();
        if meta.is_file() {
            files.push(root.to_path_buf());
        } else {
            let walker = ignore::WalkBuilder::new(root)
                .follow_links(true)
                .require_git(false)
                .add_custom_ignore_filename(".ragsynthignore")
                .sort_by_file_path(|a, b| a.cmp(b))
                .build();
            for entry in walker {
                match entry {
                    Ok(e) => {
                        let is_file = e.file_type().is_some_and(|t| t.is_file());
                        if is_file && DocKind::from_path(e.path()).is_some() {
                            files.push(e.into_path());
                        }
                    }
                    Err(err) => walk_skips.push(skip_from_walk_error(root, err)),
                }
            }
        }
        // Sort by the label path so ids and fingerprints do not depend on the platform's order.
        let base = walk_base(root, meta.is_file());
        files.sort_by_cached_key(|p| relative_slash_path(&base, p));
        Ok(Walk {
            root: root.to_path_buf(),
            files,
            walk_skips,
            options,
        })
    }

    /// Candidate files found.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Files the walker itself could not enter (symlink loops, unreadable directories).
    pub fn walk_skips(&self) -> &[Skipped] {
        &self.walk_skips
    }

    /// Reads the documents one at a time, in path order.
    pub fn documents(&self) -> impl Iterator<Item = Result<Document, Skipped>> + '_ {
        let base = walk_base(&self.root, self.root.is_file());
        self.files
            .iter()
            .map(move |p| read_document(&base, p, &self.options))
    }
}

fn walk_base(root: &Path, is_file: bool) -> PathBuf {
    if is_file {
        root.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        root.to_path_buf()
    }
}

fn skip_from_walk_error(root: &Path, err: ignore::Error) -> Skipped {
    fn find(err: &ignore::Error) -> Option<(PathBuf, SkipReason)> {
        match err {
            ignore::Error::Loop { child, .. } => Some((child.clone(), SkipReason::SymlinkLoop)),
            ignore::Error::WithPath { path, err } => {
                let reason = find(err)
                    .map(|(_, r)| r)
                    .unwrap_or_else(|| SkipReason::Walk(err.to_string()));
                Some((path.clone(), reason))
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => find(err),
            ignore::Error::Partial(errs) => errs.first().and_then(find),
            _ => None,
        }
    }
    match find(&err) {
        Some((path, reason)) => Skipped { path, reason },
        None => Skipped {
            path: root.to_path_buf(),
            reason: SkipReason::Walk(err.to_string()),
        },
    }
}

/// Reads one file into a [`Document`], or says why it is skipped.
pub fn read_document(base: &Path, path: &Path, options: &WalkOptions) -> Result<Document, Skipped> {
    let skip = |reason| Skipped {
        path: path.to_path_buf(),
        reason,
    };
    let kind = DocKind::from_path(path).unwrap_or(DocKind::Text);
    let size = std::fs::metadata(path)
        .map_err(|e| skip(SkipReason::Unreadable(e.to_string())))?
        .len();
    if size > options.max_file_bytes {
        return Err(skip(SkipReason::TooLarge(size)));
    }
    let bytes = std::fs::read(path).map_err(|e| skip(SkipReason::Unreadable(e.to_string())))?;
    if memchr::memchr(0, &bytes).is_some() {
        return Err(skip(SkipReason::Binary));
    }
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let raw =
        String::from_utf8(bytes).map_err(|e| skip(SkipReason::NotUtf8(e.utf8_error().valid_up_to())))?;
    let text = match kind {
        DocKind::Html => html::to_text(&raw),
        _ => raw,
    };
    if text.trim().is_empty() {
        return Err(skip(SkipReason::Empty));
    }
    Ok(Document {
        path: relative_slash_path(base, path),
        text,
        kind,
        sha256,
    })
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
}

impl Corpus {
    /// Walks and reads every document under `root`.
    pub fn load(root: &Path, options: WalkOptions) -> Result<Corpus> {
        let walk = Walk::new(root, options)?;
        let mut corpus = Corpus {
            root: root.to_path_buf(),
            skipped: walk.walk_skips().to_vec(),
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
}
