//! RS515 `answer-repeats`: the answer says the same run of eight words twice.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS515",
    name: "answer-repeats",
    summary: "The answer says the same run of eight words twice",
    doc: "\
**What it catches**: an answer in which eight consecutive words occur twice: a small model
looping until its length cap.

**Why such a case is not right for a test set**: no reviewer keeps a looping answer.

**Example**: \"used with virtualenv, disables command when not in use, only usable with
virtualenv, disables command when not in use, …\"

**Known false alarm**: a list answer whose items share a long lead.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// Eight words said twice ([`super::garbled::repeats_words`]) in the answer.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let answer = a.answer.as_deref()?;
    super::garbled::repeats_words(&crate::text::words(answer))
        .then(|| format!("the answer says {} words twice", super::garbled::REPEAT))
}
