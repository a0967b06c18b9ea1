//! RS218 `off-topic`: shares no content word with its labelled passage.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS218",
    name: "off-topic",
    summary: "Shares no content word with its labelled passage",
    doc: "\
**What it catches**: a question none of whose content words (stemmed, stopwords aside) occurs in
its label's text.

**Why such a case is not right for a test set**: a question about something else than its label:
the label cannot be what answers it.

**Example**: \"How do I reset my password?\" labelled with a sentence about backups.

**Known false alarm**: a paraphrase in other words throughout (\"how long do snapshots stay\" for
\"retained for 30 days\").",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::Unanswerable],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// No content word shared with the labels' text ([`check_on_topic`]).
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    if a.relevant.is_empty() {
        return None;
    }
    let sources: Vec<&str> = a.relevant.iter().map(|l| l.quote.as_str()).collect();
    check_on_topic(&a.question, &sources, a.language)
        .err()
        .map(|_| "shares no content word with its label".to_string())
}

/// Checks that `question` shares at least one content word (stemmed, not a stop word) with
/// one of `sources`: a question with none is about something else than its passage.
pub fn check_on_topic(question: &str, sources: &[&str], language: crate::lang::Language) -> Result<(), super::Check> {
    let words = language.analyzer();
    let asked: std::collections::HashSet<String> = words.content_terms(question).into_iter().collect();
    let shared = sources
        .iter()
        .any(|s| words.content_terms(s).iter().any(|t| asked.contains(t)));
    if shared { Ok(()) } else { Err(super::Check::OffTopic) }
}

