//! RS512 `answer-stitched`: a short reference answer joins words its label says apart.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::AnswerFault;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS512",
    name: "answer-stitched",
    summary: "A short reference answer is made of its label's words taken from places apart, loops, or stops mid-phrase",
    doc: "\
**What it flags**: a case whose reference `answer` has at most eight content words, each word
standing in the labelled text in the same order, but taken from three places or more: in two or
more places between them the label says a content word (not the question's) that the answer
drops. Leaving out one stretch is a shortening and passes. Link targets and web addresses are
not counted. A one-sentence answer of any length that says a run of four content words twice
(a model that looped) is flagged too, unless its label says the run twice, and so is an
answer of three words or more that stops on a word waiting for more (\"the\", \"of\", \"and\",
\"to\": \"… on the command line to skip the\"), or that, itself a list, stops where its
label's list goes on (\"… and values for choice\" of \"…, file, and path parameter types\");
these three only in one-sentence answers. So is a one-sentence answer of up to thirty words
made of two runs of its label with
two to eight words cut between them up to \"with\", \"to\", \"by\", \"from\", \"into\" or \"onto\":
what followed the preposition becomes the object of the word before the cut (\"Override the
operator symbols you want to intercept\" of \"Override `…intercepted_binops` and
`…intercepted_unops` with the operator symbols you want to intercept\"). `generate` turns the
same answers away as `answer_stitched`.

**Why it matters**: the answer reads like the label but says neither of the clauses it was cut
from; a reviewer has to rewrite it, and a system that answers in the label's words is scored
against a phrase nobody wrote.

**Example**: \"How should user support issues be closed?\" answered \"author or resolved
manner\", labelled \"… best closed by the author or when it's clear the issue has been resolved
in some sort of manner\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    match super::answer_fault(input) {
        Some(
            fault @ (AnswerFault::Stitched { .. }
            | AnswerFault::Repeats { .. }
            | AnswerFault::CutShort { .. }),
        ) => Some(Hit::new(fault.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_an_answer_spread_over_its_label_and_not_a_part_of_it() {
        let quote = "Install the agent with apt and open port 8750 on the server.";
        let mut spread = labelled("What does the install page say to do?", "install.md", quote);
        spread.answer = Some("Install agent open server".into());
        assert_eq!(
            flags(check, &spread),
            "the answer joins words its label says apart: \"Install the agent with apt and open port 8750 on the server\""
        );
        let mut part = spread.clone();
        part.answer = Some("install the agent with apt".into());
        passes(check, &part);
    }
}
