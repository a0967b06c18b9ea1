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
