//! RS711 `bridge-not-asked`: hop 2's question does not name the bridge, so no description can take its place.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS711",
    name: "bridge-not-asked",
    summary: "Hop 2's question does not name the bridge, so no description can take its place",
    doc: "\
**What it catches**: the model's second-hop question does not name the shared thing apart from a
longer name.

**Why such a case is not right for a test set**: construction: without the bridge in hop 2's
question there is no two-step question to make.

**Example**: asked about `api.max_page_size`, the model asked \"What is the maximum number of
items … in a single API call?\"

**Known false alarm**: a thing named by a synonym.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Any,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
