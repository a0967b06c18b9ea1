//! RS719 `no-description`: hop 1 gave no usable description of the bridge.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS719",
    name: "no-description",
    summary: "Hop 1 gave no usable description of the bridge",
    doc: "\
**What it catches**: every description empty, naming the bridge, a likeness (\"like X\"), a thing
of another kind, or over sixteen words.

**Why such a case is not right for a test set**: construction: nothing can replace the bridge.

**Example**: \"similar to TP-507\"

**Known false alarm**: none known.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Any,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
