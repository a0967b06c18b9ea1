//! Words: tokenizing, stopwords and stems, shared by the lexical index, the overlap checks and
//! duplicate detection so that "word" means the same thing everywhere.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

/// English function words that carry no topic. Short on purpose: a question's key terms must
/// survive (so no "name", "time", "use").
pub const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "s",
    "t",
    "don",
    "doesn",
    "didn",
    "isn",
    "aren",
    "wasn",
    "weren",
    "won",
    "shall",
    "may",
    "might",
    "must",
    "also",
    "there's",
    "what's",
    "it's",
    "i'm",
    "let",
];

/// True for a stopword (expects lower case).
pub fn is_stopword(word: &str) -> bool {
    static SET: OnceLock<std::collections::HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| STOPWORDS.iter().copied().collect())
        .contains(word)
}

/// A word of a text: its lower-cased form and where it stands (byte offsets into the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    /// Lower-cased word.
    pub norm: String,
    /// The word as written.
    pub raw: &'a str,
    /// Byte offset of the word in the text.
    pub byte: usize,
}

/// Splits text into words (Unicode word boundaries, alphanumeric only), lower-cased.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    text.unicode_word_indices()
        .filter(|(_, w)| w.chars().any(char::is_alphanumeric))
        .map(|(byte, raw)| Token {
            norm: raw.to_lowercase(),
            raw,
            byte,
        })
        .collect()
}

/// Lower-cased words without positions.
pub fn words(text: &str) -> Vec<String> {
    text.unicode_words()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(str::to_lowercase)
        .collect()
}

/// Reduces a lower-case word to its English Snowball stem ("returns" and "returned" → "return").
pub fn stem(word: &str) -> String {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER
        .get_or_init(|| Stemmer::create(Algorithm::English))
        .stem(word)
        .into_owned()
}

/// Stems of the non-stopword words of a text: the terms the index and the overlap checks use.
pub fn content_terms(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| !is_stopword(w))
        .map(|w| stem(&w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_positions_and_drop_punctuation() {
        let t = tokens("How do I return an e-book? Café—ok.");
        let norms: Vec<_> = t.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(
            norms,
            ["how", "do", "i", "return", "an", "e", "book", "café", "ok"]
        );
        assert_eq!(t[7].raw, "Café");
        assert_eq!(
            &"How do I return an e-book? Café—ok."[t[7].byte..t[7].byte + 5],
            "Café"
        );
    }

    #[test]
    fn content_terms_drop_stopwords_and_stem() {
        assert_eq!(
            content_terms("What are the Returns policies?"),
            ["return", "polici"]
        );
    }
}
