//! Size limits on what ragsynth reads, so that a hostile or broken input file fails fast with a
//! message instead of exhausting memory or time. Each limit has a generous default and an
//! environment variable that raises it; the error names both.
//!
//! - YAML: at most [`YAML_ALIASES`] aliases (`*name`), and the parsed document may not grow past
//!   [`yaml_expansion_budget`] (aliases repeat what their anchor holds: a 1 MB scalar aliased
//!   1,000 times would be a gigabyte).
//! - JSON Lines and CSV: at most [`LINE_BYTES`] per line (per record for CSV) and
//!   [`FIELD_BYTES`] per field.

use std::path::Path;

use serde_json::{Map, Value};

use crate::{Error, Result};

/// One limit: the variable that sets it, its default and what it bounds (for messages).
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// Environment variable that overrides the default (a number, `K`/`M`/`G` suffixes allowed).
    pub var: &'static str,
    /// Value when the variable is unset.
    pub default: u64,
}

/// YAML aliases per file.
pub const YAML_ALIASES: Limit = Limit {
    var: "RAGSYNTH_MAX_YAML_ALIASES",
    default: 10_000,
};

/// Size of a parsed YAML document, when set explicitly (see [`yaml_expansion_budget`]).
pub const YAML_EXPANSION: Limit = Limit {
    var: "RAGSYNTH_MAX_YAML_EXPANSION",
    default: 0,
};

/// Bytes of one JSON Lines line or one CSV record.
pub const LINE_BYTES: Limit = Limit {
    var: "RAGSYNTH_MAX_LINE_BYTES",
    default: 16 * 1024 * 1024,
};

/// Bytes of one field (a JSON string anywhere in a line, a CSV cell).
pub const FIELD_BYTES: Limit = Limit {
    var: "RAGSYNTH_MAX_FIELD_BYTES",
    default: 1024 * 1024,
};

/// Bytes of one reply: an HTTP body (the LLM's, or a RAG system's under `run --http`) or one
/// line a `run --cmd` system writes.
pub const REPLY_BYTES: Limit = Limit {
    var: "RAGSYNTH_MAX_REPLY_BYTES",
    default: 16 * 1024 * 1024,
};

/// What a parsed YAML value is charged per node (about a JSON value's size in memory), on top
/// of the bytes of its strings.
pub const YAML_NODE_COST: u64 = 32;

impl Limit {
    /// The value in force: the variable's, else the default.
    pub fn get(self) -> u64 {
        std::env::var(self.var)
            .ok()
            .and_then(|v| parse_size(&v))
            .unwrap_or(self.default)
    }

    /// The clause of an error message that says how to raise this limit.
    pub fn how_to_raise(self) -> String {
        format!("raise it with {}=<bytes>", self.var)
    }
}

/// `123`, `64K`, `16M`, `2G` (powers of 1024; `KiB`, `MB` and the like read the same).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim().to_ascii_uppercase();
    let t = t.trim_end_matches('B').trim_end_matches('I');
    let (digits, shift) = match t.chars().last()? {
        'K' => (&t[..t.len() - 1], 10),
        'M' => (&t[..t.len() - 1], 20),
        'G' => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// How large (strings plus [`YAML_NODE_COST`] per node) the parsed form of a YAML file of
/// `input_len` bytes may grow: 64 MiB plus 16 times the file, unless [`YAML_EXPANSION`] is set.
/// A file without aliases stays far below it; aliases repeating large anchors do not.
pub fn yaml_expansion_budget(input_len: usize) -> u64 {
    match YAML_EXPANSION.get() {
        0 => (64 << 20) + 16 * input_len as u64,
        set => set,
    }
}

/// A human size: `1.5 MiB`, `512 bytes`.
pub fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / (1u64 << 10) as f64),
        b => format!("{b} bytes"),
    }
}

/// Refuses a line longer than [`LINE_BYTES`].
pub fn check_line(path: &Path, line: usize, text: &str) -> Result<()> {
    let max = LINE_BYTES.get();
    if text.len() as u64 > max {
        return Err(Error::Limit {
            path: path.to_path_buf(),
            line: Some(line),
            message: format!(
                "line is {}, over the limit of {} per line; {}",
                human(text.len() as u64),
                human(max),
                LINE_BYTES.how_to_raise()
            ),
        });
    }
    Ok(())
}

/// One JSON Lines record, `line` of `path`: `None` for a blank line, else the value, with the
/// line and its strings held to the limits and a syntax error naming line and column.
pub fn json_line(path: &Path, line: usize, text: &str) -> Result<Option<Value>> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    check_line(path, line, text)?;
    let value: Value = serde_json::from_str(text).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: Some(line),
        column: Some(e.column()),
        message: match e.classify() {
            // The usual cause: a record written over several lines, or cut short.
            serde_json::error::Category::Eof => format!(
                "the line ends inside a JSON value ({}); each record must be whole on one line",
                json_message(&e)
            ),
            _ => json_message(&e),
        },
    })?;
    check_strings(path, Some(line), &value)?;
    Ok(Some(value))
}

/// serde_json's message without the "at line L column C" it appends: the error that carries
/// it names the file, line and column once, in the `file:line:column` form.
pub fn json_message(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&place) {
        Some(bare) => bare.to_string(),
        None => message,
    }
}

/// [`json_line`] for formats whose every record is an object.
pub fn json_object_line(path: &Path, line: usize, text: &str) -> Result<Option<Map<String, Value>>> {
    match json_line(path, line, text)? {
        None => Ok(None),
        Some(Value::Object(obj)) => Ok(Some(obj)),
        Some(_) => Err(Error::Parse {
            path: path.to_path_buf(),
            line: Some(line),
            column: None,
            message: "expected a JSON object".into(),
        }),
    }
}

/// Refuses a field (`name`) longer than [`FIELD_BYTES`].
pub fn check_field(path: &Path, line: Option<usize>, name: &str, value: &str) -> Result<()> {
    let max = FIELD_BYTES.get();
    if value.len() as u64 > max {
        return Err(Error::Limit {
            path: path.to_path_buf(),
            line,
            message: format!(
                "field `{name}` is {}, over the limit of {} per field; {}",
                human(value.len() as u64),
                human(max),
                FIELD_BYTES.how_to_raise()
            ),
        });
    }
    Ok(())
}

/// [`check_field`] on every string in `value` (keys included), naming the first too long.
pub fn check_strings(path: &Path, line: Option<usize>, value: &Value) -> Result<()> {
    fn walk(path: &Path, line: Option<usize>, at: &str, v: &Value) -> Result<()> {
        match v {
            Value::String(s) => check_field(path, line, at, s),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| walk(path, line, &format!("{at}[{i}]"), v)),
            Value::Object(m) => m.iter().try_for_each(|(k, v)| {
                let at = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                check_field(path, line, &at, k)?;
                walk(path, line, &at, v)
            }),
            _ => Ok(()),
        }
    }
    walk(path, line, "", value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_suffixes() {
        assert_eq!(parse_size("123"), Some(123));
        assert_eq!(parse_size("64K"), Some(64 << 10));
        assert_eq!(parse_size("16 MiB"), Some(16 << 20));
        assert_eq!(parse_size("2gb"), Some(2 << 30));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(human(3 << 20), "3.0 MiB");
    }

    #[test]
    fn a_long_field_is_named_with_the_limit_and_the_variable() {
        let big = "x".repeat(FIELD_BYTES.default as usize + 1);
        let v = serde_json::json!({"question": "q", "contexts": ["short", big]});
        let e = check_strings(Path::new("in.jsonl"), Some(3), &v)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("in.jsonl:3: field `contexts[1]`"), "{e}");
        assert!(e.contains("RAGSYNTH_MAX_FIELD_BYTES"), "{e}");
    }

    #[test]
    fn a_bad_record_names_its_place_once() {
        let p = Path::new("run.jsonl");
        let e = json_line(p, 2, r#"{"id": "a", "retrieved": ["x","#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("run.jsonl:2:30: the line ends inside a JSON value"),
            "{e}"
        );
        assert!(!e.contains("at line") && !e.contains("line 1"), "{e}");
        let e = json_line(p, 5, r#"{"id": "a",, }"#).unwrap_err().to_string();
        assert!(
            e.starts_with("run.jsonl:5:12: ") && !e.contains(" at line "),
            "{e}"
        );
    }
}
