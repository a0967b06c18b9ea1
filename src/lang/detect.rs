//! Telling languages apart with `whatlang`.
//!
//! A detection is trusted when `whatlang` calls it reliable, or when the text is not in the
//! Latin alphabet (another alphabet is another language even in two words, where no detector
//! is sure which one). Short questions are the hard case: a question that uses two or more
//! function words found only in English is English whatever the detector says (short English
//! questions full of names are not Dutch) unless they are a small part of it (a title quoted in
//! another language); otherwise the question is read together with its answer, and failing that
//! it takes the language of the text it was asked about.

use whatlang::{Detector, Script};

use super::Language;

/// Function words frequent in English questions and absent from the other languages'
/// everyday text ("was", "in", "an", "do" are German, Dutch or Portuguese too).
const ENGLISH_ONLY: &[&str] = &[
    "the", "what", "how", "is", "are", "of", "and", "does", "which", "who", "when", "why", "this", "that",
    "were", "there", "with", "from", "should", "would", "for",
];

/// The language of `text` when it can be told.
pub fn detect(text: &str) -> Option<Language> {
    trusted(&Detector::new().detect(text)?)
}

/// The language of a detection when it is trusted (see the module doc).
fn trusted(info: &whatlang::Info) -> Option<Language> {
    (info.is_reliable() || info.script() != Script::Latin).then(|| Language::from_whatlang(info.lang()))
}

/// The language of a question asked about a text in `source`: as [`detect`], except that an
/// unsure call for another language of the source's own script is the source's (a short
/// Russian question is often told as Bulgarian or Ukrainian, a Persian-looking Arabic one as
/// Persian; a question in another script than its source's is still its own language).
fn detect_near(text: &str, source: Option<Language>) -> Option<Language> {
    let info = Detector::new().detect(text)?;
    let told = Language::from_whatlang(info.lang());
    match source {
        Some(s) if !info.is_reliable() && told != s && s.writes(Some(info.script())) => Some(s),
        _ => trusted(&info),
    }
}

/// A document's language, from its first 1,000 characters (enough for a reliable call, and
/// detection time stays flat on large files); English when it cannot be told.
pub fn detect_document(text: &str) -> Language {
    let end = text.char_indices().nth(1000).map_or(text.len(), |(i, _)| i);
    detect(&text[..end]).unwrap_or(Language::ENGLISH)
}

/// A question's language: see the module doc. `source` is the language of the text it was
/// asked about, when there is one (its labelled chunk, or the corpus).
pub fn detect_question(question: &str, answer: Option<&str>, source: Option<Language>) -> Language {
    // Writing in the source's unspaced script settles it (a Chinese question that names
    // "Super Bowl 50" is not English).
    if let Some(s) = source
        && s.unspaced()
        && question.chars().any(crate::text::is_unspaced)
    {
        return s;
    }
    let words = crate::text::words(question);
    let english = words
        .iter()
        .filter(|w| ENGLISH_ONLY.contains(&w.as_str()))
        .collect::<std::collections::HashSet<_>>()
        .len();
    // Two of them, and a quarter of the words: a German question naming "The Mask of Anarchy"
    // stays German. Checked first: most questions are English, and this costs no detection.
    if english >= 2 && english * 4 >= words.len() {
        return Language::ENGLISH;
    }
    // The answer helps only without a source: it is often a name or a title in another
    // language ("Theory of the Earth" answers a German question).
    detect_near(question, source)
        .or(source)
        .or_else(|| answer.and_then(|a| detect(&format!("{question} {a}"))))
        .unwrap_or(Language::ENGLISH)
}

/// The languages of a text's paragraphs (blank-line separated, at least 120 characters each,
/// reliably told), with the characters written in each, most first — how a document that
/// mixes languages is reported.
pub fn mixed_paragraphs(text: &str) -> Vec<(Language, usize)> {
    let mut by: Vec<(Language, usize)> = Vec::new();
    for para in text.split("\n\n") {
        let n = para.chars().count();
        if n < 120 {
            continue;
        }
        if let Some(l) = detect(para) {
            match by.iter_mut().find(|(x, _)| *x == l) {
                Some((_, c)) => *c += n,
                None => by.push((l, n)),
            }
        }
    }
    by.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    by
}

/// How a document's language is shown: its code ("es"), or the codes of the languages that
/// each hold at least a fifth of its paragraphs' text ("es+en") when it mixes them. Paragraphs
/// are told one by one only in a short document or when its middle or its end reads as another
/// language than its start: telling every paragraph of a large corpus costs more than reading it.
pub fn document_label(text: &str, configured: Option<Language>) -> String {
    if let Some(l) = configured {
        return l.code().to_string();
    }
    let start = &text[..text.char_indices().nth(1000).map_or(text.len(), |(i, _)| i)];
    let told = detect(start);
    let n = text.chars().count();
    // A long document whose start cannot be told is read as English, and is too unclear for
    // its parts to be told apart either.
    if told.is_none() && n > 3000 {
        return Language::ENGLISH.code().to_string();
    }
    let main = told.unwrap_or(Language::ENGLISH);
    let at = |c: usize| text.char_indices().nth(c).map_or(text.len(), |(i, _)| i);
    let suspect = n <= 3000
        || [n / 2, n.saturating_sub(500)]
            .into_iter()
            .any(|from| detect(&text[at(from)..at(from + 500)]).is_some_and(|l| l != main));
    if !suspect {
        return main.code().to_string();
    }
    let paragraphs = mixed_paragraphs(text);
    let total: usize = paragraphs.iter().map(|(_, n)| n).sum();
    let mut codes = vec![main.code()];
    for (l, n) in &paragraphs {
        if *l != main && n * 5 >= total {
            codes.push(l.code());
        }
    }
    codes.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> Language {
        Language::parse(code).unwrap()
    }

    #[test]
    fn questions_are_told_with_their_source_as_fallback() {
        let en = Language::ENGLISH;
        let from_en = Some(en);
        assert_eq!(
            detect_question(
                "¿Qué es el certificado de residencia fiscal y quién lo emite?",
                None,
                from_en
            ),
            lang("es")
        );
        assert_eq!(
            detect_question(
                "Quais são os documentos necessários para abrir uma conta no banco?",
                None,
                from_en
            ),
            lang("pt")
        );
        assert_eq!(
            detect_question("Где наступило молчание?", Some("Под липами."), None),
            lang("ru")
        );
        assert_eq!(
            detect_question("Was ist in der Verfassung geregelt?", None, Some(lang("de"))),
            lang("de")
        );
        assert_eq!(
            detect_question(
                "What is the Tidepool archive tier called?",
                None,
                Some(lang("es"))
            ),
            en
        );
        // Too short to tell: the source's language.
        assert_eq!(
            detect_question("Ragas Langfuse?", None, Some(lang("es"))),
            lang("es")
        );
        assert_eq!(detect_question("大学什么时候成立？", None, from_en), lang("zh"));
        assert_eq!(
            detect_question(
                "1785 präsentierte James Hutton der Royal Society welches Papier?",
                Some("Theory of the Earth"),
                Some(lang("de"))
            ),
            lang("de")
        );
    }

    #[test]
    fn an_unsure_call_for_a_sister_language_is_the_sources() {
        // whatlang calls these Ukrainian and Bulgarian, unsure; asked about Russian text they
        // are Russian, and read with its stemmer.
        let ru = Some(lang("ru"));
        assert_eq!(
            detect_question("Сколько мячей перехватил Джош Норман?", None, ru),
            lang("ru")
        );
        assert_eq!(
            detect_question("Какая команда стала победителем Суперкубка XXXIII?", None, ru),
            lang("ru")
        );
        // Another script than the source's is still its own language.
        assert_eq!(
            detect_question(
                "Сколько мячей перехватил Джош Норман?",
                None,
                Some(Language::ENGLISH)
            ),
            lang("uk")
        );
    }

    #[test]
    fn documents_and_their_paragraphs() {
        let es = "La universidad fue fundada en el siglo XIX por un grupo de comerciantes de la ciudad, que querían formar a sus hijos sin enviarlos a Europa. Hoy tiene doce facultades y más de treinta mil estudiantes.";
        let en = "The university was founded in the nineteenth century by a group of merchants of the city, who wanted to educate their children without sending them to Europe. Today it has twelve faculties and more than thirty thousand students.";
        assert_eq!(detect_document(es), lang("es"));
        assert_eq!(detect_document("ok"), Language::ENGLISH);
        let mixed = mixed_paragraphs(&format!("{es}\n\n{en}"));
        let mut langs: Vec<_> = mixed.iter().map(|(l, _)| l.code()).collect();
        langs.sort();
        assert_eq!(langs, ["en", "es"]);
        let both = document_label(&format!("{es}\n\n{en}"), None);
        assert!(both == "es+en" || both == "en+es", "{both}");
        assert_eq!(document_label(es, None), "es");
        // A long document whose second half is in another language.
        let long = format!(
            "{}{}",
            format!("{es}\n\n").repeat(10),
            format!("{en}\n\n").repeat(10)
        );
        let label = document_label(&long, None);
        assert!(label == "es+en" || label == "en+es", "{label}");
        assert_eq!(document_label(&format!("{es}\n\n").repeat(20), None), "es");
        assert_eq!(document_label(es, Some(lang("de"))), "de");
    }
}
