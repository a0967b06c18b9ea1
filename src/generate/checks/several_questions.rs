//! RS204 `several-questions`: two questions in one, or a question followed by more text.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS204",
    name: "several-questions",
    summary: "Two questions in one, or a question followed by more text",
    doc: "\
**What it catches**: a wording with two question marks, or text after its question mark.

**Why such a case is not right for a test set**: a case has one answer; a second question has
none, and an answer to both cannot be scored.

**Example**: \"What is X? How does it affect Y?\"

**Known false alarm**: a question quoting a question (\"what does 'why?' mean here\").",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// [`form::questions_asked`]: two question marks, or text after the question mark.
fn check(question: &str, _: Language) -> Option<String> {
    let n = form::questions_asked(question);
    (n > 1).then(|| format!("asks {n} questions"))
}
