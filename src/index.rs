//! A BM25 index over chunks: the lexical retriever the checks use to ask "would keyword search
//! find this?", to pair chunks for multi-hop questions and to find candidate labels.
//!
//! Terms are [`crate::text::content_terms`] (lower-cased, stopwords removed, Snowball-stemmed).
//! Scoring is Lucene's BM25 (idf = ln(1 + (N - df + 0.5) / (df + 0.5))) with Anserini's
//! MS MARCO defaults k1 = 0.9, b = 0.4. Scoring is exhaustive over the postings of the query's
//! terms, so the rank of any chunk is exact, not an approximation from a top-k cut.

use std::collections::HashMap;

use crate::text::content_terms;

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
#[derive(Debug, Clone)]
pub struct Bm25Index {
    params: Bm25Params,
    terms: HashMap<String, u32>,
    /// Per term: (doc, term frequency), doc ascending.
    postings: Vec<Vec<(u32, u32)>>,
    doc_len: Vec<u32>,
    avg_len: f32,
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
    /// The document's score.
    pub score: f32,
    /// The best score of any other document (0 when none matches).
    pub best_other: f32,
}

impl Bm25Index {
    /// Indexes `texts` with default parameters.
    pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        Self::with_params(texts, Bm25Params::default())
    }

    /// Indexes `texts` with the given parameters.
    pub fn with_params<'a>(texts: impl IntoIterator<Item = &'a str>, params: Bm25Params) -> Self {
        Self::from_terms(texts.into_iter().map(content_terms), params)
    }

    /// Indexes documents given as already-extracted term lists.
    pub fn from_terms(docs: impl IntoIterator<Item = Vec<String>>, params: Bm25Params) -> Self {
        let mut terms: HashMap<String, u32> = HashMap::new();
        let mut postings: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut doc_len = Vec::new();
        let mut tf: HashMap<u32, u32> = HashMap::new();
        for (d, words) in docs.into_iter().enumerate() {
            doc_len.push(words.len() as u32);
            tf.clear();
            for w in words {
                let next = terms.len() as u32;
                let id = *terms.entry(w).or_insert(next);
                if id as usize == postings.len() {
                    postings.push(Vec::new());
                }
                *tf.entry(id).or_default() += 1;
            }
            for (&t, &f) in &tf {
                postings[t as usize].push((d as u32, f));
            }
        }
        let total: u64 = doc_len.iter().map(|&l| l as u64).sum();
        let avg_len = if doc_len.is_empty() {
            0.0
        } else {
            total as f32 / doc_len.len() as f32
        };
        Bm25Index {
            params,
            terms,
            postings,
            doc_len,
            avg_len,
        }
    }

    /// Number of indexed documents.
    pub fn len(&self) -> usize {
        self.doc_len.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.doc_len.is_empty()
    }

    /// Number of documents containing the (already stemmed) term.
    pub fn doc_freq(&self, term: &str) -> usize {
        self.terms
            .get(term)
            .map_or(0, |&t| self.postings[t as usize].len())
    }

    fn idf(&self, df: usize) -> f32 {
        let n = self.len() as f32;
        (1.0 + (n - df as f32 + 0.5) / (df as f32 + 0.5)).ln()
    }

    /// Scores every document that shares a term with the query; returns sparse (doc, score).
    pub fn score_all(&self, query: &str) -> HashMap<usize, f32> {
        self.score_terms(&content_terms(query))
    }

    /// Like [`score_all`](Self::score_all) for pre-extracted query terms (duplicates count, as
    /// in Lucene's bag-of-words query).
    pub fn score_terms(&self, query_terms: &[String]) -> HashMap<usize, f32> {
        let mut scores: HashMap<usize, f32> = HashMap::new();
        let Bm25Params { k1, b } = self.params;
        for term in query_terms {
            let Some(&t) = self.terms.get(term) else { continue };
            let list = &self.postings[t as usize];
            let idf = self.idf(list.len());
            for &(d, f) in list {
                let f = f as f32;
                let norm = 1.0 - b + b * self.doc_len[d as usize] as f32 / self.avg_len.max(1e-9);
                *scores.entry(d as usize).or_default() += idf * f * (k1 + 1.0) / (f + k1 * norm);
            }
        }
        scores
    }

    /// The `k` best documents, best first; ties broken by lower position.
    pub fn search(&self, query: &str, k: usize) -> Vec<Hit> {
        top_k(self.score_all(query), k)
    }

    /// Where document `doc` ranks for `query` among all documents.
    pub fn standing(&self, query: &str, doc: usize) -> Standing {
        standing_of(&self.score_all(query), doc)
    }
}

/// The best `k` hits of sparse scores, best first; ties broken by lower position.
pub fn top_k(scores: HashMap<usize, f32>, k: usize) -> Vec<Hit> {
    let mut hits: Vec<Hit> = scores
        .into_iter()
        .map(|(doc, score)| Hit { doc, score })
        .collect();
    let by = |a: &Hit, b: &Hit| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc));
    if hits.len() > k {
        hits.select_nth_unstable_by(k, by);
        hits.truncate(k);
    }
    hits.sort_by(by);
    hits
}

/// The standing of the best of `docs` (e.g. every chunk of a label) among sparse scores.
pub fn standing_of_any(scores: &HashMap<usize, f32>, docs: &[usize]) -> Standing {
    let best = docs
        .iter()
        .copied()
        .max_by(|a, b| {
            let sa = scores.get(a).copied().unwrap_or(0.0);
            let sb = scores.get(b).copied().unwrap_or(0.0);
            sa.total_cmp(&sb)
        })
        .unwrap_or(usize::MAX);
    let mut s = standing_of(scores, best);
    // Other chunks of the same label are not competitors.
    s.best_other = scores
        .iter()
        .filter(|(d, _)| !docs.contains(d))
        .map(|(_, &v)| v)
        .fold(0.0, f32::max);
    s.rank = 1 + scores
        .iter()
        .filter(|(d, v)| !docs.contains(d) && **v > s.score)
        .count();
    s
}

fn standing_of(scores: &HashMap<usize, f32>, doc: usize) -> Standing {
    let score = scores.get(&doc).copied().unwrap_or(0.0);
    let mut rank = 1;
    let mut best_other = 0.0f32;
    for (&d, &s) in scores {
        if d == doc {
            continue;
        }
        if s > score {
            rank += 1;
        }
        best_other = best_other.max(s);
    }
    if score == 0.0 {
        // An unmatched document ranks behind every matched one.
        rank = scores.len() - usize::from(scores.contains_key(&doc)) + 1;
    }
    Standing {
        rank,
        score,
        best_other,
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
