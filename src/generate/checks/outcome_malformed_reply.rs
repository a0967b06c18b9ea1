//! RS802 `malformed-reply`: the model's reply did not fit the schema after the allowed re-asks.

use super::{Action, CheckInfo, Stage};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS802",
    name: "malformed-reply",
    summary: "The model's reply did not fit the schema after the allowed re-asks",
    doc: "\
**What it catches**: a reply that is not JSON of the asked shape, or is cut by the reply's token
cap, after `--max-reasks` re-asks.

**Why such a case is not right for a test set**: an outcome: there is no question to judge.

**Example**: `{\"question_1\": \"What is` (cut at the token cap).

**Known false alarm**: none.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Outcome,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
