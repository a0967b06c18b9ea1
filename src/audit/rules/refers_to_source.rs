//! RS205 `refers-to-source`: the question points at "the passage" its writer was reading.

use std::sync::OnceLock;

use regex::Regex;

use super::{CaseInput, Check, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS205",
    name: "refers-to-source",
    summary: "The question refers to \"the passage\", \"the text\", \"this document\" and the like",
    doc: "\
**What it flags**: \"the / this / that / given / above / following / provided\" followed by
passage, text, document, article, paragraph, context, excerpt, section, snippet or chunk; and
\"according to the ...\", \"mentioned in the ...\".

**Why it matters**: a user of a RAG system has not seen any passage. Such a question only
makes sense to the generator that was shown one, and it leaks that a single passage holds the
answer.

**Example**: \"According to the passage, how long are snapshots kept?\"",
    severity: Severity::Warning,
    check: Check::Case(check),
};

fn pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(the|this|that|given|above|following|provided)\s+(passage|text|document|article|paragraph|context|excerpt|section|snippet|chunk)s?\b",
        )
        .expect("valid regex")
    })
}

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let m = pattern().find(&input.case.question)?;
    Some(Hit {
        message: format!("refers to \"{}\", which a user has not seen", m.as_str()),
        highlight: Some(m.range()),
    })
}
