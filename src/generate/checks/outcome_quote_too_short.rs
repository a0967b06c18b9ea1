//! RS805 `quote-too-short`: the reply's supporting quote is empty or shorter than three words.

use super::{Action, CheckInfo, Stage};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS805",
    name: "quote-too-short",
    summary: "The reply's supporting quote is empty or shorter than three words",
    doc: "\
**What it catches**: a quote of fewer than three words: it supports nothing a reviewer can
check.

**Why such a case is not right for a test set**: a label that is one word cannot show the
answer.

**Example**: `\"TP-507\"` as the whole quote.

**Known false alarm**: a one-line table cell that really is the fact.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Outcome,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
