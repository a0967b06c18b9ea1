//! RS507 `answer-not-in-label`: the answer names a number, code or name its labels do not hold, or most of its words are elsewhere.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS507",
    name: "answer-not-in-label",
    summary: "The answer names a number, code or name its labels do not hold, or most of its words are elsewhere",
    doc: "\
**What it catches**: an answer with a number, code, quoted string or name its labels' text
lacks, or (short answers) most of whose content words are not in the labels; each sentence of a
generated answer is held alone.

**Why such a case is not right for a test set**: a reference answer the labelled passage does
not support is scored as truth against the system.

**Example**: \"backups are kept 90 days\" labelled with \"kept for 30 days\"

**Known false alarm**: an answer that converts units or paraphrases a number in words.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::answer_fault(a, super::Check::AnswerNotInLabel)
}
