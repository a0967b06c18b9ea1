//! RS720 `answer-restates-description`: a multi-hop answer that says again what its description says.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS720",
    name: "answer-restates-description",
    summary: "A multi-hop answer that says again what its description says",
    doc: "\
**What it catches**: half or more of the answer's content words in the description.

**Why such a case is not right for a test set**: the question asks in a circle.

**Example**: \"what is the purpose of the function that creates a response object …\" → \"creates a
response object\"

**Known false alarm**: a short answer that shares one word with the description.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
