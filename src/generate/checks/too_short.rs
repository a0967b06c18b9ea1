//! RS201 `too-short`: the question has fewer than three words.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS201",
    name: "too-short",
    summary: "The question has fewer than three words",
    doc: "\
**What it catches**: a wording of one or two words.

**Why such a case is not right for a test set**: one or two words rarely say what is asked; the
audit flags such real queries too (at info level).

**Example**: \"retention\"

**Known false alarm**: a real two-word search query (\"backup schedule\").",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// Fewer than [`form::MIN_WORDS`] words (or none at all).
fn check(question: &str, _: Language) -> Option<String> {
    let n = crate::text::word_count(question);
    (crate::text::words(question).is_empty() || n < form::MIN_WORDS).then(|| format!("{n} words"))
}
