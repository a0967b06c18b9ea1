//! Does a question stand alone? A user asks a retriever without having seen the passage its
//! writer read, so "What does the function return?" asks about nothing: which function? One
//! definition, read by `generate` (which turns such a question away as `not_standalone`) and by
//! the audit (RS209).
//!
//! A question fails to stand alone when it leans on an earlier turn or a pronoun it never
//! explains ([`crate::wording::leans_on_context_in`]), or when it names a thing of the text by a
//! definite description no name resolves ([`unresolved_reference`]): "the function", "the
//! example", "this option", "the code", "the given struct", "the match", "the following", "the
//! above program". A name resolves it where it stands — before the noun ("the `parse` function", "the
//! parse_config function", "the main function": any word that is not a pointer like
//! "following" or "given"), after it ("the function read_to_string", "the option `--force`",
//! "the method called `len`") — or an "of" phrase says whose it is ("the function of the archive
//! tier", "the output of `cargo run`"). A description by use ("the file handling function") or
//! by a pointer and another noun of the list ("the two signal invocations") names nothing.
//! English only: another language's articles and word order need their own table.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::lang::Language;

/// Where `question` does not stand alone: an earlier turn, an unexplained pronoun, or an
/// unresolved definite description; `None` when it does.
pub fn not_standalone(question: &str, language: Language) -> Option<Range<usize>> {
    let leaning = crate::wording::leans_on_context_in(question, language);
    let described = (language == Language::ENGLISH)
        .then(|| unresolved_reference(question))
        .flatten();
    [leaning, described].into_iter().flatten().min_by_key(|r| r.start)
}

/// Things of a text a question can point at as if the reader saw them.
const NOUNS: &str = "function|functions|method|methods|example|examples|listing|listings|code|snippet|snippets|program|programs|struct|structs|enum|enums|trait|traits|module|class|variable|variables|file|files|option|options|setting|settings|parameter|parameters|argument|arguments|field|fields|command|commands|macro|macros|closure|decorator|decorators|filter|filters|signal|signals|invocation|invocations|loop|statement|expression|output|error|script|query|endpoint|figure|diagram|chart|table|algorithm|implementation|match";

/// Words between "the" and the noun that point rather than name: "the following function".
const POINTERS: &[&str] = &[
    "following",
    "above",
    "below",
    "given",
    "provided",
    "previous",
    "preceding",
    "same",
    "said",
    "aforementioned",
    "mentioned",
    "above-mentioned",
    "first",
    "second",
    "third",
    "next",
    "last",
    "final",
    "other",
    "new",
    "current",
    "specific",
    "particular",
    "original",
    "corresponding",
    "relevant",
    "example",
    "sample",
    "default",
    "described",
    "shown",
    "listed",
    "defined",
    "resulting",
    "returned",
    "whole",
    "entire",
    "two",
    "three",
    "both",
    "calling",
];

/// A definite description of a thing of the text, with its modifiers.
fn description() -> &'static Regex {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(
            r"(?i)\b(?P<det>the|this|that|these|those)\s+(?P<mods>(?:[\w`'.:-]+\s+){{0,2}}?)(?P<noun>{NOUNS})\b"
        ))
        .expect("valid regex")
    });
    &RE
}

/// "the following" and "the above" standing alone: a pointer at the text itself.
fn pointer_alone() -> &'static Regex {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(the|in the)\s+(following|above)\s*(\?|$|,|:)").expect("valid regex")
    });
    &RE
}

/// Where `question` names a thing of the text by a description nothing resolves (see the
/// module doc); `None` when every description is resolved.
pub fn unresolved_reference(question: &str) -> Option<Range<usize>> {
    if let Some(m) = pointer_alone().find(question) {
        return Some(m.range());
    }
    static NOUN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!(r"(?i)^\s+({NOUNS})\b")).expect("valid regex"));
    let unresolved = |c: regex::Captures<'_>| {
        let whole = c.get(0)?;
        let mut noun = c.name("noun")?.range();
        let mut mods = c.name("mods").map_or(0..0, |m| m.range());
        // "the two signal invocations": a noun qualifying another of the list is a modifier.
        while let Some(next) = NOUN.captures(&question[noun.end..]).and_then(|n| n.get(1)) {
            if mods.is_empty() {
                mods = noun.start..noun.end;
            } else {
                mods.end = noun.end;
            }
            noun = noun.end + next.start()..noun.end + next.end();
        }
        let mods = &question[mods];
        let after = &question[noun.end..];
        // After a pointer, a noun of the list names nothing ("the two signal invocations");
        // alone before another, it may ("the match expression").
        let pointer = |w: &str| POINTERS.contains(&w.to_lowercase().as_str());
        let pointed = mods.split_whitespace().next().is_some_and(pointer);
        let is_noun = |w: &str| NOUNS.split('|').any(|n| n.eq_ignore_ascii_case(w));
        let named_before = mods
            .split_whitespace()
            .any(|w| !(pointer(w) || (pointed && is_noun(w))))
            && !says_its_use(mods);
        // A noun that only qualifies the next word ("the test flight") is no description.
        let named_after = after_noun(after)?;
        (!named_before && !named_after).then(|| whole.start()..noun.end)
    };
    // "the file handling function" is read as "the file" qualifying the next word by the
    // first pattern, which then goes on after it; the second reads the whole description.
    let first = description().captures_iter(question).find_map(unresolved);
    let by_use = use_description().captures_iter(question).find_map(unresolved);
    [first, by_use].into_iter().flatten().min_by_key(|r| r.start)
}

/// A definite description by what a thing is for: "the file handling function".
fn use_description() -> &'static Regex {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(
            r"(?i)\b(?P<det>the|this|that)\s+(?P<mods>[a-z]+\s+[a-z]{{3,}}ing\s+)(?P<noun>{NOUNS})\b"
        ))
        .expect("valid regex")
    });
    &RE
}

/// Whether the words before the noun say what it is for, as a plain noun and a gerund do ("the
/// file handling function", "the error handling code"): a description of a job, which many
/// things of a page may do, not a name. One plain word ("the main function", "the parse
/// function") may be the name.
fn says_its_use(mods: &str) -> bool {
    let words: Vec<&str> = mods.split_whitespace().collect();
    let plain = |w: &str| w.chars().all(|c| c.is_ascii_lowercase());
    match words.as_slice() {
        [object, gerund] => {
            plain(object)
                && plain(gerund)
                && gerund.len() >= 6
                && gerund.ends_with("ing")
                && !gerund.ends_with("string")
        }
        _ => false,
    }
}

/// Words after a noun that show it heads its phrase ("the function returns", "the code in the
/// listing") rather than qualifies the next noun ("the test flight", "the code review").
const HEAD_FOLLOWERS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "does", "do", "did", "has", "have", "had", "can", "could",
    "will", "would", "should", "must", "may", "return", "returns", "print", "prints", "output", "outputs",
    "take", "takes", "accept", "accepts", "expect", "expects", "produce", "produces", "cause", "causes",
    "mean", "means", "show", "shows", "say", "says", "need", "needs", "require", "requires", "set", "sets",
    "change", "changes", "control", "controls", "default", "defaults", "affect", "affects", "work", "works",
    "handle", "handles", "call", "calls", "compute", "computes", "check", "checks", "store", "stores",
    "hold", "holds", "contain", "contains", "use", "uses", "run", "runs", "create", "creates", "make",
    "makes", "give", "gives", "get", "gets", "in", "on", "at", "to", "from", "with", "by", "and", "or",
    "but", "when", "if", "after", "before", "above", "below", "here", "there", "again", "first", "now",
];

/// Words after the noun that say which one it is: a relative clause or participle ("the
/// expression used to identify ...", "the method that sorts"), "called" / "named" something, or
/// an "of" / "for" phrase.
const RESOLVERS: &[&str] = &[
    "of",
    "for",
    "called",
    "named",
    "used",
    "that",
    "which",
    "who",
    "whose",
    "where",
    "known",
    "describing",
    "containing",
    "defined",
    "described",
    "responsible",
];

/// How the words after the noun bear on it: `Some(true)` they name it, `Some(false)` they leave
/// it unnamed, `None` the noun only qualifies the next word ("the test flight").
fn after_noun(after: &str) -> Option<bool> {
    let clause = after.split(['?', ',', ';', '!']).next().unwrap_or("");
    let Some(first) = clause.split_whitespace().next() else {
        return Some(false);
    };
    let lower = first.to_lowercase();
    if RESOLVERS.contains(&lower.as_str()) || is_name(first) || purpose(clause) {
        return Some(true);
    }
    let word = first.chars().all(char::is_alphabetic);
    if word && !HEAD_FOLLOWERS.contains(&lower.as_str()) {
        return None;
    }
    Some(false)
}

/// Whether the words after the noun open with an infinitive of purpose that says which one it
/// is: a verb and what it acts on ("the command to set a new passphrase", "the option to skip
/// hooks"), not "to" before a noun phrase ("the error to the caller") nor a verb alone ("the
/// command to run again").
fn purpose(clause: &str) -> bool {
    let words: Vec<String> = clause.split_whitespace().map(str::to_lowercase).collect();
    let [to, verb, rest @ ..] = words.as_slice() else {
        return false;
    };
    // The phrase ends where the question's own verb comes ("… to run again do?").
    let acts_on = rest
        .iter()
        .take_while(|w| !AUXILIARIES.contains(&w.as_str()))
        .any(|w| !NO_OBJECT.contains(&w.as_str()));
    to == "to"
        && verb.chars().all(|c| c.is_ascii_lowercase())
        && !NOT_A_VERB.contains(&verb.as_str())
        && acts_on
}

/// Verbs that end an infinitive phrase inside a question ("the command to run again do?").
const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "be", "do", "does", "did", "can", "could", "will", "would", "should", "must",
    "may", "has", "have", "had",
];

/// Words after an infinitive that name nothing it acts on ("to run again", "to set it up").
const NO_OBJECT: &[&str] = &[
    "again", "it", "them", "this", "that", "first", "now", "later", "here", "there", "then", "too", "also",
    "back", "up", "out", "down", "instead",
];

/// Words after "to" that start a noun phrase, not a verb ("the error to the caller").
const NOT_A_VERB: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "my", "your", "our", "their", "his",
    "her", "them", "me", "us", "which", "what", "whom", "be", "do",
];

/// A word that names something: a code span, an identifier (`_`, `::`, `.`, `()`, digits), an
/// option, or a word with a capital.
fn is_name(word: &str) -> bool {
    let w = word
        .trim_end_matches('.')
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '(' | ')'));
    if w.is_empty() {
        return false;
    }
    w.starts_with('`')
        || w.starts_with('-')
        || w.contains(['_', ':', '(', '.'])
        || w.chars().any(|c| c.is_ascii_digit())
        || w.chars().next().is_some_and(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: Language = Language::ENGLISH;

    #[test]
    fn a_thing_of_the_text_without_a_name_does_not_stand_alone() {
        for (q, at) in [
            ("What is the return type of the function?", "the function"),
            ("What does the function return?", "the function"),
            ("What is the bad state shown in the example?", "the example"),
            ("What does this option change?", "this option"),
            ("What does the code in the listing print?", "the code"),
            ("Which fields does the given struct have?", "the given struct"),
            ("What does the following program print?", "the following program"),
            ("What is printed by the above?", "the above?"),
            ("What is its purpose?", "its"),
            ("What does the function return to the caller?", "the function"),
            ("Which value does the option default to?", "the option"),
            ("What does the command to run again do?", "the command"),
            // Black's unanswerable, written from "Windows: `~\\.black`" (the user config file).
            ("where does Black look for the file on Android?", "the file"),
            // The rust book's: the caller of one listing's function.
            (
                "how does the calling code handle errors in Rust",
                "the calling code",
            ),
            // The rust book's: the match of one listing (its other arm resolves by "of").
            (
                "what does the other arm of the match do when File::open returns an error",
                "the match",
            ),
            // Jinja's and Flask's: which filter, which signal?
            ("what does the filter do?", "the filter"),
            ("what is the purpose of the signal", "the signal"),
            (
                "what is the difference between the two signal invocations?",
                "the two signal invocations",
            ),
            // Click's unanswerable: which decorator?
            (
                "what is the default_group used for in the decorator",
                "the decorator",
            ),
            // Click's: `exists` is an argument of click.Path, which the question does not name.
            (
                "what is the purpose of the 'exists' argument in the file handling function",
                "the file handling function",
            ),
        ] {
            let r = not_standalone(q, EN).unwrap_or_else(|| panic!("{q}"));
            assert_eq!(&q[r], at, "{q}");
        }
    }

    #[test]
    fn a_name_or_an_of_phrase_resolves_it() {
        for q in [
            "What does the `read_to_string` function return?",
            "What does the parse_config function return?",
            "What does the function read_to_string return?",
            "What does the main function return in Rust?",
            "What does the option `--overwrite` default to?",
            "What does the method called `len` count?",
            "What is the function of the archive tier?",
            "What is the default value of api.token_ttl?",
            "What does the error TP-412 mean?",
            "How long are snapshots kept on the free plan?",
            "What is the capital of France?",
            "What does the tide prune command do?",
            "How many people were on the test flight of the AS-206?",
            "What is the expression used to identify problems solvable in polynomial time?",
            "In what districts are the registration numbers for cars all of the same type?",
            "What does the command to set a new passphrase do?",
            "Which option to skip the hooks is safe?",
            "Where does Black look for the configuration file?",
            "What does the file format of a snapshot look like?",
            "What does the match expression return in Rust?",
            "What does the logging module write?",
            "What does the `pass_context` decorator pass on?",
            "What does the urlize filter do?",
            "What does the template_rendered signal send?",
        ] {
            assert_eq!(not_standalone(q, EN), None, "{q}");
        }
        assert_eq!(
            not_standalone("¿Qué devuelve la función?", Language::parse("es").unwrap()),
            None,
            "English only"
        );
    }
}
