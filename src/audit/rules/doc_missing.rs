//! RS401 `doc-missing`: a label names a document that is not in the corpus.

use super::{Check, Family, RuleInfo, SetHit, SetInput, issues_on};
use crate::audit::Severity;
use crate::testset::IssueFamily;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS401",
    name: "doc-missing",
    summary: "A label names a document that is not in the corpus",
    doc: "\
**What it flags**: a label names a document that is not in the corpus (from the test-set validator, with the corpus when one is
available).

**Why it matters**: a label points at a document the corpus does not hold: its text cannot be read, so the case can never be retrieved correctly and every metric on it is zero.

**Example**: Label `doc: guides/restore.md` after the file was renamed to `guides/restoring.md`. `ragsynth remap` re-anchors it.",
    severity: Severity::Error,
    family: Family::Labels,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    issues_on(input, IssueFamily::Doc)
}
