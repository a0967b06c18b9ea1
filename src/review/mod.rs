//! Review: a person accepts, rejects or edits synthetic cases on a local web page, with each
//! case's source passage, copied words and audit flags beside it.
//!
//! Synthetic cases are only worth keeping after someone has looked at them, and that someone is
//! often a domain expert, not an engineer — hence a page rather than a YAML editor. [`serve`]
//! runs it on loopback; every decision is written back at once through
//! [`crate::testset::Tracked`], merged onto the file when it changed underneath and refused only
//! when that change touched the same field. [`static_html`] renders the same
//! summary and case cards as one self-contained file for sharing. [`serve_answers`] is the
//! other mode: a person marks the answer judges' verdicts right or wrong (`review --answers`).

mod answers;
mod guard;
mod highlight;
mod page;
mod server;
mod store;
mod view;

pub use answers::{AnswersServer, serve_answers};
pub use guard::HostPolicy;
pub use highlight::{Copied, Mark, MarkKind, copied};
pub use server::{ServeOptions, Server, serve};
pub use store::{Decided, Decision, Refused, Store};
pub use view::{
    CaseDetail, CaseSummary, Explain, Flag, Passage, REASON_FIELD, detail, in_review_order, review_rank,
    status, summary,
};

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;

use crate::corpus::Corpus;
use crate::testset::TestSet;

/// The summary and every case card as one HTML file that needs nothing else (read-only).
pub fn static_html(set: &TestSet, corpus: Option<&Corpus>) -> String {
    static_html_with(set, corpus, None, None, "ragsynth report")
}

/// [`static_html`] with rule explanations, the audit's synthetic-vs-real verdict shown atop
/// the summary, and a title.
pub fn static_html_with(
    set: &TestSet,
    corpus: Option<&Corpus>,
    explain: Option<Explain>,
    lexical_verdict: Option<&str>,
    title: &str,
) -> String {
    // The page opens on what waits for review, then the rest.
    let cases: Vec<CaseSummary> = in_review_order(&set.cases).into_iter().map(summary).collect();
    let details: BTreeMap<&str, CaseDetail> = set
        .cases
        .iter()
        .map(|c| (c.id.as_str(), detail(c, corpus, explain)))
        .collect();
    let codes: BTreeSet<&String> = cases.iter().flat_map(|c| &c.flags).collect();
    let explanations: BTreeMap<&String, String> = codes
        .into_iter()
        .filter_map(|c| explain.and_then(|e| e(c)).map(|e| (c, e)))
        .collect();
    page::standalone(
        title,
        &json!({
            "mode": "static",
            "file": title,
            "corpus": corpus.map(|c| c.root.display().to_string()),
            "cases": cases,
            "details": details,
            "explanations": explanations,
            "lexical_verdict": lexical_verdict,
        }),
    )
}
