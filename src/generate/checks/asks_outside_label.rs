//! RS516 `asks-outside-label`: the question names a code its label does not hold.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS516",
    name: "asks-outside-label",
    summary: "The question names a code its label does not hold",
    doc: "\
**What it catches**: a code (identifier in code marks or code shape) in the question that none
of its labels' text holds.

**Why such a case is not right for a test set**: the question asks about something else than its
label.

**Example**: \"what is the value of p3 …\" labelled with a sentence about `Point`

**Known false alarm**: a code the label writes in another spelling.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// [`crate::wording::answer::code_outside`] against the labels' text.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    if a.relevant.is_empty() {
        return None;
    }
    let fact = super::labels_text(&a.relevant);
    crate::wording::answer::code_outside(&a.question, &fact).map(|code| format!("asks about {code}"))
}
