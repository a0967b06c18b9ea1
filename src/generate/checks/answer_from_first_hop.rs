//! RS714 `answer-from-first-hop`: a multi-hop answer that hop 1's passage says (and hop 2's does not), or mostly in hop 1's words.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS714",
    name: "answer-from-first-hop",
    summary: "A multi-hop answer that hop 1's passage says (and hop 2's does not), or mostly in hop 1's words",
    doc: "\
**What it catches**: an answer said by hop 1's passage but not hop 2's, or three or more of
whose content words, most of them, come from hop 1's.

**Why such a case is not right for a test set**: the first passage alone answers; no bridge is
needed.

**Example**: \"creates a response object\" when both pages describe jsonify so

**Known false alarm**: two passages that really say the same.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::bridge::BridgeCase::of(a)?.answer_from_first_hop()
}
