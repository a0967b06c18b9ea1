//! What the two-chunk kinds pass along: a pair of chunks and the term that links them
//! ([`super::bridges::find`] and [`super::comparisons::find`] find them), and which chunks may
//! be paired at all.

use crate::lang::Language;

/// Two chunks (indices into the chunk list) and the term that links them.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// First chunk.
    pub a: usize,
    /// Second chunk, from another document.
    pub b: usize,
    /// The linking term as written in chunk `a`.
    pub term: String,
    /// Sum of the idf of every rare term both share; higher links more specifically.
    pub score: f32,
}

/// Which chunks may be paired: each chunk's language (terms are read in it), and whether
/// chunks of two languages may make one question (`--cross-language`; off, a question's two
/// passages are in one language, as its user's question would be).
#[derive(Debug, Clone, Default)]
pub struct Pairing {
    /// Per chunk (index into the chunk list); English where missing.
    pub languages: Vec<Language>,
    /// Pair chunks of different languages.
    pub cross_language: bool,
}

impl Pairing {
    /// The language of chunk `i`.
    pub fn language(&self, i: usize) -> Language {
        self.languages.get(i).copied().unwrap_or(Language::ENGLISH)
    }

    /// Whether chunks `a` and `b` may be paired.
    pub fn allows(&self, a: usize, b: usize) -> bool {
        self.cross_language || self.language(a) == self.language(b)
    }
}
