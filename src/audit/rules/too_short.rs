//! RS201 `too-short`: fewer words than a question needs.

use super::{CaseInput, Check, Family, Hit, RuleInfo, word_count};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS201",
    name: "too-short",
    summary: "The question has fewer than `min_words` words",
    doc: "\
**What it flags**: a question with fewer than `min_words` words (default 3).

**Why it matters**: one or two words rarely say what is asked; the reference answer then
depends on a guess, and retrieval scores on it are noise.

**Example**: \"Retention?\"",
    severity: Severity::Info,
    family: Family::Wording,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let n = word_count(input.case);
    (n < input.config.min_words).then(|| Hit::new(format!("only {n} word(s)")))
}
