//! Languages: which one a document or a question is written in, and how its words are read.
//!
//! Every lexical figure ragsynth computes — BM25 terms, containment, copied phrases, restated
//! answers — depends on stopwords and stems, and every wording rule on question words. Those
//! are per language: [`Analyzer`] holds the stopword list (NLTK's, from the `stop-words`
//! crate) and the Snowball stemmer (`rust-stemmers`) of one language; [`questions`] holds the
//! question words the wording rules read. A language without a stemmer or a stopword list is
//! still processed — words lower-cased, nothing dropped — and the reports say so.
//!
//! Languages are told by `whatlang` ([`detect`]); a configured language (`[corpus] language`,
//! `--language`) replaces detection for the corpus's documents.

mod analyzer;
mod detect;
mod interrogatives;
pub mod lists;
pub mod questions;

use std::fmt;

use serde::{Serialize, Serializer};
use whatlang::Lang;

pub use analyzer::Analyzer;
pub use detect::{detect, detect_document, detect_question, document_label, mixed_paragraphs};
pub use lists::{List, Pairs, PerLanguage};

/// What a check needs of a question's language, so that a question in a language without it
/// is left alone (and the report says so) rather than judged by another language's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reads {
    /// Nothing: characters, labels, figures every script has.
    Any,
    /// Stopwords (and stems where the language has a stemmer): content terms, BM25.
    Terms,
    /// Question words and phrases ([`questions`]).
    Wording,
    /// English word lists or patterns: English questions only.
    English,
}

impl Reads {
    /// True when a question in `language` can be read this way.
    pub fn can_read(self, language: Language) -> bool {
        match self {
            Reads::Any => true,
            Reads::Terms => language.analyzer().has_stopwords(),
            Reads::Wording => questions::readable(language),
            Reads::English => language == Language::ENGLISH,
        }
    }

    /// Name in docs.
    pub fn as_str(self) -> &'static str {
        match self {
            Reads::Any => "any",
            Reads::Terms => "terms",
            Reads::Wording => "wording",
            Reads::English => "english",
        }
    }
}

/// A language, as `whatlang` names it; shown and configured by its ISO 639-1 code where it has
/// one ("es"), else by ISO 639-3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Language(Lang);

impl PartialOrd for Language {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// By code, so reports list languages in a stable order.
impl Ord for Language {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.code().cmp(other.code())
    }
}

/// Languages with an ISO 639-1 code, a Snowball stemmer or an NLTK stopword list: (whatlang,
/// 639-1 code, stemmer). The stopword list is looked up by the code.
const KNOWN: &[(Lang, &str, Option<rust_stemmers::Algorithm>)] = {
    use rust_stemmers::Algorithm as A;
    &[
        (Lang::Eng, "en", Some(A::English)),
        (Lang::Spa, "es", Some(A::Spanish)),
        (Lang::Deu, "de", Some(A::German)),
        (Lang::Por, "pt", Some(A::Portuguese)),
        (Lang::Fra, "fr", Some(A::French)),
        (Lang::Ita, "it", Some(A::Italian)),
        (Lang::Nld, "nl", Some(A::Dutch)),
        (Lang::Swe, "sv", Some(A::Swedish)),
        (Lang::Dan, "da", Some(A::Danish)),
        (Lang::Nob, "no", Some(A::Norwegian)),
        (Lang::Fin, "fi", Some(A::Finnish)),
        (Lang::Hun, "hu", Some(A::Hungarian)),
        (Lang::Ron, "ro", Some(A::Romanian)),
        (Lang::Rus, "ru", Some(A::Russian)),
        (Lang::Tur, "tr", Some(A::Turkish)),
        (Lang::Ell, "el", Some(A::Greek)),
        (Lang::Ara, "ar", Some(A::Arabic)),
        (Lang::Tam, "ta", Some(A::Tamil)),
        (Lang::Cmn, "zh", None),
        (Lang::Jpn, "ja", None),
        (Lang::Kor, "ko", None),
        (Lang::Cat, "ca", None),
        (Lang::Heb, "he", None),
        (Lang::Ind, "id", None),
        (Lang::Slv, "sl", None),
        (Lang::Ukr, "uk", None),
        (Lang::Pol, "pl", None),
        (Lang::Ces, "cs", None),
        (Lang::Tha, "th", None),
        (Lang::Vie, "vi", None),
        (Lang::Hin, "hi", None),
        (Lang::Ben, "bn", None),
        (Lang::Aze, "az", None),
        (Lang::Bel, "be", None),
    ]
};

impl Language {
    /// English: the language of a text too short or too mixed to tell, when nothing better is
    /// known.
    pub const ENGLISH: Language = Language(Lang::Eng);

    /// The language `whatlang` calls `lang`.
    pub fn from_whatlang(lang: Lang) -> Language {
        Language(lang)
    }

    /// Reads "es", "spa", "Spanish" or "español" (case-insensitive).
    pub fn parse(s: &str) -> Option<Language> {
        let s = s.trim().to_lowercase();
        if let Some((l, _, _)) = KNOWN.iter().find(|(_, code, _)| *code == s) {
            return Some(Language(*l));
        }
        Lang::from_code(&s)
            .or_else(|| {
                Lang::all()
                    .iter()
                    .copied()
                    .find(|l| l.eng_name().eq_ignore_ascii_case(&s) || l.name().to_lowercase() == s)
            })
            .map(Language)
    }

    /// ISO 639-1 code where there is one ("es"), else ISO 639-3 ("spa").
    pub fn code(self) -> &'static str {
        KNOWN
            .iter()
            .find(|(l, _, _)| *l == self.0)
            .map_or(self.0.code(), |(_, code, _)| code)
    }

    /// English name ("Spanish").
    pub fn name(self) -> &'static str {
        self.0.eng_name()
    }

    /// This language's position among `whatlang`'s (its discriminant: 0, 1, … in order).
    fn slot(self) -> usize {
        self.0 as usize
    }

    /// The Snowball stemmer for this language, if there is one.
    fn stemmer(self) -> Option<rust_stemmers::Algorithm> {
        KNOWN
            .iter()
            .find(|(l, _, _)| *l == self.0)
            .and_then(|(_, _, a)| *a)
    }

    /// NLTK's stopword list for this language, if there is one.
    fn stopwords(self) -> Option<&'static [&'static str]> {
        stop_words::lookup(self.code())
    }

    /// The words of this language: stopwords, stems and what is missing of them.
    pub fn analyzer(self) -> &'static Analyzer {
        Analyzer::of(self)
    }

    /// True for Chinese, Japanese and Thai: written without spaces between words, so read as
    /// character bigrams (see [`crate::text::tokens`]).
    pub fn unspaced(self) -> bool {
        matches!(self.0, Lang::Cmn | Lang::Jpn | Lang::Tha | Lang::Khm)
    }

    /// True for German, which writes every noun with a capital: there a capital does not mark a
    /// name.
    pub fn capitalises_nouns(self) -> bool {
        self.0 == Lang::Deu
    }

    /// How much of a question's wording its source holds in this language, relative to
    /// English, for the same relation between question and source: the containment thresholds
    /// of the overlap rules are scaled by it. German writes compounds ("Universitätsgründung"
    /// for "founding of the university") and Chinese bigrams straddle word boundaries, so
    /// the same question contains less of its source. Measured on XQuAD's parallel questions
    /// (mean containment: English 0.76, Spanish 0.75, German 0.67, Chinese 0.54;
    /// `scripts/bench-languages.sh`); 1 for every other language.
    pub fn containment_scale(self) -> f32 {
        match self.code() {
            "de" => 0.88,
            "zh" => 0.71,
            _ => 1.0,
        }
    }

    /// Characters of a copied phrase that stand for one copied word in a script without
    /// spaces: on XQuAD, the share of Chinese questions copying 9 characters of their
    /// paragraph (10.5%) is the share of English ones copying the 4 words RS101 counts (11.9%),
    /// so 2.25. Translations keep names and numbers whole, which a plain length ratio
    /// ([`crate::text::CHARS_PER_WORD`]) does not see.
    pub fn copied_chars_per_word(self) -> f64 {
        2.25
    }

    /// True when the language is written in `script` (or the script cannot be told).
    pub fn writes(self, script: Option<whatlang::Script>) -> bool {
        script.is_none_or(|s| s.langs().contains(&self.0))
    }

    /// Every language this build names (for `--language` errors).
    pub fn known_codes() -> Vec<&'static str> {
        KNOWN.iter().map(|(_, c, _)| *c).collect()
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Language {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Language {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Language::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown language \"{s}\" (use an ISO 639-1 code such as {})",
                Language::known_codes().join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_names_and_parsing() {
        let es = Language::parse("es").unwrap();
        assert_eq!(es, Language::parse("spa").unwrap());
        assert_eq!(es, Language::parse("Spanish").unwrap());
        assert_eq!(es, Language::parse("Español").unwrap());
        assert_eq!((es.code(), es.name()), ("es", "Spanish"));
        assert_eq!(Language::parse("zh").unwrap().code(), "zh");
        assert!(Language::parse("zh").unwrap().unspaced());
        assert!(Language::parse("klingon").is_none());
        assert_eq!(Language::ENGLISH.to_string(), "en");
        // Every language has its own analyzer slot.
        let all = Lang::all();
        for (i, l) in all.iter().enumerate() {
            assert_eq!(Language(*l).slot(), i, "{l:?}");
        }
    }
}
