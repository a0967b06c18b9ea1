//! RS203 `not-a-question`: a synthetic "question" that is a statement or an instruction.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::form::reads_as_question;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS203",
    name: "not-a-question",
    summary: "A synthetic question with no question mark and no question or request word",
    doc: "\
**What it flags**: a synthetic case whose question does not end in `?` and does not open with a
question word (what, how, why, ...; also after a preposition: \"in which year\"), an auxiliary
verb (is, can, does, ...: a yes/no question or a polite request) or a request (explain,
describe, list, tell, give, find, show, compare, ...). The same table decides what `generate`
turns away as `not_a_question`. Real cases are left alone: real users type keyword queries.

**Why it matters**: a generator that returns a sentence from the passage instead of a question
produces a case that copies its source by construction.

**Example**: \"Tidepool stores snapshots in the archive tier after 30 days.\"",
    severity: Severity::Info,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let case = input.case;
    if !case.is_synthetic() || reads_as_question(&case.question, input.language) {
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
        // A polite request and an either/or question, both without their question mark.
        passes(check, &case("Can you explain how snapshots are kept"));
        passes(check, &case("Is the archive kept in Europe or in the US"));
        let mut real = statement;
        real.tags.source = Some(Source::Real);
        passes(check, &real);
    }
}
