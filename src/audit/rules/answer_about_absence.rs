//! RS513 `answer-about-absence`: the reference answer says what happens without the thing asked about.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::AnswerFault;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS513",
    name: "answer-about-absence",
    summary: "The reference answer says what happens without the thing the question asks about",
    doc: "\
**What it flags**: an English case whose reference `answer` opens on the absence of something
the question names (\"If --exclude is not set, …\", \"Without --keep, …\", \"Unless X is
given, …\") while the question does not ask about an absence or a default (no \"not\",
\"without\", \"default\", …). `generate` turns the same answers away as `answer_about_absence`.

**Why it matters**: documentation states an option's default next to the option, so a label that
holds the option's name often says only what happens without it. The answer is true and
answers another question: a system that says what the option does is scored wrong.

**Example**: \"What does --exclude do?\" answered \"If --exclude is not set, Black will
automatically ignore files and directories in .gitignore file(s)\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    match super::answer_fault(input) {
        Some(fault @ AnswerFault::AboutAbsence { .. }) => Some(Hit::new(fault.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_an_answer_about_the_option_left_out_unless_that_is_asked() {
        let quote = "Snapshots are kept for 30 days on the free plan.";
        let mut case = labelled("What does Glacier Vault do?", "retention.md", quote);
        case.answer = Some("Without Glacier Vault, snapshots are kept for 30 days".into());
        assert_eq!(
            flags(check, &case),
            "the answer says what happens \"Without Glacier Vault\", not what was asked"
        );
        let mut asked = case.clone();
        asked.question = "How long are snapshots kept without Glacier Vault?".into();
        passes(check, &asked);
    }
}
