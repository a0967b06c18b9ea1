//! RS215 `wrong-language`: not written in its passage's language.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS215",
    name: "wrong-language",
    summary: "Not written in its passage's language",
    doc: "\
**What it catches**: a wording the language detector reliably places in another language than
its passage's.

**Why such a case is not right for a test set**: a question in the wrong language tests
translation, not retrieval.

**Example**: an English question about a German passage.

**Known false alarm**: a short question made mostly of code names.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: false,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// The detector places the question, with its passage's language as the prior, elsewhere.
fn check(question: &str, language: Language) -> Option<String> {
    let found = crate::lang::detect_question(question, None, Some(language));
    (found != language).then(|| format!("reads as {}", found.name()))
}
