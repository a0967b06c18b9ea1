//! RS803 `llm-failed`: the request kept failing (timeouts, server errors) after all retries.

use super::{Action, CheckInfo, Stage};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS803",
    name: "llm-failed",
    summary: "The request kept failing (timeouts, server errors) after all retries",
    doc: "\
**What it catches**: a call that still failed after the retries with backoff; the provider's
last error is in the summary.

**Why such a case is not right for a test set**: an outcome: no reply.

**Example**: a 503 from a provider that stays down.

**Known false alarm**: none.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Outcome,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
