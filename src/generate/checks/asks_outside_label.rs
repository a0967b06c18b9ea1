//! RS516 `asks-outside-label`: the question names a code its label does not hold.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::{Language, Reads};
use crate::text::{fold, spans, unaccented};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS516",
    name: "asks-outside-label",
    summary: "The question names a code its label does not hold",
    doc: "\
**What it catches**: a code (identifier in code marks or code shape) in the question that none
of its labels' text holds.

**Why such a case is not right for a test set**: the question asks about something else than its
label.

**Example**: \"what is the value of p3 …\" labelled with a sentence about `Point`

In an English question, also a capitalised name (no stopword, not its first word) that none of
its labelled documents says, by its words or their stems: a question whose thing was swapped
for another of its kind. English only: another language capitalises other words (German its
nouns). A document says a name in its text or its file name (a page's title), without accents
(\"Herve\"), part by part when hyphenated, and as an acronym's written-out words (\"UMC\");
a number with a short suffix (\"2nd\", \"1950s\") is a quantity, not a code.

**Known false alarm**: a code the label writes in another spelling; a name the article's other
paragraphs give (\"the Ice Age\" of a paragraph on warming Europe).",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// A code the labels' text lacks ([`crate::wording::answer::code_outside`]), or (English) a
/// name the question gives that no labelled document says ([`name_outside`]).
fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    if a.relevant.is_empty() {
        return None;
    }
    let fact = super::labels_text(&a.relevant);
    if let Some(code) = crate::wording::answer::code_outside(&a.question, &fact) {
        return Some(format!("asks about {code}"));
    }
    let mut documents: Vec<&str> = a.relevant.iter().filter_map(|l| ctx.document(&l.doc)).collect();
    // A document's name is part of what it says: a page's title names the thing its paragraphs
    // leave to it ("Super_Bowl_50-03.txt" of "… performed the national anthem").
    let title = |doc: &str| crate::text::file_stem(doc).replace(|c: char| !c.is_alphanumeric(), " ");
    let titles: Vec<String> = if documents.is_empty() {
        Vec::new()
    } else {
        a.relevant.iter().map(|l| title(&l.doc)).collect()
    };
    documents.extend(titles.iter().map(String::as_str));
    name_outside(&a.question, &documents, a.language).map(|name| format!("asks about {name}, which its documents never name"))
}

/// The first name an English question gives — a capitalised word that does not open it and is no
/// stopword — that none of `documents` says: not as written, not by its stem, not as a word
/// opening with its first five letters ("Germany" of a page saying "German", "Grammys" of one
/// saying "Grammy"); a possessive's "'s" aside. A question whose thing was swapped for another of
/// its kind ("When did the Vikings …" of a page on the Normans) asks about what its label is not
/// about.
///
/// `documents` are their texts and their names. A name is said in the ways people write one
/// name: without its accents ("Herve" of "Hervé", [`crate::text::unaccented`]), a hyphenated
/// name part by part ("Al-Muwaffaq" of "al-Muwaffaq", "Buck-Tick" of "BUCK-TICK"), and an
/// acronym by the initials of the capitalised words it stands for ("UMC" of "The United
/// Methodist Church"; a stopword between them aside, as in "Bureau of Labor Statistics").
pub fn name_outside(question: &str, documents: &[&str], language: Language) -> Option<String> {
    if language != Language::ENGLISH || documents.is_empty() {
        return None;
    }
    let analyzer = language.analyzer();
    // Words come folded ([`crate::text::words`]).
    let words: std::collections::HashSet<String> = documents.iter().flat_map(|d| crate::text::words(d)).collect();
    let stems: std::collections::HashSet<String> = words.iter().map(|w| analyzer.stem(w)).collect();
    let bare_words: std::collections::HashSet<String> = words.iter().map(|w| unaccented(w)).collect();
    let said_word = |lower: &str| {
        let head: String = lower.chars().take(5).collect();
        words.contains(lower)
            || bare_words.contains(&unaccented(lower))
            || stems.contains(&analyzer.stem(lower))
            || (head.chars().count() == 5 && words.iter().any(|w| w.starts_with(&head)))
    };
    let said = |name: &str| {
        let parts = crate::text::words(name);
        (!parts.is_empty() && parts.iter().all(|p| said_word(p)))
            || is_acronym(name) && documents.iter().any(|d| spells_out(d, name, analyzer))
    };
    spans(question)
        .skip(1)
        .map(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
            let w = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")).unwrap_or(w);
            w.trim_matches(|c: char| !c.is_alphanumeric())
        })
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase) && w.chars().count() >= 2)
        .filter(|w| !analyzer.is_stopword(&fold(w)))
        .find(|w| !said(w))
        .map(str::to_string)
}

/// A word of two or more capital letters and nothing else ("AAA", "UMC").
fn is_acronym(word: &str) -> bool {
    word.chars().count() >= 2 && word.chars().all(|c| c.is_uppercase())
}

/// Whether `text` writes out `acronym`: consecutive capitalised words whose initials are its
/// letters, stopwords between them passed over ("American Automobile Association" for "AAA").
fn spells_out(text: &str, acronym: &str, analyzer: &crate::lang::Analyzer) -> bool {
    let folded = |c: char| crate::text::fold_char(c).collect::<String>();
    let letters: Vec<String> = acronym.chars().map(folded).collect();
    let words: Vec<&str> = crate::text::tokens(text).into_iter().map(|t| t.raw).collect();
    let initial = |w: &str| w.chars().next().filter(|c| c.is_uppercase()).map(folded);
    (0..words.len()).any(|start| {
        let mut at = start;
        letters.iter().enumerate().all(|(i, letter)| {
            while i > 0 && at < words.len() && initial(words[at]).is_none() && analyzer.is_stopword(&fold(words[at])) {
                at += 1;
            }
            let matched = at < words.len() && initial(words[at]).as_ref() == Some(letter);
            at += 1;
            matched
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_said_the_ways_people_write_it() {
        let en = Language::ENGLISH;
        let page = "One of the first Norman mercenaries was Hervé in the 1050s. The American Automobile \
                    Association counted the al-Muwaffaq stations of the United Methodist Church.";
        for question in [
            "When did Herve serve as a general?",
            "What did the AAA count?",
            "Which stations did Al-Muwaffaq count?",
            "What did the UMC own?",
        ] {
            assert_eq!(name_outside(question, &[page], en), None, "{question}");
        }
        // A name swapped for another of its kind is still outside, acronyms too.
        assert_eq!(name_outside("When did the Vikings serve?", &[page], en).as_deref(), Some("Vikings"));
        assert_eq!(name_outside("What did the NRA count?", &[page], en).as_deref(), Some("NRA"));
        assert_eq!(name_outside("Who was Al-Rashid?", &[page], en).as_deref(), Some("Al-Rashid"));
    }
}
