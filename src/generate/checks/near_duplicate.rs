//! RS302 `near-duplicate`: nearly the same words as a question of the set or one written earlier.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Accepted;
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS302",
    name: "near-duplicate",
    summary: "Nearly the same words as a question of the set or one written earlier",
    doc: "\
**What it catches**: word-bigram Jaccard ≥ 0.6 with an earlier question (the audit flags at
0.8).

**Why such a case is not right for a test set**: the same need asked twice.

**Example**: \"how long are backups kept\" and \"how long are the backups kept for\"

**Known false alarm**: two real questions about two options that differ in one word.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// Nearly the same words as a question of the set ([`super::exact_duplicate::Dedup`]).
fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    super::exact_duplicate::repeats_the_set(a, ctx, super::Check::NearDuplicate)
        .then(|| "the set asks nearly the same".to_string())
}
