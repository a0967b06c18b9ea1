//! A small, deterministic YAML emitter for JSON-shaped values.
//!
//! We write YAML ourselves (and read it with serde-saphyr) so that the bytes are ours to pin:
//! the same value always gives the same text, strings are quoted whenever a plain scalar could
//! be read back as something else, and short flat maps (tags, chunking, provenance) stay on one
//! line in flow style, as people write them by hand.

use std::fmt::Write;

use serde_json::{Map, Value};

/// Longest one-line flow collection, in bytes, before block style is used.
const FLOW_WIDTH: usize = 96;

/// Renders a mapping as a YAML document (no `---`, trailing newline).
pub fn to_yaml_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_map_body(&mut out, map, 0),
        other => {
            out.push_str(&inline(other, false));
            out.push('\n');
        }
    }
    out
}

/// Renders one sequence item (`- key: ...`) at the given indentation.
pub fn sequence_item(out: &mut String, value: &Value, indent: usize) {
    pad(out, indent);
    out.push_str("- ");
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut body = String::new();
            write_map_body(&mut body, map, indent + 2);
            // The first key shares the dash's line.
            out.push_str(&body[indent + 2..]);
        }
        Value::Array(items) if !items.is_empty() && flow_of(value).is_none() => {
            out.push('\n');
            for item in items {
                sequence_item(out, item, indent + 2);
            }
        }
        other => {
            out.push_str(&inline(other, false));
            out.push('\n');
        }
    }
}

/// Renders `key: value` lines of a mapping at `indent`.
pub fn write_map_body(out: &mut String, map: &Map<String, Value>, indent: usize) {
    for (key, value) in map {
        pad(out, indent);
        out.push_str(&scalar_str(key, false));
        out.push(':');
        write_value_after_key(out, value, indent);
    }
}

fn write_value_after_key(out: &mut String, value: &Value, indent: usize) {
    if let Some(flow) = flow_of(value) {
        out.push(' ');
        out.push_str(&flow);
        out.push('\n');
        return;
    }
    match value {
        Value::Object(map) => {
            out.push('\n');
            write_map_body(out, map, indent + 2);
        }
        Value::Array(items) => {
            out.push('\n');
            for item in items {
                sequence_item(out, item, indent + 2);
            }
        }
        scalar => {
            out.push(' ');
            out.push_str(&inline(scalar, false));
            out.push('\n');
        }
    }
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// One-line rendering for scalars and empty or short flat collections; `None` when a value needs
/// block style.
fn flow_of(value: &Value) -> Option<String> {
    match value {
        Value::Object(m) if m.is_empty() => Some("{}".into()),
        Value::Array(a) if a.is_empty() => Some("[]".into()),
        Value::Object(m) => {
            if !m.values().all(is_flat) {
                return None;
            }
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", scalar_str(k, true), inline(v, true)))
                .collect();
            let s = format!("{{{}}}", parts.join(", "));
            (s.len() <= FLOW_WIDTH && !s.contains('\n')).then_some(s)
        }
        Value::Array(a) => {
            if !a.iter().all(is_scalar) {
                return None;
            }
            let s = format!(
                "[{}]",
                a.iter().map(|v| inline(v, true)).collect::<Vec<_>>().join(", ")
            );
            (s.len() <= FLOW_WIDTH).then_some(s)
        }
        _ => None,
    }
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Object(_) | Value::Array(_))
}

fn is_flat(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().all(is_scalar),
        Value::Object(m) => m.is_empty(),
        _ => true,
    }
}

/// A scalar (or an empty / flat collection) on one line.
fn inline(value: &Value, in_flow: bool) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar_str(s, in_flow),
        Value::Array(a) => {
            format!(
                "[{}]",
                a.iter().map(|v| inline(v, true)).collect::<Vec<_>>().join(", ")
            )
        }
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", scalar_str(k, true), inline(v, true)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A string as a plain scalar when that reads back as the same string, else double-quoted.
pub fn scalar_str(s: &str, in_flow: bool) -> String {
    if plain_ok(s, in_flow) {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

fn plain_ok(s: &str, in_flow: bool) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.trim() != s || "-?:,[]{}#&*!|>'\"%@`<=".contains(first) {
        return false;
    }
    // Numbers, dates and versions: keep them strings for every YAML reader.
    if first.is_ascii_digit() || first == '.' || first == '+' {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    if s.chars()
        .any(|c| c.is_control() || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}'))
    {
        return false;
    }
    if in_flow && s.contains([',', '[', ']', '{', '}']) {
        return false;
    }
    !matches!(
        s.to_ascii_lowercase().as_str(),
        "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off" | "y" | "n" | ".inf" | ".nan"
    )
}

fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: &Value) {
        let text = to_yaml_string(v);
        let back: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back, v, "\n{text}");
    }

    #[test]
    fn a_difficulty_reads_as_it_was_rounded() {
        let d = crate::testset::Difficulty {
            source_rank: Some(12),
            containment: Some((f64::from(0.666_666_7_f32) * 100.0).round() / 100.0),
            ..Default::default()
        };
        let text = to_yaml_string(&json!({ "difficulty": d }));
        assert!(text.contains("containment: 0.67"), "{text}");
        assert!(!text.contains("0.670000"), "{text}");
    }

    #[test]
    fn tricky_strings_round_trip() {
        for s in [
            "",
            " lead",
            "trail ",
            "yes",
            "No",
            "null",
            "~",
            "1.5",
            "007",
            "2026-11-30",
            "- dash",
            "a: b",
            "#hash",
            "x #y",
            "quote \" and \\ back",
            "line\nbreak",
            "tab\there",
            "[x]",
            "{y}",
            "a, b",
            "ünïcødé 日本語 😀",
            "@at",
            "`tick`",
            "'single'",
            "key:",
            "\u{7}bell",
            "\u{2028}sep",
            "<<",
            "=",
            "%pct",
            "!tag",
            "*alias",
            "&anchor",
            "|pipe",
            ">fold",
        ] {
            round_trip(&json!({ "k": s, "flow": { "t": s } }));
        }
    }

    #[test]
    fn shapes_round_trip() {
        round_trip(&json!({
            "ragsynth": 1,
            "chunking": {"splitter": "auto", "unit": "chars", "size": 1200, "overlap": 120},
            "cases": [
                {"id": "a", "relevant": [{"doc": "x.md", "start": 0, "end": 5, "quote": "hello"}],
                 "tags": {"type": "lookup"}, "audit": {"flags": ["RS101"], "overlap": 0.71}},
                {"id": "b", "relevant": [], "empty": {}, "nested": [[1, 2], {"a": [1, {"b": 2}]}]},
                "scalar", 3, -2.5e-10, null, true
            ]
        }));
    }

    #[test]
    fn flow_style_for_short_flat_maps() {
        let text = to_yaml_string(&json!({"tags": {"type": "lookup", "topic": "refunds"}}));
        assert_eq!(text, "tags: {type: lookup, topic: refunds}\n");
        let text = to_yaml_string(&json!({"cases": [{"id": "a", "q": "b"}]}));
        assert_eq!(text, "cases:\n  - id: a\n    q: b\n");
    }
}
