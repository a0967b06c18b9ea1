//! Writing a test set: each value laid over the key order it was read in, and a case or header
//! that did not change written back as the source text it was read from.

use serde_json::{Map, Value};

use super::emit::{sequence_item, write_map_body};
use super::typed::Format;
use super::{Case, FORMAT_VERSION, TestSet};

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
/// How a case is written: the text it was read from, when it is unchanged and that text is in
/// the format being written; else its value laid over the one it was read with.
enum Written<'a> {
    Kept(&'a str),
    Changed(Value),
}

fn written(case: &Case, same_format: bool) -> Written<'_> {
    let (value, same) = case_value(case);
    match case.origin.as_ref().and_then(|o| o.raw.as_deref()) {
        Some(raw) if same && same_format => Written::Kept(raw),
        _ => Written::Changed(value),
    }
}

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

pub(super) fn yaml_string(set: &TestSet) -> String {
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
        match written(case, origin.is_some()) {
            Written::Kept(raw) => out.push_str(raw),
            Written::Changed(value) => sequence_item(&mut out, &value, indent),
        }
    }
    out
}

pub(super) fn jsonl_string(set: &TestSet) -> String {
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
        match written(case, from_jsonl) {
            Written::Kept(raw) => out.push_str(raw),
            Written::Changed(value) => out.push_str(&serde_json::to_string(&value).expect("serializes")),
        }
        out.push('\n');
    }
    out
}
