//! Reading and writing test-set files, YAML or JSON Lines by extension.
//!
//! Reading keeps, for each case, its value as read and its source text; writing lays the new
//! value over the old key order and, when nothing changed, writes the source text back as it
//! was (`write`). That is how real cases come out byte-for-byte as they went in. YAML is parsed
//! in `yaml_read`; this file reads JSON Lines; `typed` builds the typed set from either.

use std::path::Path;

use serde_json::{Map, Value};

use super::TestSet;
use super::typed::{Format, build};
use super::write::{jsonl_string, yaml_string};
use super::yaml_read::load_yaml;
use crate::fsutil::write_atomic;
use crate::{Error, Result, limits};

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
    let mut set = build(top, path, Format::Jsonl, |i| {
        lines.get(i).map(|&l| (l, Vec::new()))
    })?;
    for (case, raw) in set.cases.iter_mut().zip(raws) {
        if let Some(o) = case.origin.as_mut() {
            o.raw = Some(raw);
        }
    }
    Ok(set)
}
