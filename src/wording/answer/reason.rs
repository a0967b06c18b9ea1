//! A why-question asks for a reason, so its label must give one: a cause or a purpose said as
//! such ("because", "so that", "to avoid", "therefore"), the answer inside it, and the question
//! asking about what that reason explains. The default model's why-questions were wrong 10 of 10
//! times, hand-marked (benches/correctness/): asked of a sentence that states no reason ("why
//! docopt not translate"), of one that quotes someone's reason ("if your answer is \"because I
//! don't like a particular formatting\" then you're not ready"), or of another effect than the
//! one the reason explains ("why does Rust use generics?" of "Because Rust compiles generic
//! code …, we pay no runtime cost for using generics").
//!
//! Only `generate` applies it: people write good why-questions of facts that say the cause
//! without a cue word ("Harvard ended its early admissions program in 2007 as the program was
//! believed to disadvantage …"), so on a real set it would flag right cases.

use std::sync::LazyLock;

use regex::Regex;
use unicode_segmentation::UnicodeSegmentation;

use crate::lang::Language;

/// The reason follows the cue: "… because A", "Because A, …", "… to avoid A".
static FORWARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(because(?: of)?|since|due to|owing to|thanks to|as a result of|given that|so that|in order to|so as to|to avoid|to prevent|to ensure|to make sure|the reason(?: why| for| is| being)?|on the grounds that)\b",
    )
    .expect("valid regex")
});

/// The reason precedes the cue: "A, so …", "A; therefore …", "A, which is why …".
static BACKWARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(\b(therefore|thus|hence|consequently|which is why|that's why|that is why|this is why)\b|\bas a result\b(?: of)?|[,;]\s*so\b)")
        .expect("valid regex")
});

/// A question asking why, or for the reason ("what is the main reason why …").
static ASKS_WHY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\W*(?:so\s+|but\s+)?(why|how come|what(?:\s+is|\s+are|'s)\s+(?:the\s+|one\s+)?(?:main\s+|primary\s+)?reasons?\s+(?:why|for|that))\b",
    )
    .expect("valid regex")
});

/// Whether an English question asks why or for the reason: the questions
/// [`gives_the_reason`] checks.
pub fn asks_why(question: &str) -> bool {
    ASKS_WHY.is_match(question)
}

/// Share of the answer's content words that must stand in the reason, and of the explained
/// clause's that the question must say.
const HELD: f32 = 0.5;

/// Checks an English why-question's `claim` against its `fact`: `Err` says what is missing.
/// Other questions and languages pass.
pub fn gives_the_reason(question: &str, claim: &str, fact: &str, language: Language) -> Result<(), String> {
    if language != Language::ENGLISH || !asks_why(question) {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let terms = |t: &str| super::distinct_terms(analyzer, t);
    let share = super::share_in;
    let answer = terms(claim);
    if answer.is_empty() {
        return Ok(());
    }
    let asked = terms(question);
    let prose = super::without_quoted(&super::unwrapped(fact));
    let sentences: Vec<&str> = prose.split_sentence_bounds().collect();
    let mut stated = false;
    for (i, sentence) in sentences.iter().enumerate() {
        let previous = i.checked_sub(1).map_or("", |p| sentences[p]);
        for (reason, explained) in reasons(sentence, previous) {
            stated = true;
            if share(&answer, &terms(reason)) >= HELD && share(&terms(explained), &asked) >= HELD {
                return Ok(());
            }
        }
    }
    Err(if stated {
        "the reason its label gives is not the answer's, or explains something else".into()
    } else {
        "it asks why; its label gives no reason (no because, so that, therefore …)".into()
    })
}

/// Each reason `sentence` states, with the clause it explains (`previous` is the sentence
/// before, for "A. Therefore B").
fn reasons<'a>(sentence: &'a str, previous: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    for m in FORWARD.find_iter(sentence) {
        let (before, after) = (&sentence[..m.start()], &sentence[m.end()..]);
        if m.as_str().eq_ignore_ascii_case("since")
            && after.trim_start().starts_with(|c: char| c.is_ascii_digit())
        {
            // "since 2.0" is a time.
            continue;
        }
        if before.trim_matches(|c: char| !c.is_alphanumeric()).is_empty() {
            // "Because A, B": the reason runs to a comma, which may not be the first ("Because
            // of their soft, gelatinous bodies, they are rare as fossils").
            let commas = after.match_indices(',').map(|(i, _)| i);
            out.extend(commas.map(|i| (&after[..i], &after[i + 1..])));
        } else {
            out.push((after, before));
        }
    }
    for m in BACKWARD.find_iter(sentence) {
        let before = &sentence[..m.start()];
        let reason = if before.trim_matches(|c: char| !c.is_alphanumeric()).is_empty() {
            previous
        } else {
            before
        };
        out.push((reason, &sentence[m.end()..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: Language = Language::ENGLISH;

    fn passes(q: &str, a: &str, fact: &str) -> bool {
        gives_the_reason(q, a, fact, EN).is_ok()
    }

    #[test]
    fn a_reason_stated_for_what_the_question_asks_answers_it() {
        let fact = "Restores skip the cache because cached packs may be stale after a prune.";
        assert!(passes(
            "why do restores skip the cache?",
            "cached packs may be stale after a prune",
            fact
        ));
        let fact = "Because every pack is checksummed, a damaged upload is noticed at once.";
        assert!(passes(
            "why is a damaged upload noticed at once?",
            "every pack is checksummed",
            fact
        ));
        let fact = "The agent keeps one connection open, so it reconnects without a new handshake.";
        assert!(passes(
            "why does the agent reconnect without a new handshake",
            "it keeps one connection open",
            fact
        ));
        let fact = "Uploads are split into packs of 16 MiB to avoid timeouts on slow links.";
        assert!(passes(
            "why are uploads split into packs?",
            "to avoid timeouts on slow links",
            fact
        ));
        // Not a why-question: nothing to check here.
        assert!(passes(
            "what does the agent keep open",
            "one connection",
            "It keeps one connection."
        ));
    }

    #[test]
    fn a_fact_that_states_no_reason_answers_no_why() {
        let fact = "The free plan keeps snapshots for 30 days.";
        let err = gives_the_reason("why does the free plan keep snapshots", "30 days", fact, EN).unwrap_err();
        assert!(err.contains("gives no reason"), "{err}");
        // A reason in someone's quoted words is theirs, not the fact's.
        let fact = "If your reply is \"because the defaults are ugly\" then you are not ready to switch yet.";
        assert!(!passes(
            "why are you not ready to switch",
            "because the defaults are ugly",
            fact
        ));
        // Asked for "the main reason why", the same question.
        assert!(!passes(
            "what is the main reason why you are not ready to switch",
            "because the defaults are ugly",
            fact
        ));
        // "since 2.0" is a time.
        let fact = "Exports are signed since 2.0.";
        assert!(!passes("why are exports signed", "2.0", fact));
    }

    #[test]
    fn the_reason_must_be_the_answer_and_explain_what_was_asked() {
        // The reason explains the cost, not why the thing exists.
        let fact = "Because the index is built once per run, we pay no startup cost for each query.";
        let err = gives_the_reason(
            "why does the tool use an index?",
            "because the index is built once per run",
            fact,
            EN,
        )
        .unwrap_err();
        assert!(err.contains("explains something else"), "{err}");
        assert!(passes(
            "why is there no startup cost for each query?",
            "the index is built once per run",
            fact
        ));
        // The answer is another part of the sentence than its reason.
        let fact = "Templates give you control over the page; the downside is that due to this they cannot reflow text.";
        assert!(!passes("why use templates", "control over the page", fact));
    }
}
