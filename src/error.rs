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
    /// A command-line or configuration value is unusable.
    #[error("{0}")]
    Config(String),
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
    /// The test set breaks invariants (duplicate ids, labels outside the corpus, ...).
    #[error("{path}: {} problem(s); first: {}", issues.len(), issues.first().map(|i| i.to_string()).unwrap_or_default())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem found.
        issues: Vec<crate::testset::Issue>,
    },
}

impl Error {
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

fn case_prefix(case: &Option<String>) -> String {
    case.as_ref().map(|c| format!("case `{c}`: ")).unwrap_or_default()
}
