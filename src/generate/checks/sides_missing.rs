//! RS703 `sides-missing`: a comparison that does not name both things, or whose sides' labels lack their thing or value.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS703",
    name: "sides-missing",
    summary: "A comparison that does not name both things, or whose sides' labels lack their thing or value",
    doc: "\
**What it catches**: fewer than two sides, a side whose label does not hold its thing and value,
two equal values, sides of different kinds, or a question naming only one side. Kinds are told
by the language's kind words (\"the `Result` enum\", \"a `None` variant\"; English only, `lang`'s
`KindWords`): in another language two sides of different kinds are not told.

**Why such a case is not right for a test set**: a comparison needs both facts; with one side
missing it is a lookup with a made-up half.

**Example**: \"how much does the Team plan cost\" as a comparison

A side's label names its thing when its sentence says the name whole, a person's name with
given or middle names around it too (\"Giuseppe Verdi\" of \"Giuseppe Fortunino Francesco
Verdi\"). A sentence of the thing's own page that says \"it\" or a fuller name does not: read so,
the check passed 2 more of HotpotQA's 14 comparisons and 5 fewer of their labels moved to
another sentence of the page (2026-12-07).

**Known false alarm**: a side whose value the label states in other words, or that its page's
sentence calls \"it\" (\"888 7th Avenue\": \"It currently carries …\"); a name with a title
after it (\"Robert Erskine Childers DSC\").",
    kinds: &[Kind::Comparison],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// [`crate::generate::kinds::comparison::sides_fault`] on the case's sides.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::sides::case_sides_fault(a)
        .filter(|(c, _)| *c == super::Check::SidesMissing)
        .map(|(_, why)| why)
}
