//! A BM25 index over chunks: the lexical retriever the checks use to ask "would keyword search
//! find this?", to pair chunks for multi-hop questions, to find candidate labels and to rank a
//! question's labelled source among every chunk of a large corpus.
//!
//! Terms are [`crate::text::content_terms`] (lower-cased, stopwords removed, Snowball-stemmed).
//! Scoring is Lucene's BM25 (idf = ln(1 + (N - df + 0.5) / (df + 0.5))) with Anserini's
//! MS MARCO defaults k1 = 0.9, b = 0.4; a term repeated in the query counts once per
//! occurrence, as in Lucene's bag-of-words query. Term frequencies are stored as `u16`
//! (saturating; a term 65,535 times in one chunk scores as if it were there that often).
//!
//! Two ways to score. [`Bm25Index::score_terms`] is exhaustive over the postings of the
//! query's terms: every matching document gets its score. [`Bm25Index::standing_among`] and
//! [`Bm25Index::best`] only need the documents above a threshold known up front (the source's
//! own score, a fraction of it, or a first lower bound of the best), so they use MaxScore
//! pruning with per-term maximum impacts: terms whose impacts together cannot lift a document
//! over the threshold are never traversed, only looked up for the few documents that can pass.
//! Both give the same scores to the last bit: every score is a sum over the query's distinct
//! terms in one fixed order.

use std::cell::RefCell;
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
///
/// Postings are stored flat: term `t`'s documents are `docs[start[t]..start[t + 1]]`
/// (ascending) with their term frequencies at the same positions of `tfs`.
#[derive(Debug, Clone)]
pub struct Bm25Index {
    params: Bm25Params,
    terms: HashMap<String, u32>,
    start: Vec<usize>,
    docs: Vec<u32>,
    tfs: Vec<u16>,
    /// Per term: idf, and the largest contribution it makes to any document's score.
    idf: Vec<f32>,
    max_impact: Vec<f32>,
    /// Per document: k1 × its length normalisation (1 - b + b × len / avg_len).
    k1_norm: Vec<f32>,
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
    /// The best score of any other document (0 when none matches; from
    /// [`Bm25Index::standing_among`], 0 when none scores above its floor).
    pub best_other: f32,
    /// That document (lowest position among equal scores), when known.
    pub best_other_doc: Option<usize>,
}

/// A query resolved against the index: distinct known terms in first-occurrence order, each
/// with how often the query repeats it.
struct Query(Vec<(u32, f32)>);

thread_local! {
    /// Per thread: a dense score accumulator (zero outside a query) and the documents touched.
    static ACC: RefCell<(Vec<f32>, Vec<u32>)> = const { RefCell::new((Vec::new(), Vec::new())) };
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
        let mut df: Vec<usize> = Vec::new();
        let mut doc_len: Vec<u32> = Vec::new();
        // Per document: its (term, tf) pairs, term ascending.
        let mut per_doc: Vec<Vec<(u32, u16)>> = Vec::new();
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
            let mut pairs: Vec<(u32, u16)> = Vec::new();
            for &id in &ids {
                match pairs.last_mut() {
                    Some((t, f)) if *t == id => *f = f.saturating_add(1),
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
        let total = *start.last().unwrap();
        let mut docs = vec![0u32; total];
        let mut tfs = vec![0u16; total];
        let mut fill = start.clone();
        for (d, pairs) in per_doc.into_iter().enumerate() {
            for (t, f) in pairs {
                let at = &mut fill[t as usize];
                docs[*at] = d as u32;
                tfs[*at] = f;
                *at += 1;
            }
        }
        let n = doc_len.len() as f32;
        let total_len: u64 = doc_len.iter().map(|&l| l as u64).sum();
        let avg_len = if doc_len.is_empty() {
            1.0
        } else {
            (total_len as f32 / n).max(1e-9)
        };
        let Bm25Params { k1, b } = params;
        let k1_norm: Vec<f32> = doc_len
            .iter()
            .map(|&l| k1 * (1.0 - b + b * l as f32 / avg_len))
            .collect();
        let idf: Vec<f32> = df
            .iter()
            .map(|&df| (1.0 + (n - df as f32 + 0.5) / (df as f32 + 0.5)).ln())
            .collect();
        let mut index = Bm25Index {
            params,
            terms,
            start,
            docs,
            tfs,
            idf,
            max_impact: Vec::new(),
            k1_norm,
        };
        index.max_impact = (0..df.len() as u32)
            .map(|t| index.postings(t).map(|i| index.part(t, i)).fold(0.0f32, f32::max))
            .collect();
        index
    }

    /// Number of indexed documents.
    pub fn len(&self) -> usize {
        self.k1_norm.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.k1_norm.is_empty()
    }

    /// Number of documents containing the (already stemmed) term.
    pub fn doc_freq(&self, term: &str) -> usize {
        self.terms.get(term).map_or(0, |&t| self.postings(t).len())
    }

    /// Positions in `docs`/`tfs` of term `t`'s postings.
    fn postings(&self, t: u32) -> std::ops::Range<usize> {
        self.start[t as usize]..self.start[t as usize + 1]
    }

    /// The contribution of posting `i` (of term `t`) to its document's score, once.
    fn part(&self, t: u32, i: usize) -> f32 {
        let f = self.tfs[i] as f32;
        let k1 = self.params.k1;
        self.idf[t as usize] * f * (k1 + 1.0) / (f + self.k1_norm[self.docs[i] as usize])
    }

    fn resolve(&self, query_terms: &[String]) -> Query {
        let mut q: Vec<(u32, f32)> = Vec::new();
        for term in query_terms {
            let Some(&t) = self.terms.get(term) else { continue };
            match q.iter_mut().find(|(u, _)| *u == t) {
                Some((_, times)) => *times += 1.0,
                None => q.push((t, 1.0)),
            }
        }
        Query(q)
    }

    /// Score of document `d`, summed in the query's term order (as every other path does).
    fn score_doc(&self, q: &Query, d: u32) -> f32 {
        let mut score = 0.0f32;
        for &(t, times) in &q.0 {
            let range = self.postings(t);
            if let Ok(i) = self.docs[range.clone()].binary_search(&d) {
                score += self.part(t, range.start + i) * times;
            }
        }
        score
    }

    /// Scores every document that shares a term with the query; returns sparse (doc, score).
    pub fn score_all(&self, query: &str) -> HashMap<usize, f32> {
        self.score_terms(&content_terms(query))
    }

    /// Like [`score_all`](Self::score_all) for pre-extracted query terms (duplicates count, as
    /// in Lucene's bag-of-words query).
    pub fn score_terms(&self, query_terms: &[String]) -> HashMap<usize, f32> {
        let q = self.resolve(query_terms);
        let mut scores: HashMap<usize, f32> = HashMap::new();
        for &(t, times) in &q.0 {
            for i in self.postings(t) {
                *scores.entry(self.docs[i] as usize).or_default() += self.part(t, i) * times;
            }
        }
        scores
    }

    /// Every document whose score may exceed `theta` (a superset of those that do), with its
    /// exact score. MaxScore: terms sorted by maximum impact; the low ones whose impacts sum
    /// to at most `theta` are "non-essential" (a document holding only those cannot pass), the
    /// rest are accumulated term-at-a-time into the thread's dense array, and only documents
    /// whose partial score plus the non-essential bound can pass are scored in full.
    fn above(&self, q: &Query, theta: f32) -> Vec<(u32, f32)> {
        // A margin for float rounding: prune only what cannot pass by a clear distance.
        let theta = theta - theta.abs() * 1e-4;
        let mut order: Vec<(f32, u32)> =
            q.0.iter()
                .map(|&(t, times)| (self.max_impact[t as usize] * times, t))
                .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut rest_bound = 0.0f32;
        let mut split = order.len();
        for (i, &(bound, _)) in order.iter().enumerate() {
            if rest_bound + bound >= theta {
                split = i;
                break;
            }
            rest_bound += bound;
        }
        let essential = &order[split..];
        ACC.with(|cell| {
            let (acc, touched) = &mut *cell.borrow_mut();
            if acc.len() < self.len() {
                acc.resize(self.len(), 0.0);
            }
            for &(_, t) in essential {
                let times = q.0.iter().find(|p| p.0 == t).map_or(1.0, |p| p.1);
                for i in self.postings(t) {
                    let d = self.docs[i];
                    let slot = &mut acc[d as usize];
                    if *slot == 0.0 {
                        touched.push(d);
                    }
                    *slot += self.part(t, i) * times;
                }
            }
            let mut out = Vec::new();
            for &d in touched.iter() {
                let partial = std::mem::take(&mut acc[d as usize]);
                if partial + rest_bound >= theta {
                    out.push((d, self.score_doc(q, d)));
                }
            }
            touched.clear();
            out
        })
    }

    /// The `k` best documents, best first; ties broken by lower position.
    pub fn search(&self, query: &str, k: usize) -> Vec<Hit> {
        top_k(self.score_all(query), k)
    }

    /// Where document `doc` ranks for `query` among all documents.
    pub fn standing(&self, query: &str, doc: usize) -> Standing {
        standing_of(&self.score_all(query), doc)
    }

    /// The standing of the best of `source` (e.g. every chunk a label overlaps; the others are
    /// not competitors) for pre-extracted query terms, without scoring every matching document.
    ///
    /// Exact: the score, the rank (documents scoring strictly higher, plus one; when the
    /// source scores 0, every matching document is ahead) and the best other document whenever
    /// it scores above `floor` × the source's score; below that `best_other` is 0 and
    /// `best_other_doc` `None`. A `floor` of 1 costs least (only documents that beat the
    /// source are looked for); lower floors widen the search.
    pub fn standing_among(&self, query_terms: &[String], source: &[usize], floor: f32) -> Standing {
        let q = self.resolve(query_terms);
        let score = source
            .iter()
            .filter(|&&d| d < self.len())
            .map(|&d| self.score_doc(&q, d as u32))
            .fold(0.0f32, f32::max);
        let floor_score = score * floor.min(1.0);
        let mut standing = Standing {
            rank: 1,
            score,
            best_other: 0.0,
            best_other_doc: None,
        };
        for (d, s) in self.above(&q, floor_score) {
            let d = d as usize;
            if source.contains(&d) || s <= floor_score {
                continue;
            }
            if s > score {
                standing.rank += 1;
            }
            let better = match standing.best_other_doc {
                None => true,
                Some(b) => s > standing.best_other || (s == standing.best_other && d < b),
            };
            if better {
                standing.best_other = s;
                standing.best_other_doc = Some(d);
            }
        }
        standing
    }

    /// The best document for pre-extracted query terms (ties: lowest position), if any
    /// matches; the same as the first hit of an exhaustive search.
    pub fn best(&self, query_terms: &[String]) -> Option<Hit> {
        let q = self.resolve(query_terms);
        // A first lower bound: the best document holding the highest-impact term.
        let &(top, _) = q.0.iter().max_by(|a, b| {
            (self.max_impact[a.0 as usize] * a.1).total_cmp(&(self.max_impact[b.0 as usize] * b.1))
        })?;
        let bound = self
            .postings(top)
            .map(|i| self.score_doc(&q, self.docs[i]))
            .fold(0.0f32, f32::max);
        let mut best: Option<Hit> = None;
        for (d, score) in self.above(&q, bound) {
            let d = d as usize;
            if best.is_none_or(|b| score > b.score || (score == b.score && d < b.doc)) {
                best = Some(Hit { doc: d, score });
            }
        }
        best
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

/// The standing of the best of `docs` (e.g. every chunk of a label) among sparse scores; the
/// other members of `docs` are not competitors. An unmatched document ranks behind every
/// matched one.
pub fn standing_of_any(scores: &HashMap<usize, f32>, docs: &[usize]) -> Standing {
    let score = docs
        .iter()
        .map(|d| scores.get(d).copied().unwrap_or(0.0))
        .fold(0.0f32, f32::max);
    let mut standing = Standing {
        rank: 1,
        score,
        best_other: 0.0,
        best_other_doc: None,
    };
    for (&d, &s) in scores {
        if docs.contains(&d) {
            continue;
        }
        if s > score {
            standing.rank += 1;
        }
        let better = match standing.best_other_doc {
            None => true,
            Some(b) => s > standing.best_other || (s == standing.best_other && d < b),
        };
        if better {
            standing.best_other = s;
            standing.best_other_doc = Some(d);
        }
    }
    standing
}

fn standing_of(scores: &HashMap<usize, f32>, doc: usize) -> Standing {
    standing_of_any(scores, &[doc])
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

    /// Random small corpora over a skewed vocabulary (a few very frequent terms, many rare
    /// ones, repeated terms, uneven lengths, identical documents for ties): the pruned standing
    /// and best hit must equal the exhaustive ones exactly.
    #[test]
    fn pruned_standing_and_best_equal_exhaustive_scoring() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        for seed in 0..300u64 {
            let mut rng = StdRng::seed_from_u64(seed);
            let vocab = rng.random_range(3..40usize);
            let word = |rng: &mut StdRng| {
                // Skewed: low ids far more often than high ones.
                let r: f64 = rng.random();
                format!("t{}", (r * r * r * vocab as f64) as usize)
            };
            let n = rng.random_range(1..60usize);
            let mut docs: Vec<Vec<String>> = Vec::new();
            for _ in 0..n {
                if !docs.is_empty() && rng.random_bool(0.1) {
                    let copy = docs[rng.random_range(0..docs.len())].clone();
                    docs.push(copy);
                    continue;
                }
                let len = rng.random_range(0..25usize);
                docs.push((0..len).map(|_| word(&mut rng)).collect());
            }
            let index = Bm25Index::from_terms(docs.clone(), Bm25Params::default());
            for _ in 0..20 {
                let qlen = rng.random_range(1..10usize);
                let mut query: Vec<String> = (0..qlen).map(|_| word(&mut rng)).collect();
                if rng.random_bool(0.2) {
                    query.push("unknown".into());
                }
                let scores = index.score_terms(&query);
                let best = index.best(&query);
                assert_eq!(
                    best,
                    top_k(scores.clone(), 1).first().copied(),
                    "seed {seed} {query:?}"
                );
                let source: Vec<usize> = (0..rng.random_range(1..3usize))
                    .map(|_| rng.random_range(0..n))
                    .collect();
                let full = standing_of_any(&scores, &source);
                for floor in [0.0, 0.25, 0.5, 1.0] {
                    let pruned = index.standing_among(&query, &source, floor);
                    let context = format!("seed {seed} {query:?} {source:?} floor {floor}");
                    assert_eq!(pruned.rank, full.rank, "{context}");
                    assert_eq!(pruned.score, full.score, "{context}");
                    if full.best_other > floor * full.score {
                        assert_eq!(pruned.best_other, full.best_other, "{context}");
                        assert_eq!(pruned.best_other_doc, full.best_other_doc, "{context}");
                    } else {
                        assert_eq!(
                            (pruned.best_other, pruned.best_other_doc),
                            (0.0, None),
                            "{context}"
                        );
                    }
                }
            }
        }
    }
}
