//! Deciding which retrieved items are relevant.
//!
//! Users' RAG systems chunk differently from the test set, so a retrieved span is judged by how
//! it overlaps a labelled span: it is relevant to a label when it is in the same document and
//! either **contains the label's quote** or **covers at least `min_coverage` (default 50%) of
//! the labelled span**. Each label can be matched **once**: the highest-ranked item that matches
//! it claims it, and a later item matching only claimed labels is not relevant (two chunks of the
//! same passage are not two relevant hits). Qrels docids match exactly, as in `trec_eval`.

use std::collections::HashMap;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::metrics::Judged;
use super::questions::{Label, Question, Target, overlap};
use super::run::{Item, Retrieved, Run};
use crate::corpus::Corpus;
use crate::locate::locate_in_corpus;
use crate::workspace::ChunkedCorpus;
use crate::{Error, Result};

/// The relevance rule's knobs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Share of a labelled span a retrieved span must cover (when it lacks the quote).
    pub min_coverage: f64,
    /// Lowest grade that counts as relevant for precision, recall, hit, RR and AP (`trec_eval
    /// -l`); nDCG uses every positive grade as gain.
    pub level: u32,
    /// Similarity a `{text}` item needs to be located in the corpus.
    pub min_similarity: f32,
}

impl Default for Rule {
    fn default() -> Self {
        Rule {
            min_coverage: 0.5,
            level: 1,
            min_similarity: crate::locate::DEFAULT_MIN_SIMILARITY,
        }
    }
}

/// A retrieved item resolved to a document span.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Document path.
    pub doc: String,
    /// Start, in characters.
    pub start: usize,
    /// End, exclusive.
    pub end: usize,
}

/// Turns run items into spans: chunk ids through the chunks of the test set's chunking,
/// document paths into whole documents, text through the corpus. Each distinct name is
/// resolved once.
pub struct Resolver<'a> {
    corpus: Option<&'a Corpus>,
    chunks: Option<&'a ChunkedCorpus>,
    names: HashMap<String, Option<Span>>,
}

impl<'a> Resolver<'a> {
    /// A resolver over the corpus (if any) and its chunks under the test set's chunking (if
    /// the set names one).
    pub fn new(corpus: Option<&'a Corpus>, chunks: Option<&'a ChunkedCorpus>) -> Resolver<'a> {
        Resolver {
            corpus,
            chunks,
            names: HashMap::new(),
        }
    }

    /// The span of a docid, chunk id (`doc#n`) or document path, or why it has none.
    fn resolve_name(&self, name: &str) -> Result<Option<Span>> {
        let corpus = self.corpus.ok_or_else(|| Error::NeedsCorpus {
            item: Some(name.to_string()),
        })?;
        if let Some(doc) = corpus.doc(name) {
            return Ok(Some(Span {
                doc: doc.path.clone(),
                start: 0,
                end: doc.char_len(),
            }));
        }
        let Some((doc, n)) = name.rsplit_once('#') else {
            return Ok(None);
        };
        let (Some(_), Ok(n)) = (corpus.doc(doc), n.parse::<usize>()) else {
            return Ok(None);
        };
        let chunks = self.chunks.ok_or_else(|| Error::NoChunking {
            item: Some(name.to_string()),
        })?;
        Ok(chunks.of_doc(doc).get(n).map(|c| Span {
            doc: doc.to_string(),
            start: c.start,
            end: c.end,
        }))
    }

    /// Resolves every item of the run; `None` marks an item that names nothing in the corpus.
    pub fn resolve_run(&mut self, run: &Run, rule: &Rule) -> Result<Vec<Vec<Option<Span>>>> {
        let mut out = Vec::with_capacity(run.queries.len());
        for (_, items) in &run.queries {
            let mut spans = Vec::with_capacity(items.len());
            for r in items {
                spans.push(match &r.item {
                    Item::Id(n) => {
                        let name = run.name(*n);
                        if !self.names.contains_key(name) {
                            let span = self.resolve_name(name)?;
                            self.names.insert(name.to_string(), span);
                        }
                        self.names[name].clone()
                    }
                    Item::Span { doc, start, end } => Some(Span {
                        doc: run.name(*doc).to_string(),
                        start: *start as usize,
                        end: *end as usize,
                    }),
                    Item::Text(text) => {
                        let text = run.text(*text);
                        let corpus = self.corpus.ok_or(Error::NeedsCorpus { item: None })?;
                        locate_in_corpus(corpus, text, None, rule.min_similarity).map(|(doc, f)| Span {
                            doc,
                            start: f.start,
                            end: f.end,
                        })
                    }
                });
            }
            out.push(spans);
        }
        Ok(out)
    }
}

/// True when a retrieved span satisfies the rule for a labelled span.
pub fn span_matches(span: &Span, label: &Target, rule: &Rule) -> bool {
    let Target::Span {
        doc,
        start,
        end,
        quote,
    } = label
    else {
        return false;
    };
    if span.doc != *doc {
        return false;
    }
    if let Some((qs, qe)) = quote
        && span.start <= *qs
        && *qe <= span.end
    {
        return true;
    }
    let len = end.saturating_sub(*start);
    len > 0 && overlap((span.start, span.end), (*start, *end)) as f64 >= rule.min_coverage * len as f64
}

/// Judges a ranked list against a question's labels, each label claimed at most once.
pub fn judge_spans(labels: &[Label], spans: &[Option<Span>], rule: &Rule) -> Vec<Judged> {
    let mut claimed = vec![false; labels.len()];
    spans
        .iter()
        .map(|span| {
            let mut j = Judged::default();
            let Some(span) = span else { return j };
            for (i, label) in labels.iter().enumerate() {
                if !claimed[i] && span_matches(span, &label.target, rule) {
                    claimed[i] = true;
                    claim(&mut j, label, rule);
                }
            }
            j
        })
        .collect()
}

/// Judges a ranked list of docids against qrels labels (exact match, each label once).
pub fn judge_ids(labels: &[Label], items: &[Retrieved], run: &Run, rule: &Rule) -> Vec<Judged> {
    // A scan over few labels (the common case) beats hashing every retrieved docid; many
    // labels (a qrels query with hundreds of judgments) get a hash map.
    let named: Vec<(&str, usize)> = labels
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match &l.target {
            Target::Id(id) => Some((id.as_str(), i)),
            Target::Span { .. } => None,
        })
        .collect();
    let map: Option<FxHashMap<&str, usize>> = (named.len() > 16).then(|| named.iter().copied().collect());
    let find = |name: &str| match &map {
        Some(m) => m.get(name).copied(),
        // Docids often share a prefix: the last byte rejects most candidates without a memcmp.
        None => named
            .iter()
            .find(|(id, _)| {
                id.len() == name.len() && id.as_bytes().last() == name.as_bytes().last() && *id == name
            })
            .map(|&(_, i)| i),
    };
    let mut claimed = vec![false; labels.len()];
    items
        .iter()
        .map(|r| {
            let mut j = Judged::default();
            if let Item::Id(n) = r.item
                && let Some(i) = find(run.name(n))
                && !claimed[i]
            {
                claimed[i] = true;
                claim(&mut j, &labels[i], rule);
            }
            j
        })
        .collect()
}

fn claim(j: &mut Judged, label: &Label, rule: &Rule) {
    j.gain = j.gain.max(label.grade as f64);
    if label.grade >= rule.level {
        j.relevant = true;
        j.found += 1;
    }
}

/// Judges every question that the run answered, in parallel for docid labels. Returns, per
/// question, its judged list (`None` when the run does not have the question) and how many of
/// its items named nothing in the corpus.
pub fn judge_all(
    questions: &[&Question],
    run: &Run,
    spans: Option<&[Vec<Option<Span>>]>,
    rule: &Rule,
) -> Vec<(Option<Vec<Judged>>, usize)> {
    let slots: FxHashMap<&str, usize> = run
        .queries
        .iter()
        .enumerate()
        .map(|(i, (q, _))| (q.as_str(), i))
        .collect();
    questions
        .par_iter()
        .map(|q| {
            let Some(&slot) = slots.get(q.id.as_str()) else {
                return (None, 0);
            };
            let items = &run.queries[slot].1;
            match spans {
                Some(spans) if q.labels.iter().all(|l| matches!(l.target, Target::Span { .. })) => {
                    let list = &spans[slot];
                    let unresolved = list.iter().filter(|s| s.is_none()).count();
                    (Some(judge_spans(&q.labels, list, rule)), unresolved)
                }
                _ => (Some(judge_ids(&q.labels, items, run, rule)), 0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(start: usize, end: usize, quote: Option<(usize, usize)>) -> Label {
        Label {
            target: Target::Span {
                doc: "a.md".into(),
                start,
                end,
                quote,
            },
            grade: 1,
        }
    }

    fn span(start: usize, end: usize) -> Option<Span> {
        Some(Span {
            doc: "a.md".into(),
            start,
            end,
        })
    }

    #[test]
    fn quote_or_half_the_span() {
        let rule = Rule::default();
        let l = label(100, 200, Some((150, 160))).target;
        // A small chunk holding the quote, though it covers only 30% of the span.
        assert!(span_matches(&span(140, 170).unwrap(), &l, &rule));
        // Exactly half the span, no quote.
        assert!(span_matches(&span(50, 150).unwrap(), &l, &rule));
        // Just under half, no quote.
        assert!(!span_matches(&span(101, 149).unwrap(), &l, &rule));
        // 45% with the quote cut in half.
        assert!(!span_matches(&span(155, 250).unwrap(), &l, &rule));
        // Other document.
        let other = Span {
            doc: "b.md".into(),
            start: 0,
            end: 1000,
        };
        assert!(!span_matches(&other, &l, &rule));
        let strict = Rule {
            min_coverage: 0.9,
            ..Rule::default()
        };
        assert!(!span_matches(&span(50, 150).unwrap(), &l, &strict));
    }

    #[test]
    fn a_label_is_claimed_once() {
        let rule = Rule::default();
        let labels = [label(100, 200, Some((150, 160)))];
        let judged = judge_spans(
            &labels,
            &[span(0, 90), span(140, 170), span(100, 200), None],
            &rule,
        );
        let relevant: Vec<bool> = judged.iter().map(|j| j.relevant).collect();
        assert_eq!(relevant, [false, true, false, false]);
    }

    #[test]
    fn one_span_can_claim_two_labels() {
        let rule = Rule::default();
        let labels = [label(100, 200, None), label(300, 400, None)];
        let judged = judge_spans(&labels, &[span(0, 1000)], &rule);
        assert_eq!(judged[0].found, 2);
        assert_eq!(judged[0].gain, 1.0);
    }
}
