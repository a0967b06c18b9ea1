//! One language's words: stopwords and stems, built once per language and shared.

use std::collections::HashSet;
use std::sync::{LazyLock, OnceLock};

use rust_stemmers::Stemmer;

use super::Language;
use crate::text::words;

/// Stopwords and stemmer of one language.
pub struct Analyzer {
    language: Language,
    stopwords: HashSet<&'static str>,
    /// The language's question words ([`super::questions`], [`super::interrogatives`]),
    /// function words too: NLTK's lists hold English "when" and "which" but not German "wann"
    /// or Spanish "cuándo".
    question_words: HashSet<&'static str>,
    /// Their stems: an inflected question word is one too (Russian "каким", Turkish "nedir"),
    /// and no list can hold every case ending.
    question_stems: HashSet<String>,
    stemmer: Option<Stemmer>,
}

impl Analyzer {
    /// The analyzer of `language`, built on first use and kept for the process.
    pub fn of(language: Language) -> &'static Analyzer {
        // A slot per language `whatlang` knows, filled on first use: no lock on the hot path.
        static SLOTS: LazyLock<Vec<OnceLock<Analyzer>>> =
            LazyLock::new(|| whatlang::Lang::all().iter().map(|_| OnceLock::new()).collect());
        SLOTS[language.slot()].get_or_init(|| {
            let question_words = super::questions::question_words(language);
            let stemmer = language.stemmer().map(Stemmer::create);
            let question_stems = match &stemmer {
                Some(s) => question_words.iter().map(|w| s.stem(w).into_owned()).collect(),
                None => HashSet::new(),
            };
            Analyzer {
                language,
                stopwords: language.stopwords().unwrap_or_default().iter().copied().collect(),
                question_words: question_words.iter().copied().collect(),
                question_stems,
                stemmer,
            }
        })
    }

    /// The language.
    pub fn language(&self) -> Language {
        self.language
    }

    /// True when the language has a stopword list.
    pub fn has_stopwords(&self) -> bool {
        !self.stopwords.is_empty()
    }

    /// True when the language has a Snowball stemmer.
    pub fn has_stemmer(&self) -> bool {
        self.stemmer.is_some()
    }

    /// True for a stopword (expects a lower-cased [`crate::text::tokens`] word). A character
    /// bigram of an unspaced script is one when listed, or when both its characters are
    /// (Chinese "的是" is two function words, "是否" is listed).
    pub fn is_stopword(&self, word: &str) -> bool {
        self.is_listed(word)
            || self.is_function_bigram(word)
            || (!self.question_stems.is_empty() && self.question_stems.contains(self.stem(word).as_str()))
    }

    fn is_listed(&self, word: &str) -> bool {
        self.stopwords.contains(word) || self.question_words.contains(word)
    }

    fn is_function_bigram(&self, word: &str) -> bool {
        let mut chars = word.char_indices();
        match (chars.next(), chars.next(), chars.next()) {
            (Some((_, a)), Some((i, b)), None)
                if crate::text::is_unspaced(a) && crate::text::is_unspaced(b) =>
            {
                self.stopwords.contains(&word[..i]) && self.stopwords.contains(&word[i..])
            }
            _ => false,
        }
    }

    /// The word's Snowball stem ("devoluciones" → "devolu"); the word itself without a stemmer.
    pub fn stem(&self, word: &str) -> String {
        match &self.stemmer {
            Some(s) => s.stem(word).into_owned(),
            None => word.to_string(),
        }
    }

    /// Stems of the non-stopword words of a text: the terms the index and the overlap checks
    /// use.
    pub fn content_terms(&self, text: &str) -> Vec<String> {
        words(text)
            .into_iter()
            .filter(|w| !self.is_listed(w) && !self.is_function_bigram(w))
            .map(|w| self.stem(&w))
            .filter(|s| !self.question_stems.contains(s))
            .collect()
    }

    /// What this language lacks, in words for a report ("no stemmer", "no stopword list").
    pub fn missing(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.has_stopwords() {
            out.push("no stopword list");
        }
        if !self.has_stemmer() && !self.language.unspaced() {
            out.push("no stemmer");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> &'static Analyzer {
        Language::parse(code).unwrap().analyzer()
    }

    #[test]
    fn each_language_drops_its_own_function_words() {
        assert_eq!(
            lang("es").content_terms("¿Qué es el certificado de residencia fiscal?"),
            ["certific", "resident", "fiscal"]
        );
        assert_eq!(
            lang("de").content_terms("Wann wurde die Universität gegründet?"),
            ["wurd", "universitat", "gegrundet"]
        );
        // English function words in a Spanish sentence are content words to Spanish.
        assert!(lang("es").content_terms("the").contains(&"the".to_string()));
        assert_eq!(
            lang("en").content_terms("What are the Returns policies?"),
            ["return", "polici"]
        );
    }

    #[test]
    fn question_words_go_in_every_case_ending() {
        // Not in NLTK's lists; the inflected forms through their stems.
        assert_eq!(
            lang("ru").content_terms("Сколько мячей и каким клубам?"),
            ["мяч", "клуб"]
        );
        assert_eq!(lang("tr").content_terms("Hangi takım kazandı?"), ["tak", "kaza"]);
        assert!(lang("el").is_stopword("πόσα"));
        // A content word that only starts like one stays.
        assert!(!lang("ru").is_stopword("команда"));
    }

    #[test]
    fn chinese_bigrams_drop_function_pairs() {
        let zh = lang("zh");
        assert!(zh.is_stopword("的是"));
        assert!(!zh.is_stopword("大学"));
        assert!(
            zh.content_terms("大学是什么时候成立的")
                .contains(&"大学".to_string())
        );
    }

    #[test]
    fn a_language_without_resources_keeps_every_word_and_says_so() {
        let ko = lang("ko");
        assert_eq!(ko.content_terms("대학교 설립"), ["대학교", "설립"]);
        assert_eq!(ko.missing(), ["no stopword list", "no stemmer"]);
        assert!(lang("es").missing().is_empty());
        assert!(lang("zh").missing().is_empty());
    }
}
