//! RS209 `not-standalone`: leans on an earlier turn, a pronoun it never explains, or a thing of the text it never names.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS209",
    name: "not-standalone",
    summary: "Leans on an earlier turn, a pronoun it never explains, or a thing of the text it never names",
    doc: "\
**What it catches**: \"as mentioned\", \"what about it\", a leading pronoun with nothing it stands
for, \"the function\" no name resolves, \"this\" alone or before a noun nothing says which of
(\"this one\", \"this site\"; English).

**Why such a case is not right for a test set**: a test-set question is asked cold; a user
without the page cannot tell what \"the function\" is. The people-written questions it turns
away were written beside their passage (XQuAD's \"When was this edict declared?\").

**Example**: \"What does the function return?\"

**Known false alarm**: an \"it\" that stands for a clause far after it (XQuAD's \"What does it
take a country with high inequality longer to achieve?\").",
    kinds: &[],
    reads: Reads::Wording,
    stage: Stage::Question,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// [`crate::wording::standalone::not_standalone`].
fn check(question: &str, language: Language) -> Option<String> {
    crate::wording::standalone::not_standalone(question, language).map(|r| format!("leans on \"{}\"", &question[r]))
}
