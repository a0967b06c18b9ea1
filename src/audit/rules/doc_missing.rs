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

#[cfg(test)]
mod tests {
    use super::super::fixture::{flagged, labelled, on_set};
    use super::*;

    #[test]
    fn flags_a_label_outside_the_corpus_and_not_one_inside() {
        let good = labelled("How long are snapshots kept?", "retention.md", "kept for 30 days");
        let mut gone = good.clone();
        gone.id = "gone".into();
        gone.relevant[0].doc = "guides/restore.md".into();
        let cases = vec![good, gone];
        let hits = on_set(check, cases.clone());
        assert_eq!(flagged(&cases, &hits), ["gone"]);
        assert!(hits[0].message.contains("relevant[0].doc"), "{}", hits[0].message);
    }
}
