//! Finding a quote in a document: exactly, then ignoring white space, case and typographic
//! variants, then fuzzily. Generation uses it to verify an LLM's quote and set the span from
//! where the quote really is; remap uses it to re-anchor labels after documents changed; audit
//! and eval use it to turn context given as text into doc + span.
//!
//! Every step takes time close to linear in the lengths involved — the fuzzy step included,
//! through an alignment anchored on rare grams for long quotes (`align`) — so a long context
//! that does not match exactly costs milliseconds, not minutes.

mod align;
mod corpus_index;

pub use corpus_index::CorpusIndex;

use rustc_hash::FxHashMap;

use crate::chunk::CharIndex;
use crate::corpus::Corpus;
use crate::text::{Token, tokens};

/// Where a quote was found, in characters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    /// Start (Unicode scalar values).
    pub start: usize,
    /// End, exclusive.
    pub end: usize,
    /// 1.0 for an exact match; otherwise the normalised edit similarity of the found text.
    pub similarity: f32,
    /// How it was found.
    pub how: Match,
}

/// How a quote was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Byte-for-byte.
    Exact,
    /// Equal after folding white space, case, quotes and dashes.
    Normalized,
    /// Most similar window of words, above the threshold.
    Fuzzy,
}

/// Default similarity a fuzzy match needs.
pub const DEFAULT_MIN_SIMILARITY: f32 = 0.8;

/// Finds `quote` in `text`. Among several matches the one nearest `near` (a character offset)
/// wins, else the first. Fuzzy matches need `min_similarity`.
pub fn locate(text: &str, quote: &str, near: Option<usize>, min_similarity: f32) -> Option<Found> {
    let quote = quote.trim();
    if quote.is_empty() {
        return None;
    }
    let idx = CharIndex::new(text);
    if let Some(found) = exact(text, quote, near, &idx) {
        return Some(found);
    }
    if let Some(found) = normalized(text, quote, near) {
        return Some(found);
    }
    fuzzy(text, quote, &idx).filter(|f| f.similarity >= min_similarity)
}

fn nearest(cands: impl Iterator<Item = (usize, usize)>, near: Option<usize>) -> Option<(usize, usize)> {
    match near {
        None => cands.into_iter().next(),
        Some(n) => cands.min_by_key(|(s, _)| s.abs_diff(n)),
    }
}

fn exact(text: &str, quote: &str, near: Option<usize>, idx: &CharIndex<'_>) -> Option<Found> {
    let hits = memchr::memmem::find_iter(text.as_bytes(), quote.as_bytes()).map(|b| {
        let s = idx.char_of(b);
        (s, s + quote.chars().count())
    });
    let (start, end) = nearest(hits, near)?;
    Some(Found {
        start,
        end,
        similarity: 1.0,
        how: Match::Exact,
    })
}

/// Folds one character for the normalised comparison.
fn fold(c: char) -> Option<char> {
    Some(match c {
        c if c.is_whitespace() => ' ',
        '\u{2018}' | '\u{2019}' | '\u{201B}' | '`' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '*' | '_' => return None, // markdown emphasis
        c => c.to_lowercase().next().unwrap_or(c),
    })
}

/// Folded text plus, per folded char, the character offset it came from.
fn folded(text: &str) -> (Vec<char>, Vec<usize>) {
    let mut out = Vec::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len());
    for (i, c) in text.chars().enumerate() {
        let Some(f) = fold(c) else { continue };
        if f == ' ' && out.last() == Some(&' ') {
            continue;
        }
        out.push(f);
        map.push(i);
    }
    (out, map)
}

fn normalized(text: &str, quote: &str, near: Option<usize>) -> Option<Found> {
    let (t, map) = folded(text);
    let (q, _) = folded(quote);
    let q: Vec<char> = q.into_iter().skip_while(|c| *c == ' ').collect();
    let q = q.strip_suffix(&[' ']).unwrap_or(&q).to_vec();
    if q.is_empty() || q.len() > t.len() {
        return None;
    }
    // Search the folded texts as UTF-8 (a match of whole characters always starts on a
    // character boundary), then turn byte offsets back into folded-character indices.
    let t_str: String = t.iter().collect();
    let q_str: String = q.iter().collect();
    let starts: Vec<usize> = t_str.char_indices().map(|(b, _)| b).collect();
    let hits = memchr::memmem::find_iter(t_str.as_bytes(), q_str.as_bytes()).filter_map(|b| {
        let i = starts.binary_search(&b).ok()?;
        Some((map[i], map[i + q.len() - 1] + 1))
    });
    let (start, end) = nearest(hits, near)?;
    Some(Found {
        start,
        end,
        similarity: 1.0,
        how: Match::Normalized,
    })
}

/// Below this many cells (characters of candidate × characters of quote) the similarity is the
/// exact normalised Levenshtein; above, it comes from an anchored alignment ([`align`]).
const EXACT_CELLS: usize = 4_000_000;

/// For each window of the quote's length over the words of the text, the number of its words
/// the quote has (each counted as often as the quote has it): `(shared, window start)`. The
/// window slides one word at a time, so this is linear in the text.
fn shared_words(tt: &[Token<'_>], qt: &[Token<'_>]) -> Vec<(usize, usize)> {
    // word -> (count in the quote, count in the current window)
    let mut counts: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
    for t in qt {
        counts.entry(t.norm.as_str()).or_default().0 += 1;
    }
    let mut shared = 0;
    let enter = |t: &Token<'_>, counts: &mut FxHashMap<&str, (usize, usize)>, shared: &mut usize| {
        if let Some((need, have)) = counts.get_mut(t.norm.as_str()) {
            if *have < *need {
                *shared += 1;
            }
            *have += 1;
        }
    };
    let w = qt.len().min(tt.len());
    for t in &tt[..w] {
        enter(t, &mut counts, &mut shared);
    }
    let mut out = Vec::with_capacity(tt.len() - w + 1);
    out.push((shared, 0));
    for s in 1..=(tt.len() - w) {
        if let Some((need, have)) = counts.get_mut(tt[s - 1].norm.as_str()) {
            *have -= 1;
            if *have < *need {
                shared -= 1;
            }
        }
        enter(&tt[s + w - 1], &mut counts, &mut shared);
        out.push((shared, s));
    }
    out
}

fn fuzzy(text: &str, quote: &str, idx: &CharIndex<'_>) -> Option<Found> {
    let tt = tokens(text);
    let qt = tokens(quote);
    let n = qt.len();
    if n == 0 || tt.is_empty() {
        return None;
    }
    // Slide a window of the quote's length over the words; keep the windows sharing the most.
    let w = n.min(tt.len());
    let mut best = shared_words(&tt, &qt);
    best.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let quote_chars = folded(quote).0;
    let quote_folded: String = quote_chars.iter().collect();
    // For long quotes: the folded document, where each of its characters came from, and the
    // anchors shared with the quote — built once, on the first long candidate.
    let doc = std::cell::OnceCell::new();
    let mut anchored = None;
    let mut winner: Option<Found> = None;
    for &(shared, s) in best.iter().take(8) {
        if shared * 2 < n {
            break;
        }
        // Try the window and slightly shorter / longer ones (words inserted or dropped).
        for len in w.saturating_sub(2).max(1)..=(w + 2).min(tt.len() - s) {
            let first = &tt[s];
            let last = &tt[s + len - 1];
            let b0 = first.byte;
            let b1 = last.byte + last.raw.len();
            let exact = |cand: String| strsim::normalized_levenshtein(&cand, &quote_folded) as f32;
            // Folding never lengthens text, so a short stretch of bytes is a short candidate.
            let sim = if (b1 - b0) * quote_chars.len() <= EXACT_CELLS {
                exact(folded(&text[b0..b1]).0.into_iter().collect())
            } else {
                let (doc_chars, map): &(Vec<char>, Vec<usize>) = doc.get_or_init(|| folded(text));
                // The candidate starts and ends on a word, so its folding is this stretch of the
                // document's.
                let (c0, c1) = (idx.char_of(b0), idx.char_of(b1));
                let range = map.partition_point(|&c| c < c0)..map.partition_point(|&c| c < c1);
                if range.len() * quote_chars.len() <= EXACT_CELLS {
                    exact(doc_chars[range].iter().collect())
                } else {
                    let al = anchored.get_or_insert_with(|| align::Anchored::new(doc_chars, &quote_chars));
                    let longest = range.len().max(quote_chars.len());
                    1.0 - al.distance(range) as f32 / longest as f32
                }
            };
            if winner.is_none_or(|f| sim > f.similarity) {
                winner = Some(Found {
                    start: idx.char_of(b0),
                    end: idx.char_of(b1),
                    similarity: sim,
                    how: Match::Fuzzy,
                });
            }
        }
    }
    winner
}

/// Finds `quote` anywhere in the corpus: first in `prefer` (the document it was labelled
/// with), then exactly in any document, then fuzzily in any. Returns the document's path.
pub fn locate_in_corpus(
    corpus: &Corpus,
    quote: &str,
    prefer: Option<(&str, Option<usize>)>,
    min_similarity: f32,
) -> Option<(String, Found)> {
    if let Some((doc, near)) = prefer
        && let Some(d) = corpus.doc(doc)
        && let Some(f) = locate(&d.text, quote, near, min_similarity)
    {
        return Some((d.path.clone(), f));
    }
    let idx_quote = quote.trim();
    for d in &corpus.docs {
        if memchr::memmem::find(d.text.as_bytes(), idx_quote.as_bytes()).is_some() {
            let f = locate(&d.text, idx_quote, None, 1.0)?;
            return Some((d.path.clone(), f));
        }
    }
    corpus
        .docs
        .iter()
        .filter_map(|d| locate(&d.text, quote, None, min_similarity).map(|f| (d.path.clone(), f)))
        .max_by(|a, b| a.1.similarity.total_cmp(&b.1.similarity))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "Intro line.\n\nRefunds: digital goods are eligible for a refund within\n14 days — if not downloaded.\nCafé opens at 9.";

    fn span(f: Found) -> String {
        DOC.chars().skip(f.start).take(f.end - f.start).collect()
    }

    #[test]
    fn exact_match_with_char_offsets() {
        let f = locate(DOC, "Café opens", None, 0.8).unwrap();
        assert_eq!(f.how, Match::Exact);
        assert_eq!(span(f), "Café opens");
    }

    #[test]
    fn normalized_match_folds_whitespace_case_and_dashes() {
        let f = locate(DOC, "eligible for a REFUND within 14 days - if not", None, 0.8).unwrap();
        assert_eq!(f.how, Match::Normalized);
        assert_eq!(span(f), "eligible for a refund within\n14 days — if not");
    }

    #[test]
    fn fuzzy_match_finds_reworded_quote() {
        let f = locate(
            DOC,
            "digital goods are eligible for refunds within 14 day",
            None,
            0.8,
        )
        .unwrap();
        assert_eq!(f.how, Match::Fuzzy);
        assert!(span(f).starts_with("digital goods are eligible"), "{}", span(f));
        assert!(f.similarity >= 0.8);
        assert!(locate(DOC, "completely unrelated sentence about shipping", None, 0.8).is_none());
    }

    #[test]
    fn nearest_occurrence_wins() {
        let text = "alpha beta. alpha beta. alpha beta.";
        assert_eq!(locate(text, "alpha beta", Some(13), 0.8).unwrap().start, 12);
    }
}
