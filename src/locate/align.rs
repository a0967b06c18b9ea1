//! Edit distance between a long quote and a stretch of text in near-linear time.
//!
//! The textbook dynamic programme costs the product of the two lengths: a second at 8 KB, over
//! three minutes at 100 KB. Two texts that are nearly the same share most of their rare
//! passages, so the alignment is anchored on 12-character grams that occur exactly once in the
//! document and once in the quote (found once per document, then reused for every stretch of
//! it the quote is compared with), chained in order (longest increasing run), and only the
//! short gaps between anchors are compared with the dynamic programme. The sum over the gaps is the cost of a real alignment,
//! so it never understates the distance; for texts that differ in scattered places it is the
//! exact distance. Every quote gets a fixed budget of programme cells: a gap that would exceed
//! it is charged as fully different (again an upper bound), so the work per quote is capped.

use rustc_hash::FxHashMap;

/// Length of the grams used as anchors, in characters.
const GRAM: usize = 12;

/// Dynamic-programme cells one quote may spend on the gaps between anchors.
pub(crate) const GAP_BUDGET: u64 = 40_000_000;

/// A document and a quote, prepared once for every stretch of the document the quote is
/// compared with: the longest chain of grams unique in both, as (position in the document,
/// position in the quote), increasing in both. Any part of an increasing chain is one too, so
/// each stretch uses the links that fall inside it.
pub(crate) struct Anchored<'a> {
    text: &'a [char],
    quote: &'a [char],
    chain: Vec<(usize, usize)>,
    budget: u64,
}

/// Grams that occur once in `s`, with their position.
fn unique_grams(s: &[char]) -> FxHashMap<&[char], usize> {
    let mut seen: FxHashMap<&[char], Option<usize>> = FxHashMap::default();
    for (i, g) in s.windows(GRAM).enumerate() {
        seen.entry(g).and_modify(|p| *p = None).or_insert(Some(i));
    }
    seen.into_iter().filter_map(|(g, p)| p.map(|p| (g, p))).collect()
}

/// The longest chain of pairs increasing in both coordinates, given pairs sorted by the first.
fn longest_chain(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: index of the pair ending the best chain of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut prev = vec![usize::MAX; pairs.len()];
    for (i, &(_, j)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].1 < j);
        if k > 0 {
            prev[i] = tails[k - 1];
        }
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied().unwrap_or(usize::MAX);
    while at != usize::MAX {
        chain.push(pairs[at]);
        at = prev[at];
    }
    chain.reverse();
    chain
}

impl<'a> Anchored<'a> {
    /// Prepares `text` (the whole document) and `quote`, with the per-quote budget.
    pub(crate) fn new(text: &'a [char], quote: &'a [char]) -> Anchored<'a> {
        let in_quote = unique_grams(quote);
        let mut pairs: Vec<(usize, usize)> = unique_grams(text)
            .into_iter()
            .filter_map(|(g, i)| in_quote.get(g).map(|&j| (i, j)))
            .collect();
        pairs.sort_unstable();
        Anchored {
            text,
            quote,
            chain: longest_chain(&pairs),
            budget: GAP_BUDGET,
        }
    }

    /// An upper bound on the edit distance between `text[range]` and the quote (exact when the
    /// differences lie between shared rare grams and the budget lasts).
    pub(crate) fn distance(&mut self, range: std::ops::Range<usize>) -> usize {
        let (t, q) = (self.text, self.quote);
        let lo = self.chain.partition_point(|p| p.0 < range.start);
        let hi = self.chain.partition_point(|p| p.0 + GRAM <= range.end).max(lo);
        let (mut a, mut b, mut d) = (range.start, 0, 0);
        for k in lo..hi {
            let (i, j) = self.chain[k];
            if i < a || j < b {
                continue; // inside a stretch already matched
            }
            d += self.gap(&t[a..i], &q[b..j]);
            (a, b) = (i, j);
            while a < range.end && b < q.len() && t[a] == q[b] {
                a += 1;
                b += 1;
            }
        }
        d + self.gap(&t[a..range.end], &q[b..])
    }

    /// The distance between two gaps, or their longer length once the budget is spent.
    fn gap(&mut self, a: &[char], b: &[char]) -> usize {
        let cells = a.len() as u64 * b.len() as u64;
        if cells == 0 || cells > self.budget {
            return a.len().max(b.len());
        }
        self.budget -= cells;
        strsim::generic_levenshtein(&a.to_vec(), &b.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn text(n: usize) -> String {
        (0..n)
            .map(|i| format!("word{} item{} ", i * 7919 % 1000, i))
            .collect()
    }

    #[test]
    fn matches_the_exact_distance_on_scattered_edits() {
        let a = text(300);
        let mut b = a.replacen("item17 ", "item 17 ", 1);
        b = b.replacen("word", "ward", 3);
        b.push_str("tail");
        let (ac, bc) = (chars(&a), chars(&b));
        let exact = strsim::levenshtein(&a, &b);
        assert_eq!(Anchored::new(&ac, &bc).distance(0..ac.len()), exact);
        // A stretch of the document: the same as comparing that stretch alone.
        let part = &ac[100..2000];
        let exact = strsim::generic_levenshtein(&part.to_vec(), &bc);
        assert_eq!(Anchored::new(&ac, &bc).distance(100..2000), exact);
    }

    #[test]
    fn never_understates_and_stops_at_the_budget() {
        let a = chars(&text(200));
        let b = chars(&text(200).to_uppercase());
        let exact = strsim::generic_levenshtein(&a, &b);
        let mut al = Anchored::new(&a, &b);
        assert!(al.distance(0..a.len()) >= exact);
        al.budget = 0;
        assert_eq!(al.distance(0..a.len()), a.len().max(b.len()));
    }

    #[test]
    fn the_longest_chain_increases_in_both() {
        let pairs = [(0, 5), (1, 1), (2, 2), (3, 9), (4, 3), (5, 4)];
        assert_eq!(longest_chain(&pairs), [(1, 1), (2, 2), (4, 3), (5, 4)]);
    }
}
