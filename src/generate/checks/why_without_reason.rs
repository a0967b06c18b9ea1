//! RS517 `why-without-reason`: a why-question whose label gives no reason, or a reason that is not its answer.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS517",
    name: "why-without-reason",
    summary: "A why-question whose label gives no reason, or a reason that is not its answer",
    doc: "\
**What it catches**: \"why …\" whose label has no reason clause (because, so that, since, to …),
or whose answer is not that reason.

**Why such a case is not right for a test set**: the question has no answer in its label.

**Example**: \"why does Rust use generics?\" of \"Because Rust compiles generic code …, we pay no
runtime cost\"

**Known false alarm**: a reason given by a purpose infinitive the reading misses.

**A review hint**: on people-written right cases it turned away two and caught no corrupted one
(`scripts/bench-checks.sh`, 2026-12-07), so it no longer turns a case away; it puts the case
first in review.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: false,
    action: Action::Hint,
    question: None,
    case: Some(case),
};

/// [`crate::wording::answer::reason::gives_the_reason`].
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let (answer, fact) = super::answer_and_fact(a)?;
    crate::wording::answer::reason::gives_the_reason(&a.question, answer, &fact, a.language).err()
}
