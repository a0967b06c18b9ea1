//! RS203 `not-a-question`: neither ends with a question mark nor opens as a question, request or search query.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS203",
    name: "not-a-question",
    summary: "Neither ends with a question mark nor opens as a question, request or search query",
    doc: "\
**What it catches**: a wording that is a statement in its language: no question mark, no
question word, auxiliary or imperative at its start.

**Why such a case is not right for a test set**: a statement is not something a user asks; the
model copied its fact instead of asking about it.

**Example**: \"Backups are kept for 30 days.\"

**Known false alarm**: a keyword query without a question word is read as a query, not flagged;
a statement-shaped real query (\"laptop died restore onto new one\") is.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// Neither a question ([`form::reads_as_question`]: a question mark, or a question or request
/// word at its start) nor a search query ([`form::reads_as_query`]), as the audit's RS203 reads it.
fn check(question: &str, language: Language) -> Option<String> {
    let asks = form::reads_as_question(question, language) || form::reads_as_query(question, language);
    (!asks).then(|| "reads as a statement".to_string())
}
