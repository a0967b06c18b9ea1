//! RS510 `answer-points-outside`: a short answer points at what it does not name, or only names a cross-reference or links.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS510",
    name: "answer-points-outside",
    summary: "A short answer points at what it does not name, or only names a cross-reference or links",
    doc: "\
**What it catches**: \"turns off this check\", \"see the following\", an answer made of the label's
links or cross-reference alone.

**Why such a case is not right for a test set**: the answer is not checkable without another
passage the case does not label.

**Example**: \"turns off this check\"

**Known false alarm**: \"this\" that the question itself names.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::answer_fault(a, super::Check::AnswerPointsOutside)
}
