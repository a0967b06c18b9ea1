//! Reading and writing test-set files, YAML or JSON Lines by extension.
//!
//! Reading keeps, for each case, its value as read and its source text; writing lays the new
//! value over the old key order and, when nothing changed, writes the source text back as it
//! was (`write`). That is how real cases come out byte-for-byte as they went in. YAML is parsed
//! in `yaml_read`; this file reads JSON Lines and builds the typed set from either.

use std::path::Path;

use serde_json::{Map, Value};

use super::write::{jsonl_string, yaml_string};
use super::yaml_read::{attach_yaml_sources, load_yaml};
use super::{Case, CorpusRef, FORMAT_VERSION, Kept, Origin, TestSet};
use crate::chunk::Chunking;
use crate::fsutil::write_atomic;
use crate::{Error, Result, limits};

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

/// Reads a test set.
pub fn load(path: &Path) -> Result<TestSet> {
    let text = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = String::from_utf8(text).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: None,
        column: None,
        message: format!("not valid UTF-8 at byte {}", e.utf8_error().valid_up_to()),
    })?;
    load_str(&text, path, Format::of(path))
}

/// Parses a test set from text; `path` is used in error messages only.
pub fn load_str(text: &str, path: &Path, format: Format) -> Result<TestSet> {
    match format {
        Format::Yaml => load_yaml(text, path),
        Format::Jsonl => load_jsonl(text, path),
    }
}

/// Writes a test set atomically, in the format its extension says, over whatever the file holds
/// now. Commands that read the file first save through [`super::Tracked`] instead, which keeps
/// what another writer saved in between.
pub fn save(set: &TestSet, path: &Path) -> Result<()> {
    write_atomic(path, to_string(set, Format::of(path)).as_bytes())
}

/// Renders a test set.
pub fn to_string(set: &TestSet, format: Format) -> String {
    match format {
        Format::Yaml => yaml_string(set),
        Format::Jsonl => jsonl_string(set),
    }
}

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

fn load_jsonl(text: &str, path: &Path) -> Result<TestSet> {
    let mut header: Option<Map<String, Value>> = None;
    let mut cases = Vec::new();
    let mut lines = Vec::new();
    let mut raws = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(obj) = limits::json_object_line(path, n + 1, line)? else {
            continue;
        };
        if header.is_none() && cases.is_empty() && obj.contains_key("ragsynth") {
            header = Some(obj);
            continue;
        }
        cases.push(Value::Object(obj));
        lines.push(n + 1);
        raws.push(line.to_string());
    }
    let mut top = header.unwrap_or_default();
    top.insert("cases".into(), Value::Array(cases));
    let mut set = build(
        top,
        path,
        Format::Jsonl,
        |i| lines.get(i).map(|&l| (l, Vec::new())),
        None,
    )?;
    for (case, raw) in set.cases.iter_mut().zip(raws) {
        if let Some(o) = case.origin.as_mut() {
            o.raw = Some(raw);
        }
    }
    Ok(set)
}

/// Builds the typed set from the top-level map. `lines(i)` gives case i's line and field lines.
pub(super) fn build(
    mut top: Map<String, Value>,
    path: &Path,
    format: Format,
    lines: impl Fn(usize) -> Option<(usize, Vec<(String, usize)>)>,
    yaml_text: Option<&str>,
) -> Result<TestSet> {
    let header_value: Map<String, Value> = top
        .iter()
        .filter(|(k, _)| *k != "cases")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let cases_last = top.keys().next_back().map(String::as_str) == Some("cases");
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
    let mut set = TestSet {
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
    };
    if let Some(text) = yaml_text
        && cases_last
    {
        attach_yaml_sources(&mut set, text);
    }
    Ok(set)
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
