//! RS715 `answer-not-from-second-hop`: a multi-hop answer hop 2's passage does not say, or that is only the bridge itself.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS715",
    name: "answer-not-from-second-hop",
    summary: "A multi-hop answer hop 2's passage does not say, or that is only the bridge itself",
    doc: "\
**What it catches**: an answer most of whose words are not in hop 2's passage, or that only
names the bridge.

**Why such a case is not right for a test set**: the bridge's answer must come from its second
passage.

**Example**: \"edit `/etc/tidepool/agent.toml`\" (the bridge) as the answer

**Known false alarm**: an answer in other words than hop 2's.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::bridge::BridgeCase::of(a)?.answer_not_from_second_hop()
}
