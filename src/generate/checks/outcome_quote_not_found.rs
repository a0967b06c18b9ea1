//! RS804 `quote-not-found`: the reply's supporting quote is not in the source document, not even approximately.

use super::{Action, CheckInfo, Stage};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS804",
    name: "quote-not-found",
    summary: "The reply's supporting quote is not in the source document, not even approximately",
    doc: "\
**What it catches**: a quote the model wrote that cannot be located in its document (exactly,
ignoring white space and case, or at 0.8 edit similarity): there is no span to label.

**Why such a case is not right for a test set**: a label must point at text the corpus holds; a
made-up quote cannot be labelled.

**Example**: a comparison side quoting a sentence the page paraphrases.

**Known false alarm**: a quote copied from a rendered page whose source markup differs a lot
(tables, footnotes).",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Outcome,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
