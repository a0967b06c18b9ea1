//! RS214 `places-in-page`: places its thing in the page's outline: "in the basics section", or a heading left when taken off.

use super::{Action, CheckInfo, Stage};
use std::sync::LazyLock;

use regex::Regex;

use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS214",
    name: "places-in-page",
    summary: "Places its thing in the page's outline: \"in the basics section\", or a heading left when taken off",
    doc: "\
**What it catches**: \"in/under the … section\" anywhere in the question; a question ending in a
heading of its page loses it (a rewrite), and is turned away if what is left is no question or
lost the thing it asks about.

**Why such a case is not right for a test set**: the writer saw the headings; a user asks about
the thing, not where a page puts it.

**Example**: \"what does the `--filter` option do in the file collection and discovery section\"

**Known false alarm**: a user who names a section of a contract (\"which section of the act
covers refunds\").",
    kinds: &[],
    reads: Reads::English,
    stage: Stage::Question,
    audit: false,
    action: Action::Reject,
    question: Some(check),
    case: None,
};

/// [`names_a_section`].
fn check(question: &str, _: Language) -> Option<String> {
    names_a_section(question).then(|| "names a section of the page".to_string())
}

/// Whether a question places its subject in the page's outline ("what does `--filter` do in
/// the file collection and discovery section"): the writer saw the headings, a user asks about
/// the thing. Generate only: a real user may name a section of a contract, and the audit's
/// meta-reference rule leaves that be.
pub fn names_a_section(question: &str) -> bool {
    section().is_match(question)
}

/// A place in the page's outline: "in the file collection and discovery section".
pub(crate) fn section() -> &'static Regex {
    static SECTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(in|from|under)\s+the\s+(?:[\w`'-]+\s+){1,6}(section|subsection|paragraph)s?\b")
            .expect("valid regex")
    });
    &SECTION
}
