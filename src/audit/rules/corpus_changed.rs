//! RS404 `corpus-changed`: the corpus changed since the labels were anchored (fingerprint differs).

use super::{Check, Family, RuleInfo, SetHit, SetInput, issues_on};
use crate::audit::Severity;
use crate::testset::IssueFamily;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS404",
    name: "corpus-changed",
    summary: "The corpus changed since the labels were anchored (fingerprint differs)",
    doc: "\
**What it flags**: the corpus changed since the labels were anchored (fingerprint differs) (from the test-set validator, with the corpus when one is
available).

**Why it matters**: a header's `corpus.fingerprint` differs from the corpus on disk: some document was added, removed or edited since the labels were written, so spans may point at the wrong text.

**Example**: a document was edited after `ragsynth generate`; run `ragsynth remap`.",
    severity: Severity::Warning,
    family: Family::Labels,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    issues_on(input, IssueFamily::Corpus)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{cx, on_testset};
    use super::*;
    use crate::testset::{CorpusRef, TestSet};

    #[test]
    fn flags_a_changed_fingerprint_and_not_the_same_one() {
        let now = cx().corpus.as_ref().unwrap().fingerprint();
        let mut set = TestSet {
            corpus: Some(CorpusRef {
                root: "docs".into(),
                fingerprint: Some("sha256:0000".into()),
                ..CorpusRef::default()
            }),
            ..TestSet::default()
        };
        let hits = on_testset(check, &set);
        assert_eq!(hits.len(), 1);
        assert!(hits[0].case.is_none() && hits[0].message.contains("corpus changed"));
        set.corpus.as_mut().unwrap().fingerprint = Some(now);
        assert!(on_testset(check, &set).is_empty());
    }
}
