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
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let n = word_count(input.case);
    (n < input.config.min_words).then(|| Hit::new(format!("only {n} word(s)")))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_one_or_two_words_and_not_a_question() {
        assert_eq!(
            on_case(check, &case("Retention?")).unwrap().message,
            "only 1 word(s)"
        );
        assert!(on_case(check, &case("How long are snapshots kept?")).is_none());
    }
}
