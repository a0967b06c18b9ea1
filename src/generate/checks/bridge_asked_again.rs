//! RS304 `bridge-asked-again`: a bridge through the same thing to the same second passage as one written earlier.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind, Shape};
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS304",
    name: "bridge-asked-again",
    summary: "A bridge through the same thing to the same second passage as one written earlier",
    doc: "\
**What it catches**: a multi-hop case whose bridge and last hop's passage equal an earlier
bridge's.

**Why such a case is not right for a test set**: the same two-step need twice.

**Example**: two bridges through TP-507 to the backups page

**Known false alarm**: none known.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Any,
    stage: Stage::Set,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};

/// Whether bridge `a` goes through the same thing to the same second passage as bridge `b`
/// (two descriptions of `agent.cache_dir` made two multi-hops answered "re-read every file").
pub fn repeats(a: &Accepted, b: &Accepted) -> bool {
    match (&a.shape, &b.shape) {
        (Shape::Bridge { bridge: x, .. }, Shape::Bridge { bridge: y, .. }) => {
            crate::text::fold_eq(x, y)
                && a.relevant.last().map(|l| l.passage()) == b.relevant.last().map(|l| l.passage())
        }
        _ => false,
    }
}
