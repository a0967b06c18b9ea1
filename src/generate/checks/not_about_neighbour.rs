//! RS731 `not-about-neighbour`: an unanswerable whose question has no place for a neighbour, or does not name it after the swap.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS731",
    name: "not-about-neighbour",
    summary: "An unanswerable whose question has no place for a neighbour, or does not name it after the swap",
    doc: "\
**What it catches**: the fact's own question names no thing of the fact, asks for the thing
itself, or after the swap does not name the neighbour (or still names the original).

**Why such a case is not right for a test set**: construction: the question would not be about
the missing thing.

**Example**: \"What encoding are strings in UTF-8?\" (swapped, it answers itself)

**Known false alarm**: none known.",
    kinds: &[Kind::Unanswerable],
    reads: Reads::Any,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
