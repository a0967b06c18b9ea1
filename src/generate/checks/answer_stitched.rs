//! RS512 `answer-stitched`: a short answer joins words its label says apart, loops, or stops mid-phrase.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS512",
    name: "answer-stitched",
    summary: "A short answer joins words its label says apart, loops, or stops mid-phrase",
    doc: "\
**What it catches**: an answer joining label words from places apart (\"author or resolved
manner\"), rejoining a predicate to the wrong noun, repeating a content run, or ending on a
function word.

**Why such a case is not right for a test set**: the answer says something the label does not,
in the label's own words, so word overlap hides it.

**Example**: \"author or resolved manner\"

**Known false alarm**: a list answer whose items stand apart in the label.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::answer_fault(a, super::Check::AnswerStitched)
}
