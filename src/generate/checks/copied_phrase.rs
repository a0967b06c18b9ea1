//! RS101 `copied-phrase`: copies a run of four words (three of them content words) from its labelled chunks.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS101",
    name: "copied-phrase",
    summary: "Copies a run of four words (three of them content words) from its labelled chunks",
    doc: "\
**What it catches**: a run of at least four question tokens, three of them content words, found
verbatim in the text of the chunks its labels lie in.

**Why such a case is not right for a test set**: copied phrases make a question keyword-easy and
flatter lexical retrieval (31% of crowd questions written beside the passage copy such a run, 5%
of real queries).

**Example**: \"how long are daily snapshots retained on the Team plan\" from \"daily snapshots are
retained for 30 days on the Team plan\"

**Known false alarm**: a real query that names a long product or error name verbatim.

**A review hint**: on people-written right cases it flagged 30 and caught 12 corrupted ones
(`scripts/bench-checks.sh`, 2026-12-07): a copied phrase makes a case easy for keyword search,
not wrong; the audit's RS101 weighs it over the whole set. It puts the case first in review.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: true,
    action: Action::Hint,
    question: None,
    case: Some(case),
};

/// [`crate::wording::overlap::copied_phrase`] against the text of the chunks its labels lie in
/// (a bridge's: its last hop's), the text the audit's RS101 reads.
fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    let labels = super::last_hop_labels(a);
    if labels.is_empty() {
        return None;
    }
    let source = ctx.chunks().labelled_text(&labels);
    crate::wording::overlap::copied_phrase(&a.question, &source, a.language)
        .map(|run| format!("copies \"{}\"", &a.question[run.question]))
}
