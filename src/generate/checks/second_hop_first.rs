//! RS716 `second-hop-first`: keyword search with the question alone ranks hop 2's passage first, or the question names a code only hop 2 has.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS716",
    name: "second-hop-first",
    summary: "Keyword search with the question alone ranks hop 2's passage first, or the question names a code only hop 2 has",
    doc: "\
**What it catches**: BM25 over the corpus ranks the last hop's chunk first for the question, or
the question names a code of hop 2's passage.

**Why such a case is not right for a test set**: a retriever reaches the answer without the
first hop: a lookup in disguise.

**Example**: \"what does the `--python-cell-magics` magic do in the file you format\"

**Known false alarm**: a bridge whose second page is the only one on its topic.

**A review hint**: a bridge keyword search reaches at once is easy, not wrong (it flagged 9
of HotpotQA's 36 people-written bridges, `scripts/bench-checks.sh`, 2026-12-07). It puts the
case first in review.",
    kinds: &[Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Hint,
    question: None,
    case: Some(case),
};

fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    super::bridge::BridgeCase::of(a)?.reaches_second_first(a, ctx.chunks())
}
