//! RS733 `asks-only-what-it-is`: an unanswerable asking only what another product is.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS733",
    name: "asks-only-what-it-is",
    summary: "An unanswerable asking only what another product is",
    doc: "\
**What it catches**: \"what is Pyramid?\" where the neighbour is a plain capitalised name.

**Why such a case is not right for a test set**: nobody asks the docs of one product what
another product is.

**Example**: \"What is Pyramid?\" in Flask's docs

**Known false alarm**: a user comparing products.",
    kinds: &[Kind::Unanswerable],
    reads: Reads::English,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
