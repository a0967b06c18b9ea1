//! A question that asks what a thing is, does, is for or aims at is answered by what its label
//! says of the thing, not by a few words of it: "what does Click aim to do" → "quick and fun",
//! of "It aims to make the process of writing command line tools quick and fun while …", is
//! half an answer, and "how does the Black formatter work" → "formats files using Black's HTTP
//! server" is one detail of a sentence about editor plugins. Hand-marked, every such broad
//! question whose answer said under a fifth of its sentence's own words was wrong (3 of 3,
//! benches/correctness/).
//!
//! Only `generate` applies it: crowd-written sets answer with the shortest span that fits
//! ("What are clades?" → "genetic branches"), which a reviewer of such a set accepts, so the
//! audit would flag right cases. A reference answer for a RAG system is read in full.

use std::sync::LazyLock;

use regex::Regex;
use unicode_segmentation::UnicodeSegmentation;

use crate::lang::Language;

/// Questions that ask for what a thing is, does or is for, rather than one value of it.
static BROAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^\W*(?:",
        // what is the purpose / main goal / philosophy of X
        r"what\s+(?:is|are)\s+(?:the\s+)?(?:main\s+|primary\s+)?(?:purpose|philosophy|goal|aim|role|idea)s?\s+of\s",
        // what is X's purpose
        r"|what\s+(?:is|are)\s+\S+(?:\s+\S+)?'s\s+(?:purpose|philosophy|goal|aim|role)\W*$",
        // what is X used for
        r"|what\s+(?:is|are)\s+.{1,60}\s+used\s+for\W*$",
        // what is X (one to three words, "in Rust" allowed)
        r"|what\s+(?:is|are)\s+(?:an?\s+|the\s+)?[^\s?]+(?:\s+[^\s?]+){0,2}(?:\s+in\s+\S+)?\W*$",
        // what does X do / aim to do
        r"|what\s+does\s+.{1,60}\s+(?:do|aim\s+to\s+do|aim\s+for)\W*$",
        // how does X work
        r"|how\s+does\s+.{1,60}\s+work\W*$",
        r")"
    ))
    .expect("valid regex")
});

/// Code in a sentence is its example ("fix type annotation spacing … (i.e. `def fn(*args:
/// *tuple[*Ts, T]) -> None: pass`)"), not what it says of the thing.
static CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"``[^`]*``|`[^`]*`").expect("valid regex"));

/// An answer that says less than this share of what its sentence says beyond the question is a
/// fragment. Hand-marked broad questions: the wrong answers said 0–25% of it, the right ones
/// 23% and more ("What does attrs not do?" → "invent magic system", 3 of 13 words: a terse
/// answer can be whole), so the bound sits below both (`tests/correctness_marks.rs` shows
/// those it turns away).
const LEAST_SAID: f32 = 0.2;

/// Below this many words of its own, a sentence says too little to tell a fragment from the
/// whole.
const FEWEST_WORDS: usize = 4;

/// Checks an English `claim` to a broad `question` against its `fact`: `Err` says how little of
/// its sentence the answer gives. Other languages, narrow questions and answers that give a
/// value (a number or a code: a value is the whole answer) pass.
pub fn answers_in_full(question: &str, claim: &str, fact: &str, language: Language) -> Result<(), String> {
    if language != Language::ENGLISH || !BROAD.is_match(question.trim()) || gives_a_value(claim) {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let terms = |t: &str| super::distinct_terms(analyzer, t);
    let answer = terms(claim);
    if answer.is_empty() {
        return Ok(());
    }
    let asked = terms(question);
    let fact = super::unwrapped(&items_apart(fact));
    // The sentence the answer was taken from: the first holding most of its words.
    let mut best: Option<(&str, Vec<String>, usize)> = None;
    for sentence in fact.split_sentence_bounds() {
        let said = terms(&CODE.replace_all(sentence, " "));
        let held = answer.iter().filter(|a| said.contains(a)).count();
        if best.as_ref().is_none_or(|(_, _, most)| held > *most) {
            best = Some((sentence, said, held));
        }
    }
    let Some((sentence, said, _)) = best else {
        return Ok(());
    };
    let own: Vec<String> = said.into_iter().filter(|t| !asked.contains(t)).collect();
    if own.len() < FEWEST_WORDS {
        return Ok(());
    }
    let share = super::share_in(&own, &answer);
    if share < LEAST_SAID {
        return Err(format!(
            "half an answer: it says {:.0}% of what its label says of the thing (\"{}\")",
            share * 100.0,
            sentence.trim()
        ));
    }
    Ok(())
}

/// `text` with a blank line before each list item, so that an item is never read as part of
/// the sentence before it: documentation lists options one per item ("* ``exists`` …").
fn items_apart(text: &str) -> String {
    static ITEM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^[ \t]*(?:[*+•-]|\d+[.)])[ \t]+").expect("valid regex"));
    ITEM.replace_all(text, "\n$0").into_owned()
}

/// Whether an answer gives a number or a code: "8080", "`--fast`", "E0369", "io::Error".
fn gives_a_value(claim: &str) -> bool {
    claim
        .chars()
        .any(|c| c.is_ascii_digit() || matches!(c, '`' | '_' | '='))
        || claim.contains("::")
        || claim.contains("()")
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: Language = Language::ENGLISH;

    #[test]
    fn a_few_words_of_the_sentence_are_half_an_answer_to_a_broad_question() {
        let fact = "It aims to make the process of writing command line tools quick and fun while \
                    also preventing any frustration caused by the inability to implement an \
                    intended CLI API.";
        let err = answers_in_full("what does Click aim to do", "quick and fun", fact, EN).unwrap_err();
        assert!(err.contains("half an answer"), "{err}");
        assert!(
            answers_in_full(
                "what does Click aim to do",
                "make writing command line tools quick and fun without the frustration of an API it cannot implement",
                fact,
                EN
            )
            .is_ok()
        );
        let fact = "Tidepool keeps every snapshot for 30 days, then prunes it on the next run, \
                    unless the snapshot is pinned.";
        assert!(answers_in_full("what is the purpose of pruning", "removes snapshots", fact, EN).is_err());
        assert!(answers_in_full("how does pruning work", "removes snapshots", fact, EN).is_err());
    }

    #[test]
    fn narrow_questions_values_and_short_sentences_pass() {
        let fact = "The agent listens on port 8080 unless `--port` is given, and logs to stderr.";
        // A value is a whole answer.
        assert!(answers_in_full("what is the default port", "8080", fact, EN).is_ok());
        assert!(answers_in_full("what does the agent do", "`--port`", fact, EN).is_ok());
        // A narrow question.
        assert!(answers_in_full("where does the agent write its logs", "stderr", fact, EN).is_ok());
        // A sentence with little beyond the question.
        let fact = "Flake8 is a linter wrapper.";
        assert!(answers_in_full("what is Flake8", "a wrapper", fact, EN).is_ok());
        // Code is the sentence's example, not what it says.
        let fact = "`pep646`: fix type annotation spacing between * and more complex type \
                    variable tuple (i.e. `def fn(*args: *tuple[*Ts, T]) -> None: pass`)";
        assert!(
            answers_in_full(
                "what is the purpose of the pep646 fix",
                "fix type annotation spacing",
                fact,
                EN
            )
            .is_ok()
        );
        // A list item is its own sentence.
        let fact = "* ``exists`` will verify whether the path exists.\n*\t``readable`` and \
                    ``writable`` can perform permission checks on the file.";
        assert!(answers_in_full("what is the purpose of exists", "verify path existence", fact, EN).is_ok());
        // Another language.
        let fact = "Click vise à rendre l'écriture d'outils en ligne de commande rapide et amusante.";
        assert!(
            answers_in_full(
                "what does Click aim to do",
                "rapide",
                fact,
                Language::parse("fr").unwrap()
            )
            .is_ok()
        );
    }
}
