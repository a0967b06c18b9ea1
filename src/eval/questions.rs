//! The questions a run is scored against, with their labelled relevant items, read from a
//! ragsynth test set (labels are document spans) or from a TREC qrels file (labels are docids).
//! Also the reverse: a test set written out as qrels, for cross-checking with `trec_eval`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::chunk::CharIndex;
use crate::corpus::Corpus;
use crate::locate::{DEFAULT_MIN_SIMILARITY, locate};
use crate::testset::{Case, Selection, Split, TestSet};
use crate::workspace::ChunkedCorpus;
use crate::{Error, Result};

/// A labelled relevant item.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A docid that must be retrieved verbatim (qrels).
    Id(String),
    /// A span of a document (test set).
    Span {
        /// Document path.
        doc: String,
        /// Start, in characters.
        start: usize,
        /// End, exclusive.
        end: usize,
        /// Where the supporting quote lies (absolute character offsets), when it was found in
        /// the document.
        quote: Option<(usize, usize)>,
    },
}

/// A labelled item with its grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// What counts as retrieving it.
    pub target: Target,
    /// Graded relevance; only positive grades are kept.
    pub grade: u32,
}

/// One question to score.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The case id (qrels: the query id).
    pub id: String,
    /// Tags to break metrics down by, as `(tag, value)`: `type`, `topic`, `source`, `split`.
    pub tags: Vec<(&'static str, String)>,
    /// Its split.
    pub split: Split,
    /// Labelled relevant items; empty for an unanswerable question.
    pub labels: Vec<Label>,
}

impl Question {
    fn from_case(case: &Case, corpus: Option<&Corpus>) -> Question {
        let tags = tags_of(case);
        let labels = if case.question_type() == Some(crate::testset::QuestionType::Unanswerable) {
            Vec::new()
        } else {
            case.relevant
                .iter()
                .filter(|l| l.grade != Some(0))
                .map(|l| Label {
                    target: Target::Span {
                        doc: l.doc.clone(),
                        start: l.start,
                        end: l.end,
                        quote: corpus.and_then(|c| quote_span(c, &l.doc, l.start, l.end, &l.quote)),
                    },
                    grade: l.grade.unwrap_or(1),
                })
                .collect()
        };
        Question {
            id: case.id.clone(),
            tags,
            split: case.split(),
            labels,
        }
    }

    /// True when it has no relevant label (at any grade).
    pub fn is_unanswerable(&self) -> bool {
        self.labels.is_empty()
    }
}

/// The tags a case's figures are broken down by, as `(tag, value)`: `type`, `topic`, `source`,
/// `difficulty` (when set) and `split`.
pub fn tags_of(case: &Case) -> Vec<(&'static str, String)> {
    let mut tags = Vec::new();
    if let Some(t) = &case.tags.kind {
        tags.push(("type", t.clone()));
    }
    if let Some(t) = &case.tags.topic {
        tags.push(("topic", t.clone()));
    }
    if let Some(s) = case.tags.source {
        tags.push(("source", s.as_str().to_string()));
    }
    if let Some(d) = &case.tags.difficulty {
        tags.push(("difficulty", d.clone()));
    }
    tags.push(("split", case.split().as_str().to_string()));
    tags
}

/// Where `quote` lies inside the labelled span `start..end` of `doc`, in absolute characters.
fn quote_span(corpus: &Corpus, doc: &str, start: usize, end: usize, quote: &str) -> Option<(usize, usize)> {
    let text = &corpus.doc(doc)?.text;
    let span = CharIndex::new(text).slice(start, end)?;
    let found = locate(span, quote, None, DEFAULT_MIN_SIMILARITY)?;
    Some((start + found.start, start + found.end))
}

/// The questions of a test set that `selection` takes (the cases `run` asks). With the corpus,
/// each label's quote is located so the "contains the quote" half of the relevance rule can
/// apply.
pub fn from_testset(set: &TestSet, corpus: Option<&Corpus>, selection: Selection) -> Vec<Question> {
    selection
        .cases(set)
        .map(|c| Question::from_case(c, corpus))
        .collect()
}

/// Reads TREC qrels (`qid iter docid grade`); judgments with a grade ≤ 0 are dropped (they
/// only say "judged not relevant"). Questions keep first-seen order.
pub fn from_qrels(path: &Path) -> Result<Vec<Question>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut questions: Vec<Question> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut last: Option<(&str, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_ascii_whitespace();
        let f = [
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
        ];
        if f[0].is_none() {
            continue;
        }
        let err = |message: String| Error::Parse {
            path: path.to_path_buf(),
            line: Some(n + 1),
            column: None,
            message,
        };
        let [Some(qid), Some(_iter), Some(docid), Some(grade), None] = f else {
            return Err(err("expected 4 fields: qid iter docid grade".into()));
        };
        let grade: i64 = grade
            .parse()
            .map_err(|_| err(format!("grade `{grade}` is not an integer")))?;
        // Qrels list one query's lines together; remember the last one to skip a lookup.
        let slot = match last {
            Some((q, slot)) if q == qid => slot,
            _ => {
                let slot = match index.get(qid) {
                    Some(&slot) => slot,
                    None => {
                        questions.push(Question {
                            id: qid.to_string(),
                            tags: vec![("split", Split::Dev.as_str().to_string())],
                            split: Split::Dev,
                            labels: Vec::new(),
                        });
                        index.insert(qid.to_string(), questions.len() - 1);
                        questions.len() - 1
                    }
                };
                last = Some((qid, slot));
                slot
            }
        };
        if grade > 0 {
            questions[slot].labels.push(Label {
                target: Target::Id(docid.to_string()),
                grade: u32::try_from(grade).unwrap_or(u32::MAX),
            });
        }
    }
    Ok(questions)
}

/// True when `path` looks like TREC qrels rather than a test set: not YAML or JSON(L) by
/// extension, and its first line has four fields ending in an integer.
pub fn is_qrels(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if matches!(ext, "yaml" | "yml" | "jsonl" | "json" | "ndjson") {
        return false;
    }
    // The first few kilobytes are enough to tell.
    let mut head = Vec::with_capacity(4096);
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    if std::io::Read::read_to_end(&mut std::io::Read::take(file, 4096), &mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let Some(first) = text.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let fields: Vec<&str> = first.split_ascii_whitespace().collect();
    fields.len() == 4 && fields[3].parse::<i64>().is_ok()
}

/// Writes a test set (read from `path`) as TREC qrels: one line per label, naming the chunk of
/// the test set's chunking (`chunks`, cut under it) that best stands for it (the one holding the
/// quote, else the one overlapping the span most), with the label's grade. Unanswerable
/// questions get no line. A qrels line is four fields split on white space, so a case id or a
/// chunk id that is empty or holds white space (a newline would add a judgment of its own) is
/// an error naming the case, not a line written.
pub fn export_qrels(set: &TestSet, path: &Path, corpus: &Corpus, chunks: &ChunkedCorpus) -> Result<String> {
    if set.chunking.is_none() {
        return Err(Error::NoChunking { item: None });
    }
    let mut out = String::new();
    for q in from_testset(set, Some(corpus), Selection::default()) {
        for label in &q.labels {
            let Target::Span {
                doc,
                start,
                end,
                quote,
            } = &label.target
            else {
                continue;
            };
            if corpus.doc(doc).is_none() {
                return Err(Error::Field {
                    path: corpus.root.clone(),
                    line: None,
                    case: Some(q.id.clone()),
                    field: "relevant.doc".into(),
                    message: format!("document `{doc}` is not in the corpus"),
                });
            }
            let list = chunks.of_doc(doc);
            let holds_quote =
                |c: &&crate::chunk::Chunk| quote.is_some_and(|(qs, qe)| c.start <= qs && qe <= c.end);
            let best = list.iter().find(holds_quote).or_else(|| {
                list.iter().max_by_key(|c| {
                    (
                        overlap((c.start, c.end), (*start, *end)),
                        std::cmp::Reverse(c.start),
                    )
                })
            });
            if let Some(c) = best {
                let case = set.cases.iter().find(|k| k.id == q.id);
                for (field, value) in [("id", q.id.as_str()), ("relevant.doc", c.id.as_str())] {
                    if value.is_empty() || value.chars().any(char::is_whitespace) {
                        return Err(Error::Field {
                            path: path.to_path_buf(),
                            line: case.and_then(Case::line),
                            case: Some(q.id.clone()),
                            field: field.into(),
                            message: format!(
                                "{} {value:?} cannot be a TREC qrels field (four fields split on white space); \
                                 rename it without spaces or line breaks to export qrels",
                                if field == "id" {
                                    "the case id"
                                } else {
                                    "the chunk id"
                                },
                            ),
                        });
                    }
                }
                let _ = writeln!(out, "{} 0 {} {}", q.id, c.id, label.grade);
            }
        }
    }
    Ok(out)
}

/// Characters two spans share.
pub fn overlap(a: (usize, usize), b: (usize, usize)) -> usize {
    a.1.min(b.1).saturating_sub(a.0.max(b.0))
}
