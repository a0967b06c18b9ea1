//! RS504 `corpus-answers`: lLM judge: the passages keyword search finds for an unanswerable question answer it.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS504",
    name: "corpus-answers",
    summary: "LLM judge: the passages keyword search finds for an unanswerable question answer it",
    doc: "\
**What it catches**: the answerability judge, shown the top chunks for the question, finds an
answer. Runs only where calibrated for the model in use.

**Why such a case is not right for a test set**: an \"unanswerable\" case the corpus answers
punishes a system for answering correctly.

**Example**: \"What port does the agent use?\" when the reference page gives it

**Known false alarm**: a judge that answers from world knowledge.",
    kinds: &[Kind::Unanswerable],
    reads: Reads::Any,
    stage: Stage::Judge,
    audit: true,
    action: Action::Reject,
    question: None,
    case: None,
};
