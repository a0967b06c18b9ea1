//! RS301 `exact-duplicate`: same words as a question of the set or one written earlier in the run.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Accepted;
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS301",
    name: "exact-duplicate",
    summary: "Same words as a question of the set or one written earlier in the run",
    doc: "\
**What it catches**: a question equal, ignoring case and punctuation, to an earlier one.

**Why such a case is not right for a test set**: a duplicate counts one need twice and skews
every average.

**Example**: \"How long are backups kept?\" twice

**Known false alarm**: none known.",
    kinds: &[],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// The same words as a question of the set ([`Dedup`]).
fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    repeats_the_set(a, ctx, super::Check::ExactDuplicate).then(|| "the set asks it already".to_string())
}

/// Whether the set's questions turn `a`'s question away as `check` (RS301 or RS302: one
/// [`Dedup`] reading decides which).
pub(super) fn repeats_the_set(a: &Accepted, ctx: &dyn CaseContext, check: super::Check) -> bool {
    ctx.existing().check(&a.question, &ctx.screen(a.kind, a.language)) == Err(check)
}

/// Questions seen so far, to turn repeats away by the audit's definitions
/// ([`crate::wording::duplicates`]: RS301's words, RS302's similarity, at a lower threshold).
#[derive(Debug, Default, Clone)]
pub struct Dedup {
    exact: std::collections::HashSet<String>,
    shingles: Vec<std::collections::HashSet<u64>>,
}

impl Dedup {
    /// Checks `question` against everything added; does not add it.
    pub fn check(&self, question: &str, screen: &super::Screen<'_>) -> Result<(), super::Check> {
        screen.when(self.exact.contains(&crate::wording::duplicates::normalized(question)), super::Check::ExactDuplicate)?;
        let s = crate::wording::duplicates::shingles(question);
        let near = self
            .shingles
            .iter()
            .any(|o| crate::wording::duplicates::similarity(o, &s) >= crate::wording::duplicates::GENERATE_NEAR_DUPLICATE);
        screen.when(near, super::Check::NearDuplicate)
    }

    /// Remembers `question`.
    pub fn add(&mut self, question: &str) {
        self.exact.insert(crate::wording::duplicates::normalized(question));
        self.shingles.push(crate::wording::duplicates::shingles(question));
    }
}
