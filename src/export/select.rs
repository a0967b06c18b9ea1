//! Which cases an export carries, and what every format needs of each: the question, the
//! reference answer, the labelled passages' text (read from the corpus, else the label's quote)
//! and the tags.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::chunk::CharIndex;
use crate::corpus::Corpus;
pub use crate::testset::Selection;
use crate::testset::{Case, Review, TestSet};

/// A labelled passage's place in the corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub doc: String,
    pub start: usize,
    pub end: usize,
}

/// A case as every format sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportCase {
    pub id: String,
    pub question: String,
    /// The reference answer, when the case has one.
    pub answer: Option<String>,
    /// The labelled passages' text, in label order.
    pub contexts: Vec<String>,
    /// Where each context is.
    pub spans: Vec<Span>,
    /// No passage answers it.
    pub unanswerable: bool,
    /// `tags.type`.
    pub kind: Option<String>,
    pub topic: Option<String>,
    /// `real` or `synthetic`.
    pub source: Option<String>,
    /// `dev` or `heldout`.
    pub split: Option<String>,
    /// The review state (`accepted` for a case without one).
    pub review: String,
    /// Every other tag, as written, and what the case's type records (`difficulty`,
    /// `identifier`, `sides`, `hops`, `bridge`, `source_rank`).
    pub tags: Map<String, Value>,
}

/// The cases selected, and what was left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selected {
    pub cases: Vec<ExportCase>,
    /// Cases left out, per review state.
    pub left_out: BTreeMap<String, usize>,
    /// Labels whose span could not be read from the corpus (no corpus, or the span is out of
    /// range): their quote was used instead.
    pub quoted: usize,
}

/// The cases of `set` that `selection` takes, with their passages read from `corpus` when
/// there is one.
pub fn select(set: &TestSet, corpus: Option<&Corpus>, selection: Selection) -> Selected {
    let mut out = Selected::default();
    for case in selection.cases(set) {
        out.cases.push(export_case(case, corpus, &mut out.quoted));
    }
    for (review, n) in selection.left_out(set) {
        out.left_out.insert(review_name(review), n);
    }
    out
}

fn export_case(case: &Case, corpus: Option<&Corpus>, quoted: &mut usize) -> ExportCase {
    let mut contexts = Vec::new();
    let mut spans = Vec::new();
    for label in &case.relevant {
        let text = corpus.and_then(|c| c.doc(&label.doc)).and_then(|d| {
            CharIndex::new(&d.text)
                .slice(label.start, label.end)
                .map(str::to_string)
        });
        contexts.push(text.unwrap_or_else(|| {
            *quoted += 1;
            label.quote.clone()
        }));
        spans.push(Span {
            doc: label.doc.clone(),
            start: label.start,
            end: label.end,
        });
    }
    let string = |v: &Option<_>| v.as_ref().map(|s: &crate::testset::Source| to_name(s));
    ExportCase {
        id: case.id.clone(),
        question: case.question.clone(),
        answer: case.answer.clone().filter(|a| !a.trim().is_empty()),
        contexts,
        spans,
        unanswerable: case.is_unanswerable(),
        kind: case.tags.kind.clone(),
        topic: case.tags.topic.clone(),
        source: string(&case.tags.source),
        split: case.split.as_ref().map(to_name),
        review: case.review.map_or("accepted".to_string(), review_name),
        tags: tags_of(case),
    }
}

/// The case's other tags and what its type records, for the formats' metadata.
fn tags_of(case: &Case) -> Map<String, Value> {
    let mut tags = case.tags.extra.clone();
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(v) = value {
            tags.insert(key.to_string(), v);
        }
    };
    put("difficulty", case.tags.difficulty.clone().map(Value::String));
    put(
        "source_rank",
        case.difficulty
            .as_ref()
            .and_then(|d| d.source_rank)
            .map(Value::from),
    );
    put("identifier", case.identifier.clone().map(Value::String));
    put("bridge", case.bridge.clone().map(Value::String));
    put(
        "hops",
        case.hops.as_ref().and_then(|h| serde_json::to_value(h).ok()),
    );
    put(
        "sides",
        case.sides.as_ref().and_then(|s| serde_json::to_value(s).ok()),
    );
    tags
}

/// A serde enum's name as written in the file.
fn to_name<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        _ => String::new(),
    }
}

fn review_name(r: Review) -> String {
    to_name(&r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testset::Label;

    #[test]
    fn accepted_cases_go_out_pending_on_request_rejected_never() {
        let all = Selection {
            include_pending: true,
        };
        let accepted = Selection::default();
        for (review, by_default, with_pending) in [
            (None, true, true),
            (Some(Review::Accepted), true, true),
            (Some(Review::Edited), true, true),
            (Some(Review::Pending), false, true),
            (Some(Review::NeedsLabel), false, true),
            (Some(Review::Rejected), false, false),
        ] {
            assert_eq!(accepted.takes(review), by_default, "{review:?}");
            assert_eq!(all.takes(review), with_pending, "{review:?}");
        }
    }

    #[test]
    fn a_label_without_its_corpus_exports_its_quote() {
        let mut case = Case::new("q1", "How long?");
        case.relevant.push(Label {
            doc: "a.md".into(),
            start: 0,
            end: 10,
            quote: "ten days".into(),
            chunk: None,
            grade: None,
            extra: Map::new(),
        });
        case.review = Some(Review::Pending);
        let set = TestSet {
            cases: vec![case],
            ..TestSet::default()
        };
        let none = select(&set, None, Selection::default());
        assert!(none.cases.is_empty());
        assert_eq!(none.left_out["pending"], 1);
        let all = select(
            &set,
            None,
            Selection {
                include_pending: true,
            },
        );
        assert_eq!(all.cases[0].contexts, ["ten days"]);
        assert_eq!(all.quoted, 1);
        assert_eq!(all.cases[0].review, "pending");
        assert!(!all.cases[0].unanswerable);
    }
}
