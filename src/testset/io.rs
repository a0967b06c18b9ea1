//! Reading and writing test-set files, YAML or JSON Lines by extension.
//!
//! Reading keeps, for each case, its value as read and its source text; writing lays the new
//! value over the old key order and, when nothing changed, writes the source text back as it
//! was. That is how real cases come out byte-for-byte as they went in.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use super::emit::{sequence_item, write_map_body};
use super::{Case, CorpusRef, FORMAT_VERSION, Kept, Origin, TestSet};
use crate::chunk::Chunking;
use crate::fsutil::write_atomic;
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
    format: Format,
    value: Map<String, Value>,
    raw: Option<String>,
    /// Indentation of the `- ` of case items in the source.
    item_indent: usize,
}

/// The top-level mapping, read in one pass (the YAML parser is the slow part of loading): every
/// key's value, and for `cases` the line of each case and of each of its fields.
struct YamlTop {
    map: Map<String, Value>,
    lines: Vec<(usize, Vec<(String, usize)>)>,
}

type SpannedCase = Spanned<indexmap::IndexMap<String, Spanned<Value>>>;

impl<'de> Deserialize<'de> for YamlTop {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct TopVisitor;
        impl<'de> serde::de::Visitor<'de> for TopVisitor {
            type Value = YamlTop;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping with `ragsynth:` and `cases:` keys")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<YamlTop, A::Error> {
                let mut map = Map::new();
                let mut lines = Vec::new();
                while let Some(key) = m.next_key::<String>()? {
                    if key != "cases" {
                        map.insert(key, m.next_value()?);
                        continue;
                    }
                    let cases: Option<Vec<SpannedCase>> = m.next_value()?;
                    let mut values = Vec::new();
                    for case in cases.unwrap_or_default() {
                        let fields = case
                            .value
                            .iter()
                            .map(|(k, v)| (k.clone(), v.referenced.line() as usize));
                        lines.push((case.referenced.line() as usize, fields.collect()));
                        values.push(Value::Object(
                            case.value.into_iter().map(|(k, v)| (k, v.value)).collect(),
                        ));
                    }
                    map.insert(key, Value::Array(values));
                }
                Ok(YamlTop { map, lines })
            }
        }
        d.deserialize_map(TopVisitor)
    }
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

fn parse_error(path: &Path, line: Option<usize>, column: Option<usize>, message: impl Into<String>) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message: message.into(),
    }
}

fn yaml_options() -> serde_saphyr::Options {
    // Test sets of 100k cases are tens of MB: lift the parser's default size budget.
    let mut o = serde_saphyr::Options::default();
    o.budget = None;
    o
}

fn load_yaml(text: &str, path: &Path) -> Result<TestSet> {
    let to_parse_error = |e: serde_saphyr::Error| {
        let loc = e.location();
        let msg = e.to_string();
        let first = msg.lines().next().unwrap_or_default().to_string();
        parse_error(
            path,
            loc.map(|l| l.line() as usize),
            loc.map(|l| l.column() as usize),
            first,
        )
    };
    let YamlTop {
        map: top,
        lines: case_lines,
    } = serde_saphyr::from_str_with_options(text, yaml_options()).map_err(to_parse_error)?;
    build(
        top,
        path,
        Format::Yaml,
        |i| case_lines.get(i).map(|(l, f)| (*l, f.clone())),
        Some(text),
    )
}

fn load_jsonl(text: &str, path: &Path) -> Result<TestSet> {
    let mut header: Option<Map<String, Value>> = None;
    let mut cases = Vec::new();
    let mut lines = Vec::new();
    let mut raws = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|e| parse_error(path, Some(n + 1), Some(e.column()), e.to_string()))?;
        let Value::Object(obj) = v else {
            return Err(parse_error(path, Some(n + 1), None, "expected a JSON object"));
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
fn build(
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

/// Cuts the YAML text into the header and one slice per case, when the file is laid out so
/// that this is safe: block-style `cases:` as the last key, each item starting on its own
/// `- ` line at one indentation.
fn attach_yaml_sources(set: &mut TestSet, text: &str) {
    if set.cases.is_empty() || set.cases.iter().any(|c| c.line().is_none()) {
        return;
    }
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut starts = Vec::with_capacity(set.cases.len());
    let mut indent = None;
    for case in &set.cases {
        let line = case.line().unwrap_or(1);
        let Some(&begin) = line_starts.get(line - 1) else {
            return;
        };
        let line_text = text[begin..].lines().next().unwrap_or_default();
        let trimmed = line_text.trim_start_matches(' ');
        let this_indent = line_text.len() - trimmed.len();
        if !trimmed.starts_with("- ") || *indent.get_or_insert(this_indent) != this_indent {
            return;
        }
        starts.push(begin);
    }
    let header_raw = &text[..starts[0]];
    for (i, case) in set.cases.iter_mut().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let mut raw = text[starts[i]..end].to_string();
        if !raw.ends_with('\n') {
            raw.push('\n');
        }
        if let Some(o) = case.origin.as_mut() {
            o.raw = Some(raw);
        }
    }
    if let Some(h) = set.origin.as_mut() {
        h.raw = Some(header_raw.to_string());
        h.item_indent = indent.unwrap_or(2);
    }
}

/// Lays `new` over the key order of `old`: keys of `old` first in their order (recursively),
/// then keys only `new` has. Keys `new` dropped are dropped.
pub(crate) fn overlay(new: Value, old: &Value) -> Value {
    match (new, old) {
        (Value::Object(mut n), Value::Object(o)) => {
            let mut out = Map::with_capacity(n.len());
            for (k, ov) in o {
                if let Some(nv) = n.shift_remove(k) {
                    out.insert(k.clone(), overlay(nv, ov));
                }
            }
            out.extend(n);
            Value::Object(out)
        }
        (Value::Array(n), Value::Array(o)) => Value::Array(
            n.into_iter()
                .enumerate()
                .map(|(i, nv)| match o.get(i) {
                    Some(ov) => overlay(nv, ov),
                    None => nv,
                })
                .collect(),
        ),
        (n, _) => n,
    }
}

/// The case as it will be written, and whether it is unchanged since it was read.
fn case_value(case: &Case) -> (Value, bool) {
    let v = serde_json::to_value(case).expect("a case always serializes");
    match case.origin.as_ref() {
        Some(o) => {
            let mut v = overlay(v, &o.value);
            // Fields that default to empty (`relevant: []`, `tags: {}`) are not added to a case
            // that never had them.
            if let (Value::Object(m), Value::Object(old)) = (&mut v, &o.value) {
                m.retain(|k, v| old.contains_key(k) || !is_empty_collection(v));
            }
            let same = v == o.value;
            (v, same)
        }
        None => (v, false),
    }
}

fn is_empty_collection(v: &Value) -> bool {
    matches!(v, Value::Array(a) if a.is_empty()) || matches!(v, Value::Object(m) if m.is_empty())
}

fn header_value(set: &TestSet) -> Map<String, Value> {
    let mut m = Map::new();
    // A file read without a version key keeps none (it reads as the current version).
    let versionless = set
        .origin
        .as_ref()
        .is_some_and(|o| !o.value.contains_key("ragsynth"));
    if !(versionless && set.version == FORMAT_VERSION) {
        m.insert("ragsynth".into(), Value::from(set.version));
    }
    if let Some(c) = &set.corpus {
        m.insert("corpus".into(), serde_json::to_value(c).expect("serializes"));
    }
    if let Some(c) = &set.chunking {
        m.insert("chunking".into(), serde_json::to_value(c).expect("serializes"));
    }
    for (k, v) in &set.extra {
        m.insert(k.clone(), v.clone());
    }
    match set.origin.as_ref() {
        Some(o) => match overlay(Value::Object(m), &Value::Object(o.value.clone())) {
            Value::Object(m) => m,
            _ => unreachable!("overlay of two maps is a map"),
        },
        None => m,
    }
}

fn yaml_string(set: &TestSet) -> String {
    let header = header_value(set);
    let origin = set.origin.as_ref().filter(|o| o.format == Format::Yaml);
    let mut out = String::new();
    // New items take the indentation of the items kept verbatim, so the list stays one list.
    let indent = origin.map_or(2, |o| o.item_indent);
    match origin.and_then(|o| {
        o.raw
            .as_ref()
            .filter(|_| o.value == header && !set.cases.is_empty())
            .map(|r| (r, o))
    }) {
        Some((raw, _)) => out.push_str(raw),
        None => {
            if !header.is_empty() {
                write_map_body(&mut out, &header, 0);
            }
            out.push_str(if set.cases.is_empty() {
                "cases: []\n"
            } else {
                "cases:\n"
            });
        }
    }
    for case in &set.cases {
        let (value, same) = case_value(case);
        match case
            .origin
            .as_ref()
            .and_then(|o| o.raw.as_ref())
            .filter(|_| same && origin.is_some())
        {
            Some(raw) => out.push_str(raw),
            None => sequence_item(&mut out, &value, indent),
        }
    }
    out
}

fn jsonl_string(set: &TestSet) -> String {
    // The header line is recognised by its `ragsynth` key: a file read without one gets none
    // back while it has nothing else to say, and gets the key once it has.
    let mut header = header_value(set);
    let mut out = String::new();
    if !header.is_empty() {
        if !header.contains_key("ragsynth") {
            header.shift_insert(0, "ragsynth".into(), Value::from(set.version));
        }
        out = serde_json::to_string(&Value::Object(header)).expect("serializes");
        out.push('\n');
    }
    let from_jsonl = set.origin.as_ref().is_some_and(|o| o.format == Format::Jsonl);
    for case in &set.cases {
        let (value, same) = case_value(case);
        match case
            .origin
            .as_ref()
            .and_then(|o| o.raw.as_ref())
            .filter(|_| same && from_jsonl)
        {
            Some(raw) => out.push_str(raw),
            None => out.push_str(&serde_json::to_string(&value).expect("serializes")),
        }
        out.push('\n');
    }
    out
}
