//! RS702 `identifier-missing`: an identifier case whose question or label does not give its identifier as written.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Shape, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS702",
    name: "identifier-missing",
    summary: "An identifier case whose question or label does not give its identifier as written",
    doc: "\
**What it catches**: the identifier not verbatim in the question, or not in any label's text.

**Why such a case is not right for a test set**: the type's promise: a user pastes the code; a
case without it tests something else.

**Example**: \"what does the storage error mean\" for TP-507

**Known false alarm**: an identifier the user types in another case (`tp-507`).",
    kinds: &[Kind::Identifier],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// The identifier verbatim in the question and in a label's text.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let Shape::Identifier(id) = &a.shape else {
        return Some("the case records no identifier".to_string());
    };
    if !a.question.contains(id.as_str()) {
        return Some(format!("the question does not give {id}"));
    }
    (!a.relevant.iter().any(|l| l.quote.contains(id.as_str()))).then(|| format!("no label holds {id}"))
}
