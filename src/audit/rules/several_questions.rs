//! RS204 `several-questions`: two or more questions in one case.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS204",
    name: "several-questions",
    summary: "The case asks two or more questions at once",
    doc: "\
**What it flags**: a question with two or more parts of at least two words between its
question marks: a second question, or more text running on after the first (`generate` turns
the same away as `several_questions`).

**Why it matters**: one reference answer cannot grade two questions; a system that answers
one half is scored as wrong, and the case does not test one retrieval need.

**Example**: \"How long are snapshots kept? And can they be restored to another region?\"",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let n = crate::wording::form::questions_asked(&input.case.question);
    (n >= 2).then(|| Hit::new(format!("asks {n} questions in one")))
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
