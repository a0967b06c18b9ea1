//! The form of a question, in its language: how long it is, what it opens with, whether yes or
//! no answers it, how many questions it asks. One table read by `generate` (which turns away what
//! is not a question) and by the audit (RS201 `too-short`, RS202 `yes-no`, RS203
//! `not-a-question`, RS204 `several-questions`), so the two cannot disagree on what a question
//! is. English is read here; the other languages' words are in [`crate::lang::questions`].

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::lang::{Language, List, questions};

/// The words the form of a question is read by ([`List`]): English's. A language without them
/// is read by its table in [`questions`], if it has one.
struct Words {
    interrogatives: &'static [&'static str],
    auxiliaries: &'static [&'static str],
    imperatives: &'static [&'static str],
    prepositions: &'static [&'static str],
    requests: &'static [&'static str],
}

impl Words {
    fn of(language: Language) -> Option<Words> {
        Some(Words {
            interrogatives: language.list(List::Interrogatives)?,
            auxiliaries: language.list(List::Auxiliaries)?,
            imperatives: language.list(List::Imperatives)?,
            prepositions: language.list(List::QuestionPrepositions)?,
            requests: language.list(List::Requests)?,
        })
    }
}

/// Fewest words a question needs: RS201's default, and `generate` turns away shorter ones.
pub const MIN_WORDS: usize = 3;

/// Most words a generated question may have (a paragraph, not a question).
pub const MAX_WORDS: usize = 40;

/// Most words of a search query: more is a sentence.
pub const MAX_QUERY_WORDS: usize = 10;

/// True when `question` opens the way a question does, with or without its question mark: a
/// question word (after a preposition or not), an auxiliary ("Is ...", "Can you explain ..."),
/// or a request ("Explain ..."). In another language, its question words and requests; in a
/// language with no table ([`questions::readable`]), never.
pub fn opens_question(question: &str, language: Language) -> bool {
    let Some(form) = Words::of(language) else {
        return questions::wording(language).is_some_and(|w| w.opens_question(question));
    };
    let words = crate::text::words(question);
    let opener = |w: &String| {
        let w = w.as_str();
        form.interrogatives.contains(&w) || form.auxiliaries.contains(&w) || form.imperatives.contains(&w)
    };
    match words.as_slice() {
        [first, ..] if opener(first) => true,
        [first, second, ..] => {
            form.prepositions.contains(&first.as_str()) && form.interrogatives.contains(&second.as_str())
        }
        _ => false,
    }
}

/// True when `question` reads as a yes/no question. English: it opens with an auxiliary, offers
/// no alternatives ("or") and is not a polite request ("Can you explain ..."). Another language:
/// see [`questions::Wording::is_yes_no`]; a language with no table: never.
pub fn is_yes_no(question: &str, language: Language) -> bool {
    let Some(form) = Words::of(language) else {
        return questions::wording(language).is_some_and(|w| w.is_yes_no(question));
    };
    let words = crate::text::words(question);
    let Some(first) = words.first() else { return false };
    form.auxiliaries.contains(&first.as_str())
        && !words.iter().any(|w| w == "or")
        && !is_request(&words, &form)
}

/// "Can you elaborate on ...", "Could you please tell me ...", "May I know ...": a modal,
/// "you" (or "I" with know / get / have), then a request verb.
fn is_request(words: &[String], form: &Words) -> bool {
    let rest: Vec<&str> = words[1..]
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "please" | "kindly" | "also" | "briefly"))
        .collect();
    match rest.as_slice() {
        ["you", verb, ..] => form.requests.contains(verb),
        ["i", "know" | "get" | "have" | "ask" | "see", ..] => true,
        _ => false,
    }
}

/// How many questions `question` asks: its parts between question marks that hold two words or
/// more. Two is two questions in one ("What is X? How does it affect Y?") or a question that
/// runs on ("... ? The answer is ...").
pub fn questions_asked(question: &str) -> usize {
    question
        .trim()
        .split(['?', '？'])
        .filter(|p| crate::text::words(p).len() >= 2)
        .count()
}

/// Where `question` (English; `None` in another language) joins a second question to the first with "and": "What is the
/// meaning of exit code 5 and how can I fix it", "Which plan includes SSO, and what does it
/// cost?" — the byte range of "and" and the question word after it. Two lookups joined this
/// way are not a multi-hop question: either passage answers half (RS511; `generate` turns such
/// a multi-hop away as `joined_questions`). "The difference between the Team plan and what
/// Business adds" asks one thing: the question word must open a clause with an auxiliary or a
/// modal right after it or one word later, or be "how many/much/long/often/far".
pub fn joined_question(question: &str, language: Language) -> Option<Range<usize>> {
    if language != Language::ENGLISH {
        return None;
    }
    static JOINED: OnceLock<Regex> = OnceLock::new();
    let re = JOINED.get_or_init(|| {
        Regex::new(
            r"(?i)\band\s+(what|how|which|where|when|why|who|whom|whose)\s+((is|are|was|were|do|does|did|can|could|should|would|will|has|have|must|may)\b|(many|much|long|often|far)\b|\w+\s+(is|are|was|were|do|does|did|can|could|should|would|will|has|have)\b|\w+(s|ed)\s+(it|them|this|that|these|those)\b)",
        )
        .expect("valid regex")
    });
    // After a comma, "and" and a question word open a second question whatever follows
    // ("…, and who ruined Roussel's plans?", "…, and define pareto chart"): none of 760
    // people-written right questions (issue 67's sets) has it, a relative clause has no comma
    // before its "and who" ("the writer of … and who died in 2007").
    let form = Words::of(language)?;
    let after_comma = || {
        let tokens = crate::text::tokens(question);
        tokens.windows(2).find_map(|w| {
            let (and, asks) = (&w[0], &w[1]);
            let comma = question[..and.byte].trim_end().ends_with(',');
            let opener = form.interrogatives.contains(&asks.norm.as_str())
                || form.imperatives.contains(&asks.norm.as_str());
            (and.norm == "and" && comma && opener).then(|| and.byte..asks.byte + asks.raw.len())
        })
    };
    let m = re.find(question).map(|m| m.range()).or_else(after_comma)?;
    // A first question must stand before it.
    (crate::text::words(&question[..m.start]).len() >= 3).then_some(m)
}

/// True when `question` is marked as one: it ends in a question mark (any script's; closing
/// quotes and brackets after it aside), or opens with "¿" ("¿Podrías explicarme ...? Me gustaría
/// saber ..." asks, though a request runs on after it: RS204's finding). "The answer to the
/// question 'How do I back up?'," only talks about a question.
pub fn asks(question: &str) -> bool {
    let q = question.trim();
    q.starts_with('¿')
        || q.trim_end_matches(['"', '\'', ')', ']', '»', '\u{201d}', '\u{2019}'])
            .ends_with(['?', '？'])
}

/// True when `question` reads as a question: it is marked as one ([`asks`]) or opens like one
/// ([`opens_question`]). `generate` turns away what does not; RS203 flags it unless it is a
/// search query.
pub fn reads_as_question(question: &str, language: Language) -> bool {
    asks(question) || opens_question(question, language)
}

/// True when `query` reads as what a user types into a search box: [`MIN_WORDS`] to
/// [`MAX_QUERY_WORDS`] words on one line, no full stop at the end, and a question or bare
/// keywords without an auxiliary verb ("agent schedule default", "tide exit code 4 meaning").
/// "Snapshots are kept for thirty days" is a statement. `generate` writes such queries for a
/// set whose real questions are keywords; RS203 leaves them alone.
pub fn reads_as_query(query: &str, language: Language) -> bool {
    let q = query.trim();
    let n = crate::text::word_count(q);
    (MIN_WORDS..=MAX_QUERY_WORDS).contains(&n)
        && !q.contains('\n')
        && !q.ends_with('.')
        && (reads_as_question(q, language) || crate::style::is_keywords(q, language))
}

/// True when an English `question` ends on an option or a lower-case code name taken for a
/// kind of thing, "a" or "an" before it and nothing after ("what is the syntax for running a
/// --reload", "what is a `conda`"): each names one thing, and a question taking it for a kind
/// is a small model's garbling. "a `Blueprint`" (a class, made many times) and "a --reload
/// flag" stay.
pub fn code_as_a_kind(question: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\b[Aa]n?\s+(--[A-Za-z0-9][\w-]*|`[a-z_][^`\s]*`)\s*[?.!]?\s*$").expect("valid regex")
    })
    .is_match(question.trim())
}

/// Whether `question` says a run of two to four words twice in a row. Where a description or
/// a made-up name took a thing's place, its last words ran into the same words after it: TREC
/// DL 2020's "what was the type of rifle that the new trigger is designed for designed for"
/// (a bridge described as "the rifle the new trigger is designed for") and the unanswerable
/// "when did the international Alpine Hall of Fame of fame add new photos" (`generate`'s
/// question and keyword checks turn it away as `repeats_itself`, the audit flags it as RS210). A word said twice
/// ("that that") is English; a run said twice is not: of the 4,053 real questions in
/// `../shared/data` (TREC DL, HotpotQA, SQuAD, XQuAD en/de/es, the sample's), one has it, a
/// city named with its state ("what county is new york new york in?").
pub fn stutters(question: &str) -> bool {
    let w = crate::text::words(question);
    (2..=4).any(|n| w.len() >= 2 * n && (0..=w.len() - 2 * n).any(|i| w[i..i + n] == w[i + n..i + 2 * n]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: Language = Language::ENGLISH;

    #[test]
    fn a_run_said_twice_in_a_row_stutters_and_a_word_said_twice_does_not() {
        assert!(stutters(
            "what was the type of rifle that the new trigger is designed for designed for"
        ));
        assert!(stutters(
            "when did the international Alpine Hall of Fame of fame add new photos"
        ));
        assert!(stutters("what does the restore the restore command overwrite"));
        assert!(
            !stutters("how do I set the the retry limit limit"),
            "single words said twice"
        );
        for fine in [
            "is it true that that flag is deprecated",
            "what is the difference between --include and --exclude",
            "how many times does a job retry, and how long does it wait each time",
            "what is the Hall of Fame's address",
        ] {
            assert!(!stutters(fine), "{fine}");
        }
    }

    #[test]
    fn an_option_or_code_name_is_no_kind_of_thing() {
        for q in ["what is the syntax for running a --reload", "what is a `conda`?"] {
            assert!(code_as_a_kind(q), "{q}");
        }
        for q in [
            "how do I register a `Blueprint`?",
            "what does a --reload flag do",
            "what does --reload do",
            "what is a conda environment",
            "is `conda` a package manager?",
        ] {
            assert!(!code_as_a_kind(q), "{q}");
        }
    }

    #[test]
    fn a_search_query_is_keywords_or_a_question_and_no_sentence() {
        for q in [
            "agent schedule default",
            "tide exit code 4 meaning",
            "restore overwrite existing files by default?",
            "why docopt click",
        ] {
            assert!(reads_as_query(q, EN), "{q}");
        }
        for q in [
            "schedule default",
            "Snapshots are kept for thirty days",
            "Tidepool stores snapshots in the archive tier.",
            "backup agent schedule default cron expression local time nightly run window",
        ] {
            assert!(!reads_as_query(q, EN), "{q}");
        }
    }

    #[test]
    fn two_questions_joined_by_and_are_told_from_one() {
        for q in [
            "what is the meaning of exit code 5 and how can I fix it",
            "Which plan includes SSO, and what does it cost?",
            "What are the environment variables used to override settings, and what is the default output format for the CLI?",
            "Who founded the company and how many employees does it have?",
            // The demo's multi-hop of 2026-12-02: a verb of its own, then a pronoun.
            "what is the meaning of exit code 5 and what causes it",
            // After a comma, any question word.
            "When did Robert Crispin go up against the Turks, and who ruined Roussel's plans?",
            "when did rock n roll begin, and define laudable",
        ] {
            assert!(joined_question(q, EN).is_some(), "{q}");
        }
        for q in [
            "What is the difference between the Team plan and what Business adds?",
            "How long are snapshots kept and restored?",
            "Which command lists snapshots and prunes old ones?",
            "and how does it work?",
            "Who was the writer of These Boots Are Made for Walkin' and who died in 2007?",
        ] {
            assert_eq!(joined_question(q, EN), None, "{q}");
        }
    }

    #[test]
    fn questions_open_with_a_question_word_an_auxiliary_or_a_request() {
        for q in [
            "How long are snapshots kept",
            "Can you explain how snapshots are kept",
            "Is the archive kept in Europe or in the US",
            "Explain how snapshots are kept",
            "In which year was the archive tier added",
            "Must the agent run as root",
        ] {
            assert!(opens_question(q, EN), "{q}");
        }
        for q in [
            "Snapshots are kept for thirty days",
            "In the archive tier data stays ten years",
            "",
        ] {
            assert!(!opens_question(q, EN), "{q}");
        }
        let es = Language::parse("es").unwrap();
        assert!(opens_question("Cuándo se fundó la universidad", es));
        assert!(!opens_question("La universidad se fundó en 1850", es));
        assert!(!opens_question(
            "Как долго хранятся снимки",
            Language::parse("ru").unwrap()
        ));
    }

    #[test]
    fn yes_no_is_an_auxiliary_without_alternatives_or_a_request() {
        assert!(is_yes_no("Does Tidepool encrypt backups?", EN));
        assert!(is_yes_no("Can you restore a snapshot after prune?", EN));
        assert!(!is_yes_no("Is the archive kept in Europe or in the US?", EN));
        assert!(!is_yes_no(
            "Can you elaborate on how Tidepool encrypts backups?",
            EN
        ));
        assert!(!is_yes_no(
            "May I know the retention period of the free plan?",
            EN
        ));
        assert!(!is_yes_no("How does Tidepool encrypt backups?", EN));
        assert!(is_yes_no(
            "¿El plan gratuito incluye copias de seguridad?",
            Language::parse("es").unwrap()
        ));
    }

    #[test]
    fn questions_are_counted_between_question_marks() {
        assert_eq!(questions_asked("How long are snapshots kept?"), 1);
        assert_eq!(questions_asked("What is X? How does it affect Y?"), 2);
        assert_eq!(questions_asked("How do I back up? Use dumps."), 2);
        assert_eq!(questions_asked("Really? How long are snapshots kept?"), 1);
        assert!(asks("快照保存多久？") && !asks("Snapshots are kept"));
        assert!(asks("¿Podrías explicarme qué es? Me gustaría saber más."));
        assert!(asks("Is it \"on\"?)") && !asks("The answer to the question 'How do I back up?',"));
    }
}
