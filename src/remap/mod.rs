//! Re-anchoring labels after the corpus or the chunking changed.
//!
//! A label stores a document, a character span and a quote; chunk ids are derived. When the
//! chunking changes only the chunk ids move. When a document is edited, renamed or reworded the
//! span no longer holds the quote, so the quote is looked for again — exactly near where it was,
//! then fuzzily in the same document, then in every document — and the span, document and
//! chunk follow it. A label whose quote cannot be found is never deleted: it stays as it was and
//! is flagged, so a person decides.
//!
//! Each label gets one [`Status`]; the report lists them so a user sees what moved before
//! trusting the numbers computed on the set.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::Result;
use crate::chunk::{CharIndex, Chunking};
use crate::corpus::Corpus;
use crate::locate::{self, Match};
use crate::testset::{CorpusRef, Label, TestSet};
use crate::workspace::ChunkedCorpus;

/// The label field remap writes when a person should look at a label.
pub const MARKER: &str = "remap";

/// Settings of one remap run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RemapOptions {
    /// Similarity a fuzzily re-found quote needs (0..=1).
    pub min_similarity: f32,
}

impl Default for RemapOptions {
    fn default() -> Self {
        RemapOptions {
            min_similarity: locate::DEFAULT_MIN_SIMILARITY,
        }
    }
}

/// What happened to one label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Same document, same span, same chunk.
    Unchanged,
    /// Same document and span; only the chunk id changed (new chunking).
    Rechunked,
    /// The quote was found verbatim at another place in the same document.
    Moved,
    /// The quote was found in the same document only after folding case and white space, or
    /// fuzzily; the label's quote is now the text actually found.
    Fuzzy,
    /// The quote was found in another document (renamed or moved file).
    Renamed,
    /// The quote was not found anywhere; the label is left as it was and flagged.
    Lost,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 6] = [
        Status::Unchanged,
        Status::Rechunked,
        Status::Moved,
        Status::Fuzzy,
        Status::Renamed,
        Status::Lost,
    ];

    /// The name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Rechunked => "rechunked",
            Status::Moved => "moved",
            Status::Fuzzy => "fuzzy",
            Status::Renamed => "renamed",
            Status::Lost => "lost",
        }
    }
}

/// The outcome for one label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// Case id.
    pub case: String,
    /// Line of the case in the test-set file, when read from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Position of the label in the case's `relevant` list.
    pub label: usize,
    /// What happened.
    pub status: Status,
    /// Document before.
    pub doc: String,
    /// Document after, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_doc: Option<String>,
    /// Span before.
    pub span: (usize, usize),
    /// Span after (absent when lost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_span: Option<(usize, usize)>,
    /// Chunk id before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<String>,
    /// Chunk id after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_chunk: Option<String>,
    /// Similarity of the re-found quote (1.0 for exact and normalised matches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f32>,
}

/// What a remap run did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemapReport {
    /// One outcome per label, in file order.
    pub labels: Vec<Outcome>,
    /// Corpus fingerprint before (as the header had it).
    pub fingerprint_before: Option<String>,
    /// Corpus fingerprint now.
    pub fingerprint: String,
    /// Chunking before.
    pub chunking_before: Option<Chunking>,
    /// Chunking now.
    pub chunking: Chunking,
}

impl RemapReport {
    /// Labels with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.labels.iter().filter(|o| o.status == status).count()
    }

    /// True when some label could not be re-anchored.
    pub fn has_lost(&self) -> bool {
        self.count(Status::Lost) > 0
    }
}

/// Re-anchors every label of `set` to `corpus` cut under `chunking`, updates the header
/// (corpus fingerprint and `root`, chunking) and reports what happened to each label. Only
/// label fields and the header change; a case whose labels are unchanged is left untouched.
pub fn remap(
    set: &mut TestSet,
    corpus: &Corpus,
    root: &str,
    chunking: Chunking,
    options: RemapOptions,
) -> Result<RemapReport> {
    let chunks = ChunkedCorpus::new(Some(corpus), &chunking)?;
    Ok(remap_chunked(set, corpus, root, &chunks, options))
}

/// [`remap`] to chunks already cut from `corpus` (the workspace's), under their chunking.
pub fn remap_chunked(
    set: &mut TestSet,
    corpus: &Corpus,
    root: &str,
    chunks: &ChunkedCorpus,
    options: RemapOptions,
) -> RemapReport {
    let chunking = chunks.chunking().clone();
    let indexes: HashMap<&str, CharIndex<'_>> = corpus
        .docs
        .iter()
        .map(|d| (d.path.as_str(), CharIndex::new(&d.text)))
        .collect();
    let mut labels = Vec::new();
    for case in &mut set.cases {
        let line = case.line();
        for (i, label) in case.relevant.iter_mut().enumerate() {
            let mut outcome = reanchor(label, corpus, &indexes, chunks, options);
            outcome.case = case.id.clone();
            outcome.line = line;
            outcome.label = i;
            labels.push(outcome);
        }
    }
    let fingerprint = corpus.fingerprint();
    let corpus_ref = set.corpus.get_or_insert_with(|| CorpusRef {
        root: root.to_string(),
        ..CorpusRef::default()
    });
    corpus_ref.root = root.to_string();
    let fingerprint_before = corpus_ref.fingerprint.replace(fingerprint.clone());
    let chunking_before = set.chunking.replace(chunking.clone());
    RemapReport {
        labels,
        fingerprint_before,
        fingerprint,
        chunking_before,
        chunking,
    }
}

/// Re-anchors one label in place and says what happened (case, line and index left blank).
fn reanchor<'c>(
    label: &mut Label,
    corpus: &'c Corpus,
    indexes: &HashMap<&'c str, CharIndex<'c>>,
    chunks: &ChunkedCorpus,
    options: RemapOptions,
) -> Outcome {
    let mut outcome = Outcome {
        case: String::new(),
        line: None,
        label: 0,
        status: Status::Lost,
        doc: label.doc.clone(),
        new_doc: None,
        span: (label.start, label.end),
        new_span: None,
        chunk: label.chunk.clone(),
        new_chunk: None,
        similarity: None,
    };
    let in_place = corpus.doc(&label.doc).is_some_and(|d| {
        indexes[d.path.as_str()]
            .slice(label.start, label.end)
            .is_some_and(|span| span.contains(label.quote.as_str()))
    });
    if in_place {
        outcome.status = Status::Unchanged;
        clear_lost_marker(label);
    } else {
        let same_doc = corpus.doc(&label.doc).and_then(|d| {
            locate::locate(&d.text, &label.quote, Some(label.start), options.min_similarity)
                .map(|f| (d.path.clone(), f))
        });
        let found =
            same_doc.or_else(|| locate::locate_in_corpus(corpus, &label.quote, None, options.min_similarity));
        let Some((path, found)) = found else {
            set_marker(label, json!({"status": "lost"}));
            return outcome;
        };
        let doc = corpus.doc(&path).expect("located in a corpus document");
        let idx = &indexes[doc.path.as_str()];
        let quote = idx.slice(found.start, found.end).unwrap_or_default().to_string();
        // Text the span held around the quote (a passage-wide label) is kept around it.
        let margin = (label.end.saturating_sub(label.start)).saturating_sub(label.quote.chars().count());
        let (start, end) = widen((found.start, found.end), margin, idx.char_len());
        outcome.status = if path != label.doc {
            Status::Renamed
        } else if found.how == Match::Exact {
            Status::Moved
        } else {
            Status::Fuzzy
        };
        outcome.similarity = Some(found.similarity);
        if path != label.doc {
            outcome.new_doc = Some(path.clone());
        }
        if quote != label.quote {
            set_marker(
                label,
                json!({
                    "status": outcome.status.as_str(),
                    "similarity": (f64::from(found.similarity) * 100.0).round() / 100.0,
                    "previous_quote": label.quote,
                }),
            );
            label.quote = quote;
        } else {
            clear_lost_marker(label);
        }
        label.doc = path;
        label.start = start;
        label.end = end;
        outcome.new_span = Some((start, end));
    }
    outcome.new_span.get_or_insert((label.start, label.end));
    // Chunk ids are written where the label already had one; a set that keeps none gets none.
    if label.chunk.is_some() {
        let doc = corpus
            .doc(&label.doc)
            .expect("a re-anchored label points into the corpus");
        let chunk = chunks
            .label_chunk(&indexes[doc.path.as_str()], label)
            .map(|c| c.id.clone());
        if chunk != label.chunk {
            if outcome.status == Status::Unchanged {
                outcome.status = Status::Rechunked;
            }
            outcome.new_chunk = chunk.clone();
            label.chunk = chunk;
        }
    }
    outcome
}

/// The quote's span grown by `margin` characters, split evenly before and after and kept
/// inside the document.
fn widen(quote: (usize, usize), margin: usize, doc_len: usize) -> (usize, usize) {
    let (qs, qe) = quote;
    let len = qe - qs + margin;
    let start = qs.saturating_sub(margin / 2);
    let end = (start + len).min(doc_len).max(qe);
    let start = end.saturating_sub(len).min(start);
    (start, end)
}

fn set_marker(label: &mut Label, value: Value) {
    label.extra.insert(MARKER.into(), value);
}

/// A label flagged lost by an earlier run and found again is no longer lost. Other marks
/// (a fuzzy re-find) stay until a person has looked.
fn clear_lost_marker(label: &mut Label) {
    let lost = label
        .extra
        .get(MARKER)
        .and_then(|v| v.get("status"))
        .and_then(Value::as_str)
        == Some("lost");
    if lost {
        label.extra.shift_remove(MARKER);
    }
}

/// The marker remap left on a label, if any (`{status, similarity?, previous_quote?}`).
pub fn marker(label: &Label) -> Option<&Map<String, Value>> {
    label.extra.get(MARKER).and_then(Value::as_object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widen_keeps_the_margin_inside_the_document() {
        assert_eq!(widen((10, 20), 0, 100), (10, 20));
        assert_eq!(widen((10, 20), 10, 100), (5, 25));
        assert_eq!(widen((2, 20), 10, 100), (0, 28));
        assert_eq!(widen((90, 98), 10, 100), (82, 100));
    }
}
