//! The typed test set from a parsed tree (YAML or JSON Lines, read to the same map): the
//! header's version, corpus and chunking, and each case, every bad field named with its line.

use std::path::Path;

use serde_json::{Map, Value};

use super::{Case, CorpusRef, FORMAT_VERSION, Kept, Origin, TestSet};
use crate::chunk::Chunking;
use crate::{Error, Result};

/// File format of a test set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.yaml` / `.yml`.
    Yaml,
    /// `.jsonl` / `.ndjson`: an optional header line `{"ragsynth": 1, ...}`, then one case a line.
    Jsonl,
}

impl Format {
    /// The format for a path (YAML unless the extension says JSON Lines).
    pub fn of(path: &Path) -> Format {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("jsonl" | "ndjson") => Format::Jsonl,
            _ => Format::Yaml,
        }
    }
}

/// How the header was read: its value, and for YAML its source text up to the first case.
#[derive(Debug, Clone)]
pub(crate) struct HeaderOrigin {
    pub(super) format: Format,
    pub(super) value: Map<String, Value>,
    pub(super) raw: Option<String>,
    /// Indentation of the `- ` of case items in the source.
    pub(super) item_indent: usize,
}

/// A parse error at `path` (and the line and column, when known).
pub(super) fn parse_error(
    path: &Path,
    line: Option<usize>,
    column: Option<usize>,
    message: impl Into<String>,
) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message: message.into(),
    }
}

/// Builds the typed set from the top-level map. `lines(i)` gives case i's line and field lines.
pub(super) fn build(
    mut top: Map<String, Value>,
    path: &Path,
    format: Format,
    lines: impl Fn(usize) -> Option<(usize, Vec<(String, usize)>)>,
) -> Result<TestSet> {
    let header_value: Map<String, Value> = top
        .iter()
        .filter(|(k, _)| *k != "cases")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let field_err = |field: &str, message: String| Error::Field {
        path: path.to_path_buf(),
        line: None,
        case: None,
        field: field.into(),
        message,
    };
    let version = match top.shift_remove("ragsynth") {
        None => FORMAT_VERSION,
        Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or_default(),
        Some(other) => {
            return Err(field_err(
                "ragsynth",
                format!("expected a format version number, found {other}"),
            ));
        }
    };
    if version > FORMAT_VERSION {
        return Err(field_err(
            "ragsynth",
            format!(
                "format version {version} is newer than this ragsynth reads ({FORMAT_VERSION}); upgrade ragsynth"
            ),
        ));
    }
    let corpus: Option<CorpusRef> = match top.shift_remove("corpus") {
        None | Some(Value::Null) => None,
        Some(v) => Some(typed(&v).map_err(|(f, m)| field_err(&join_path("corpus", &f), m))?),
    };
    let chunking: Option<Chunking> = match top.shift_remove("chunking") {
        None | Some(Value::Null) => None,
        Some(v) => Some(typed(&v).map_err(|(f, m)| field_err(&join_path("chunking", &f), m))?),
    };
    let raw_cases = match top.shift_remove("cases") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a,
        Some(_) => return Err(field_err("cases", "expected a list of cases".into())),
    };
    let mut cases = Vec::with_capacity(raw_cases.len());
    for (i, value) in raw_cases.into_iter().enumerate() {
        let (line, field_lines) = lines(i).unzip();
        let id = value.get("id").and_then(Value::as_str).map(str::to_string);
        let mut case: Case = typed(&value).map_err(|(field, message)| {
            let top_field = field.split(['.', '[']).next().unwrap_or_default();
            let field_line = field_lines
                .as_ref()
                .and_then(|f| f.iter().find(|(k, _)| k == top_field).map(|(_, l)| *l));
            Error::Field {
                path: path.to_path_buf(),
                line: field_line.or(line),
                case: id.clone().or_else(|| Some(format!("#{}", i + 1))),
                field: if field.is_empty() { "(case)".into() } else { field },
                message,
            }
        })?;
        case.origin = Kept(Some(Origin {
            value,
            raw: None,
            line,
        }));
        cases.push(case);
    }
    Ok(TestSet {
        version,
        corpus,
        chunking,
        extra: top,
        cases,
        origin: Kept(Some(HeaderOrigin {
            format,
            value: header_value,
            raw: None,
            item_indent: 2,
        })),
    })
}

fn join_path(prefix: &str, field: &str) -> String {
    if field.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}.{field}")
    }
}

/// Deserializes a value into a typed struct, reporting the dotted path of a bad field.
fn typed<T: serde::de::DeserializeOwned>(value: &Value) -> std::result::Result<T, (String, String)> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { String::new() } else { field };
        (field, e.into_inner().to_string())
    })
}
