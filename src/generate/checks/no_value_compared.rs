//! RS704 `no-value-compared`: a comparison side whose value names its own thing as code: a sentence, not a value.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS704",
    name: "no-value-compared",
    summary: "A comparison side whose value names its own thing as code: a sentence, not a value",
    doc: "\
**What it catches**: a side value that names the side's own thing as code (\"You can also pass a
file … using `--ignore-revs-file`\").

**Why such a case is not right for a test set**: nothing the two things share is compared.

**Example**: a side reading \"use the `--ignore-revs-file` option\"

**Known false alarm**: a value that is itself a code (\"`utf-8`\").",
    kinds: &[Kind::Comparison],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// [`crate::generate::kinds::comparison::sides_fault`] on the case's sides.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    super::sides::case_sides_fault(a)
        .filter(|(c, _)| *c == super::Check::NoValueCompared)
        .map(|(_, why)| why)
}
