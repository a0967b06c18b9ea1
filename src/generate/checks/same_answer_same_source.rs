//! RS303 `same-answer-same-source`: same answer from the same passages as a case of its kind written earlier.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind, Shape};
use crate::testset::Label;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS303",
    name: "same-answer-same-source",
    summary: "Same answer from the same passages as a case of its kind written earlier",
    doc: "\
**What it catches**: a case whose labels' passages and answer key equal an earlier case's of the
same kind.

**Why such a case is not right for a test set**: two wordings of one need.

**Example**: \"daily snapshot retention team plan\" and \"how long does the Team plan keep daily
snapshots\"

**Known false alarm**: two questions with one short answer (\"yes\") on one passage.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison],
    reads: Reads::Terms,
    stage: Stage::Set,
    audit: true,
    action: Action::Reject,
    question: None,
    case: None,
};

/// Whether `a` gives the same answer from the same passages as `b`, an earlier case of its kind
/// (not a bridge: [`super::bridge_asked_again`] reads those). The same comparison was accepted
/// from both places Jinja's api.rst says what `pass_context` passes.
pub fn repeats(a: &Accepted, b: &Accepted) -> bool {
    let passages = |x: &[Label]| x.iter().map(|l| l.passage()).collect::<Vec<_>>();
    a.kind == b.kind
        && !matches!(a.shape, Shape::Bridge { .. })
        && !a.relevant.is_empty()
        && passages(&a.relevant) == passages(&b.relevant)
        && answer_key(a) == answer_key(b)
}

/// What two answers share when they say the same ([`crate::wording::duplicates::answer_key`]).
pub fn answer_key(a: &Accepted) -> Option<String> {
    a.answer.as_deref().map(crate::wording::duplicates::answer_key)
}
