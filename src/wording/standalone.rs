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

use crate::lang::{Language, List, PerLanguage};
use crate::text::{bare, fold, spans, spans_at};

/// The English words this reading needs ([`List`]); a language without them is not read.
struct Words {
    nouns: &'static [&'static str],
    pointers: &'static [&'static str],
    head_followers: &'static [&'static str],
    resolvers: &'static [&'static str],
    phrase_enders: &'static [&'static str],
    no_object: &'static [&'static str],
    not_a_verb: &'static [&'static str],
}

impl Words {
    fn of(language: Language) -> Option<Words> {
        Some(Words {
            nouns: language.list(List::PointedNouns)?,
            pointers: language.list(List::Pointers)?,
            head_followers: language.list(List::HeadFollowers)?,
            resolvers: language.list(List::Resolvers)?,
            phrase_enders: language.list(List::PhraseEnders)?,
            no_object: language.list(List::NoObject)?,
            not_a_verb: language.list(List::NotAVerb)?,
        })
    }
}

/// Where `question` does not stand alone: an earlier turn, an unexplained pronoun, or an
/// unresolved definite description; `None` when it does.
pub fn not_standalone(question: &str, language: Language) -> Option<Range<usize>> {
    let leaning = crate::wording::leans_on_context_in(question, language);
    let english = language == Language::ENGLISH;
    let described = english
        .then(|| unresolved_reference(question, language))
        .flatten();
    // "What is this section about?" asks about the text itself: RS206's, not a pointer.
    let pointed = (english && crate::wording::meta_question_in(question, language).is_none())
        .then(|| Words::of(language).and_then(|w| demonstrative(question, &w)))
        .flatten();
    [leaning, described, pointed]
        .into_iter()
        .flatten()
        .min_by_key(|r| r.start)
}

/// Where "this" or "these" points at what the writer had in view: alone ("What is this?",
/// "this one", "the count of this") or before a noun that no name, "of" phrase or clause says
/// which ("this site", "When was this edict declared?"). On issue 67's people-written sets it
/// turns away 1 to 4 of 348 right lookups a seed, each an XQuAD question written beside its
/// passage ("Which French king issued this declaration?"), and catches most of the questions
/// whose name was replaced by "this". A capitalised "These" inside a question begins a title ("These Boots
/// Are Made for Walkin'"), and "this song that was inspired by …" or "This singer of …" says
/// which. It points back within the question, not at the page, in a second clause ("…, and
/// how does this approach differ") or before a noun said earlier ("which metrics …, and how
/// are these metrics chosen": other tools' generated sets).
fn demonstrative(question: &str, words: &Words) -> Option<Range<usize>> {
    let analyzer = Language::ENGLISH.analyzer();
    let function_word = |w: &str| analyzer.is_stopword(&fold(bare(w)));
    let tokens = crate::text::tokens(question);
    let stems: Vec<String> = tokens.iter().map(|t| analyzer.stem(&t.norm)).collect();
    let said_before = |at: usize, word: &str| {
        let stem = analyzer.stem(&fold(bare(word)));
        tokens
            .iter()
            .zip(&stems)
            .take_while(|(t, _)| t.byte < at)
            .any(|(_, s)| *s == stem)
    };
    tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            matches!(t.norm.as_str(), "this" | "these")
                && (*i == 0 || !t.raw.starts_with(char::is_uppercase))
                && !second_clause(&question[..t.byte])
        })
        .find_map(|(_, t)| {
            let end = t.byte + t.raw.len();
            let clause = question[end..]
                .split(['?', ',', ';', '!', ':'])
                .next()
                .unwrap_or("");
            let phrase: Vec<(usize, &str)> = spans_at(clause).collect();
            // Alone: the end of the clause, a function word or "one" comes next.
            let alone = phrase
                .first()
                .is_none_or(|(_, w)| function_word(w) || matches!(fold(bare(w)).as_str(), "one" | "ones"));
            if alone {
                return Some(t.byte..end);
            }
            let noun = phrase.iter().take_while(|(_, w)| !function_word(w)).count();
            let named = phrase[..noun]
                .iter()
                .any(|(_, w)| is_name(w) || said_before(t.byte, w));
            let said_which = phrase
                .get(noun)
                .is_some_and(|(_, w)| words.resolvers.contains(&fold(bare(w)).as_str()));
            let (at, last) = phrase[noun - 1];
            let phrase_end = end + at + last.len();
            (!named && !said_which).then_some(t.byte..phrase_end)
        })
}

/// Whether `before` ends inside a second clause joined by a comma and "and" or "or".
fn second_clause(before: &str) -> bool {
    [", and ", ", or ", "; and "]
        .iter()
        .any(|j| crate::text::contains_folded(before, j))
}

/// A definite description of a thing of the text, with its modifiers; the regexes of this
/// reading, built from `language`'s nouns ([`List::PointedNouns`]).
struct Descriptions {
    description: Regex,
    /// A noun of the list right at the start of a text.
    noun: Regex,
    /// A description by what a thing is for: "the file handling function".
    by_use: Regex,
}

fn descriptions(language: Language) -> Option<&'static Descriptions> {
    static RE: PerLanguage<Descriptions> = PerLanguage::new();
    RE.get(language, |language| {
        let nouns = language.list(List::PointedNouns)?.join("|");
        let re = |p: String| Regex::new(&p).expect("valid regex");
        Some(Descriptions {
            description: re(format!(
                r"(?i)\b(?P<det>the|this|that|these|those)\s+(?P<mods>(?:[\w`'.:-]+\s+){{0,2}}?)(?P<noun>{nouns})\b"
            )),
            noun: re(format!(r"(?i)^\s+({nouns})\b")),
            by_use: re(format!(
                r"(?i)\b(?P<det>the|this|that)\s+(?P<mods>[a-z]+\s+[a-z]{{3,}}ing\s+)(?P<noun>{nouns})\b"
            )),
        })
    })
}

/// "the following" and "the above" standing alone: a pointer at the text itself.
fn pointer_alone() -> &'static Regex {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(the|in the)\s+(following|above)\s*(\?|$|,|:)").expect("valid regex")
    });
    &RE
}

/// Where `question` names a thing of the text by a description nothing resolves (see the
/// module doc); `None` when every description is resolved, and in a language without this
/// reading's words ([`List::PointedNouns`] and the others of [`Words`]).
pub fn unresolved_reference(question: &str, language: Language) -> Option<Range<usize>> {
    let (words, re) = (Words::of(language)?, descriptions(language)?);
    if let Some(m) = pointer_alone().find(question) {
        return Some(m.range());
    }
    let unresolved = |c: regex::Captures<'_>| {
        let whole = c.get(0)?;
        let mut noun = c.name("noun")?.range();
        let mut mods = c.name("mods").map_or(0..0, |m| m.range());
        // "the two signal invocations": a noun qualifying another of the list is a modifier.
        while let Some(next) = re.noun.captures(&question[noun.end..]).and_then(|n| n.get(1)) {
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
        let pointer = |w: &str| words.pointers.contains(&fold(w).as_str());
        let pointed = spans(mods).next().is_some_and(pointer);
        let is_noun = |w: &str| words.nouns.iter().any(|n| n.eq_ignore_ascii_case(w));
        let named_before =
            spans(mods).any(|w| !(pointer(w) || (pointed && is_noun(w)))) && !says_its_use(mods);
        // A noun that only qualifies the next word ("the test flight") is no description.
        let named_after = after_noun(after, &words)?;
        (!named_before && !named_after).then(|| whole.start()..noun.end)
    };
    // "the file handling function" is read as "the file" qualifying the next word by the
    // first pattern, which then goes on after it; the second reads the whole description.
    let first = re.description.captures_iter(question).find_map(unresolved);
    let by_use = re.by_use.captures_iter(question).find_map(unresolved);
    [first, by_use].into_iter().flatten().min_by_key(|r| r.start)
}

/// Whether the words before the noun say what it is for, as a plain noun and a gerund do ("the
/// file handling function", "the error handling code"): a description of a job, which many
/// things of a page may do, not a name. One plain word ("the main function", "the parse
/// function") may be the name.
fn says_its_use(mods: &str) -> bool {
    let words: Vec<&str> = spans(mods).collect();
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

/// How the words after the noun bear on it: `Some(true)` they name it, `Some(false)` they leave
/// it unnamed, `None` the noun only qualifies the next word ("the test flight").
fn after_noun(after: &str, words: &Words) -> Option<bool> {
    let clause = after.split(['?', ',', ';', '!']).next().unwrap_or("");
    let Some(first) = spans(clause).next() else {
        return Some(false);
    };
    let lower = fold(first);
    if words.resolvers.contains(&lower.as_str()) || is_name(first) || purpose(clause, words) {
        return Some(true);
    }
    let word = first.chars().all(char::is_alphabetic);
    if word && !words.head_followers.contains(&lower.as_str()) {
        return None;
    }
    Some(false)
}

/// Whether the words after the noun open with an infinitive of purpose that says which one it
/// is: a verb and what it acts on ("the command to set a new passphrase", "the option to skip
/// hooks"), not "to" before a noun phrase ("the error to the caller") nor a verb alone ("the
/// command to run again").
fn purpose(clause: &str, words: &Words) -> bool {
    let folded: Vec<String> = spans(clause).map(fold).collect();
    let [to, verb, rest @ ..] = folded.as_slice() else {
        return false;
    };
    // The phrase ends where the question's own verb comes ("… to run again do?").
    let acts_on = rest
        .iter()
        .take_while(|w| !words.phrase_enders.contains(&w.as_str()))
        .any(|w| !words.no_object.contains(&w.as_str()));
    to == "to"
        && verb.chars().all(|c| c.is_ascii_lowercase())
        && !words.not_a_verb.contains(&verb.as_str())
        && acts_on
}

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
            // Demonstratives: alone, or before a noun nothing says which.
            ("What is this?", "this"),
            ("Who did the Normans team up with in this?", "this"),
            ("When did this one broaden his attacks?", "this"),
            ("What laws apply to records generated on this site?", "this site"),
            ("When was this edict declared?", "this edict declared"),
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
            "This singer of A Rather Blustery Day also voiced what hedgehog?",
            "Who was the writer of These Boots Are Made for Walkin' and who died in 2007?",
            "Who is the writer of this song that was inspired by words on a tombstone?",
            "What does this Flask app return on a 404?",
            "Which metrics does Ragas provide, and how do you configure these metrics?",
            "Which specialized metrics does Ragas provide and how do these metrics address it?",
            "How can a judge be added to a pipeline, and what are the key steps in this process?",
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
