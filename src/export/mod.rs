//! A test set in the shapes the evaluation tools teams already run load: Ragas, DeepEval,
//! Giskard, promptfoo, and a flat JSON Lines file for one's own scripts.
//!
//! The formats are a registry, as the audit rules are: one file per format, each a
//! [`FormatInfo`] naming the tool, its loader and a writer from the [`ExportCase`]s every
//! format shares. [`select`] decides which cases go out (accepted by default, pending on
//! request, rejected never) and reads each label's text from the corpus, so every format's
//! contexts are the labelled passages. `ragsynth import` reads each of these files back.

mod deepeval;
mod giskard;
mod jsonl;
mod promptfoo;
mod ragas;
pub mod select;

use serde_json::{Map, Value, json};

pub use select::{ExportCase, Selected, Selection, Span, select};

/// One format a set can be exported to.
#[derive(Debug)]
pub struct FormatInfo {
    /// The name `--to` takes.
    pub name: &'static str,
    /// The file name extension the tool expects.
    pub extension: &'static str,
    /// The loader the file is shaped for, for `--help` and docs.
    pub loader: &'static str,
    /// How an unanswerable case is written, for docs.
    pub unanswerable: &'static str,
    /// The file's bytes for these cases.
    write: fn(&[ExportCase]) -> String,
}

impl FormatInfo {
    /// The file for `cases`.
    pub fn write(&self, cases: &[ExportCase]) -> String {
        (self.write)(cases)
    }
}

static FORMATS: &[FormatInfo] = &[
    ragas::INFO,
    deepeval::INFO,
    giskard::INFO,
    promptfoo::INFO,
    jsonl::INFO,
];

/// Every format, in the order `--help` lists them.
pub fn formats() -> &'static [FormatInfo] {
    FORMATS
}

/// The format named `name`, or an error listing them all.
pub fn format(name: &str) -> crate::Result<&'static FormatInfo> {
    FORMATS
        .iter()
        .find(|f| f.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            crate::Error::Config(format!(
                "no export format `{name}`; known: {}",
                FORMATS.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
            ))
        })
}

/// What every format keeps of a case where it has room: its id, tags, split, review state,
/// and the labels' places in the corpus.
pub(crate) fn metadata(c: &ExportCase) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("id".into(), json!(c.id));
    if let Some(t) = &c.kind {
        m.insert("type".into(), json!(t));
    }
    if let Some(t) = &c.topic {
        m.insert("topic".into(), json!(t));
    }
    if let Some(s) = &c.source {
        m.insert("source".into(), json!(s));
    }
    if let Some(s) = &c.split {
        m.insert("split".into(), json!(s));
    }
    m.insert("review".into(), json!(c.review));
    m.insert("unanswerable".into(), json!(c.unanswerable));
    for (k, v) in &c.tags {
        m.entry(k.clone()).or_insert_with(|| v.clone());
    }
    if !c.spans.is_empty() {
        m.insert("spans".into(), json!(c.spans));
    }
    m
}

/// One JSON value per line.
pub(crate) fn lines(values: impl IntoIterator<Item = Value>) -> String {
    let mut out = String::new();
    for v in values {
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_found_by_name_and_an_unknown_one_lists_them() {
        assert_eq!(format("Ragas").unwrap().name, "ragas");
        let e = format("trulens").unwrap_err().to_string();
        assert!(e.contains("ragas, deepeval, giskard, promptfoo, jsonl"), "{e}");
        let mut names: Vec<&str> = formats().iter().map(|f| f.name).collect();
        names.dedup();
        assert_eq!(names.len(), 5);
    }
}
