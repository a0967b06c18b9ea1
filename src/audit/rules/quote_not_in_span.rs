//! RS403 `quote-not-in-span`: a label's quote is empty or is not inside its span.

use super::{Check, Family, RuleInfo, SetHit, SetInput, issues_on};
use crate::audit::Severity;
use crate::testset::IssueFamily;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS403",
    name: "quote-not-in-span",
    summary: "A label's quote is empty or is not inside its span",
    doc: "\
**What it flags**: a label's quote is empty or is not inside its span (from the test-set validator, with the corpus when one is
available).

**Why it matters**: a label whose supporting quote is not found between its start and end: the span moved (the document was edited) or the quote was paraphrased; graders that show the quote show the wrong evidence.

**Example**: quote `kept for 30 days` while the span now reads `kept for 90 days`.",
    severity: Severity::Error,
    family: Family::Labels,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    issues_on(input, IssueFamily::Quote)
}
