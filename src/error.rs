//! The library's error type. Every variant keeps the file (and where known the line, case and
//! field) so the message a user sees says where to look.

use std::path::PathBuf;

/// Result alias used across the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, with where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be read or written.
    // The I/O error is part of the message, not a `source`: anyhow's `{:#}` would print it twice.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A file is not well-formed YAML / JSON / CSV.
    #[error("{}: {message}", location(path, *line, *column))]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// 1-based column, when known.
        column: Option<usize>,
        /// What the parser said.
        message: String,
    },
    /// A well-formed file holds a value that does not fit the format.
    #[error("{}: {}field `{field}`: {message}", location(path, *line, None), case_prefix(case))]
    Field {
        /// The file.
        path: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// The id of the case, when the field belongs to one.
        case: Option<String>,
        /// Dotted path of the field, e.g. `relevant[0].start`.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A command-line or configuration value is unusable. Free-form; the typed variants below
    /// are preferred wherever a caller may act on the kind of problem.
    #[error("{0}")]
    Config(String),
    /// A value is not one of those accepted (`--splitter`, `unit`, a severity, ...).
    #[error("unknown {what} `{value}`: use {expected}")]
    UnknownValue {
        /// What the value is for, e.g. `splitter`.
        what: &'static str,
        /// The value given.
        value: String,
        /// The values accepted, for the message.
        expected: &'static str,
    },
    /// A file whose type is told by its extension has an extension no reader knows.
    #[error("{}: unknown {what} file type; use {expected}", path.display())]
    UnknownFileType {
        /// The file.
        path: PathBuf,
        /// What the file holds, e.g. `question`.
        what: &'static str,
        /// The extensions accepted.
        expected: &'static str,
    },
    /// The chunking's numbers do not fit together, or its tokenizer cannot be loaded.
    #[error(transparent)]
    Chunking(#[from] ChunkingError),
    /// `--select` / `--ignore` names no audit rule.
    #[error("`{code}` matches no rule code (see `ragsynth audit --explain RS101`)")]
    UnknownRule {
        /// The code or prefix given.
        code: String,
    },
    /// `--explain` names no audit rule.
    #[error("unknown rule `{code}`; rules: {known}")]
    NoSuchRule {
        /// The code or name given.
        code: String,
        /// Every rule's code, comma-separated.
        known: String,
    },
    /// A command that needs the corpus found none: the test set names none and no `--corpus`.
    #[error("{}", no_corpus(path, *exists))]
    NoCorpus {
        /// The test-set file.
        path: PathBuf,
        /// Whether the test-set file exists (a new one is created with the corpus given).
        exists: bool,
    },
    /// The corpus directory named (by `--corpus` or the set's `corpus.root`) does not exist.
    #[error("{}", corpus_missing(root, *from_set))]
    CorpusMissing {
        /// The directory.
        root: PathBuf,
        /// It came from the set's `corpus.root`, not from the command line.
        from_set: bool,
    },
    /// The corpus holds no document ragsynth can read.
    #[error("{}", no_documents(root, *skipped))]
    NoDocuments {
        /// The directory.
        root: PathBuf,
        /// Files skipped (each named in a warning).
        skipped: usize,
    },
    /// A file the command reads does not exist.
    #[error("{what} {} does not exist", path.display())]
    NotFound {
        /// The file.
        path: PathBuf,
        /// What it should hold, e.g. `test set`.
        what: &'static str,
    },
    /// The corpus could not be read.
    #[error("reading corpus {}: {}", root.display(), without_path(error, root))]
    Corpus {
        /// The directory.
        root: PathBuf,
        /// What went wrong.
        error: Box<Error>,
    },
    /// Run items that name chunks or documents, or quote text, need the corpus to be resolved.
    #[error("{}", needs_corpus(item.as_deref()))]
    NeedsCorpus {
        /// The item that needed it; `None` for items given as text.
        item: Option<String>,
    },
    /// Chunk ids can only be derived under the test set's `chunking`, and it names none.
    #[error("{}", no_chunking(item.as_deref()))]
    NoChunking {
        /// The run item that is a chunk id; `None` when deriving chunk ids for the whole set.
        item: Option<String>,
    },
    /// The set was opened to be read only (another tool's export) and cannot be saved.
    #[error("{}: opened read-only; only a ragsynth test set can be written", path.display())]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// The review server could not listen or stopped.
    #[error("{doing}: {error}")]
    Network {
        /// What was being done, e.g. `cannot listen on 127.0.0.1:8080`.
        doing: String,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The file changed on disk since it was read, and that change and this command's collide;
    /// nothing was written.
    #[error("{path}: {message}")]
    Conflict {
        /// The file.
        path: PathBuf,
        /// Which case and field both changed, and how.
        message: String,
    },
    /// An input is larger than a limit meant to keep hostile files from exhausting memory or
    /// time; the message names the limit and the variable that raises it.
    #[error("{}: {message}", location(path, *line, None))]
    Limit {
        /// The file.
        path: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is too large, the limit, and how to raise it.
        message: String,
    },
    /// Not one passage of another tool's test set was found in the corpus: it is not the
    /// corpus the set was generated from.
    #[error(
        "{}: none of its {passages} context passage(s) was found in the corpus {}; is it the corpus the set was generated from? (pass --corpus DIR)",
        path.display(),
        root.display()
    )]
    NothingLocated {
        /// The exported test set.
        path: PathBuf,
        /// The corpus directory.
        root: PathBuf,
        /// Passages looked for.
        passages: usize,
    },
}

/// Why a chunking cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChunkingError {
    /// `size` is 0.
    #[error("chunk size must be positive")]
    ZeroSize,
    /// `overlap` is not below `size`.
    #[error("overlap ({overlap}) must be smaller than the chunk size ({size})")]
    OverlapTooLarge {
        /// The overlap.
        overlap: usize,
        /// The size.
        size: usize,
    },
    /// `min_size` is above `size`.
    #[error("min size ({min}) exceeds size ({size})")]
    MinAboveSize {
        /// The smallest size.
        min: usize,
        /// The size.
        size: usize,
    },
    /// The tiktoken encoding could not be loaded.
    #[error("loading tiktoken encoding `{encoding}`: {message}")]
    Tokenizer {
        /// The encoding.
        encoding: String,
        /// What tiktoken said.
        message: String,
    },
}

impl Error {
    /// [`Error::NoDocuments`] for the corpus at `root`, read without one document (`skipped`
    /// files skipped).
    pub fn no_documents(root: &std::path::Path, skipped: usize) -> Self {
        Error::NoDocuments {
            root: root.to_path_buf(),
            skipped,
        }
    }

    /// A bad field on line `line` of a JSON Lines file, of case `case` when known.
    pub fn field_at(
        path: &std::path::Path,
        line: usize,
        case: Option<&str>,
        field: &str,
        message: impl Into<String>,
    ) -> Self {
        Error::Field {
            path: path.to_path_buf(),
            line: Some(line),
            case: case.map(str::to_string),
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            error: source,
        }
    }
}

fn location(path: &std::path::Path, line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", path.display()),
        (Some(l), None) => format!("{}:{l}", path.display()),
        _ => path.display().to_string(),
    }
}

fn corpus_missing(root: &std::path::Path, from_set: bool) -> String {
    if from_set {
        format!(
            "corpus {} (the test set's corpus.root) does not exist; pass --corpus DIR",
            root.display()
        )
    } else {
        format!("corpus directory {} does not exist", root.display())
    }
}

fn no_documents(root: &std::path::Path, skipped: usize) -> String {
    let skipped = match skipped {
        0 => String::new(),
        n => format!("; {n} file(s) skipped, each named in a warning above"),
    };
    format!(
        "{}: no readable documents (ragsynth reads .md, .markdown, .txt, .rst, .html and .htm files){skipped}",
        root.display()
    )
}

/// An error about the corpus without the corpus's path, which the message already names.
fn without_path(error: &Error, root: &std::path::Path) -> String {
    match error {
        Error::Io { path, error } if path == root => error.to_string(),
        other => other.to_string(),
    }
}

fn no_corpus(path: &std::path::Path, exists: bool) -> String {
    if exists {
        format!(
            "{} has no corpus header; give the corpus with --corpus DIR",
            path.display()
        )
    } else {
        format!(
            "{} does not exist yet; give the corpus with --corpus DIR to create it",
            path.display()
        )
    }
}

fn needs_corpus(item: Option<&str>) -> String {
    match item {
        Some(i) => format!("run item `{i}` names a chunk or document, which needs the corpus: pass --corpus"),
        None => "run items given as text need the corpus: pass --corpus".into(),
    }
}

fn no_chunking(item: Option<&str>) -> String {
    match item {
        Some(i) => format!("run item `{i}` is a chunk id but the test set has no `chunking`"),
        None => "the test set has no `chunking`: chunk ids cannot be derived".into(),
    }
}

fn case_prefix(case: &Option<String>) -> String {
    case.as_ref().map(|c| format!("case `{c}`: ")).unwrap_or_default()
}
