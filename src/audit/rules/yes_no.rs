//! RS202 `yes-no`: a question answered by yes or no.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS202",
    name: "yes-no",
    summary: "The question opens with an auxiliary verb and is answered by yes or no",
    doc: "\
**What it flags**: a question that opens with an auxiliary or modal verb (is, are, does, do,
can, will, should, has, ...) and contains no \"or\" offering alternatives. A polite request
(\"Can you explain ...\", \"Could you tell me ...\", \"Would you describe ...\") is not one:
it asks for an explanation, not for yes or no.

**Why it matters**: a yes/no reference answer is right half the time by chance, so answer
metrics on it say little; and generators produce them from any sentence by inverting it.

**Example**: \"Does Tidepool encrypt backups at rest?\"",
    severity: Severity::Info,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "will", "would", "should",
    "shall", "has", "have", "had", "may", "might", "must", "isn", "aren", "doesn", "don", "didn", "can't",
    "cannot", "won",
];

/// Verbs that make "Can you ...?" a request for something, not a question about ability.
const REQUESTS: &[&str] = &[
    "tell",
    "explain",
    "elaborate",
    "describe",
    "provide",
    "give",
    "list",
    "share",
    "clarify",
    "outline",
    "summarize",
    "summarise",
    "help",
    "walk",
    "show",
    "detail",
    "expand",
    "discuss",
    "identify",
    "name",
    "compare",
    "define",
    "break",
    "suggest",
    "recommend",
    "specify",
    "point",
    "highlight",
    "enumerate",
    "illustrate",
    "guide",
    "let",
    "offer",
    "present",
    "walkthrough",
    "go",
    "shed",
    "know",
];

/// [`is_yes_no`] for a question in `language` (see [`crate::lang::questions`]).
pub(crate) fn is_yes_no_in(question: &str, language: crate::lang::Language) -> bool {
    match crate::lang::questions::wording(language) {
        _ if language == crate::lang::Language::ENGLISH => is_yes_no(question),
        Some(w) => w.is_yes_no(question),
        None => false,
    }
}

/// True when `question` reads as a yes/no question.
pub(crate) fn is_yes_no(question: &str) -> bool {
    let words = crate::text::words(question);
    let Some(first) = words.first() else { return false };
    AUXILIARIES.contains(&first.as_str()) && !words.iter().any(|w| w == "or") && !is_request(&words)
}

/// "Can you elaborate on ...", "Could you please tell me ...", "May I know ...": a modal,
/// "you" (or "I" with know / get / have), then a request verb.
fn is_request(words: &[String]) -> bool {
    let rest: Vec<&str> = words[1..]
        .iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "please" | "kindly" | "also" | "briefly"))
        .collect();
    match rest.as_slice() {
        ["you", verb, ..] => REQUESTS.contains(verb),
        ["i", "know" | "get" | "have" | "ask" | "see", ..] => true,
        _ => false,
    }
}

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    is_yes_no_in(&input.case.question, input.language).then(|| Hit::new("answered by yes or no"))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, flags, passes};
    use super::*;

    #[test]
    fn flags_an_auxiliary_opening_and_not_alternatives_or_wh_questions() {
        assert_eq!(
            flags(check, &case("Does Tidepool encrypt backups?")),
            "answered by yes or no"
        );
        passes(check, &case("Is the archive kept in Europe or in the US?"));
        passes(check, &case("How does Tidepool encrypt backups?"));
        passes(
            check,
            &case("Can you elaborate on how Tidepool encrypts backups?"),
        );
        passes(
            check,
            &case("Could you please tell me which plan keeps snapshots longest?"),
        );
        passes(check, &case("May I know the retention period of the free plan?"));
        flags(check, &case("Can you restore a snapshot after prune?"));
        flags(check, &case("Do you keep backups in Europe?"));
    }
}
