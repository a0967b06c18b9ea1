//! Scoring queries against a [`Bm25Index`]: exhaustive ([`Bm25Index::score_all`]) and the
//! MaxScore-pruned searches that only need documents above a threshold known up front
//! ([`Bm25Index::standing_among`], [`Bm25Index::best`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

use super::{BLOCK, Bm25Index, Hit, RANK_DEPTH, Standing, to_score};

/// A query resolved against the index: distinct known terms in first-occurrence order, each
/// with how often the query repeats it.
pub(super) struct Query(pub(super) Vec<(u32, u64)>);

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
    /// Scores every document that shares a term with the query; returns sparse (doc, score).
    pub fn score_all(&self, query: &str) -> HashMap<usize, f32> {
        let q = self.resolve(&self.query_terms(query));
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
        let q = self.resolve(&self.query_terms(query));
        top_k(self.score_units(&q), k)
    }

    /// Where document `doc` ranks for `query` among all documents.
    pub fn standing(&self, query: &str, doc: usize) -> Standing {
        let q = self.resolve(&self.query_terms(query));
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
    use crate::index::Bm25Params;

    #[test]
    fn gallop_finds_the_insertion_point() {
        let docs = [2, 3, 5, 8, 13, 21, 34, 55, 89];
        for d in 0..100 {
            assert_eq!(gallop(&docs, d), docs.partition_point(|&x| x < d), "{d}");
        }
        assert_eq!(gallop(&[], 7), 0);
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
