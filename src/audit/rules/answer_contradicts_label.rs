//! RS508 `answer-contradicts-label`: the reference answer restates what its label says is not so.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::AnswerFault;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS508",
    name: "answer-contradicts-label",
    summary: "The reference answer restates a clause its label calls an appearance, denies or rejects",
    doc: "\
**What it flags**: a case whose reference `answer` restates a clause of its labels' text that
follows \"looks like\", \"seems\", \"appears to\" (an appearance), \"not\", \"no\", \"never\" (a
denial) or \"instead of\", \"rather than\", \"unlike\" (a rejected alternative): two of the
answer's content words, or one of its numbers, stand in that clause and nowhere else in the
label, and the answer shares more with the clause than with the rest. An answer or question that
carries the cue itself (\"No, they are not merged\", \"What are pharmacists forbidden to do?\")
is not flagged, nor is a concession (\"although X, Y\" states X). English cues only; other languages pass. `generate` turns the same answers away as
`answer_contradicts_label`.

**Why it matters**: the reference answer is wrong, and wrong in the way a reader skimming the
label would be: a system that reads the label correctly is scored as failing.

**Example**: \"What happens when you concatenate two strings in Rust?\" answered \"The result
is a new string that contains the contents of both original strings\", labelled \"... although
let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement
actually takes ownership of s1 ...\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    match super::answer_fault(input) {
        Some(AnswerFault::Contradicts { cue, clause }) => Some(Hit::new(format!(
            "its label says \"{cue} {clause}\"; the answer restates it as so"
        ))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_an_answer_its_label_denies_and_not_the_true_one() {
        let quote = "Forgetting a snapshot looks like it frees its disk space at once, but the space is actually released by the next prune.";
        let mut wrong = labelled(
            "When is disk space freed after forgetting a snapshot?",
            "prune.md",
            quote,
        );
        wrong.answer = Some("It frees the disk space at once".into());
        assert!(
            flags(check, &wrong).starts_with("its label says \"looks like it frees its disk space at once\"")
        );
        wrong.answer = Some("At the next prune".into());
        passes(check, &wrong);
        let quote = "The archive tier of Tidepool is called Glacier Vault and keeps data for ten years.";
        let mut right = labelled("How long does the archive tier keep data?", "retention.md", quote);
        right.answer = Some("ten years".into());
        passes(check, &right);
        let mut c = labelled(
            "How long are snapshots kept on the Team plan?",
            "billing.md",
            "The Team plan costs 8 euros per user and month.",
        );
        c.answer = Some("8 euros".into());
        passes(check, &c);
    }
}
