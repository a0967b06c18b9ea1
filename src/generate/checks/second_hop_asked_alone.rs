//! RS305 `second-hop-asked-alone`: a lookup or identifier that asks a bridge's second hop again.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind, Shape};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS305",
    name: "second-hop-asked-alone",
    summary: "A lookup or identifier that asks a bridge's second hop again",
    doc: "\
**What it catches**: a one-label lookup or identifier whose label is a bridge's last passage and
which has the bridge's answer or names the bridge; the single case gives way, whichever came
first.

**Why such a case is not right for a test set**: the bridge already tests that need; a reviewer
deletes one of the pair.

**Example**: \"what does TP-507 mean\" beside a bridge to TP-507's page

**Known false alarm**: a team that wants the hop asked alone on purpose (the audit leaves such
pairs alone).",
    kinds: &[Kind::Lookup, Kind::Identifier],
    reads: Reads::Any,
    stage: Stage::Set,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};

/// Whether `single`, a one-label lookup or identifier, asks `bridge`'s second hop: its label is
/// the bridge's last passage and it has the bridge's answer or names the bridge ("what does
/// TP-507 mean" beside "what does the error code for a full storage reserve mean").
pub fn asks(single: &Accepted, bridge: &Accepted) -> bool {
    let Shape::Bridge { bridge: thing, .. } = &bridge.shape else {
        return false;
    };
    let names = |question: &str| {
        let (asked, thing) = (crate::text::words(question), crate::text::words(thing));
        !thing.is_empty() && asked.windows(thing.len()).any(|w| w == thing.as_slice())
    };
    matches!(single.shape, Shape::Plain | Shape::Identifier(_))
        && single.answer.is_some()
        && single.relevant.len() == 1
        && single.relevant.first().map(|l| l.passage()) == bridge.relevant.last().map(|l| l.passage())
        && (super::same_answer_same_source::answer_key(single) == super::same_answer_same_source::answer_key(bridge)
            || names(&single.question))
}
