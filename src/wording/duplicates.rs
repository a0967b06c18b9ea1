//! Exact and near-duplicate questions: one definition for `generate` (which turns a repeat
//! away) and the audit (RS301, RS302), and a set-wide search fast enough for 100,000 cases.
//!
//! Exact: the lower-cased word sequence ([`normalized`]). Near: Jaccard similarity
//! ([`similarity`]) of the sets of word bigrams, each word stemmed in the language the question
//! reads in on its own ([`shingles`]). The audit finds candidate pairs with MinHash + banding
//! (locality-sensitive hashing) instead of comparing every pair, then verifies each exactly, so
//! there are no false positives, and at Jaccard 0.8 a pair is missed with probability under 2%.
//!
//! `generate` turns away a new question at [`GENERATE_NEAR_DUPLICATE`] (0.6), below the audit's
//! [`NEAR_DUPLICATE`] (0.8): on the same measure, whatever it accepts the audit cannot flag.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use rayon::prelude::*;

const BANDS: usize = 8;
const ROWS: usize = 4;
/// Pairs verified per bucket at most; a bigger bucket is a cluster of near-copies whose first
/// members already show the problem.
const MAX_BUCKET: usize = 256;

/// The question as its lower-cased words joined by single spaces.
pub fn normalized(question: &str) -> String {
    crate::text::words(question).join(" ")
}

/// What two reference answers share when they say the same: their content words, stemmed in
/// the language the answer reads in, once each and sorted; an answer of function words only
/// is its [`normalized`] words. "LLCs treated as partnerships …" and "LLCs treated as a
/// partnership …", written for two questions of one sentence of TREC DL 2020, are one answer;
/// "passes the current Context" and "the current Context" are two. Generate's repeat check and
/// RS303 read answers through it.
pub fn answer_key(answer: &str) -> String {
    let analyzer = crate::lang::detect_question(answer, None, None).analyzer();
    let mut terms = analyzer.content_terms(answer);
    terms.sort();
    terms.dedup();
    if terms.is_empty() {
        normalized(answer)
    } else {
        terms.join(" ")
    }
}

/// Similarity at or above which RS302 flags two questions (its default `near_duplicate`).
pub const NEAR_DUPLICATE: f32 = 0.8;

/// Similarity at or above which `generate` turns a new question away: lower than the audit's,
/// so a set it writes holds fewer look-alikes than the audit would let pass.
pub const GENERATE_NEAR_DUPLICATE: f32 = 0.6;

/// Stemmed word bigrams, hashed (a one-word question is its single word). Words are stemmed in
/// the language the question reads in by itself ([`crate::lang::detect_question`] without a
/// source), so the generator and the audit, which know different things about a case, stem it
/// the same way.
pub fn shingles(question: &str) -> HashSet<u64> {
    let analyzer = crate::lang::detect_question(question, None, None).analyzer();
    let stems: Vec<String> = crate::text::words(question)
        .iter()
        .map(|w| analyzer.stem(w))
        .collect();
    let hash = |parts: &[String]| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        parts.hash(&mut h);
        h.finish()
    };
    if stems.len() == 1 {
        return HashSet::from([hash(&stems)]);
    }
    stems.windows(2).map(hash).collect()
}

fn mix(mut x: u64) -> u64 {
    // splitmix64 finaliser: one cheap, well-spread hash per MinHash row.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn signature(sh: &HashSet<u64>) -> [u64; BANDS * ROWS] {
    let mut sig = [u64::MAX; BANDS * ROWS];
    for &s in sh {
        for (i, slot) in sig.iter_mut().enumerate() {
            let v = mix(s ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            *slot = (*slot).min(v);
        }
    }
    sig
}

/// Jaccard similarity of two questions' [`shingles`].
pub fn similarity(a: &HashSet<u64>, b: &HashSet<u64>) -> f32 {
    let inter = a.intersection(b).count();
    let union = a.len() + b.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f32 / union as f32
    }
}

/// Pairs `(later, earlier, similarity)` of near-duplicate questions (similarity ≥ `threshold`,
/// not exact duplicates of each other, the later not an exact repeat), each later question
/// paired with its most similar earlier one.
pub fn near_duplicates(questions: &[&str], threshold: f32) -> Vec<(usize, usize, f32)> {
    let norms: Vec<String> = questions.par_iter().map(|q| normalized(q)).collect();
    let sets: Vec<HashSet<u64>> = questions.par_iter().map(|q| shingles(q)).collect();
    // One (band, band hash, question) per band of each signature; sorted, equal keys are the
    // LSH buckets, members in question order.
    let mut keys: Vec<(u64, u32)> = sets
        .par_iter()
        .enumerate()
        .filter(|(_, set)| !set.is_empty())
        .flat_map_iter(|(i, set)| {
            let sig = signature(set);
            (0..BANDS).map(move |band| {
                let rows = &sig[band * ROWS..(band + 1) * ROWS];
                let key = rows.iter().fold(mix(band as u64), |h, &r| mix(h ^ r));
                (key, i as u32)
            })
        })
        .collect();
    keys.par_sort_unstable();
    let buckets: Vec<&[(u64, u32)]> = keys
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|members| members.len() > 1)
        .collect();
    // A later exact duplicate is RS301's finding, not this one's.
    let mut seen: HashSet<&str> = HashSet::new();
    let exact_repeat: Vec<bool> = norms.iter().map(|n| !seen.insert(n.as_str())).collect();
    let pairs: Vec<(usize, usize, f32)> = buckets
        .par_iter()
        .flat_map_iter(|members| {
            let members = &members[..members.len().min(MAX_BUCKET)];
            let mut found = Vec::new();
            for (k, &(_, later)) in members.iter().enumerate() {
                let later = later as usize;
                if exact_repeat[later] {
                    continue;
                }
                for &(_, earlier) in &members[..k] {
                    let earlier = earlier as usize;
                    if norms[earlier] == norms[later] {
                        continue;
                    }
                    let sim = similarity(&sets[earlier], &sets[later]);
                    if sim >= threshold {
                        found.push((later, earlier, sim));
                    }
                }
            }
            found
        })
        .collect();
    let mut best: HashMap<usize, (usize, f32)> = HashMap::new();
    for (later, earlier, sim) in pairs {
        let e = best.entry(later).or_insert((earlier, sim));
        if sim > e.1 || (sim == e.1 && earlier < e.0) {
            *e = (earlier, sim);
        }
    }
    let mut out: Vec<(usize, usize, f32)> = best.into_iter().map(|(l, (e, s))| (l, e, s)).collect();
    out.sort_by_key(|p| p.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_duplicates_are_found_and_verified() {
        let qs = [
            "How long are snapshots retained in the archive tier?",
            "How long are snapshots retained in the archive tier by default?",
            "What does a restore cost?",
            "how long are snapshots retained in the archive tier",
        ];
        let pairs = near_duplicates(&qs, 0.7);
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        assert_eq!((pairs[0].0, pairs[0].1), (1, 0));
        assert!(pairs[0].2 >= 0.7 && pairs[0].2 < 1.0);
        assert!(near_duplicates(&qs, 0.95).is_empty());
    }

    #[test]
    fn answers_that_differ_in_endings_and_function_words_are_one() {
        let dl20 = "LLCs treated as partnerships for federal tax purposes must file Form IT-65.";
        let again = "LLCs treated as a partnership for federal tax purposes must file Form IT-65";
        assert_eq!(answer_key(dl20), answer_key(again));
        assert_ne!(
            answer_key("passes the current Context"),
            answer_key("the current Context")
        );
        assert_ne!(answer_key("7 days"), answer_key("30 days"));
        // Function words only: the words themselves.
        assert_eq!(answer_key("Yes"), "yes");
        assert_ne!(answer_key("yes"), answer_key("no"));
    }
}
