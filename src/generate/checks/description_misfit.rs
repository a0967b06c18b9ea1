//! RS718 `description-misfit`: the description does not fit where the bridge stood in hop 2's question.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS718",
    name: "description-misfit",
    summary: "The description does not fit where the bridge stood in hop 2's question",
    doc: "\
**What it catches**: the bridge glued to a longer name, inside a code span, in a noun phrase,
coordinated, or a description that points (\"this …\").

**Why such a case is not right for a test set**: construction: the question made would not
parse.

**Example**: \"what is the challenge that will be disabled challenge used for?\"

**Known false alarm**: a description a person would fit by rewording the rest.",
    kinds: &[Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
