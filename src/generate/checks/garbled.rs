//! RS212 `garbled-question`: says the same eight words or the same code twice, or takes a code for a kind of thing.

use super::{Action, CheckInfo, Stage};
use crate::lang::{Language, Reads};
use crate::wording::form;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS212",
    name: "garbled-question",
    summary: "Says the same eight words or the same code twice, or takes a code for a kind of thing",
    doc: "\
**What it catches**: a wording that repeats a run of eight words, names the same flag or code
twice, or (English) puts an option or lower-case code where a kind of thing goes (\"running a
--reload\").

**Why such a case is not right for a test set**: a small model that lost its thread; a reviewer
would rewrite it.

**Example**: \"the differences between `attrs.exceptions` and `attrs.exceptions`\"

**Known false alarm**: a comparison of two versions of one code (\"`--line-length` 88 or `--line-
length` 120\").",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Question,
    audit: false,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// The same run of [`REPEAT`] words twice, the same code twice, or (English) a code taken for a
/// kind of thing ([`form::code_as_a_kind`]).
fn check(question: &str, language: Language) -> Option<String> {
    if language == Language::ENGLISH && form::code_as_a_kind(question) {
        return Some("takes a code for a kind of thing".into());
    }
    if repeats_words(&crate::text::words(question)) {
        return Some(format!("says {REPEAT} words twice"));
    }
    repeats_a_code(question).map(|code| format!("names {code} twice"))
}

/// Consecutive words a question says twice when it repeats a part (small models joining two
/// questions repeat the first): eight, because a joined question's parallel lead ("what is the
/// configuration option for S3 …, and what is the configuration option for OIDC …") repeats six.
pub const REPEAT: usize = 8;

/// Whether some run of [`REPEAT`] consecutive words stands twice in `words`.
pub fn repeats_words(words: &[String]) -> bool {
    let mut seen = std::collections::HashSet::new();
    words.windows(REPEAT).any(|w| !seen.insert(w))
}

/// The code `question` names twice ("… both the ``attr`` namespace and `attrs.exceptions` and
/// `attrs.exceptions`"): a question compares or asks about a code once; twice, a small model
/// lost its thread.
fn repeats_a_code(question: &str) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    crate::text::spans(question)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-'))
        .filter(|w| w.starts_with("--") || crate::wording::answer::has_code_marks(w))
        .find(|w| !seen.insert(crate::text::fold(w)))
        .map(str::to_string)
}
