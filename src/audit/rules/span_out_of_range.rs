//! RS402 `span-out-of-range`: a label's character span is reversed or runs past the end of its document.

use super::{Check, Family, RuleInfo, SetHit, SetInput, issues_on};
use crate::audit::Severity;
use crate::testset::IssueFamily;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS402",
    name: "span-out-of-range",
    summary: "A label's character span is reversed or runs past the end of its document",
    doc: "\
**What it flags**: a label's character span is reversed or runs past the end of its document (from the test-set validator, with the corpus when one is
available).

**Why it matters**: a span whose start is after its end, or whose end is past the document's last character, points at no text; usually the document was shortened after labelling.

**Example**: `start: 5200, end: 5900` in a document of 4,000 characters.",
    severity: Severity::Error,
    family: Family::Labels,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    issues_on(input, IssueFamily::Span)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flagged, labelled, on_set};
    use super::*;

    #[test]
    fn flags_a_span_past_the_end_or_reversed_and_not_a_good_one() {
        let good = labelled("How long are snapshots kept?", "retention.md", "kept for 30 days");
        let mut past = good.clone();
        past.id = "past".into();
        past.relevant[0].end = 5_000;
        let mut reversed = good.clone();
        reversed.id = "reversed".into();
        (reversed.relevant[0].start, reversed.relevant[0].end) = (40, 10);
        let cases = vec![good, past, reversed];
        let hits = on_set(check, cases.clone());
        assert_eq!(flagged(&cases, &hits), ["past", "reversed"]);
    }
}
