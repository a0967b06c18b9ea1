//! RS206 `meta-question`: asks what the text itself is about: its topic, main idea, a summary.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS206",
    name: "meta-question",
    summary: "Asks what the text itself is about: its topic, main idea, a summary",
    doc: "\
**What it catches**: \"what is this section about\", \"what is the main idea\", \"summarize\".

**Why such a case is not right for a test set**: such a question has no answer in the corpus a
retriever could find; it asks about the writer's material.

**Example**: \"What is the main topic of this section?\"

**Known false alarm**: \"what is the Normans article about\" from a user who knows the article.",
    kinds: &[],
    reads: Reads::Wording,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// [`crate::wording::meta_question_in`].
fn check(question: &str, language: Language) -> Option<String> {
    crate::wording::meta_question_in(question, language).map(|r| format!("asks \"{}\"", &question[r]))
}
