//! RS701 `keyword-wording`: bare keywords that do not find their own chunk among the first three.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS701",
    name: "keyword-wording",
    summary: "Bare keywords that do not find their own chunk among the first three",
    doc: "\
**What it catches**: a wording that is search keywords (not a question) for which BM25 ranks its
labelled chunk below third; other keyword wordings that drop a code of the question are not
used.

**Why such a case is not right for a test set**: keywords that point at other chunks ask for a
topic, not the fact their answer gives.

**Example**: \"black formatter\" for one sentence of an editor's page (its chunk 24th)

**Known false alarm**: a real keyword query whose relevant passage is one of many on the topic.",
    kinds: &[Kind::Lookup, Kind::Identifier],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// Rank by which bare keywords must find their own chunk.
pub const KEYWORDS_RANK: usize = 3;

/// Bare keywords ([`crate::style::is_keywords`]) whose labelled chunk keyword search ranks
/// below [`KEYWORDS_RANK`] (or not at all).
fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    if a.relevant.is_empty() || !crate::style::is_keywords(&a.question, a.language) {
        return None;
    }
    let rank = ctx
        .chunks()
        .difficulty(&a.question, a.language, &a.relevant, crate::workspace::Evidence::Any)
        .map(|d| d.0);
    match rank {
        Some(r) if r <= KEYWORDS_RANK => None,
        Some(r) => Some(format!("keyword search ranks its chunk {r}")),
        None => Some("keyword search does not find its chunk".to_string()),
    }
}
