//! An answer about the asked thing's absence: "What does --exclude do?" answered "If --exclude
//! is not set, Black will automatically ignore files in .gitignore". Every word stands in the
//! fact, and the fact is true; but it says what happens without the option, not what the option
//! does. Documentation states defaults this way, next to the option, so a fact that holds the
//! option's name often says only that.

use std::sync::LazyLock;

use regex::Regex;

use super::AnswerFault;
use crate::lang::Language;

/// Checks that an English `claim` does not open on the absence of what `question` asks about
/// while the question does not ask about its absence. Other languages pass.
pub(super) fn not_about_absence(question: &str, claim: &str, language: Language) -> Result<(), AnswerFault> {
    // "If X is not set", "When X isn't given", "Unless X is passed", "Without X".
    static ABSENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:(?:if|when|where)\s+(?P<a>[^,;.]{1,60}?)\s+(?:is|are|was|were)\s*(?:not|n't)\s+(?:set|given|specified|used|passed|provided|present|enabled|configured|defined|supplied)\b|unless\s+(?P<b>[^,;.]{1,60}?)\s+(?:is|are)\s+(?:set|given|specified|used|passed|provided|enabled|configured|defined|supplied)\b|without\s+(?P<c>[^,;.]{1,60}?)\s*[,;]|no\s+(?P<d>[^,;.]{1,60}?)\s+(?:is|are)\s+(?:set|given|specified|passed|provided)\b)",
        )
        .expect("valid regex")
    });
    // The question asks about the absence or the default itself.
    static ASKS_ABSENCE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:not|no|without|unless|unset|omit\w*|missing|absent|default\w*|\w+n't)\b")
            .expect("valid regex")
    });
    if language != Language::ENGLISH || ASKS_ABSENCE.is_match(question) {
        return Ok(());
    }
    let Some(c) = ABSENT.captures(claim) else {
        return Ok(());
    };
    let Some(subject) = ["a", "b", "c", "d"].iter().find_map(|n| c.name(n)) else {
        return Ok(());
    };
    // The absent thing must be what the question names ("--exclude"), not something else
    // ("If no files are given, Black reads stdin" answers "What does Black read?").
    let words = language.analyzer();
    let asked = words.content_terms(question);
    let named = words
        .content_terms(subject.as_str())
        .iter()
        .any(|t| asked.contains(t));
    if !named {
        return Ok(());
    }
    Err(AnswerFault::AboutAbsence {
        condition: c
            .get(0)
            .map_or("", |m| m.as_str())
            .trim()
            .trim_end_matches([',', ';'])
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: Language = Language::ENGLISH;

    #[test]
    fn what_happens_without_the_asked_option_does_not_say_what_it_does() {
        let answer = "If --exclude is not set, _Black_ will automatically ignore files and directories in .gitignore file(s), if present";
        assert_eq!(
            not_about_absence("what does --exclude do", answer, EN),
            Err(AnswerFault::AboutAbsence {
                condition: "If --exclude is not set".into()
            })
        );
        let answer = "Without --keep, restore overwrites existing files";
        assert!(not_about_absence("What does --keep do?", answer, EN).is_err());
    }

    #[test]
    fn a_question_about_the_absence_or_about_something_else_passes() {
        let answer = "If --exclude is not set, Black ignores the files in .gitignore";
        assert_eq!(
            not_about_absence("what happens if --exclude is not set", answer, EN),
            Ok(())
        );
        assert_eq!(
            not_about_absence("what does Black exclude by default", answer, EN),
            Ok(())
        );
        // The condition is about something the question does not name.
        let answer = "If files are not given, Black reads from standard input";
        assert_eq!(
            not_about_absence("What does Black read from?", answer, EN),
            Ok(())
        );
        // A condition of presence is what the option does.
        let answer = "If --exclude is set, Black skips the matching paths";
        assert_eq!(not_about_absence("what does --exclude do", answer, EN), Ok(()));
    }
}
