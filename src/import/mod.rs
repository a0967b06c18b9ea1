//! Importing real questions (from logs, tickets, a spreadsheet) into a test set.
//!
//! Real questions are what synthetic ones are measured against, so they enter the set as they
//! were asked — minus personal data, which [`crate::pii`] replaces before anything is written.
//! A row that names a document and a quote gets a label anchored where the quote really is in
//! the corpus (`review: accepted`), and the same question on a later row with another quote
//! adds a label to it (files with one row per question and passage); a row the file marks
//! unanswerable ([`unanswerable`]) gets `relevant: []`; any other row gets candidate labels
//! from keyword search and `review: needs_label`, so a person confirms them. A question already
//! in the set is reported and not added twice; no row is dropped without a line saying why,
//! and an answer its quotes do not hold is named with its line, so the quote can be widened.

pub mod candidates;
pub mod foreign;
pub mod rows;
pub mod unanswerable;

use std::collections::{HashMap, HashSet};

use serde_json::json;

use crate::Result;
use crate::chunk::CharIndex;
use crate::chunk::Chunking;
use crate::corpus::Corpus;
use crate::lang;
use crate::locate::{Match, locate_in_corpus};
use crate::pii::{self, Counts};
use crate::testset::{Case, Label, QuestionType, Review, Source, Tags, TestSet};
use crate::text::words;
use crate::wording::answer::{AnswerFault, labelled_fact, names_in_fact};
use crate::workspace::ChunkedCorpus;

pub use candidates::Candidates;
pub use foreign::{ForeignSummary, add_converted};
pub use rows::{Columns, Row, read};
pub use unanswerable::Because;

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
    /// Added as unanswerable (`relevant: []`) because a column or the answer says the corpus
    /// does not answer it (a `type` of `unanswerable` needs no note).
    Unanswerable {
        /// What said so.
        because: Because,
    },
    /// The row repeats an earlier row's question with another quote: its label was added to
    /// that case.
    LabelAdded {
        /// The case.
        to: String,
    },
    /// The row repeats an earlier row's question with another quote, which was not found in
    /// the corpus: no label was added.
    LabelNotFound {
        /// The case.
        to: String,
        /// The document the row named.
        doc: Option<String>,
    },
    /// The row's answer names what its quote (with the quotes of the question's other rows)
    /// does not hold; widen the quote so it holds the answer.
    AnswerNotInQuote {
        /// What the quote lacks, as the answer writes it.
        missing: String,
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
    // Cases this import added, by id: the index in the set and the line of their row.
    let mut added: HashMap<String, (usize, usize)> = HashMap::new();
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
            let earlier = added.get(of).map(|&(i, _)| &mut set.cases[i]);
            match earlier {
                // One row per question and passage: a later row's quote labels the same case.
                Some(case) if another_label(case, row, answer.as_deref()) => {
                    let quote = row.quote.as_deref().expect("another_label needs a quote");
                    let (label, notes) =
                        anchor_quote(corpus, chunks, row.doc.as_deref(), quote, options.min_similarity);
                    match label {
                        Some(label) => {
                            let known = case
                                .relevant
                                .iter()
                                .any(|l| (&l.doc, l.start, l.end) == (&label.doc, label.start, label.end));
                            if known {
                                note(NoteKind::Duplicate { of: of.clone() });
                            } else {
                                notes.into_iter().for_each(&mut note);
                                case.relevant.push(label);
                                note(NoteKind::LabelAdded { to: of.clone() });
                            }
                        }
                        None => note(NoteKind::LabelNotFound {
                            to: of.clone(),
                            doc: row.doc.clone(),
                        }),
                    }
                }
                _ => note(NoteKind::Duplicate { of: of.clone() }),
            }
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
        let because = unanswerable::because(row);
        let unanswerable = because.is_some();
        if let Some(because) = because {
            if row.quote.is_some() {
                note(NoteKind::UnanswerableWithQuote);
            }
            case.tags.kind = Some(QuestionType::Unanswerable.as_str().to_string());
            case.review = Some(Review::Accepted);
            summary.unanswerable += 1;
            if because != Because::Type {
                note(NoteKind::Unanswerable { because });
            }
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
        added.insert(id.clone(), (set.cases.len(), row.line));
        summary.added.push(id);
        set.cases.push(case);
    }
    // Once every row of a question is read: does the answer stand in its quotes?
    for id in &summary.added {
        let (i, line) = added[id];
        if let Some(missing) = answer_not_in_quotes(&set.cases[i], chunks) {
            summary.notes.push(Note {
                line,
                kind: NoteKind::AnswerNotInQuote { missing },
            });
        }
    }
    summary.notes.sort_by_key(|n| n.line);
    summary
}

/// Whether `row`, which repeats the question of the imported `case`, adds a label to it: the
/// case was labelled from its row, this row quotes a passage, and gives no other answer.
fn another_label(case: &Case, row: &Row, answer: Option<&str>) -> bool {
    let labelled =
        case.review == Some(Review::Accepted) && !case.relevant.is_empty() && !case.is_unanswerable();
    let same_answer = answer.is_none_or(|a| case.answer.as_deref() == Some(a));
    labelled && row.quote.is_some() && same_answer && unanswerable::because(row).is_none()
}

/// A number, code or name a labelled real case's answer gives that its quotes do not hold
/// (RS507's reading of a person's answer, on the quotes alone rather than their passage), or
/// `None`.
fn answer_not_in_quotes(case: &Case, chunks: &ChunkedCorpus) -> Option<String> {
    let answer = case.answer.as_deref().filter(|a| !a.trim().is_empty())?;
    if case.is_unanswerable() || case.review != Some(Review::Accepted) {
        return None;
    }
    let fact = labelled_fact(case.relevant.iter().map(|l| l.quote.as_str()));
    let source = (!chunks.is_empty()).then(|| chunks.language());
    let language = lang::detect_question(&case.question, Some(answer), source);
    match names_in_fact(&case.question, answer, &fact, language) {
        Err(AnswerFault::NotInFact { missing }) => Some(missing),
        _ => None,
    }
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
