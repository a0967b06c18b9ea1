//! RS519 `half-answer`: a question asking what a thing is, does or is for, answered by a fragment of what its label says.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS519",
    name: "half-answer",
    summary: "A question asking what a thing is, does or is for, answered by a fragment of what its label says",
    doc: "\
**What it catches**: \"what does X do\" answered by under a fifth of its sentence's words.

**Why such a case is not right for a test set**: a reviewer marks a fragment as incomplete.

**Example**: \"what does Click aim to do\" → \"quick and fun\"

**Known false alarm**: crowd-written extractive answers, which are fragments on purpose.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// [`crate::wording::answer::partial::answers_in_full`].
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let (answer, fact) = super::answer_and_fact(a)?;
    crate::wording::answer::partial::answers_in_full(&a.question, answer, &fact, a.language).err()
}
