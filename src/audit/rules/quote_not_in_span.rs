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

#[cfg(test)]
mod tests {
    use super::super::fixture::{flagged, labelled, on_set};
    use super::*;

    #[test]
    fn flags_a_quote_the_span_does_not_hold_and_not_one_it_does() {
        let good = labelled("How long are snapshots kept?", "retention.md", "kept for 30 days");
        let mut moved = good.clone();
        moved.id = "moved".into();
        moved.relevant[0].quote = "kept for 90 days".into();
        let cases = vec![good, moved];
        let hits = on_set(check, cases.clone());
        assert_eq!(flagged(&cases, &hits), ["moved"]);
        assert!(hits[0].message.contains("not inside span"), "{}", hits[0].message);
    }
}
