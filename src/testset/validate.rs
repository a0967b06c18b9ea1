//! Invariants of a test set: unique ids, labels that point at real text.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;

use super::{QuestionType, TestSet};
use crate::chunk::CharIndex;
use crate::corpus::Corpus;
use crate::severity::Severity;

/// One broken invariant, with where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Issue {
    /// Which invariant it breaks.
    #[serde(skip)]
    pub kind: IssueKind,
    /// How bad.
    pub severity: Severity,
    /// Case id (`None` for the header).
    pub case: Option<String>,
    /// Line of the case in the file, when read from one.
    pub line: Option<usize>,
    /// Dotted field path.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// Which invariant an [`Issue`] breaks; the audit's label rules pick theirs by [`IssueKind::family`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueKind {
    /// The corpus fingerprint differs from the header's.
    CorpusChanged,
    /// A case has an empty id.
    EmptyId,
    /// Two cases share an id.
    DuplicateId,
    /// A case has an empty question.
    EmptyQuestion,
    /// `tags.type` is not a known question type.
    UnknownType,
    /// A case typed unanswerable has labels.
    LabelledUnanswerable,
    /// A label's start is after its end.
    ReversedSpan,
    /// A label's quote is empty.
    EmptyQuote,
    /// A label names a document the corpus does not hold.
    DocMissing,
    /// A label's span runs past the end of its document.
    SpanPastEnd,
    /// A label's quote is not inside its span.
    QuoteNotInSpan,
}

/// What part of a case or set an issue is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IssueFamily {
    /// The case itself: id, question, type.
    Case,
    /// A label's document.
    Doc,
    /// A label's span.
    Span,
    /// A label's quote.
    Quote,
    /// The corpus as a whole.
    Corpus,
}

impl IssueKind {
    /// The part of the case or set the issue is about.
    pub fn family(self) -> IssueFamily {
        match self {
            IssueKind::CorpusChanged => IssueFamily::Corpus,
            IssueKind::EmptyId
            | IssueKind::DuplicateId
            | IssueKind::EmptyQuestion
            | IssueKind::UnknownType
            | IssueKind::LabelledUnanswerable => IssueFamily::Case,
            IssueKind::ReversedSpan | IssueKind::SpanPastEnd => IssueFamily::Span,
            IssueKind::EmptyQuote | IssueKind::QuoteNotInSpan => IssueFamily::Quote,
            IssueKind::DocMissing => IssueFamily::Doc,
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.line {
            write!(f, "line {l}: ")?;
        }
        if let Some(c) = &self.case {
            write!(f, "case `{c}`: ")?;
        }
        write!(f, "field `{}`: {}", self.field, self.message)
    }
}

/// Checks the set's invariants; with a corpus, also that every label points at its text.
pub fn validate(set: &TestSet, corpus: Option<&Corpus>) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut indexes: HashMap<&str, CharIndex<'_>> = HashMap::new();
    if let (Some(c), Some(fp)) = (corpus, set.corpus.as_ref().and_then(|c| c.fingerprint.as_ref()))
        && c.fingerprint() != *fp
    {
        issues.push(Issue {
            kind: IssueKind::CorpusChanged,
            severity: Severity::Warning,
            case: None,
            line: None,
            field: "corpus.fingerprint".into(),
            message: "the corpus changed since the labels were anchored; run `ragsynth remap`".into(),
        });
    }
    for (i, case) in set.cases.iter().enumerate() {
        let mut push = |kind, severity, field: String, message: String| {
            issues.push(Issue {
                kind,
                severity,
                case: Some(case.id.clone()),
                line: case.line(),
                field,
                message,
            })
        };
        if case.id.trim().is_empty() {
            push(
                IssueKind::EmptyId,
                Severity::Error,
                "id".into(),
                format!("case #{} has an empty id", i + 1),
            );
        } else if let Some(first) = seen.insert(&case.id, i) {
            push(
                IssueKind::DuplicateId,
                Severity::Error,
                "id".into(),
                format!("duplicate id (also case #{})", first + 1),
            );
        }
        if case.question.trim().is_empty() {
            push(
                IssueKind::EmptyQuestion,
                Severity::Error,
                "question".into(),
                "empty question".into(),
            );
        }
        if let Some(kind) = &case.tags.kind
            && QuestionType::parse(kind).is_none()
        {
            push(
                IssueKind::UnknownType,
                Severity::Warning,
                "tags.type".into(),
                format!("unknown question type `{kind}`"),
            );
        }
        if case.question_type() == Some(QuestionType::Unanswerable) && !case.relevant.is_empty() {
            push(
                IssueKind::LabelledUnanswerable,
                Severity::Error,
                "relevant".into(),
                "an unanswerable case must have no relevant passages".into(),
            );
        }
        for (j, label) in case.relevant.iter().enumerate() {
            let field = |f: &str| format!("relevant[{j}].{f}");
            if label.start > label.end {
                push(
                    IssueKind::ReversedSpan,
                    Severity::Error,
                    field("start"),
                    format!("start {} is after end {}", label.start, label.end),
                );
                continue;
            }
            if label.quote.is_empty() {
                push(
                    IssueKind::EmptyQuote,
                    Severity::Error,
                    field("quote"),
                    "empty quote".into(),
                );
            }
            let Some(corpus) = corpus else { continue };
            let Some(doc) = corpus.doc(&label.doc) else {
                push(
                    IssueKind::DocMissing,
                    Severity::Error,
                    field("doc"),
                    format!("`{}` is not in the corpus", label.doc),
                );
                continue;
            };
            let idx = indexes
                .entry(doc.path.as_str())
                .or_insert_with(|| CharIndex::new(&doc.text));
            match idx.slice(label.start, label.end) {
                None => push(
                    IssueKind::SpanPastEnd,
                    Severity::Error,
                    field("end"),
                    format!(
                        "span {}..{} is past the end of `{}` ({} characters)",
                        label.start,
                        label.end,
                        label.doc,
                        idx.char_len()
                    ),
                ),
                Some(span) if !span.contains(label.quote.as_str()) => push(
                    IssueKind::QuoteNotInSpan,
                    Severity::Error,
                    field("quote"),
                    format!(
                        "quote is not inside span {}..{} of `{}`",
                        label.start, label.end, label.doc
                    ),
                ),
                Some(_) => {}
            }
        }
    }
    issues
}
