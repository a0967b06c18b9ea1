//! RS509 `answers-another-question`: lLM judge: answering the question from its label gives another answer.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS509",
    name: "answers-another-question",
    summary: "LLM judge: answering the question from its label gives another answer",
    doc: "\
**What it catches**: the answers judge copies what the label says to the question, and the
reference answer does not agree with it. Runs only where the judge is calibrated for the model
in use (κ ≥ 0.6).

**Why such a case is not right for a test set**: an answer taken from the neighbouring clause of
the right sentence is wrong however many label words it shares.

**Example**: \"How did Jonas pay for the Team plan?\" → \"by deleting the wrong folder\"

**Known false alarm**: a judge that copies too little of a long answer.",
    kinds: &[Kind::Lookup, Kind::Identifier],
    reads: Reads::Any,
    stage: Stage::Judge,
    audit: true,
    action: Action::Reject,
    question: None,
    case: None,
};
