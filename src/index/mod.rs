//! A BM25 index over chunks: the lexical retriever the checks use to ask "would keyword search
//! find this?", to pair chunks for multi-hop questions, to find candidate labels and to rank a
//! question's labelled source among every chunk of a large corpus.
//!
//! Terms are a language's content terms ([`crate::lang::Analyzer::content_terms`]: lower-cased,
//! stopwords removed, Snowball-stemmed); each text is read in its own language, a query given as
//! text in the index's ([`Bm25Index::in_language`]).
//! Scoring is Lucene's BM25 (idf = ln(1 + (N - df + 0.5) / (df + 0.5))) with Anserini's
//! MS MARCO defaults k1 = 0.9, b = 0.4; a term repeated in the query counts once per
//! occurrence, as in Lucene's bag-of-words query.
//!
//! Each posting's contribution (its "impact") is computed once at indexing and stored in
//! fixed point, in units of 2^-20 (at least one unit, so a match always counts; at most 4,096,
//! far above any BM25 term weight). A score is an integer sum of impacts, the same in any
//! order: the pruned searches keep the partial sums they build and still agree with
//! exhaustive scoring to the last unit, ties included. Scores are reported as `f32`.
//!
//! Two ways to score. [`Bm25Index::score_all`] is exhaustive over the postings of the
//! query's terms. [`Bm25Index::standing_among`] and [`Bm25Index::best`] only need the
//! documents at or above a threshold known up front (just above a fraction of the source's
//! score, or a first lower bound of the best), so they use MaxScore pruning with per-term
//! maximum impacts: terms whose impacts together cannot lift a document to the threshold are
//! never traversed, only looked up for the documents that can still reach it.

use std::collections::HashMap;

use crate::lang::Language;

mod search;

use search::Query;

/// Fixed-point units per score point.
const SCALE: f64 = (1u64 << 20) as f64;

fn to_score(units: u64) -> f32 {
    (units as f64 / SCALE) as f32
}

/// How deep [`Bm25Index::standing_among`] counts a rank: as deep as trec_eval judges a run
/// by default; a source that 1,000 chunks outscore is simply not retrieved.
pub const RANK_DEPTH: usize = 1000;

/// Documents searched at a time by [`Bm25Index::standing_among`].
const BLOCK: u32 = 8192;

/// BM25 parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Params {
    /// Term-frequency saturation.
    pub k1: f32,
    /// Length normalisation.
    pub b: f32,
}

impl Default for Bm25Params {
    fn default() -> Self {
        Bm25Params { k1: 0.9, b: 0.4 }
    }
}

/// An inverted index over a list of texts, addressed by their position in that list.
///
/// Postings are stored flat: term `t`'s documents are `docs[start[t]..start[t + 1]]`
/// (ascending) with their impacts at the same positions of `impacts`; and again per document.
#[derive(Debug, Clone)]
pub struct Bm25Index {
    terms: HashMap<String, u32>,
    start: Vec<usize>,
    docs: Vec<u32>,
    impacts: Vec<u32>,
    /// Per term: its largest impact on any document.
    max_impact: Vec<u32>,
    /// The same postings by document: document `d`'s terms (ascending) are
    /// `doc_terms[doc_start[d]..doc_start[d + 1]]`, their impacts in `doc_impacts`. Looking a
    /// term up in one short, contiguous list beats searching that term's long postings.
    doc_start: Vec<usize>,
    doc_terms: Vec<u32>,
    doc_impacts: Vec<u32>,
    /// The language a query given as text is read in.
    language: Language,
}

/// One scored hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Position of the text in the indexed list.
    pub doc: usize,
    /// BM25 score.
    pub score: f32,
}

/// Where one chosen document stands for a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// 1-based rank (ties are resolved against the chosen document: rank counts documents
    /// scoring strictly higher, plus one).
    pub rank: usize,
    /// True when more than [`RANK_DEPTH`] documents score higher ([`Bm25Index::standing_among`]
    /// counts no further; `rank` is then `RANK_DEPTH + 1`).
    pub beyond_depth: bool,
    /// The document's score.
    pub score: f32,
    /// The best score of any other document (0 when none matches; from
    /// [`Bm25Index::standing_among`], 0 when none scores above its floor).
    pub best_other: f32,
    /// That document (lowest position among equal scores), when known.
    pub best_other_doc: Option<usize>,
}

impl Standing {
    /// The rank at which a search that returns only matching documents, as every BM25 engine
    /// does, finds the document: `rank`, or `RANK_DEPTH + 1` when it shares no term with the
    /// query. A question whose words no document holds ("whats the encrytion cipher") would
    /// otherwise find its source first, ahead of nothing.
    pub fn found_rank(&self) -> usize {
        found_rank(self.rank, self.score)
    }
}

/// `rank`, or `RANK_DEPTH + 1` when `score` is 0: see [`Standing::found_rank`].
pub fn found_rank(rank: usize, score: f32) -> usize {
    if score > 0.0 { rank } else { RANK_DEPTH + 1 }
}

impl Bm25Index {
    /// Indexes `texts` with default parameters.
    pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        Self::with_params(texts, Bm25Params::default())
    }

    /// Indexes `texts` with the given parameters.
    pub fn with_params<'a>(texts: impl IntoIterator<Item = &'a str>, params: Bm25Params) -> Self {
        let english = Language::ENGLISH.analyzer();
        Self::from_terms(texts.into_iter().map(|t| english.content_terms(t)), params)
    }

    /// Reads queries given as text in `language` (English by default).
    pub fn in_language(mut self, language: Language) -> Self {
        self.language = language;
        self
    }

    /// The language queries given as text are read in.
    pub fn language(&self) -> Language {
        self.language
    }

    /// The terms of a query given as text.
    fn query_terms(&self, query: &str) -> Vec<String> {
        self.language.analyzer().content_terms(query)
    }

    /// Indexes documents given as already-extracted term lists.
    pub fn from_terms(docs: impl IntoIterator<Item = Vec<String>>, params: Bm25Params) -> Self {
        let mut terms: HashMap<String, u32> = HashMap::new();
        let mut df: Vec<usize> = Vec::new();
        let mut doc_len: Vec<u32> = Vec::new();
        // Per document: its (term, tf) pairs, term ascending.
        let mut per_doc: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        for words in docs {
            doc_len.push(words.len() as u32);
            ids.clear();
            for w in words {
                let next = terms.len() as u32;
                let id = *terms.entry(w).or_insert(next);
                if id as usize == df.len() {
                    df.push(0);
                }
                ids.push(id);
            }
            ids.sort_unstable();
            let mut pairs: Vec<(u32, u32)> = Vec::new();
            for &id in &ids {
                match pairs.last_mut() {
                    Some((t, f)) if *t == id => *f += 1,
                    _ => {
                        df[id as usize] += 1;
                        pairs.push((id, 1));
                    }
                }
            }
            per_doc.push(pairs);
        }
        let mut start = Vec::with_capacity(df.len() + 1);
        start.push(0);
        for &n in &df {
            start.push(start.last().unwrap() + n);
        }
        let n = doc_len.len() as f64;
        let total_len: u64 = doc_len.iter().map(|&l| l as u64).sum();
        let avg_len = if doc_len.is_empty() {
            1.0
        } else {
            (total_len as f64 / n).max(1e-9)
        };
        let (k1, b) = (params.k1 as f64, params.b as f64);
        let idf: Vec<f64> = df
            .iter()
            .map(|&df| (1.0 + (n - df as f64 + 0.5) / (df as f64 + 0.5)).ln())
            .collect();
        let total = *start.last().unwrap();
        let mut docs = vec![0u32; total];
        let mut impacts = vec![0u32; total];
        let mut max_impact = vec![0u32; df.len()];
        let mut doc_start = Vec::with_capacity(per_doc.len() + 1);
        let mut doc_terms = Vec::with_capacity(total);
        let mut doc_impacts = Vec::with_capacity(total);
        doc_start.push(0);
        let mut fill = start.clone();
        for (d, pairs) in per_doc.into_iter().enumerate() {
            let k1_norm = k1 * (1.0 - b + b * doc_len[d] as f64 / avg_len);
            for (t, f) in pairs {
                let f = f as f64;
                let part = idf[t as usize] * f * (k1 + 1.0) / (f + k1_norm);
                let impact = (part * SCALE).round().clamp(1.0, (1u64 << 32) as f64 - 1.0) as u32;
                let at = &mut fill[t as usize];
                docs[*at] = d as u32;
                impacts[*at] = impact;
                *at += 1;
                let max = &mut max_impact[t as usize];
                *max = (*max).max(impact);
                doc_terms.push(t);
                doc_impacts.push(impact);
            }
            doc_start.push(doc_terms.len());
        }
        Bm25Index {
            terms,
            start,
            docs,
            impacts,
            max_impact,
            doc_start,
            doc_terms,
            doc_impacts,
            language: Language::ENGLISH,
        }
    }

    /// Number of indexed documents.
    pub fn len(&self) -> usize {
        self.doc_start.len() - 1
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of documents containing the (already stemmed) term.
    pub fn doc_freq(&self, term: &str) -> usize {
        self.terms.get(term).map_or(0, |&t| self.postings(t).len())
    }

    /// True when document `doc` holds the (already stemmed) term.
    pub fn has_term(&self, doc: usize, term: &str) -> bool {
        doc < self.len()
            && self
                .terms
                .get(term)
                .is_some_and(|&t| self.impact(doc as u32, t) > 0)
    }

    /// Positions in `docs`/`impacts` of term `t`'s postings.
    fn postings(&self, t: u32) -> std::ops::Range<usize> {
        self.start[t as usize]..self.start[t as usize + 1]
    }

    fn resolve(&self, query_terms: &[String]) -> Query {
        let mut q: Vec<(u32, u64)> = Vec::new();
        for term in query_terms {
            let Some(&t) = self.terms.get(term) else { continue };
            match q.iter_mut().find(|(u, _)| *u == t) {
                Some((_, times)) => *times += 1,
                None => q.push((t, 1)),
            }
        }
        Query(q)
    }

    /// Term `t`'s impact on document `d` (0 when `d` lacks it).
    fn impact(&self, d: u32, t: u32) -> u64 {
        let (from, to) = (self.doc_start[d as usize], self.doc_start[d as usize + 1]);
        self.doc_terms[from..to]
            .binary_search(&t)
            .map_or(0, |i| self.doc_impacts[from + i] as u64)
    }

    /// Score of document `d`, in units.
    fn score_doc(&self, q: &Query, d: u32) -> u64 {
        q.0.iter().map(|&(t, times)| self.impact(d, t) * times).sum()
    }

    /// Every document sharing a term with the query, with its score in units.
    fn score_units(&self, q: &Query) -> HashMap<u32, u64> {
        let mut scores: HashMap<u32, u64> = HashMap::new();
        for &(t, times) in &q.0 {
            for i in self.postings(t) {
                *scores.entry(self.docs[i]).or_default() += self.impacts[i] as u64 * times;
            }
        }
        scores
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_match_hand_computed_bm25() {
        // Three docs; query "refund". N=3, df=1 → idf = ln(1 + 2.5/1.5).
        let idx = Bm25Index::new(["refund policy refund", "shipping times", "contact support"]);
        let idf = (1.0f32 + 2.5 / 1.5).ln();
        // doc 0 terms [refund, polici, refund] len 3; avg = (3+2+2)/3.
        let norm = 1.0 - 0.4 + 0.4 * 3.0 / (7.0 / 3.0);
        let expect = idf * 2.0 * 1.9 / (2.0 + 0.9 * norm);
        let s = idx.score_all("refund?");
        assert!((s[&0] - expect).abs() < 1e-5, "{} vs {expect}", s[&0]);
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn search_and_standing() {
        let idx = Bm25Index::new([
            "the refund window is fourteen days",
            "refund refund refund for damaged goods",
            "shipping to europe takes five days",
        ]);
        let hits = idx.search("refund days", 2);
        assert_eq!(hits.len(), 2);
        let st = idx.standing("shipping europe", 2);
        assert_eq!(st.rank, 1);
        assert_eq!(st.best_other, 0.0);
        let st = idx.standing("shipping europe", 0);
        assert_eq!(st.rank, 2, "unmatched doc ranks after matched ones");
    }
}
