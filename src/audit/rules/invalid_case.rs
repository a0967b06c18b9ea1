//! RS405 `invalid-case`: a case breaks the format: duplicate or empty id, empty question, unknown type, unanswerable with labels.

use super::{Check, Family, RuleInfo, SetHit, SetInput, issues_on};
use crate::audit::Severity;
use crate::testset::IssueFamily;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS405",
    name: "invalid-case",
    summary: "A case breaks the format: duplicate or empty id, empty question, unknown type, unanswerable with labels",
    doc: "\
**What it flags**: a case breaks the format: duplicate or empty id, empty question, unknown type, unanswerable with labels (from the test-set validator, with the corpus when one is
available).

**Why it matters**: a case that breaks the file format's invariants (ids unique and non-empty, a question, a known `type`, no labels on an unanswerable case) is counted wrongly by every command.

**Example**: two cases with id `q-12`.",
    severity: Severity::Error,
    family: Family::Labels,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    issues_on(input, IssueFamily::Case)
}
