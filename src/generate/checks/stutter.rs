//! RS210 `stutter`: says a run of two to four words twice in a row.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS210",
    name: "stutter",
    summary: "Says a run of two to four words twice in a row",
    doc: "\
**What it catches**: two, three or four words said twice in a row.

**Why such a case is not right for a test set**: a garbled question, unreadable to a user and a
judge.

**Example**: \"what was the type of rifle that the new trigger is designed for designed for\"

**Known false alarm**: \"new york new york\".",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// [`form::stutters`].
fn check(question: &str, _: Language) -> Option<String> {
    form::stutters(question).then(|| "says a run of words twice in a row".to_string())
}
