//! Which questions are not in English. The wording and overlap rules read questions with
//! English word lists — stopwords, stems, auxiliaries, phrases — which on a Spanish or
//! Portuguese question report noise (every "de" and "que" is a content word to them). A
//! question detected as another language is left out of those rules, and the report says so;
//! a full pipeline for other languages is not attempted here.
//!
//! Detection is `whatlang`'s on the question (with the answer when the question alone is too
//! short to tell), trusted only when it says it is reliable or the question is not written in
//! the Latin alphabet; a question that uses two or more
//! common English function words is English whatever the detector says, so short English
//! questions full of names are never taken for Dutch.

use whatlang::{Detector, Lang, Script};

/// English function words frequent in questions.
const ENGLISH: &[&str] = &[
    "the", "what", "how", "is", "are", "of", "and", "to", "in", "does", "do", "which", "for", "with", "who",
    "when", "why", "can", "this", "that", "was", "were", "there", "an", "on", "by", "from", "should",
    "would",
];

/// The language of a question when it is reliably not English; `None` for English and for
/// text too short or mixed to tell.
pub fn other_language(question: &str, answer: Option<&str>) -> Option<Lang> {
    let words = crate::text::words(question);
    let english = words
        .iter()
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .collect::<std::collections::HashSet<_>>()
        .len();
    if english >= 2 {
        return None;
    }
    let detector = Detector::new();
    // Another alphabet is another language even in two words, where no detector is sure
    // which one.
    if whatlang::detect_script(question).is_some_and(|s| s != Script::Latin) {
        return detector
            .detect(question)
            .map(|i| i.lang())
            .filter(|l| *l != Lang::Eng);
    }
    let info = detector
        .detect(question)
        .filter(|i| i.is_reliable())
        .or_else(|| {
            let both = format!("{question} {}", answer.unwrap_or(""));
            detector.detect(&both).filter(|i| i.is_reliable())
        })?;
    (info.lang() != Lang::Eng).then_some(info.lang())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_languages_are_told_and_english_is_kept() {
        assert_eq!(
            other_language(
                "¿Qué es el certificado de residencia fiscal y quién lo emite?",
                None
            ),
            Some(Lang::Spa)
        );
        assert_eq!(
            other_language(
                "Quais são os documentos necessários para abrir uma conta no banco?",
                None
            ),
            Some(Lang::Por)
        );
        assert_eq!(
            other_language("Где наступило молчание?", Some("Под липами.")),
            Some(Lang::Rus)
        );
        assert_eq!(
            other_language("What is the Tidepool archive tier called?", None),
            None
        );
        assert_eq!(other_language("Ragas Langfuse integration?", None), None);
    }
}
