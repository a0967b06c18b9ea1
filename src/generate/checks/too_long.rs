//! RS211 `too-long`: the question has more than forty words.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS211",
    name: "too-long",
    summary: "The question has more than forty words",
    doc: "\
**What it catches**: a wording over forty words: a paragraph, usually the fact copied with a
question mark.

**Why such a case is not right for a test set**: real questions average 5–11 words; a paragraph
is no question a user types.

**Example**: a 60-word restatement of the whole passage ending in \"?\".

**Known false alarm**: a long real question pasting an error message.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: false,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// More than [`form::MAX_WORDS`] words.
fn check(question: &str, _: Language) -> Option<String> {
    let n = crate::text::word_count(question);
    (n > form::MAX_WORDS).then(|| format!("{n} words"))
}
