//! RS514 `answer-off-question`: the label gives the answer to another question.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS514",
    name: "answer-off-question",
    summary: "The label gives the answer to another question",
    doc: "\
**What it catches**: a reason where the question asks what or how, what a thing brings about
where it asks what it is, another name in brackets, a claim the label limits to another case
(\"In C++, …\" for \"… in Rust?\"), the question's words said back, and other sub-rules (twelve,
English).

**Why such a case is not right for a test set**: the reference answer answers a neighbouring
question; a system answering the asked one is scored wrong.

**Example**: \"What term does Rust use for …\" → \"RAII\" labelled \"In C++, this pattern … is called
RAII\"

**Known false alarm**: a crowd answer that is a fragment of the right clause.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::answer_fault(a, super::Check::AnswerOffQuestion)
}
