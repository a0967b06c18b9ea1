//! RS717 `describes-another`: the bridge's description picks out another thing than the bridge.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS717",
    name: "describes-another",
    summary: "The bridge's description picks out another thing than the bridge",
    doc: "\
**What it catches**: a description guessing a name hop 1 does not hold, headed by another noun
of hop 1's fact, or (LLM judge, where calibrated) whose copy from hop 1 is not the bridge.

**Why such a case is not right for a test set**: the question asks about another thing; its
answer is wrong for it.

**Example**: \"the associated GitHub repository\" for a GitHub Release

**Known false alarm**: a description naming the bridge's kind in other words.",
    kinds: &[Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
