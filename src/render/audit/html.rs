//! An audit report as one self-contained HTML page for sharing: the review page's summary and
//! case cards, read-only, each case showing its flags and figures and each rule explained.

use crate::audit::{self, AuditReport, WriteScope, rules};
use crate::corpus::Corpus;
use crate::testset::TestSet;

/// Renders the report over `set` as a page titled `title`.
pub fn html(report: &AuditReport, set: &TestSet, corpus: Option<&Corpus>, title: &str) -> String {
    // The page reads flags and figures from each case's `audit` field: fill them in a copy,
    // whatever --write says, so the set itself is untouched.
    let mut shown = set.clone();
    audit::write_back(&mut shown, report, WriteScope::All);
    crate::review::static_html_with(&shown, corpus, Some(rules::explanation), title)
}
