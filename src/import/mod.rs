//! Importing real questions (from logs, tickets, a spreadsheet) into a test set.
//!
//! Real questions are what synthetic ones are measured against, so they enter the set as they
//! were asked — minus personal data, which [`crate::pii`] replaces before anything is written.
//! A row that names a document and a quote gets a label anchored where the quote really is in
//! the corpus (`review: accepted`); a row without one gets candidate labels from keyword search
//! and `review: needs_label`, so a person confirms them. A question already in the set is
//! reported and not added twice; no row is dropped without a line saying why.

pub mod candidates;
pub mod foreign;
pub mod rows;

use std::collections::{HashMap, HashSet};

use serde_json::json;

use crate::Result;
use crate::chunk::CharIndex;
use crate::chunk::Chunking;
use crate::corpus::Corpus;
use crate::locate::{Match, locate_in_corpus};
use crate::pii::{self, Counts};
use crate::testset::{Case, Label, QuestionType, Review, Source, Tags, TestSet};
use crate::text::words;
use crate::workspace::ChunkedCorpus;

pub use candidates::Candidates;
pub use foreign::{ForeignSummary, add_converted};
pub use rows::{Columns, Row, read};

/// Settings of one import.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportOptions {
    /// Replace personal data by placeholders (on unless `--no-scrub`).
    pub scrub: bool,
    /// Candidate labels proposed for a question without one.
    pub candidates: usize,
    /// Similarity a quote needs to be matched fuzzily.
    pub min_similarity: f32,
    /// Name of the question file, recorded in each case's provenance.
    pub source_name: String,
    /// Tag cases with this source instead of the default (real questions, synthetic sets).
    pub source: Option<Source>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            scrub: true,
            candidates: 3,
            min_similarity: crate::locate::DEFAULT_MIN_SIMILARITY,
            source_name: String::new(),
            source: None,
        }
    }
}

/// Something about one row a user should read.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// Line of the row in the question file.
    pub line: usize,
    /// What happened.
    pub kind: NoteKind,
}

/// What happened to a row, beyond being added as asked.
#[derive(Debug, Clone, PartialEq)]
pub enum NoteKind {
    /// Not added: the question is already in the set (or earlier in the file).
    Duplicate {
        /// The case (or the id of the earlier row) it repeats.
        of: String,
    },
    /// Not added: its id is already used by another case.
    IdTaken {
        /// The id.
        id: String,
    },
    /// Not added: the question cell is empty.
    EmptyQuestion,
    /// Added without its label: the quote was not found; candidate labels were proposed.
    QuoteNotFound {
        /// The document the row named.
        doc: Option<String>,
    },
    /// The quote was matched only after folding case/white space, or fuzzily; the label's quote
    /// is the corpus text.
    QuoteInexact {
        /// Similarity of the match.
        similarity: f32,
    },
    /// The quote was found in another document than the row named.
    OtherDocument {
        /// The document the row named.
        named: String,
        /// Where the quote is.
        found: String,
    },
    /// The row is typed `unanswerable` yet names a quote; the quote was ignored.
    UnanswerableWithQuote,
    /// The named document is not in the corpus (no quote to look for); candidates come from
    /// the whole corpus.
    UnknownDocument {
        /// The document the row named.
        doc: String,
    },
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportSummary {
    /// Rows read.
    pub rows: usize,
    /// Ids of the cases added, in order.
    pub added: Vec<String>,
    /// Of those, how many got a label from their row.
    pub labelled: usize,
    /// Of those, how many wait for a person to pick a label.
    pub needs_label: usize,
    /// Of those, how many are typed `unanswerable` (no label by design).
    pub unanswerable: usize,
    /// Personal data replaced, by kind (question and answer).
    pub scrubbed: Counts,
    /// Whether scrubbing ran.
    pub scrub: bool,
    /// Row-level notes, in line order.
    pub notes: Vec<Note>,
}

impl ImportSummary {
    /// Rows not added because they repeat a question or an id.
    pub fn duplicates(&self) -> usize {
        self.notes
            .iter()
            .filter(|n| matches!(n.kind, NoteKind::Duplicate { .. } | NoteKind::IdTaken { .. }))
            .count()
    }
}

/// A question reduced to its lower-cased words: how duplicates are recognised.
pub fn normalize(question: &str) -> String {
    words(question).join(" ")
}

/// Adds `rows` to `set` as real cases, anchoring labels in `corpus` cut under `chunking`.
pub fn import(
    set: &mut TestSet,
    rows: &[Row],
    corpus: &Corpus,
    chunking: &Chunking,
    options: &ImportOptions,
) -> Result<ImportSummary> {
    let chunks = ChunkedCorpus::new(Some(corpus), chunking)?;
    Ok(import_chunked(set, rows, corpus, &chunks, options))
}

/// [`import`] into chunks already cut from `corpus` (the workspace's).
pub fn import_chunked(
    set: &mut TestSet,
    rows: &[Row],
    corpus: &Corpus,
    chunks: &ChunkedCorpus,
    options: &ImportOptions,
) -> ImportSummary {
    // Candidate search indexes the chunks on first need: a file of labelled rows needs none.
    let mut index: Option<Candidates<'_>> = None;
    let mut seen: HashMap<String, String> = set
        .cases
        .iter()
        .map(|c| (normalize(&c.question), c.id.clone()))
        .collect();
    let mut taken: HashSet<String> = set.cases.iter().map(|c| c.id.clone()).collect();
    let mut summary = ImportSummary {
        rows: rows.len(),
        scrub: options.scrub,
        ..ImportSummary::default()
    };
    for row in rows {
        let mut note = |kind| summary.notes.push(Note { line: row.line, kind });
        let Some(question) = row.question.as_deref() else {
            note(NoteKind::EmptyQuestion);
            continue;
        };
        let mut counts = Counts::default();
        let mut clean = |text: &str| {
            if options.scrub {
                let s = pii::scrub(text);
                counts.merge(&s.counts);
                s.text
            } else {
                text.to_string()
            }
        };
        let question = clean(question);
        let answer = row.answer.as_deref().map(&mut clean);
        let key = normalize(&question);
        if let Some(of) = seen.get(&key) {
            note(NoteKind::Duplicate { of: of.clone() });
            continue;
        }
        let id = match &row.id {
            Some(id) if taken.contains(id) => {
                note(NoteKind::IdTaken { id: id.clone() });
                continue;
            }
            Some(id) => id.clone(),
            None => set.fresh_id("real", &key),
        };
        let mut case = Case::new(id.clone(), question.clone());
        case.answer = answer;
        case.tags = Tags {
            kind: row.kind.clone(),
            topic: row.topic.clone(),
            source: Some(options.source.unwrap_or(Source::Real)),
            ..Tags::default()
        };
        case.provenance = Some(json!({"imported_from": options.source_name, "line": row.line}));
        let unanswerable = row.kind.as_deref() == Some(QuestionType::Unanswerable.as_str());
        if unanswerable {
            if row.quote.is_some() {
                note(NoteKind::UnanswerableWithQuote);
            }
            case.review = Some(Review::Accepted);
            summary.unanswerable += 1;
        }
        let label = match row.quote.as_ref().filter(|_| !unanswerable) {
            Some(quote) => {
                let (label, notes) =
                    anchor_quote(corpus, chunks, row.doc.as_deref(), quote, options.min_similarity);
                notes.into_iter().for_each(&mut note);
                label
            }
            None => None,
        };
        match label {
            _ if unanswerable => {}
            Some(label) => {
                case.relevant.push(label);
                case.review = Some(Review::Accepted);
                summary.labelled += 1;
            }
            None => {
                let within = row.doc.as_deref().filter(|d| corpus.doc(d).is_some());
                if let (Some(doc), None, None) = (&row.doc, within, &row.quote) {
                    note(NoteKind::UnknownDocument { doc: doc.clone() });
                }
                let index = index.get_or_insert_with(|| Candidates::over(chunks));
                case.relevant = index.propose(&question, within, options.candidates);
                case.review = Some(Review::NeedsLabel);
                summary.needs_label += 1;
            }
        }
        summary.scrubbed.merge(&counts);
        seen.insert(key, id.clone());
        taken.insert(id.clone());
        summary.added.push(id);
        set.cases.push(case);
    }
    summary
}

/// The label for a row's quote: where it is in the corpus (the named document first), with the
/// corpus text as its quote, and notes on anything inexact.
fn anchor_quote(
    corpus: &Corpus,
    chunks: &ChunkedCorpus,
    named: Option<&str>,
    quote: &str,
    min_similarity: f32,
) -> (Option<Label>, Vec<NoteKind>) {
    let mut notes = Vec::new();
    let Some((path, f)) = locate_in_corpus(corpus, quote, named.map(|d| (d, None)), min_similarity) else {
        notes.push(NoteKind::QuoteNotFound {
            doc: named.map(str::to_string),
        });
        return (None, notes);
    };
    if f.how != Match::Exact {
        notes.push(NoteKind::QuoteInexact {
            similarity: f.similarity,
        });
    }
    if let Some(named) = named.filter(|d| *d != path) {
        notes.push(NoteKind::OtherDocument {
            named: named.to_string(),
            found: path.clone(),
        });
    }
    let doc = corpus.doc(&path).expect("located in a corpus document");
    let quote = CharIndex::new(&doc.text)
        .slice(f.start, f.end)
        .unwrap_or_default()
        .to_string();
    let label = Label {
        chunk: chunks.holding(&path, f.start, f.end).map(|c| c.id.clone()),
        doc: path,
        start: f.start,
        end: f.end,
        quote,
        grade: None,
        extra: Default::default(),
    };
    (Some(label), notes)
}
