//! RS516 `asks-outside-label`: the question names a code its label does not hold.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::{Language, Reads};
use crate::text::{fold, spans};

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
nouns).

**Known false alarm**: a code the label writes in another spelling.",
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
    let documents: Vec<&str> = a.relevant.iter().filter_map(|l| ctx.document(&l.doc)).collect();
    name_outside(&a.question, &documents, a.language).map(|name| format!("asks about {name}, which its documents never name"))
}

/// The first name an English question gives — a capitalised word that does not open it and is no
/// stopword — that none of `documents` says: not as written, not by its stem, not as a word
/// opening with its first five letters ("Germany" of a page saying "German", "Grammys" of one
/// saying "Grammy"); a possessive's "'s" aside. A question whose thing was swapped for another of
/// its kind ("When did the Vikings …" of a page on the Normans) asks about what its label is not
/// about.
pub fn name_outside(question: &str, documents: &[&str], language: Language) -> Option<String> {
    if language != Language::ENGLISH || documents.is_empty() {
        return None;
    }
    let analyzer = language.analyzer();
    // Words come folded ([`crate::text::words`]).
    let words: std::collections::HashSet<String> = documents.iter().flat_map(|d| crate::text::words(d)).collect();
    let stems: std::collections::HashSet<String> = words.iter().map(|w| analyzer.stem(w)).collect();
    let said = |name: &str| {
        let lower = fold(name);
        let head: String = lower.chars().take(5).collect();
        words.contains(&lower)
            || stems.contains(&analyzer.stem(&lower))
            || (head.chars().count() == 5 && words.iter().any(|w| w.starts_with(&head)))
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
