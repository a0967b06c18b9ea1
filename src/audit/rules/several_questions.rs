//! RS204 `several-questions`: two or more questions in one case.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS204",
    name: "several-questions",
    summary: "The case asks two or more questions at once",
    doc: "\
**What it flags**: a question containing more than one `?` with words between them, or a
`?` followed by \"and\" / \"also\" and another question word.

**Why it matters**: one reference answer cannot grade two questions; a system that answers
one half is scored as wrong, and the case does not test one retrieval need.

**Example**: \"How long are snapshots kept? And can they be restored to another region?\"",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let q = input.case.question.trim();
    let parts: Vec<&str> = q
        .split(['?', '？'])
        .map(str::trim)
        .filter(|p| crate::text::words(p).len() >= 2)
        .collect();
    (parts.len() >= 2).then(|| Hit::new(format!("asks {} questions in one", parts.len())))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_two_questions_in_one_and_not_a_single_one() {
        let two = case("How long are snapshots kept? And can they be restored to another region?");
        assert_eq!(on_case(check, &two).unwrap().message, "asks 2 questions in one");
        assert!(on_case(check, &case("How long are snapshots kept?")).is_none());
    }
}
