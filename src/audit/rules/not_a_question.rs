//! RS203 `not-a-question`: a synthetic "question" that is a statement or an instruction.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS203",
    name: "not-a-question",
    summary: "A synthetic question with no question mark and no question or request word",
    doc: "\
**What it flags**: a synthetic case whose question has no `?`, does not open with a question
word (what, how, why, ...), an auxiliary verb or a request (explain, describe, list, tell,
give, find, show, compare). Real cases are left alone: real users type keyword queries.

**Why it matters**: a generator that returns a sentence from the passage instead of a question
produces a case that copies its source by construction.

**Example**: \"Tidepool stores snapshots in the archive tier after 30 days.\"",
    severity: Severity::Info,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

const OPENERS: &[&str] = &[
    "what",
    "which",
    "who",
    "whom",
    "whose",
    "when",
    "where",
    "why",
    "how",
    "explain",
    "describe",
    "list",
    "tell",
    "give",
    "find",
    "show",
    "compare",
    "name",
    "summarize",
    "summarise",
];

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let case = input.case;
    if !case.is_synthetic() || case.question.contains(['?', '？']) {
        return None;
    }
    if let Some(w) = crate::lang::questions::wording(input.language)
        && input.language != crate::lang::Language::ENGLISH
    {
        return (!w.opens_question(&case.question)).then(|| Hit::new("reads as a statement, not a question"));
    }
    let words = crate::text::words(&case.question);
    let first = words.first()?;
    if OPENERS.contains(&first.as_str()) || super::yes_no::is_yes_no(&case.question) {
        return None;
    }
    Some(Hit::new("reads as a statement, not a question"))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, flags, passes};
    use super::*;
    use crate::testset::Source;

    #[test]
    fn flags_a_synthetic_statement_and_not_a_request_or_a_real_case() {
        let statement = case("Snapshots are kept for thirty days");
        assert_eq!(flags(check, &statement), "reads as a statement, not a question");
        passes(check, &case("Explain how snapshots are kept"));
        let mut real = statement;
        real.tags.source = Some(Source::Real);
        passes(check, &real);
    }
}
