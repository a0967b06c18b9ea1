//! RS205 `refers-to-source`: refers to what its writer was shown: "the passage", "this document", a document id.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Accepted;
use super::CaseContext;
use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS205",
    name: "refers-to-source",
    summary: "Refers to what its writer was shown: \"the passage\", \"this document\", a document id",
    doc: "\
**What it catches**: \"the passage\", \"according to the text\", \"based on the information
provided\", \"document 12\", or the id the labelled document is filed under.

**Why such a case is not right for a test set**: a user of a RAG system has seen none of it.

**Example**: \"According to the passage, how long are backups kept?\"

**Known false alarm**: \"the document type\" as a compound noun is left alone; a real question
naming a contract's section may still be flagged.",
    kinds: &[],
    reads: Reads::Wording,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: Some(check),
    case: Some(case),
};

/// [`crate::wording::meta_reference_in`]: "the passage", "according to the text", …
fn check(question: &str, language: Language) -> Option<String> {
    crate::wording::meta_reference_in(question, language).map(|r| format!("says \"{}\"", &question[r]))
}

/// A number in the question that is the id its labelled document is filed under
/// ([`crate::wording::names_document_id`]): a user has never seen the id.
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let labels = a.relevant.iter().map(|l| (l.doc.as_str(), l.quote.as_str()));
    crate::wording::names_document_id(&a.question, labels)
        .map(|r| format!("names the document id \"{}\"", &a.question[r]))
}
