//! A BM25 index over chunks: the lexical retriever the checks use to ask "would keyword search
//! find this?", to pair chunks for multi-hop questions, to find candidate labels and to rank a
//! question's labelled source among every chunk of a large corpus.
//!
//! Terms are [`crate::text::content_terms`] (lower-cased, stopwords removed, Snowball-stemmed).
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

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

use crate::text::content_terms;

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

/// A query resolved against the index: distinct known terms in first-occurrence order, each
/// with how often the query repeats it.
struct Query(Vec<(u32, u64)>);

/// Per thread, reused across queries: a dense score accumulator and a bitmap of the documents
/// touched (both zero outside a query), and the candidate list.
#[derive(Default)]
struct Scratch {
    acc: Vec<u64>,
    seen: Vec<u64>,
    candidates: Vec<(u32, u64)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
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

    /// Scores every document that shares a term with the query; returns sparse (doc, score).
    pub fn score_all(&self, query: &str) -> HashMap<usize, f32> {
        let q = self.resolve(&content_terms(query));
        self.score_units(&q)
            .into_iter()
            .map(|(d, s)| (d as usize, to_score(s)))
            .collect()
    }

    /// Visits exactly the documents `within` scoring at least `theta` units, with their
    /// scores. MaxScore: terms sorted by maximum impact; the low ones whose impacts sum to less
    /// than `theta` are "non-essential" (a document holding only those cannot pass). The essential terms are
    /// accumulated term-at-a-time into the thread's dense array, marking the documents they
    /// touch in a bitmap; those documents, in ascending order, then have the non-essential
    /// terms looked up, highest bound first, each dropped as soon as its partial score plus
    /// the bounds of the terms still to look up falls short. A survivor has been looked up on
    /// every term: its sum is its score. Survivors are visited in ascending order.
    fn above(&self, q: &Query, theta: u64, within: Range<u32>, mut visit: impl FnMut(u32, u64)) {
        // Term `t`'s postings for the documents `within`.
        let postings = |t: u32| {
            let all = self.postings(t);
            if within.start == 0 && within.end as usize >= self.len() {
                return all;
            }
            let docs = &self.docs[all.clone()];
            all.start + docs.partition_point(|&d| d < within.start)
                ..all.start + docs.partition_point(|&d| d < within.end)
        };
        let mut order: Vec<(u64, u32, u64)> =
            q.0.iter()
                .map(|&(t, times)| (self.max_impact[t as usize] as u64 * times, t, times))
                .collect();
        order.sort_unstable();
        // below[i]: the bounds of order[..i] summed.
        let mut below = Vec::with_capacity(order.len() + 1);
        below.push(0u64);
        let mut split = order.len();
        for (i, &(bound, _, _)) in order.iter().enumerate() {
            if below[i] + bound >= theta {
                split = i;
                break;
            }
            below.push(below[i] + bound);
        }
        SCRATCH.with(|cell| {
            let Scratch {
                acc,
                seen,
                candidates,
            } = &mut *cell.borrow_mut();
            if acc.len() < self.len() {
                acc.resize(self.len(), 0);
            }
            let words = within.len().div_ceil(64);
            if seen.len() < words {
                seen.resize(words, 0);
            }
            for &(_, t, times) in &order[split..] {
                for i in postings(t) {
                    let d = self.docs[i];
                    acc[d as usize] += self.impacts[i] as u64 * times;
                    let bit = d - within.start;
                    seen[bit as usize / 64] |= 1 << (bit % 64);
                }
            }
            // The touched documents in ascending order, read off the bitmap (clearing it).
            let rest = below[split];
            candidates.clear();
            for (w, word) in seen[..words].iter_mut().enumerate() {
                let mut bits = std::mem::take(word);
                while bits != 0 {
                    let d = within.start + (w * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    let partial = std::mem::take(&mut acc[d as usize]);
                    if partial + rest >= theta {
                        candidates.push((d, partial));
                    }
                }
            }
            for i in (0..split).rev() {
                let (_, t, times) = order[i];
                let range = postings(t);
                let docs = &self.docs[range.clone()];
                let mut at = 0;
                candidates.retain_mut(|(d, partial)| {
                    at += gallop(&docs[at..], *d);
                    if docs.get(at) == Some(d) {
                        *partial += self.impacts[range.start + at] as u64 * times;
                    }
                    *partial + below[i] >= theta
                });
            }
            for &(d, score) in candidates.iter() {
                visit(d, score);
            }
        })
    }

    /// The `k` best documents, best first; ties broken by lower position.
    pub fn search(&self, query: &str, k: usize) -> Vec<Hit> {
        let q = self.resolve(&content_terms(query));
        top_k(self.score_units(&q), k)
    }

    /// Where document `doc` ranks for `query` among all documents.
    pub fn standing(&self, query: &str, doc: usize) -> Standing {
        let q = self.resolve(&content_terms(query));
        standing_of_any(&self.score_units(&q), &[doc])
    }

    /// The standing of the best of `source` (e.g. every chunk a label overlaps; the others are
    /// not competitors) for pre-extracted query terms, without scoring every matching document.
    ///
    /// Exact: the score; the rank (documents scoring strictly higher, plus one; when the source
    /// scores 0, every matching document is ahead) as long as it is within [`RANK_DEPTH`],
    /// beyond which it is `RANK_DEPTH + 1` with `beyond_depth` set; and the best other
    /// document whenever it scores above `floor` × the source's score (below that `best_other`
    /// is 0 and `best_other_doc` `None`). A `floor` of 1 costs least (only documents that beat
    /// the source are looked for); lower floors widen the search.
    pub fn standing_among(&self, query_terms: &[String], source: &[usize], floor: f32) -> Standing {
        self.standing_in_blocks(query_terms, source, floor, BLOCK, RANK_DEPTH)
    }

    /// [`standing_among`](Self::standing_among), searching `block` documents at a time so the
    /// threshold can rise between blocks: to the best other score found so far, and once
    /// more than `depth` documents beat the source, no longer held down to the source's score
    /// to count them. A question whose source thousands of chunks outscore then costs about one block.
    fn standing_in_blocks(
        &self,
        query_terms: &[String],
        source: &[usize],
        floor: f32,
        block: u32,
        depth: usize,
    ) -> Standing {
        let q = self.resolve(query_terms);
        let score = source
            .iter()
            .filter(|&&d| d < self.len())
            .map(|&d| self.score_doc(&q, d as u32))
            .max()
            .unwrap_or(0);
        let floor_units = (score as f64 * floor.clamp(0.0, 1.0) as f64) as u64;
        let (mut ahead, mut best): (usize, Option<(u64, u32)>) = (0, None);
        let mut lo = 0u32;
        while (lo as usize) < self.len() {
            let hi = (lo as usize + block.max(1) as usize).min(self.len()) as u32;
            // Documents come in ascending order, so a later one equal to the best loses the tie.
            let wanted_best = best.map_or(floor_units, |(b, _)| b) + 1;
            let theta = if ahead <= depth {
                wanted_best.min(score + 1)
            } else {
                wanted_best
            };
            self.above(&q, theta, lo..hi, |d, s| {
                if source.contains(&(d as usize)) {
                    return;
                }
                if s > score {
                    ahead += 1;
                }
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, d));
                }
            });
            lo = hi;
        }
        Standing {
            rank: ahead.min(depth) + 1,
            beyond_depth: ahead > depth,
            score: to_score(score),
            best_other: best.map_or(0.0, |(s, _)| to_score(s)),
            best_other_doc: best.map(|(_, d)| d as usize),
        }
    }

    /// The best document for pre-extracted query terms (ties: lowest position), if any
    /// matches; the same as the first hit of an exhaustive search.
    pub fn best(&self, query_terms: &[String]) -> Option<Hit> {
        let q = self.resolve(query_terms);
        // A first lower bound: the full score of the document the highest-impact term
        // weighs most on.
        let &(top, _) =
            q.0.iter()
                .max_by_key(|&&(t, times)| self.max_impact[t as usize] as u64 * times)?;
        let i = self.postings(top).max_by_key(|&i| self.impacts[i])?;
        let bound = self.score_doc(&q, self.docs[i]);
        // Documents come in ascending order: the first of equal scores stays.
        let mut best: Option<(u64, u32)> = None;
        self.above(&q, bound, 0..self.len() as u32, |d, s| {
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, d));
            }
        });
        best.map(|(s, d)| Hit {
            doc: d as usize,
            score: to_score(s),
        })
    }
}

/// The number of entries of ascending `docs` below `d` (where `d` is or would be), found by
/// doubling steps from the front and then bisecting: cheap when `d` is near, as it is when
/// sorted candidates walk one postings list.
fn gallop(docs: &[u32], d: u32) -> usize {
    let mut hi = 1;
    while hi < docs.len() && docs[hi - 1] < d {
        hi *= 2;
    }
    let lo = hi / 2;
    let hi = hi.min(docs.len());
    lo + docs[lo..hi].partition_point(|&x| x < d)
}

/// The best `k` of sparse scores in units, best first; ties broken by lower position.
fn top_k(scores: HashMap<u32, u64>, k: usize) -> Vec<Hit> {
    let mut hits: Vec<(u32, u64)> = scores.into_iter().collect();
    let by = |a: &(u32, u64), b: &(u32, u64)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
    if hits.len() > k {
        hits.select_nth_unstable_by(k, by);
        hits.truncate(k);
    }
    hits.sort_by(by);
    hits.into_iter()
        .map(|(d, s)| Hit {
            doc: d as usize,
            score: to_score(s),
        })
        .collect()
}

/// The standing of the best of `docs` among sparse scores in units; the other members of
/// `docs` are not competitors. An unmatched document ranks behind every matched one.
fn standing_of_any(scores: &HashMap<u32, u64>, docs: &[usize]) -> Standing {
    let score = docs
        .iter()
        .map(|&d| scores.get(&(d as u32)).copied().unwrap_or(0))
        .max()
        .unwrap_or(0);
    let (mut rank, mut best): (usize, Option<(u64, u32)>) = (1, None);
    for (&d, &s) in scores {
        if docs.contains(&(d as usize)) {
            continue;
        }
        if s > score {
            rank += 1;
        }
        if best.is_none_or(|(bs, bd)| s > bs || (s == bs && d < bd)) {
            best = Some((s, d));
        }
    }
    Standing {
        rank,
        beyond_depth: false,
        score: to_score(score),
        best_other: best.map_or(0.0, |(s, _)| to_score(s)),
        best_other_doc: best.map(|(_, d)| d as usize),
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
    fn gallop_finds_the_insertion_point() {
        let docs = [2, 3, 5, 8, 13, 21, 34, 55, 89];
        for d in 0..100 {
            assert_eq!(gallop(&docs, d), docs.partition_point(|&x| x < d), "{d}");
        }
        assert_eq!(gallop(&[], 7), 0);
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
                let scores = index.score_units(&index.resolve(&query));
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
                let source_units = source
                    .iter()
                    .map(|&d| scores.get(&(d as u32)).copied().unwrap_or(0))
                    .max()
                    .unwrap();
                let best_other_units = scores
                    .iter()
                    .filter(|(d, _)| !source.contains(&(**d as usize)))
                    .map(|(_, &s)| s)
                    .max()
                    .unwrap_or(0);
                for floor in [0.0, 0.25, 0.5, 1.0] {
                    // Whole-index blocks and tiny ones; unbounded depth and a shallow one.
                    for (block, depth) in [(BLOCK, RANK_DEPTH), (3, RANK_DEPTH), (5, 2), (1, 0)] {
                        let pruned = index.standing_in_blocks(&query, &source, floor, block, depth);
                        let context = format!(
                            "seed {seed} {query:?} {source:?} floor {floor} block {block} depth {depth}"
                        );
                        assert_eq!(pruned.score, full.score, "{context}");
                        if full.rank <= depth + 1 {
                            assert_eq!(
                                (pruned.rank, pruned.beyond_depth),
                                (full.rank, false),
                                "{context}"
                            );
                        } else {
                            assert_eq!((pruned.rank, pruned.beyond_depth), (depth + 1, true), "{context}");
                        }
                        if best_other_units as f64 > floor as f64 * source_units as f64 {
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
}
