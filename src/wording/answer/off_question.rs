//! An answer its label gives to another question than the one asked. Shapes a lexical reader
//! can tell:
//! - *a reason for a what or how*: "How does Rust store pointers on the stack?" answered
//!   "because the pointer to the heap is a known, fixed size, you can store the pointer on the
//!   stack" — the label's sentence explains why; the question asks how;
//! - *a claim the label limits to another case than the question's*: "What is the term for
//!   deallocating resources at the end of an item's lifetime in Rust?" answered "RAII",
//!   labelled "In C++, this pattern … is sometimes called Resource Acquisition Is
//!   Initialization (RAII)": the name holds in C++, the question asks about Rust;
//! - *where it applies for what it does*: "What is the command `:BlackUpgrade` used for?"
//!   answered "used with virtualenv" — the label says when the command works, not its use;
//! - *what a person does for what a thing does*: "What does the Rust programming language do
//!   with errors?" answered "propagate all success or error information upward", from "…, so
//!   we propagate all the success or error information upward": the book's example code does
//!   that, not the language;
//! - *what a thing brings about for what it is*: "What is monomorphization in Rust?" answered
//!   "makes Rust's generics extremely efficient at runtime";
//! - *another name for what it is*: "What is the evaluation context?" answered "short eval
//!   context or eval ctx", the brackets after the name in its label;
//! - *what the one asked for does, not which it is*: "What is the closest Python behavior to
//!   undefined types?" answered "disallows all operations beside testing if it's an undefined
//!   object", of "The closest to regular Python behavior is the :class:`StrictUndefined` which
//!   disallows …": the name is the answer;
//! - *what else it does for what it is*: "What are the pluggable class-based views in Flask?"
//!   answered "pluggable class-based views support handlers that are implemented as
//!   coroutines", of "Pluggable class-based views also support …";
//! - *the kind asked for said back*: "What other projects extend Click's features?" answered
//!   "other projects available outside of the click-contrib organization": where they are, and
//!   not one named;
//! - *the question said back*: "What should be done in the initializer to ensure the instance
//!   has invariants?" answered "check instance for invariants" — most of the answer's words are
//!   the question's, and it names no number, code or name the question lacks.

use std::sync::LazyLock;

use regex::Regex;

use super::AnswerFault;
use crate::lang::{Language, List, lists};
use crate::text::{bare, fold, spans, words};

/// Checks an English `claim` against `question` and `fact` (see the module doc). Other
/// languages pass.
/// The tests of whether a claim answers its question, by name, in order (English only: each
/// passes any other language).
pub(super) const PARTS: &[super::Part] = &[
    ("gives-no-unasked-reason", |q, c, _, l| {
        english(l, || gives_no_unasked_reason(q, c, l))
    }),
    ("says-what-it-does", |q, c, _, l| {
        english(l, || says_what_it_does(q, c))
    }),
    ("says-what-it-is", |q, c, _, l| {
        english(l, || says_what_it_is(q, c))
    }),
    ("not-what-else", |q, c, f, l| {
        english(l, || not_what_else(q, c, f))
    }),
    ("not-its-other-name", |q, c, f, l| {
        english(l, || not_its_other_name(q, c, f))
    }),
    ("names-the-default", |q, c, _, l| {
        english(l, || names_the_default(q, c))
    }),
    ("names-the-superlative", |q, c, f, l| {
        english(l, || names_the_superlative(q, c, f))
    }),
    ("names-the-ones-asked", |q, c, _, l| {
        english(l, || names_the_ones_asked(q, c))
    }),
    ("keeps-the-actor", |q, c, f, l| {
        english(l, || keeps_the_actor(q, c, f))
    }),
    ("says-more-than-asked", |q, c, _, l| {
        english(l, || says_more_than_asked(q, c, l))
    }),
    ("keeps-the-scope", |q, c, f, l| {
        english(l, || keeps_the_scope(q, c, f))
    }),
];

/// Every test of [`PARTS`] in turn: the first fault.
#[cfg(test)]
fn answers_its_question(
    question: &str,
    claim: &str,
    fact: &str,
    language: Language,
) -> Result<(), AnswerFault> {
    PARTS
        .iter()
        .try_for_each(|(_, test)| test(question, claim, fact, language))
}

/// `test` for an English question; any other passes.
fn english(language: Language, test: impl FnOnce() -> Result<(), AnswerFault>) -> Result<(), AnswerFault> {
    if language == Language::ENGLISH {
        test()
    } else {
        Ok(())
    }
}

/// Fewest content words of an answer read for saying the question back: "yes" or "30 days"
/// may well be made of the question's words.
const SAID_BACK_WORDS: usize = 3;

/// A one-sentence answer of [`SAID_BACK_WORDS`] content words or more (and twenty words at
/// most), three in five of them the question's, with no number, code, name or hyphenated word
/// the question lacks, to a question that is not yes/no, says the question back ("check
/// instance for invariants" for "what should be done in the initializer to ensure the instance
/// has invariants"). Over the hand marks it turns away 9 wrong answers and none marked right.
fn says_more_than_asked(question: &str, claim: &str, language: Language) -> Result<(), AnswerFault> {
    // "Are snapshots kept on the free plan?" is answered by saying it back; an explanation of
    // several sentences or over twenty words comes back to the question's terms as it goes.
    if crate::wording::form::is_yes_no(question, language)
        || !super::one_sentence(claim)
        || spans(claim).count() > super::PART_CHECKED_WORDS
    {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let asked: std::collections::HashSet<String> = analyzer.content_terms(question).into_iter().collect();
    // "as well as" joins like "and": its "well" is no word of the answer's ("normalizes string
    // quotes as well as string prefixes" for "how does Black normalize string quotes and
    // prefixes").
    static JOINS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\bas\s+well\s+as\b").expect("valid regex"));
    let said = analyzer.content_terms(&JOINS.replace_all(claim, "and"));
    if said.len() < SAID_BACK_WORDS {
        return Ok(());
    }
    let q = fold(question);
    // A value or name the question does not hold is an answer ("loop.index starts with 1,
    // loop.index0 starts with 0", "python-black or formatters-python", "… are Storj and
    // OrbitDB").
    let new_value = gives_unasked(claim, &q, |i, w| {
        let name = i > 0 && w.chars().any(char::is_uppercase);
        w.chars().any(|c| c.is_ascii_digit()) || super::is_code(w) || w.contains('-') || name
    });
    let mut said = said;
    said.sort();
    said.dedup();
    let from_question = said.iter().filter(|t| asked.contains(*t)).count();
    if new_value || from_question * 5 < said.len() * 3 {
        return Ok(());
    }
    Err(AnswerFault::OffQuestion {
        why: format!("it says the question back (\"{}\")", claim.trim()),
    })
}

/// Whether a word of `claim` that `is_value` accepts (given its place and the word as written,
/// quotes and code marks kept) is not in `asked` (the question, lower-cased): an answer's own
/// number, code or name. A Sphinx role is no part of the word (":class:`StrictUndefined`").
fn gives_unasked(claim: &str, asked: &str, is_value: impl Fn(usize, &str) -> bool) -> bool {
    claim
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
        .map(|w| w.rsplit_once(":`").map_or(w, |(_, name)| name))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ':' | '*')))
        .filter(|w| !w.is_empty())
        .enumerate()
        .any(|(i, w)| {
            let bare = fold(w.trim_matches(|c: char| matches!(c, '`' | '\'' | '"')));
            is_value(i, w) && !asked.contains(&bare)
        })
}

/// A claim opening with "because", "since", "due to" or "as a result of" gives a reason; it
/// answers a question that asks why (or for a reason, cause or purpose), not what or how —
/// "since" before a point in time aside ("Since 2.4.0 the default is 24 hours", "since
/// version 3", "since then": when, not why) —
/// unless the clause after the reason says something the question does not ("Because Rust
/// compiles generic code into code that specifies the type in each instance, we pay no
/// runtime cost" answers what generics cost; "…, you can store the pointer on the stack" only
/// repeats how the question asked).
fn gives_no_unasked_reason(question: &str, claim: &str, language: Language) -> Result<(), AnswerFault> {
    static REASON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(because|since|due to|owing to|as a result of)\b").expect("valid regex")
    });
    static ASKS_WHY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(why|reasons?|cause[sd]?|purpose|what for|how come|benefits?|advantages?|point of)\b",
        )
        .expect("valid regex")
    });
    let modals = lists::english(List::Modals);
    let analyzer = language.analyzer();
    let asked: std::collections::HashSet<String> = analyzer.content_terms(question).into_iter().collect();
    let main_says_more = claim.rsplit_once(',').is_some_and(|(_, main)| {
        analyzer
            .content_terms(main)
            .iter()
            .filter(|t| !asked.contains(*t) && !modals.contains(&t.as_str()))
            .count()
            >= 2
    });
    // "Since" before a version, a number, a date or "then" says from when.
    static FROM_WHEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*since\s+(?:v?\d|version\b|release\b|then\b|(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b)")
            .expect("valid regex")
    });
    match REASON.find(claim) {
        Some(_) if FROM_WHEN.is_match(claim) => Ok(()),
        Some(m) if !ASKS_WHY.is_match(question) && !main_says_more => Err(AnswerFault::OffQuestion {
            why: format!(
                "it gives a reason (\"{}\") to a question that does not ask why",
                m.as_str().trim()
            ),
        }),
        _ => Ok(()),
    }
}

/// A question asking what a thing is for or does: "what is X used for", "the purpose of X",
/// "what does X do".
static ASKS_WHAT_IT_DOES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bused for\b|\bpurpose\b|^\s*what\s+(?:does|do)\b.*\bdo\s*\??\s*$").expect("valid regex")
});

/// A question asking what a thing does for some others ("what does X do for PRs"): the last
/// word of them.
static WHICH_ONES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*what\s+(?:does|do)\b.*\bdo\s+for\s+(?:the\s+|all\s+|my\s+|your\s+)?(?:[\w-]+\s+){0,2}(?P<whom>[\w-]+)\s*\??\s*$")
        .expect("valid regex")
});

/// A question asking what a thing is for or does, answered with where or when it can be used
/// ("used with virtualenv", "only usable in a virtualenv", "If you are adopting _Black_ in a
/// large project …, you can pass `--skip-string-normalization`": its setting, not its use) or with
/// what it does not do ("does not take a help parameter", of "what does the `click.argument`
/// function do"), or asking what it does for some others answered with which of them it is
/// for.
fn says_what_it_does(question: &str, claim: &str) -> Result<(), AnswerFault> {
    static SETTING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:(?:it\s+is\s+|is\s+)?(?:only\s+)?(?:used|usable|useful|available)\s+(?:only\s+)?(?:with|in|on|when|inside|under)\b|(?:if|when)\s+you\b)")
            .expect("valid regex")
    });
    static DENIES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:it\s+)?(?:does\s+not|doesn't|do\s+not|don't|cannot|can't|is\s+not|isn't|never)\b",
        )
        .expect("valid regex")
    });
    if let Some(whom) = WHICH_ONES.captures(question).map(|c| fold(&c["whom"])) {
        // "what does the skip news label do for PRs" → "PRs that are trivial …": which PRs it
        // is for, not what it does for them.
        let opens = spans(claim)
            .map(|w| fold(bare(w)))
            .skip_while(|w| matches!(w.as_str(), "for" | "the" | "all" | "any" | "only"))
            .take(2)
            .collect::<Vec<_>>();
        if opens.len() == 2
            && opens[0] == whom
            && matches!(
                opens[1].as_str(),
                "that" | "which" | "who" | "whose" | "where" | "with"
            )
        {
            return Err(AnswerFault::OffQuestion {
                why: format!("it says which {whom} it is for, not what it does for them"),
            });
        }
    }
    if !ASKS_WHAT_IT_DOES.is_match(question) {
        return Ok(());
    }
    let why = if let Some(m) = SETTING.find(claim) {
        format!(
            "it says where it is used (\"{}\"), not what it is used for",
            m.as_str().trim()
        )
    } else if let Some(m) = DENIES.find(claim) {
        format!(
            "it says what the thing {} do, not what it does",
            fold(m.as_str().trim())
        )
    } else {
        return Ok(());
    };
    Err(AnswerFault::OffQuestion { why })
}

/// "What is X?": a thing of up to four words, perhaps "in" somewhere.
static ASKS_WHAT_IT_IS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?[^\s?]+(?:\s+[^\s?]+){0,3}?(?:\s+in\s+[^\s?]+)?\s*\??\s*$")
        .expect("valid regex")
});

/// A question asking what a thing is, answered with the other names its label gives it in
/// brackets right after its own ("what is the evaluation context in API" → "short eval
/// context or eval ctx", of "The evaluation context (short eval context or eval ctx) makes it
/// possible to …"): what it is called, not what it is. The brackets open with a word that
/// gives a name ("short", "or", "also", "aka", "abbreviated", "formerly", "called", "known");
/// an explanation in brackets ("i.e. …") may answer.
fn not_its_other_name(question: &str, claim: &str, fact: &str) -> Result<(), AnswerFault> {
    static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(?P<before>(?:[\w`'-]+\s+){0,2})(?P<name>[\w`'-]+)\s*\((?P<inside>(?:short|or|also|aka|a\.k\.a\.|abbreviated|formerly|called|known)\b[^()]{0,80})\)")
            .expect("valid regex")
    });
    if !ASKS_WHAT_IT_IS.is_match(question) {
        return Ok(());
    }
    let (asked, said) = (words(question), words(claim));
    if said.is_empty() {
        return Ok(());
    }
    let is_asked = |w: &str| words(w).iter().any(|t| asked.contains(t));
    for c in ALIAS.captures_iter(fact) {
        let inside = words(&c["inside"]);
        if is_asked(&c["name"]) && said.iter().all(|w| inside.contains(w)) {
            // The words before the brackets the question says too: the thing's whole name.
            let named: Vec<&str> = spans(&c["before"])
                .skip_while(|w| !is_asked(w) || w.eq_ignore_ascii_case("the"))
                .chain([&c["name"]])
                .collect();
            return Err(AnswerFault::OffQuestion {
                why: format!(
                    "it gives the other name its label puts in brackets after \"{}\", not what it is",
                    named.join(" ")
                ),
            });
        }
    }
    Ok(())
}

/// A question asking what a thing is ("what is monomorphization in Rust"), answered with what it
/// brings about ("makes Rust's generics extremely efficient at runtime"): its effect, half an
/// answer a reviewer turns away. A question asking what it is for or does asks for the effect.
fn says_what_it_is(question: &str, claim: &str) -> Result<(), AnswerFault> {
    static EFFECT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:it\s+|they\s+)?(?P<verb>makes|make|allows|allow|lets|let|enables|enable|helps|help|ensures|ensure|improves|improve|prevents|prevent|reduces|reduce|avoids|avoid|saves|save|speeds|guarantees|guarantee)\b")
            .expect("valid regex")
    });
    static ASKS_EFFECT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:purpose|used|use|for|benefits?|advantages?|effects?|point|role|goal|does|do|cost|performance)\b")
            .expect("valid regex")
    });
    if !ASKS_WHAT_IT_IS.is_match(question) || ASKS_EFFECT.is_match(question) {
        return Ok(());
    }
    match EFFECT.captures(claim) {
        Some(c) => Err(AnswerFault::OffQuestion {
            why: format!(
                "it says what the thing {} (its effect), not what it is",
                fold(&c["verb"])
            ),
        }),
        None => Ok(()),
    }
}

/// A question asking what a thing is ("what are the pluggable class-based views in Flask"),
/// answered with what its label says it "also" does ("pluggable class-based views support
/// handlers that are implemented as coroutines", of "Pluggable class-based views also support
/// …"): one more property, on a page about another subject, not what the thing is.
fn not_what_else(question: &str, claim: &str, fact: &str) -> Result<(), AnswerFault> {
    static ALSO: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\balso\s+(?P<verb>[a-z]{3,})\b").expect("valid regex"));
    if !ASKS_WHAT_IT_IS.is_match(question) {
        return Ok(());
    }
    let said = words(claim);
    let analyzer = Language::ENGLISH.analyzer();
    for c in ALSO.captures_iter(fact) {
        let verb = fold(&c["verb"]);
        // "It is also the default": a function word after "also" says nothing more.
        if analyzer.is_stopword(&verb) {
            continue;
        }
        if said.contains(&verb) && !words(question).contains(&verb) {
            return Err(AnswerFault::OffQuestion {
                why: format!("it says what its label says the thing also {verb}s, not what it is"),
            });
        }
    }
    Ok(())
}

/// A question asking for a default value or setting, answered with what happens "by default"
/// and no value of its own ("what is the default setting for `.git-blame-ignore-revs`?" →
/// "GitHub supports `.git-blame-ignore-revs` by default in blame views"): the label says that
/// something is on by default, not what the default is. A number, a code, a quoted word or an
/// on/off word the question lacks is a value.
fn names_the_default(question: &str, claim: &str) -> Result<(), AnswerFault> {
    static ASKS_DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\bdefault\s+(?:value|setting|option)s?\b|\bdefaults?\s+to\b|\bwhat\s+(?:is|are)\s+the\s+default\b(?:\s+(?:for|of)\b|\s*\W*$)")
            .expect("valid regex")
    });
    static BY_DEFAULT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\bby\s+default\b").expect("valid regex"));
    if !ASKS_DEFAULT.is_match(question) || !BY_DEFAULT.is_match(claim) {
        return Ok(());
    }
    let states = lists::english(List::States);
    let value = gives_unasked(claim, &fold(question), |_, w| {
        let bare = fold(w.trim_matches(|c: char| matches!(c, '`' | '\'' | '"')));
        w.chars().any(|c| c.is_ascii_digit())
            || super::is_code(w)
            || w.starts_with(['`', '\'', '"'])
            || states.contains(&bare.as_str())
    });
    if value {
        return Ok(());
    }
    Err(AnswerFault::OffQuestion {
        why: "it says what happens by default, not what the default is".to_string(),
    })
}

/// A question asking which thing is the most of something ("what is the closest Python
/// behavior to undefined types"), answered without the name its label gives that thing
/// ("disallows all operations beside testing if it's an undefined object", of "The closest to
/// regular Python behavior is the :class:`StrictUndefined` which disallows …"): what the thing
/// does, not which it is. A way or practice may be answered by what to do ("the simplest way to
/// …" → "run …"); a label that names nothing the question lacks may answer in plain words.
fn names_the_superlative(question: &str, claim: &str, fact: &str) -> Result<(), AnswerFault> {
    static ASKS_WHICH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:what|which)\s+(?:is|are)\s+the\s+(?:best|worst|closest|nearest|fastest|slowest|simplest|easiest|safest|strictest|largest|smallest|biggest|highest|lowest|latest|newest|oldest|earliest|shortest|longest|cheapest|quickest|most|least)\b")
            .expect("valid regex")
    });
    static A_WAY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:way|ways|approach|method|practice|thing\s+to\s+do)\b").expect("valid regex")
    });
    if !ASKS_WHICH.is_match(question) || A_WAY.is_match(question) {
        return Ok(());
    }
    let asked = fold(question);
    let unasked_names = |text: &str, first_counts: bool| {
        gives_unasked(text, &asked, |i, w| {
            ((first_counts || i > 0) && w.chars().any(char::is_uppercase)) || super::is_code(w)
        })
    };
    if !unasked_names(fact, false) || unasked_names(claim, true) {
        return Ok(());
    }
    Err(AnswerFault::OffQuestion {
        why: "it says what the one asked for does, not which it is: the name its label gives it is left out"
            .to_string(),
    })
}

/// A question asking which things of a kind ("what other projects extend Click's features"),
/// answered with the kind's own word and no name, code or number ("other projects available
/// outside of the click-contrib organization"): it says something of them, not which they are.
fn names_the_ones_asked(question: &str, claim: &str) -> Result<(), AnswerFault> {
    static ASKS_WHICH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:what|which)\s+(?:other\s+)?(?P<kind>[a-z][a-z-]{2,})\s").expect("valid regex")
    });
    let Some(kind) = ASKS_WHICH.captures(question).map(|c| fold(&c["kind"])) else {
        return Ok(());
    };
    if lists::english(List::NotAKind).contains(&kind.as_str()) {
        return Ok(());
    }
    let said = words(claim);
    let first = said
        .iter()
        .find(|w| !matches!(w.as_str(), "other" | "the" | "some" | "all" | "any"))
        .map(String::as_str)
        .unwrap_or("");
    let stem = |w: &str| w.trim_end_matches('s').to_string();
    // A name, a code, a number or a file ending (".py") the question lacks names them.
    let asked = fold(question);
    let named = spans(claim).enumerate().any(|(i, w)| {
        let w = w.trim_end_matches([',', ';', ':', '.', ')']);
        let name = (i > 0 && w.chars().any(char::is_uppercase))
            || super::is_code(w)
            || w.contains(['.', '`', '\'', '"'])
            || w.chars().any(|c| c.is_ascii_digit());
        name && !asked.contains(&fold(w))
    });
    if named || stem(first) != stem(&kind) {
        return Ok(());
    }
    Err(AnswerFault::OffQuestion {
        why: format!(
            "asked which {kind}, it names none: it says \"{}\" of them",
            claim.trim()
        ),
    })
}

/// An answer whose verb the fact gives to "we" or "you" (the writer, the reader) answers what
/// a person does; a question asking what a thing does ("what does Rust do with errors", "how
/// does Black handle …") asks another question. So does a question whose own verb the fact
/// gives to a person ("where does the Rust memory allocator store the pointer" of "you can
/// store the pointer on the stack": a false premise, the thing does not do it). "What do I …",
/// "how can you …" ask what a person does, and pass.
fn keeps_the_actor(question: &str, claim: &str, fact: &str) -> Result<(), AnswerFault> {
    static THING_DOES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:what|how|where|when)\s+(?P<aux>does|do|did|will|can|should)\s+(?P<rest>.*)")
            .expect("valid regex")
    });
    let Some(asked) = THING_DOES.captures(question) else {
        return Ok(());
    };
    let rest = crate::text::words(&asked["rest"]);
    // "How can X be integrated …" asks what a person does with X: only "does X <verb>" says X
    // is the one who does it.
    let own_verb = matches!(fold(&asked["aux"]).as_str(), "does" | "do" | "did");
    let Some(subject) = rest.first() else {
        return Ok(());
    };
    if matches!(subject.as_str(), "i" | "we" | "you" | "one" | "users" | "people") {
        return Ok(());
    }
    let answer_verb = spans(claim).next().map(|w| fold(bare(w)));
    // The answer's first word, then the question's own words after its subject's first.
    let verbs: Vec<&str> = answer_verb
        .iter()
        .map(String::as_str)
        .chain(
            rest.iter()
                .enumerate()
                .skip(1)
                // A verb inside the subject's description is not the question's ("how does the
                // command to set a new passphrase function": the bridge of a multi-hop).
                .filter(|(i, _)| own_verb && !matches!(rest[i - 1].as_str(), "to" | "that" | "which" | "who"))
                .map(|(_, w)| w.as_str()),
        )
        .filter(|w| w.chars().count() >= 3)
        .collect();
    let between = lists::english(List::BetweenActorAndVerb);
    let words = crate::text::words(fact);
    // A label that tells the reader what to do ("Override
    // :attr:`SandboxedEnvironment.intercepted_binops` … with the operator symbols you want to
    // intercept"), its verb the answer's first: the reader's step, not what the thing does.
    let told = words.iter().any(|w| matches!(w.as_str(), "you" | "your"))
        && answer_verb
            .as_ref()
            .is_some_and(|v| words.first() == Some(v) && v.chars().count() >= 3);
    if told && own_verb {
        return Err(AnswerFault::OffQuestion {
            why: "its label tells the reader what to do; the question asks what a thing does".to_string(),
        });
    }
    let by_a_person = verbs.into_iter().find(|verb| {
        words.iter().enumerate().any(|(i, w)| {
            matches!(w.as_str(), "we" | "you")
                && words[i + 1..]
                    .iter()
                    .find(|w| !between.contains(&w.as_str()))
                    .is_some_and(|next| next == verb)
        })
    });
    if let Some(verb) = by_a_person {
        return Err(AnswerFault::OffQuestion {
            why: format!(
                "its label says \"{verb}\" of the writer or the reader; the question asks what a thing does"
            ),
        });
    }
    Ok(())
}

/// A fact opening "In C++, …" (or "Note: In Python 2, …") says what follows of that case
/// only; a question that sets another case and not this one ("… in Rust?") asks about another
/// (a book about Rust naming a C++ term). The case is a name: a word with a capital or a
/// code's marks, up to three words, not a time.
fn keeps_the_scope(question: &str, claim: &str, fact: &str) -> Result<(), AnswerFault> {
    static SCOPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:\w+:\s*)?In\s+(?P<scope>[^\s,]+(?:\s+[^\s,]+){0,2}),\s").expect("valid regex")
    });
    let Some(scope) = SCOPED.captures(fact).and_then(|c| c.name("scope")) else {
        return Ok(());
    };
    let scope = scope.as_str();
    if super::squash(claim).contains(&super::squash(scope)) {
        // The case is the answer ("Where are lifetimes explained?" → "In Chapter 10").
        return Ok(());
    }
    let months = lists::english(List::Months);
    let named = spans(scope).any(|w| {
        let capital = w.chars().next().is_some_and(char::is_uppercase);
        let marked = w.chars().any(char::is_alphabetic) && w.contains(['+', '#', '.', '_', ':']);
        (capital && !months.contains(&fold(w).as_str())) || marked
    });
    // "In contrast," / "In this example," are no case of the claim's.
    if !named
        || spans(scope)
            .next()
            .is_some_and(|w| lists::english(List::NotAScope).contains(&fold(w).as_str()))
    {
        return Ok(());
    }
    let asked = super::squashed_words(question);
    let squashed = super::squash(question);
    let scope_words: Vec<String> = spans(scope)
        .map(|w| super::squash(w.trim_end_matches("'s").trim_end_matches("’s")))
        .filter(|w| !w.is_empty() && !matches!(w.as_str(), "the" | "a" | "an"))
        .collect();
    let said = scope_words
        .iter()
        .all(|w| asked.contains(w) || (w.len() >= 3 && squashed.contains(w.as_str())));
    if said {
        return Ok(());
    }
    // Only where the question sets its own case, another one ("… in Rust?" against "In C++,
    // …"): a claim set "In northwest Europe" still answers a question about the Rhine.
    static OWN_CASE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:in|for|on|with|under)\s+(?P<case>[A-Z][\w+#.-]*(?:\s+[A-Z0-9][\w+#.-]*){0,2})")
            .expect("valid regex")
    });
    let other = OWN_CASE.captures_iter(question).find_map(|c| {
        let case = c.name("case")?.as_str();
        let words: Vec<String> = spans(case).map(super::squash).collect();
        (!words.iter().all(|w| scope_words.contains(w))).then(|| case.to_string())
    });
    match other {
        Some(case) => Err(AnswerFault::OffQuestion {
            why: format!("its label says this holds \"In {scope}\"; the question asks about {case}"),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn since_before_a_point_in_time_says_when_not_why() {
        let en = crate::lang::Language::ENGLISH;
        let q = "api tokens expire after one day now??";
        for when in [
            "Since 2.4.0 api.token_ttl defaults to 24 hours instead of 7 days",
            "since version 3 the default is 24 hours",
            "Since March 2025 tokens expire after a day",
        ] {
            assert!(super::gives_no_unasked_reason(q, when, en).is_ok(), "{when}");
        }
        let q = "how does Rust store pointers on the stack";
        let why = "since the pointer is a known, fixed size, store the pointer on the stack";
        assert!(super::gives_no_unasked_reason(q, why, en).is_err());
    }

    #[test]
    fn an_answer_that_says_the_question_back_answers_nothing() {
        let en = crate::lang::Language::ENGLISH;
        let q = "what should be done in the initializer to ensure the instance has invariants";
        assert!(super::says_more_than_asked(q, "check instance for invariants", en).is_err());
        // A value of its own, a yes/no question, a short answer: answers.
        let q = "what are the start values for loop.index and loop.index0";
        assert!(
            super::says_more_than_asked(q, "loop.index starts with 1, loop.index0 starts with 0", en).is_ok()
        );
        let q = "Are snapshots kept on the free plan?";
        assert!(super::says_more_than_asked(q, "snapshots are kept on the free plan", en).is_ok());
        let q = "How long are snapshots kept on the free plan?";
        assert!(super::says_more_than_asked(q, "30 days", en).is_ok());
        assert!(super::says_more_than_asked(q, "snapshots are kept on the free plan", en).is_err());
        assert!(super::says_more_than_asked(q, "for thirty days after they are taken", en).is_ok());
    }

    use super::*;

    const EN: Language = Language::ENGLISH;

    #[test]
    fn where_a_thing_is_used_does_not_say_what_it_is_for() {
        // Black's, hop 2 of a multi-hop marked wrong twice.
        let fact = "Note that the `:BlackUpgrade` command is only usable and useful with a virtualenv, so when the virtualenv is not in use, `:BlackUpgrade` is disabled.";
        for q in [
            "What is the command `:BlackUpgrade` used for?",
            "what is the purpose of the command to upgrade Black",
            "What does `:BlackUpgrade` do?",
        ] {
            assert!(
                matches!(
                    answers_its_question(q, "used with virtualenv", fact, EN),
                    Err(AnswerFault::OffQuestion { .. })
                ),
                "{q}"
            );
        }
        assert!(
            answers_its_question(
                "When can `:BlackUpgrade` be used?",
                "used with virtualenv",
                fact,
                EN
            )
            .is_ok()
        );
        assert!(
            answers_its_question(
                "What is `:BlackUpgrade` used for?",
                "used to upgrade Black in the virtualenv",
                fact,
                EN
            )
            .is_ok()
        );
    }

    #[test]
    fn when_you_would_use_a_thing_is_not_what_it_does() {
        // Black's identifier, marked wrong.
        let fact = "If you are adopting _Black_ in a large project with pre-existing string conventions, you can pass `--skip-string-normalization` on the command line.";
        let claim = "If you are adopting _Black_ in a large project with pre-existing string conventions, you can pass `--skip-string-normalization` on the command line";
        assert!(matches!(
            answers_its_question("what does `--skip-string-normalization` do?", claim, fact, EN),
            Err(AnswerFault::OffQuestion { .. })
        ));
        assert!(
            answers_its_question(
                "when should I use `--skip-string-normalization`?",
                claim,
                fact,
                EN
            )
            .is_ok()
        );
    }

    #[test]
    fn what_a_thing_does_not_do_is_no_answer_to_what_it_does() {
        // Click's, marked wrong.
        let fact = ":func:`click.argument` does not take a ``help`` parameter.";
        assert!(matches!(
            answers_its_question(
                "what does the `click.argument` function do",
                "does not take a help parameter",
                fact,
                EN
            ),
            Err(AnswerFault::OffQuestion { .. })
        ));
        assert!(
            answers_its_question(
                "does `click.argument` take a help parameter?",
                "does not take a help parameter",
                fact,
                EN
            )
            .is_ok()
        );
    }

    #[test]
    fn which_ones_a_thing_is_for_is_not_what_it_does_for_them() {
        // Black's, hop 2 of a multi-hop marked wrong.
        let fact = "**`skip news`**: for PRs that are trivial and don't need a CHANGELOG entry (and skips the CHANGELOG entry check)";
        let claim = "PRs that are trivial and don't need a CHANGELOG entry";
        assert!(matches!(
            answers_its_question("What does the skip news feature do for PRs?", claim, fact, EN),
            Err(AnswerFault::OffQuestion { .. })
        ));
        assert!(answers_its_question("What PRs is the skip news label for?", claim, fact, EN).is_ok());
        assert!(
            answers_its_question(
                "What does the skip news label do for PRs?",
                "skips the CHANGELOG entry check",
                fact,
                EN
            )
            .is_ok()
        );
    }

    #[test]
    fn as_well_as_is_no_word_of_the_answer() {
        // Black's, marked wrong: the quotes become double quotes, which the answer never says.
        let q = "how does _Black_ normalize string quotes and prefixes";
        let claim = "normalizes string quotes as well as string prefixes, making them lowercase";
        assert!(says_more_than_asked(q, claim, EN).is_err());
        assert!(
            says_more_than_asked(q, "prefers double quotes and makes string prefixes lowercase", EN).is_ok()
        );
    }

    #[test]
    fn another_name_in_brackets_is_not_what_it_is() {
        let fact = "The evaluation context (short eval context or eval ctx) makes it possible to \
                    activate and deactivate compiled features at runtime.";
        let q = "what is the evaluation context in API";
        let err = not_its_other_name(q, "short eval context or eval ctx", fact).unwrap_err();
        assert!(err.to_string().contains("other name"), "{err}");
        assert!(not_its_other_name(q, "eval ctx", fact).is_err());
        // What it does answers; so does a question asking for the short name.
        assert!(
            not_its_other_name(
                q,
                "makes it possible to activate compiled features at runtime",
                fact
            )
            .is_ok()
        );
        assert!(
            not_its_other_name(
                "what is the short name of the evaluation context",
                "eval ctx",
                fact
            )
            .is_ok()
        );
        // An explanation in brackets is no other name.
        let explained = "A slug (i.e. the last part of a URL) names a page.";
        assert!(not_its_other_name("what is a slug", "the last part of a URL", explained).is_ok());
    }

    #[test]
    fn the_ones_asked_for_are_named() {
        // Click's, marked wrong twice.
        let q = "what other projects extend Click's features";
        let said = "other projects available outside of the click-contrib organization";
        let err = names_the_ones_asked(q, said).unwrap_err();
        assert!(err.to_string().contains("which projects"), "{err}");
        assert!(names_the_ones_asked(q, "click-contrib's projects and Typer").is_ok());
        assert!(names_the_ones_asked("which files does Black format", "files ending in .py").is_ok());
        assert!(names_the_ones_asked("what is a project", "projects are folders").is_ok());
    }

    #[test]
    fn what_else_a_thing_does_is_not_what_it_is() {
        // Flask's async page, marked wrong.
        let fact = "Pluggable class-based views also support handlers that are implemented as coroutines.";
        let q = "what are the pluggable class-based views in Flask";
        let said = "pluggable class-based views support handlers that are implemented as coroutines";
        assert!(not_what_else(q, said, fact).is_err());
        assert!(not_what_else("what do pluggable class-based views support", said, fact).is_ok());
        assert!(not_what_else(q, "views written as classes", fact).is_ok());
        let default = "The `default` loader is also the one Flask uses.";
        assert!(not_what_else("what is the default loader", "the one Flask uses", default).is_ok());
    }

    #[test]
    fn the_one_asked_for_is_named() {
        // Jinja's, marked wrong.
        let fact = "The closest to regular Python behavior is the :class:`StrictUndefined` which \
                    disallows all operations beside testing if it's an undefined object.";
        let q = "what is the closest Python behavior to undefined types";
        let said = "disallows all operations beside testing if it's an undefined object";
        let err = names_the_superlative(q, said, fact).unwrap_err();
        assert!(err.to_string().contains("which it is"), "{err}");
        assert!(names_the_superlative(q, "StrictUndefined, which disallows all operations", fact).is_ok());
        // A way is answered by what to do; a question that names the thing asks something else.
        let way = "The simplest way to start is to run `black .` in the project's folder.";
        assert!(
            names_the_superlative("what is the simplest way to start", "run it in the folder", way).is_ok()
        );
        assert!(
            names_the_superlative(
                "what is the closest to Python behavior about StrictUndefined",
                said,
                fact
            )
            .is_ok()
        );
    }

    #[test]
    fn what_a_thing_brings_about_is_not_what_it_is() {
        // The rust book's, marked wrong.
        let q = "what is monomorphization in Rust?";
        let err = says_what_it_is(q, "makes rust's generics extremely efficient at runtime").unwrap_err();
        assert!(err.to_string().contains("makes"), "{err}");
        assert!(
            says_what_it_is(
                q,
                "turning generic code into specific code by filling in the concrete types"
            )
            .is_ok()
        );
        // Asked for its effect, the effect answers.
        for q in [
            "what is the benefit of monomorphization in Rust",
            "what is monomorphization used for",
            "what does monomorphization do",
        ] {
            assert!(
                says_what_it_is(q, "makes generics efficient at runtime").is_ok(),
                "{q}"
            );
        }
    }

    #[test]
    fn what_happens_by_default_is_no_default_value() {
        // Black's, an identifier case marked wrong.
        let fact = "GitHub supports `.git-blame-ignore-revs` by default in blame views however.";
        let claim = "GitHub supports `.git-blame-ignore-revs` by default in blame views however";
        assert!(matches!(
            answers_its_question(
                "what is the default setting for `.git-blame-ignore-revs`?",
                claim,
                fact,
                EN
            ),
            Err(AnswerFault::OffQuestion { .. })
        ));
        assert!(answers_its_question("does GitHub use `.git-blame-ignore-revs`?", claim, fact, EN).is_ok());
        let fact = "By default, `--line-length` is 88.";
        assert!(
            answers_its_question(
                "what is the default value of --line-length",
                "88 by default",
                fact,
                EN
            )
            .is_ok()
        );
        let fact = "Colors are disabled by default when the output is not a terminal.";
        assert!(
            answers_its_question(
                "what is the default setting for colors in a pipe",
                "disabled by default",
                fact,
                EN
            )
            .is_ok()
        );
    }

    #[test]
    fn what_a_person_does_is_no_answer_to_what_a_thing_does() {
        // The rust book's, marked wrong twice.
        let fact = "We don’t have enough information on what the calling code is actually trying to do, so we propagate all the success or error information upward for it to handle appropriately.";
        let claim = "propagate all success or error information upward for it to handle appropriately";
        assert!(matches!(
            answers_its_question(
                "what does the Rust programming language do with errors",
                claim,
                fact,
                EN
            ),
            Err(AnswerFault::OffQuestion { .. })
        ));
        assert!(
            answers_its_question("what should we do with errors we cannot handle", claim, fact, EN).is_ok()
        );
        // The question's own verb given to the reader: a false premise (marked wrong twice).
        let fact = "Because the pointer to the heap is a known, fixed size, you can store the pointer on the stack, but when you want the actual data, you must follow the pointer.";
        for q in [
            "where does the Rust memory allocator store the pointer",
            "where does the Rust memory allocator store the pointer to the heap",
        ] {
            assert!(
                matches!(
                    answers_its_question(q, "stack", fact, EN),
                    Err(AnswerFault::OffQuestion { .. })
                ),
                "{q}"
            );
        }
        assert!(
            answers_its_question("where can you store the pointer to the heap", "stack", fact, EN).is_ok()
        );
        // The sample corpus's bridge: "set" is the description's verb, not the question's.
        let fact = "With the recovery code you can set a new passphrase with `tide key passwd`. `tide key passwd` re-wraps the existing master key with a new passphrase.";
        assert!(
            answers_its_question(
                "how does the command to set a new passphrase function",
                "re-wraps the existing master key with a new passphrase",
                fact,
                EN
            )
            .is_ok()
        );
        // Click's, marked wrong twice: Click's authors extract the parameters, not `sys.argv`.
        let fact = "We not only fixed the encoding part, but we also now extract unicode parameters from `sys.argv`.";
        assert!(matches!(
            answers_its_question(
                "what does `sys.argv` do in the context of Unicode arguments",
                "extract unicode parameters from `sys.argv` and fix the encoding part",
                fact,
                EN
            ),
            Err(AnswerFault::OffQuestion { .. })
        ));
        // Jinja's, marked wrong twice: the reader overrides the attribute.
        let fact = "Override :attr:`SandboxedEnvironment.intercepted_binops` and \
                    :attr:`SandboxedEnvironment.intercepted_unops` with the operator symbols you want to intercept.";
        assert!(matches!(
            answers_its_question(
                "what does the `SandboxedEnvironment.intercepted_binops` attribute do",
                "Override operator symbols to intercept them",
                fact,
                EN
            ),
            Err(AnswerFault::OffQuestion { .. })
        ));
        // A docstring's imperative says what the function does.
        let fact = "Return the translator for the current configuration.";
        assert!(
            answers_its_question(
                "what does `get_gettext_translations` do",
                "Return the translator for the current configuration",
                fact,
                EN
            )
            .is_ok()
        );
        // The tool's own verb stands.
        let fact = "Black reformats entire files in place.";
        assert!(
            answers_its_question("what does Black do", "reformats entire files in place", fact, EN).is_ok()
        );
    }

    #[test]
    fn a_reason_answers_why_not_how() {
        let fact = "Because the pointer to the heap is a known, fixed size, you can store the pointer on the stack, but when you want the actual data, you must follow the pointer.";
        let claim =
            "because the pointer to the heap is a known, fixed size, you can store the pointer on the stack";
        let whole = "because the pointer to the heap is a known, fixed size, you can store the pointer on the stack, but when you want the actual data, you must follow the pointer";
        assert!(answers_its_question("how does Rust store pointers on the stack", whole, fact, EN).is_err());
        assert!(matches!(
            answers_its_question("how does Rust store pointers on the stack", claim, fact, EN),
            Err(AnswerFault::OffQuestion { .. })
        ));
        assert!(
            answers_its_question("why can Rust store the pointer on the stack?", claim, fact, EN).is_ok()
        );
        assert!(
            answers_its_question(
                "what is the reason rust keeps pointers on the stack",
                claim,
                fact,
                EN
            )
            .is_ok()
        );
        // The rust book's, marked right: the clause after the reason answers what was asked.
        let claim = "Because Rust compiles generic code into code that specifies the type in each instance, we pay no runtime cost for using generics";
        assert!(
            answers_its_question(
                "what is the performance of code using generics in Rust",
                claim,
                claim,
                EN
            )
            .is_ok()
        );
        // A reason inside the answer, not opening it, is the answer's own explanation.
        let fact = "Restores fail with TP-412 because the key file is missing.";
        assert!(answers_its_question("what does TP-412 mean", "the key file is missing", fact, EN).is_ok());
    }

    #[test]
    fn a_claim_limited_to_another_case_does_not_answer_a_question_without_it() {
        let fact = "Note: In C++, this pattern of deallocating resources at the end of an item’s lifetime is sometimes called Resource Acquisition Is Initialization (RAII).";
        let asked = "What is the term for deallocating resources at the end of an item's lifetime in Rust?";
        let err = answers_its_question(asked, "RAII", fact, EN).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the answer is to another question: its label says this holds \"In C++\"; the question asks about Rust"
        );
        // Keywords that set no case of their own are left be.
        assert!(answers_its_question("rust resource management", "RAII", fact, EN).is_ok());
        assert!(
            answers_its_question(
                "what is resource management at scope end called in C++?",
                "RAII",
                fact,
                EN
            )
            .is_ok()
        );
        let fact = "In Python 3.12, the parser accepts nested f-strings.";
        assert!(
            answers_its_question("does black parse nested f-strings in Python 3.8", "yes", fact, EN).is_err()
        );
        // XQuAD's: the case is implied by the question's subject, or named with an 's.
        let fact = "In northwest Europe, it saw two very cold phases.";
        assert!(
            answers_its_question(
                "Which direction did the Rhine flow during the last cold phase?",
                "west",
                fact,
                EN
            )
            .is_ok()
        );
        let fact = "In Aristotle's view, the terrestrial sphere contained four elements.";
        assert!(
            answers_its_question(
                "How many elements did Aristotle believe the terrestrial sphere to be made up of?",
                "four",
                fact,
                EN
            )
            .is_ok()
        );
        assert!(answers_its_question("nested f-strings python 3.12", "yes", fact, EN).is_ok());
        let fact = "In Chapter 10, we discuss lifetimes.";
        assert!(
            answers_its_question("where does the book explain lifetimes", "in Chapter 10", fact, EN).is_ok()
        );
    }

    #[test]
    fn an_opening_that_names_no_case_is_no_scope() {
        for fact in [
            "In contrast, the heap is less organized.",
            "In this example, we bind the value to s.",
            "In production-quality code, most Rustaceans choose expect rather than unwrap.",
        ] {
            assert!(
                answers_its_question("what do rustaceans choose over unwrap", "expect", fact, EN).is_ok(),
                "{fact}"
            );
        }
        assert!(answers_its_question("why", "because", "In C++, x.", Language::parse("es").unwrap()).is_ok());
        // XQuAD: a year sets the claim in its day.
        let fact = "In 1973, John Sawhill became the first administrator of the Federal Energy Office.";
        assert!(
            answers_its_question(
                "Who is the first administrator of the Federal Energy Office?",
                "John Sawhill",
                fact,
                EN
            )
            .is_ok()
        );
        assert!(
            answers_its_question(
                "who ran it",
                "John Sawhill",
                "In March 2020, John Sawhill ran it.",
                EN
            )
            .is_ok()
        );
    }
}
