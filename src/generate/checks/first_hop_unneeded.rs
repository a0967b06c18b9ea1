//! RS713 `first-hop-unneeded`: a multi-hop question that says nothing only hop 1's passage says, or asks only what the described thing is.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS713",
    name: "first-hop-unneeded",
    summary: "A multi-hop question that says nothing only hop 1's passage says, or asks only what the described thing is",
    doc: "\
**What it catches**: no content word of the question is in hop 1's passage and not in hop 2's;
or (English) it only asks what the description names.

**Why such a case is not right for a test set**: the question can be answered from hop 2 alone.

**Example**: \"what is the error code for a full storage reserve\"

**Known false alarm**: a description worded in the user's own words, none of hop 1's.",
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
    (!b.needs_first_hop()).then(|| "says nothing only the first hop's passage says".to_string())
}
