//! BM25 standings fast enough for 100,000 questions against 100,000 chunks.
//!
//! Same scoring as [`crate::index::Bm25Index`] (Lucene idf, k1 0.9, b 0.4, terms from
//! [`crate::text::content_terms`], duplicate query terms counted twice), but instead of scoring
//! every chunk that shares a term with the question, it uses MaxScore pruning: a chunk can only
//! beat a threshold if it holds one of the question's "essential" terms, those whose upper
//! bounds (idf × (k1 + 1)) are not covered by the threshold. Frequent terms then cost nothing,
//! so the cost per question stops growing with the corpus.
//!
//! What is exact: the source's score, its rank (chunks scoring strictly higher), and the best
//! other chunk's score whenever it exceeds a quarter of the source's score (below that, no rule
//! needs it: the best score found among candidates is reported, possibly lower).

use std::collections::HashMap;

use crate::index::Bm25Params;

/// An inverted index over chunks (by position) with postings sorted by chunk.
pub struct Lexical {
    params: Bm25Params,
    terms: HashMap<String, u32>,
    postings: Vec<Vec<(u32, u32)>>,
    doc_len: Vec<u32>,
    /// Per term: its idf; per chunk: k1 × its length normalisation (both fixed once built).
    idf: Vec<f32>,
    k1_norm: Vec<f32>,
}

/// Where a question's labelled source stands among all chunks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LexStanding {
    /// 1 + number of other chunks scoring strictly higher than the best source chunk.
    pub rank: usize,
    /// Score of the best source chunk.
    pub score: f32,
    /// Best score of another chunk (exact when above `score / 4`), 0 when none matches.
    pub best_other: f32,
    /// That chunk.
    pub best_other_doc: Option<usize>,
}

impl Lexical {
    /// Indexes term lists (one per chunk).
    pub fn new(docs: Vec<Vec<String>>) -> Lexical {
        let mut terms: HashMap<String, u32> = HashMap::new();
        let mut postings: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut doc_len = Vec::with_capacity(docs.len());
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
        let params = Bm25Params::default();
        let n = doc_len.len() as f32;
        let idf = postings
            .iter()
            .map(|p| {
                let df = p.len() as f32;
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        let k1_norm = doc_len
            .iter()
            .map(|&l| params.k1 * (1.0 - params.b + params.b * l as f32 / avg_len.max(1e-9)))
            .collect();
        Lexical {
            params,
            terms,
            postings,
            doc_len,
            idf,
            k1_norm,
        }
    }

    /// Number of indexed chunks.
    pub fn len(&self) -> usize {
        self.doc_len.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.doc_len.is_empty()
    }

    fn idf(&self, t: u32) -> f32 {
        self.idf[t as usize]
    }

    /// One term's contribution for term frequency `f` in chunk `d`.
    fn part(&self, t: u32, f: u32, d: u32) -> f32 {
        let f = f as f32;
        self.idf(t) * f * (self.params.k1 + 1.0) / (f + self.k1_norm[d as usize])
    }

    fn resolve(&self, query_terms: &[String]) -> Vec<u32> {
        query_terms
            .iter()
            .filter_map(|t| self.terms.get(t).copied())
            .collect()
    }

    /// BM25 score of chunk `d` for resolved query terms.
    fn score(&self, q: &[u32], d: u32) -> f32 {
        q.iter()
            .map(|&t| {
                let list = &self.postings[t as usize];
                match list.binary_search_by_key(&d, |p| p.0) {
                    Ok(i) => self.part(t, list[i].1, d),
                    Err(_) => 0.0,
                }
            })
            .sum()
    }

    /// Every chunk that can score above `theta`, with its exact score. MaxScore: terms whose
    /// upper bounds together stay within `theta` are "non-essential"; a chunk without an
    /// essential term cannot pass. Essential terms are accumulated term-at-a-time into a dense
    /// per-thread array; only survivors look up their non-essential terms.
    fn above(&self, q: &[u32], theta: f32) -> Vec<(u32, f32)> {
        thread_local! {
            static ACC: std::cell::RefCell<(Vec<f32>, Vec<u32>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
        }
        let k1 = self.params.k1;
        let mut bounds: Vec<(f32, u32)> = q.iter().map(|&t| (self.idf(t) * (k1 + 1.0), t)).collect();
        bounds.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut rest_bound = 0.0;
        let mut split = bounds.len();
        for (i, (ub, _)) in bounds.iter().enumerate() {
            if rest_bound + ub > theta {
                split = i;
                break;
            }
            rest_bound += ub;
        }
        let (rest, essential) = bounds.split_at(split);
        ACC.with(|cell| {
            let (acc, touched) = &mut *cell.borrow_mut();
            if acc.len() < self.len() {
                acc.resize(self.len(), 0.0);
            }
            for &(_, t) in essential {
                for &(d, f) in &self.postings[t as usize] {
                    let slot = &mut acc[d as usize];
                    if *slot == 0.0 {
                        touched.push(d);
                    }
                    *slot += self.part(t, f, d);
                }
            }
            let extra: Vec<u32> = rest.iter().map(|&(_, t)| t).collect();
            let mut out = Vec::new();
            for &d in touched.iter() {
                let partial = std::mem::take(&mut acc[d as usize]);
                if partial + rest_bound <= theta {
                    continue;
                }
                out.push((d, partial + self.score(&extra, d)));
            }
            touched.clear();
            out
        })
    }

    /// The standing of the best of `source` chunks for the question's terms.
    pub fn standing(&self, query_terms: &[String], source: &[usize]) -> LexStanding {
        let q = self.resolve(query_terms);
        let score = source
            .iter()
            .map(|&d| self.score(&q, d as u32))
            .fold(0.0f32, f32::max);
        let mut rank = 1;
        let mut best_other = 0.0f32;
        let mut best_other_doc = None;
        for (d, s) in self.above(&q, score / 4.0) {
            if source.contains(&(d as usize)) {
                continue;
            }
            if s > score {
                rank += 1;
            }
            if s > best_other || (s == best_other && best_other_doc.is_some_and(|b| (d as usize) < b)) {
                best_other = s;
                best_other_doc = Some(d as usize);
            }
        }
        LexStanding {
            rank,
            score,
            best_other,
            best_other_doc,
        }
    }

    /// The best chunk for the question's terms (ties: lowest position), if any matches.
    pub fn best(&self, query_terms: &[String]) -> Option<(usize, f32)> {
        let q = self.resolve(query_terms);
        // A first threshold from the rarest term's chunks, then every chunk that can beat it.
        let rarest = q
            .iter()
            .copied()
            .max_by(|a, b| self.idf(*a).total_cmp(&self.idf(*b)))?;
        let theta = self.postings[rarest as usize]
            .iter()
            .map(|p| self.score(&q, p.0))
            .fold(0.0f32, f32::max);
        let mut best: Option<(usize, f32)> = None;
        let mut found = self.above(&q, theta * 0.999);
        found.sort_unstable_by_key(|p| p.0);
        for (d, s) in found {
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((d as usize, s));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Bm25Index, standing_of_any, top_k};
    use crate::text::content_terms;

    #[test]
    fn agrees_with_the_exhaustive_index() {
        let texts: Vec<String> = (0..300)
            .map(|i| {
                let mut s = String::from("backup snapshot restore ");
                for j in 0..(i % 7 + 3) {
                    s.push_str(&format!("w{} ", (i * 31 + j * 17) % 97));
                }
                if i % 10 == 0 {
                    s.push_str("retention window prune ");
                }
                s
            })
            .collect();
        let exhaustive = Bm25Index::new(texts.iter().map(String::as_str));
        let lex = Lexical::new(texts.iter().map(|t| content_terms(t)).collect());
        for (qi, query) in [
            "backup w3 w40 retention",
            "snapshot prune window",
            "w5 w6 w7 restore",
            "nothing here",
        ]
        .iter()
        .enumerate()
        {
            let terms = content_terms(query);
            let scores = exhaustive.score_terms(&terms);
            for source in [vec![qi * 10], vec![qi * 10 + 1, 57]] {
                let a = standing_of_any(&scores, &source);
                let b = lex.standing(&terms, &source);
                assert_eq!(a.rank, b.rank, "{query} {source:?}");
                assert!((a.score - b.score).abs() < 1e-4);
                if a.best_other > a.score / 4.0 {
                    assert!((a.best_other - b.best_other).abs() < 1e-4, "{query}");
                }
            }
            let top = top_k(scores, 1).first().map(|h| (h.doc, h.score));
            let mine = lex.best(&terms);
            assert_eq!(top.map(|t| t.0), mine.map(|m| m.0), "{query}");
        }
    }
}
