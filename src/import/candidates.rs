//! Candidate labels for a real question that came without one: the chunks keyword search ranks
//! highest, each with the sentence that shares most words with the question as its quote. A
//! person confirms or discards them in review; until then the case is `needs_label`.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::json;

use crate::chunk::Chunk;
use crate::index::Bm25Index;
use crate::lang::Analyzer;
use crate::testset::Label;
use crate::workspace::ChunkedCorpus;

/// The label field that marks a proposed, unconfirmed label: `candidate: {rank, score}`.
pub const MARKER: &str = crate::testset::PROPOSED;

/// Longest quote proposed, in characters.
const MAX_QUOTE_CHARS: usize = 240;

/// BM25 over every chunk of the corpus.
pub struct Candidates<'a> {
    chunks: &'a [Chunk],
    index: Cow<'a, Bm25Index>,
}

impl<'a> Candidates<'a> {
    /// Indexes `chunks`.
    pub fn new(chunks: &'a [Chunk]) -> Self {
        Candidates {
            chunks,
            index: Cow::Owned(Bm25Index::new(chunks.iter().map(|c| c.text.as_str()))),
        }
    }

    /// Searches the chunks of a [`ChunkedCorpus`] with its own index.
    pub fn over(chunks: &'a ChunkedCorpus) -> Self {
        Candidates {
            chunks,
            index: Cow::Borrowed(chunks.bm25()),
        }
    }

    /// Up to `k` labels for `question`, best first; only chunks of `doc` when given. Chunks that
    /// share no term with the question are never proposed.
    pub fn propose(&self, question: &str, doc: Option<&str>, k: usize) -> Vec<Label> {
        let mut hits: Vec<(usize, f32)> = self
            .index
            .score_all(question)
            .into_iter()
            .filter(|(i, s)| *s > 0.0 && doc.is_none_or(|d| self.chunks[*i].doc == d))
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let words = self.index.language().analyzer();
        let terms: HashSet<String> = words.content_terms(question).into_iter().collect();
        hits.into_iter()
            .take(k)
            .enumerate()
            .map(|(rank, (i, score))| {
                let chunk = &self.chunks[i];
                let quote = best_sentence(&chunk.text, &terms, words);
                let mut label = Label {
                    doc: chunk.doc.clone(),
                    start: chunk.start,
                    end: chunk.end,
                    quote: quote.to_string(),
                    chunk: Some(chunk.id.clone()),
                    grade: None,
                    extra: Default::default(),
                };
                label.extra.insert(
                    MARKER.into(),
                    json!({"rank": rank + 1, "score": (f64::from(score) * 100.0).round() / 100.0}),
                );
                label
            })
            .collect()
    }
}

/// The sentence of `text` sharing most terms with the question (the first on a tie), trimmed
/// of list and heading marks and cut at a word boundary. A substring of `text`, so a label
/// spanning the chunk holds it.
fn best_sentence<'t>(text: &'t str, terms: &HashSet<String>, words: &Analyzer) -> &'t str {
    let mut best: Option<(usize, &str)> = None; // (shared terms, sentence)
    for sentence in sentences(text) {
        let shared = words
            .content_terms(sentence)
            .into_iter()
            .collect::<HashSet<_>>()
            .intersection(terms)
            .count();
        if best.is_none_or(|(s, _)| shared > s) {
            best = Some((shared, sentence));
        }
    }
    let (_, sentence) = best.unwrap_or((0, text.trim()));
    cut(sentence, MAX_QUOTE_CHARS)
}

/// Sentences and lines of `text`, without leading markup; blank ones and ones without a letter
/// or digit are left out.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        let end_here = c == '\n'
            || (matches!(c, '.' | '!' | '?') && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()));
        if end_here {
            let stop = if c == '\n' { i } else { i + 1 };
            out.push(&text[start..stop]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.into_iter().filter_map(|s| {
        let trimmed = s
            .trim_start_matches(|c: char| c.is_whitespace() || "#>*-+|".contains(c))
            .trim_end();
        trimmed.chars().any(char::is_alphanumeric).then_some(trimmed)
    })
}

/// At most `max` characters of `s`, cut after a whole word.
fn cut(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        None => s,
        Some((b, _)) => {
            let head = &s[..b];
            head.rfind(char::is_whitespace)
                .map_or(head, |w| head[..w].trim_end())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(n: usize, doc: &str, start: usize, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#{n}"),
            doc: doc.into(),
            start,
            end: start + text.chars().count(),
            text: text.into(),
        }
    }

    #[test]
    fn proposes_best_chunks_with_matching_sentence() {
        let chunks = vec![
            chunk(
                0,
                "a.md",
                0,
                "# Pricing\n\nThe Team plan costs 8 euros. Snapshots are kept 30 days on Community.",
            ),
            chunk(
                1,
                "b.md",
                0,
                "Install the agent with apt. Open port 8750 on the server.",
            ),
            chunk(2, "b.md", 60, "Nothing relevant here at all."),
        ];
        let c = Candidates::new(&chunks);
        let labels = c.propose("how long are snapshots kept", None, 3);
        assert_eq!(labels.len(), 1);
        assert_eq!(labels[0].quote, "Snapshots are kept 30 days on Community.");
        assert_eq!(labels[0].chunk.as_deref(), Some("a.md#0"));
        assert_eq!(labels[0].extra[MARKER]["rank"], 1);
        assert!(chunks[0].text.contains(&labels[0].quote));
        let only_b = c.propose("which port for the server", Some("b.md"), 3);
        assert_eq!(only_b[0].quote, "Open port 8750 on the server.");
        assert!(c.propose("snapshots", Some("b.md"), 3).is_empty());
    }

    #[test]
    fn long_sentences_are_cut_at_a_word() {
        let s = "word ".repeat(100);
        let q = cut(s.trim(), 23);
        assert_eq!(q, "word word word word");
    }
}
