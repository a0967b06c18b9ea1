//! RS732 `neighbour-in-corpus`: the neighbour the unanswerable asks about is mentioned by the corpus.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS732",
    name: "neighbour-in-corpus",
    summary: "The neighbour the unanswerable asks about is mentioned by the corpus",
    doc: "\
**What it catches**: every listed neighbour occurs in the corpus (also spelled out in words,
with other separators, or misspelt by at most two letters).

**Why such a case is not right for a test set**: a question about a thing the corpus mentions
may be answerable.

**Example**: \"Does it support GCS?\" when the storage page lists GCS

**Known false alarm**: a neighbour the corpus mentions only in passing.",
    kinds: &[Kind::Unanswerable],
    reads: Reads::Any,
    stage: Stage::Construction,
    audit: false,
    action: Action::Reject,
    question: None,
    case: None,
};
