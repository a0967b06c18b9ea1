//! RS801 `no-fact`: the planned chunk had no sentence or table row left to ask about.

use super::{Action, CheckInfo, Stage};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS801",
    name: "no-fact",
    summary: "The planned chunk had no sentence or table row left to ask about",
    doc: "\
**What it catches**: a task whose chunk, once code, headings and link lists are set aside, holds
no statement a question can be anchored on. No call is made.

**Why such a case is not right for a test set**: an outcome, not a check: nothing was written,
so nothing can be wrong.

**Example**: a chunk that is only a table of contents.

**Known false alarm**: none: it turns away no candidate, only a plan slot (a later round asks
another chunk).",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Outcome,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
