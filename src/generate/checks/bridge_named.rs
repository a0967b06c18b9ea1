//! RS712 `bridge-named`: a multi-hop question that still names its bridge, or a main word of it.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS712",
    name: "bridge-named",
    summary: "A multi-hop question that still names its bridge, or a main word of it",
    doc: "\
**What it catches**: the bridge (or its capitalised or numbered words) in the question.

**Why such a case is not right for a test set**: with the bridge named, hop 1 is not needed: it
is a lookup of hop 2.

**Example**: \"how long are TP-507's backups kept\" with bridge TP-507

**Known false alarm**: a main word that is common in the domain (\"backup\").",
    kinds: &[Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let b = super::bridge::BridgeCase::of(a)?;
    b.names_bridge().then(|| format!("names its bridge \"{}\"", b.bridge))
}
