//! RS518 `condition-dropped`: the label gives the answer only under a condition the question leaves out.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Shape, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS518",
    name: "condition-dropped",
    summary: "The label gives the answer only under a condition the question leaves out",
    doc: "\
**What it catches**: a label opening \"If `required=True`, …\" (or giving a setting's value) whose
question does not say the condition.

**Why such a case is not right for a test set**: a false generality: the answer holds only in
the case the question does not ask.

**Example**: \"what happens when an option is missing?\" → \"an error\" of \"If `required=True`, a
missing option is an error\"

**Known false alarm**: a condition every user of the product is in.",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Comparison, Kind::MultiHop],
    reads: Reads::English,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// [`crate::wording::answer::condition::states_the_condition`]; a condition naming a
/// comparison's side is said by the question.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let (answer, fact) = super::answer_and_fact(a)?;
    let sides: Vec<&str> = match &a.shape {
        Shape::Comparison(sides) => sides.iter().map(|s| s.name.as_str()).collect(),
        _ => Vec::new(),
    };
    crate::wording::answer::condition::states_the_condition(&a.question, answer, &fact, a.language, &sides).err()
}
