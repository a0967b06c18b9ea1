//! RS507 `answer-not-in-label`: the reference answer names what its labelled text does not say.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::AnswerFault;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS507",
    name: "answer-not-in-label",
    summary: "The reference answer names a number, code or name its labels do not hold, or most of its words are elsewhere",
    doc: "\
**What it flags**: a case with a reference `answer` and labels, where a number, a code or option
(`api.token_ttl`, `--overwrite`, `TP-412`), a quoted string or a name of the answer is not in
the labels' text, or where more than half of a short answer's content words (two to eight,
words of the question aside) are not, or where a part of a one-sentence English answer
between commas brings words of its own that the labels lack: two or more in an answer of up to
twenty words, three or more in a longer one, and two in three of the part's own words either way (\"…, which
means the user is logged out or the session has expired\"). A leading \"Yes\" or \"No\" is set
apart; English number words count as their digits (\"thirty days\" holds \"30 days\"). Lexical:
no model. `generate` turns the same
answers away as `answer_not_in_label`.

**Why it matters**: a reference answer its evidence does not hold was made up, or taken from
another passage: a system that answers from the labelled text is scored wrong, and the label
does not mark where the answer is.

**Example**: \"What is an example of the bad state in error handling?\" answered \"user entering
data in the wrong format\", labelled \"We'll work through an example of what we mean in
'Encoding States and Behavior as Types' in Chapter 18.\"",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    match super::answer_fault(input) {
        Some(AnswerFault::NotInFact { missing }) => Some(Hit::new(format!(
            "the answer says \"{missing}\", which its label does not"
        ))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_an_answer_its_label_lacks_and_not_one_it_holds() {
        let quote = "Snapshots are kept for 30 days on the free plan.";
        let mut made_up = labelled("How long are snapshots kept?", "retention.md", quote);
        made_up.answer = Some("90 days".into());
        assert_eq!(
            flags(check, &made_up),
            "the answer says \"90\", which its label does not"
        );
        let mut right = made_up.clone();
        right.answer = Some("thirty days".into());
        passes(check, &right);
        right.answer = Some("No.".into());
        passes(check, &right);
    }
}
