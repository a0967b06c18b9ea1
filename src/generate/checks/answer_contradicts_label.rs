//! RS508 `answer-contradicts-label`: the answer restates what its label calls an appearance, denies or rejects.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS508",
    name: "answer-contradicts-label",
    summary: "The answer restates what its label calls an appearance, denies or rejects",
    doc: "\
**What it catches**: an answer that repeats a clause its label marks as only seeming so, negated
or rejected (\"looks like …, actually …\").

**Why such a case is not right for a test set**: the reference answer says the opposite of its
source.

**Example**: \"it copies both strings\" of \"looks like it will copy both strings … actually takes
ownership\"

**Known false alarm**: an answer quoting the appearance on purpose (\"it looks like a copy\").",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::answer_fault(a, super::Check::AnswerContradictsLabel)
}
