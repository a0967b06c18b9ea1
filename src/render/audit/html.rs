//! An audit report as one self-contained HTML page for sharing: the review page's summary
//! (headed by the synthetic-vs-real verdict) and case cards, read-only, each case showing its
//! own findings and figures and each rule explained.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::audit::{self, AuditReport, WriteScope, rules};
use crate::corpus::Corpus;
use crate::testset::TestSet;

/// Renders the report over `set` as a page titled `title`.
pub fn html(report: &AuditReport, set: &TestSet, corpus: Option<&Corpus>, title: &str) -> String {
    // The page reads flags and figures from each case's `audit` field: fill them in a copy,
    // whatever --write says, so the set itself is untouched.
    let mut shown = set.clone();
    audit::write_back(&mut shown, report, WriteScope::All);
    with_messages(&mut shown, report);
    let verdict = report.summary.comparison.as_ref().map(|c| c.verdict.as_str());
    crate::review::static_html_with(&shown, corpus, Some(rules::explanation), verdict, title)
}

/// Turns each flag code into `{code, message}` with the case's own finding (its figures: the
/// copied phrase, the rank, the other chunk), so the page shows those first and the rule's
/// general text only as its explanation.
fn with_messages(set: &mut TestSet, report: &AuditReport) {
    let mut messages: HashMap<(&str, &str), &str> = HashMap::new();
    for f in &report.findings {
        if let Some(case) = &f.case {
            messages.entry((case.as_str(), f.code)).or_insert(&f.message);
        }
    }
    for case in &mut set.cases {
        let Some(Value::Array(flags)) = case.audit.as_mut().and_then(|a| a.get_mut("flags")) else {
            continue;
        };
        for flag in flags.iter_mut() {
            if let Value::String(code) = flag
                && let Some(message) = messages.get(&(case.id.as_str(), code.as_str()))
            {
                *flag = json!({"code": code, "message": message});
            }
        }
    }
}
