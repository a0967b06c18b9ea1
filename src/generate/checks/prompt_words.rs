//! RS213 `prompt-words`: repeats the generation prompt's own words: "fact 2", "the key sentence", "the given code snippet".

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS213",
    name: "prompt-words",
    summary: "Repeats the generation prompt's own words: \"fact 2\", \"the key sentence\", \"the given code snippet\"",
    doc: "\
**What it catches**: words of the prompts (facts numbered, \"key sentence\", \"neighbour\", \"the
documentation\", \"the given example\", \"according to\").

**Why such a case is not right for a test set**: the model leaked its instructions; no user says
\"fact 1\".

**Example**: \"What does fact 2 say about retention?\"

**Known false alarm**: \"according to\" in a real question about a source (\"according to the
FDA\").

**A review hint**: on people-written right cases it flagged 4 and caught no corrupted one
(`scripts/bench-checks.sh`, 2026-12-07). It puts the case first in review.",
    kinds: &[],
    reads: Reads::English,
    stage: Stage::Question,
    audit: false,
    action: Action::Hint,
    question: Some(check),
    case: None,
};

/// [`prompt_words`].
fn check(question: &str, _: Language) -> Option<String> {
    prompt_words()
        .find(question)
        .map(|m| format!("says \"{}\"", m.as_str()))
}

/// Words of the generation prompts that a question repeating them leaks: a user never saw a
/// "fact 2", a "key sentence" or "the documentation".
pub fn prompt_words() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(facts?\s*[ab1-9]\b|(the|this|that|these|given|provided|above)\s+(facts?|statements?|documentation|sentences?|topic|information)\b|(given|provided|above|following)\s+(code(\s+snippet)?|snippets?|examples?|listings?|programs?|output)\b|code snippet|key sentence|neighbou?r|answer_\w+|question_\w+|according to|based on the|mentioned (above|in))",
        )
        .expect("valid regex")
    })
}
