//! RS511 `joined-questions`: two questions joined by "and" and a question word.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS511",
    name: "joined-questions",
    summary: "Two questions joined by \"and\" and a question word",
    doc: "\
**What it catches**: \"… and how …\", \"…, what …\" after a first question clause; after a comma,
\"and\" and any question word (\"…, and who ruined …\"; English). The corrupted cases it is
measured on are joined with \", and\", so its catch there is more than on joins without the
comma.

**Why such a case is not right for a test set**: two lookups glued together: one answer cannot
answer both, and as a multi-hop it needs no bridge.

**Example**: \"What does TP-503 mean and what is its typical cause?\"

**Known false alarm**: \"what and where is X\" style real questions.",
    kinds: &[],
    // English only: `form::joined_question` reads English question words and auxiliaries.
    reads: Reads::English,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// [`form::joined_question`]: a second question clause after "and" or a comma.
fn check(question: &str, language: Language) -> Option<String> {
    form::joined_question(question, language).map(|r| format!("joins a second question at \"{}\"", &question[r]))
}
