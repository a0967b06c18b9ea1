//! RS203 `not-a-question`: a synthetic "question" that is a statement, neither a question nor a
//! search query.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::form::{reads_as_query, reads_as_question};

pub const INFO: RuleInfo = RuleInfo {
    code: "RS203",
    name: "not-a-question",
    summary: "A synthetic question that is a statement: no question mark, no question or request word, not a search query",
    doc: "\
**What it flags**: a synthetic case whose question does not end in `?` and does not open with a
question word (what, how, why, ...; also after a preposition: \"in which year\"), an auxiliary
verb (is, can, does, ...: a yes/no question or a polite request) or a request (explain,
describe, list, tell, give, find, show, compare, ...). The same table decides what `generate`
turns away as `not_a_question`. A search query is left alone, as `generate` writes one where
the set's real questions are keywords: 3 to 10 words on one line, no full stop at the end, and
no auxiliary verb (\"agent schedule default\"). Real cases are left alone: real users type
keyword queries.

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
    let q = &case.question;
    if !case.is_synthetic() || reads_as_question(q, input.language) || reads_as_query(q, input.language) {
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
        // A search query, as generate writes one for a set of keyword questions; a sentence
        // ending in a full stop, or a verb phrase with an auxiliary, is no query.
        passes(check, &case("agent schedule default"));
        passes(check, &case("request_id in support"));
        let sentence = case("Tidepool stores snapshots in the archive tier after 30 days.");
        assert_eq!(flags(check, &sentence), "reads as a statement, not a question");
        let two_words = case("schedule default");
        assert_eq!(flags(check, &two_words), "reads as a statement, not a question");
        let mut real = statement;
        real.tags.source = Some(Source::Real);
        passes(check, &real);
    }
}
