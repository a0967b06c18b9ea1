//! RS513 `answer-about-absence`: answers what a thing does with what happens without it.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS513",
    name: "answer-about-absence",
    summary: "Answers what a thing does with what happens without it",
    doc: "\
**What it catches**: \"What does --exclude do?\" → \"If --exclude is not set, …\".

**Why such a case is not right for a test set**: the answer describes the default, not the thing
asked.

**Example**: \"What does --exclude do?\" → \"If --exclude is not set, all files are read\"

**Known false alarm**: a question about what the default is.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::answer_fault(a, super::Check::AnswerAboutAbsence)
}
