//! RS601 `uncovered-documents`: documents no case points at.

use std::collections::HashSet;

use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS601",
    name: "uncovered-documents",
    summary: "Documents of the corpus that no case labels",
    doc: "\
**What it flags**: the documents of the corpus that no label of any case points at (one
finding for the set, naming up to ten; `--format json` and the coverage table list them all).

**Why it matters**: a retriever is never tested on what the set does not cover; generators
tend to draw most questions from a few long files.

**Example**: 13 documents, 4 never labelled: `billing.md`, `faq.md`, ...",
    severity: Severity::Info,
    family: Family::Coverage,
    reads: super::Reads::Any,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    let Some(corpus) = input.cx.corpus.as_ref() else {
        return Vec::new();
    };
    let covered: HashSet<&str> = input
        .set
        .cases
        .iter()
        .flat_map(|c| c.relevant.iter().map(|l| l.doc.as_str()))
        .collect();
    let missing: Vec<&str> = corpus
        .docs
        .iter()
        .map(|d| d.path.as_str())
        .filter(|p| !covered.contains(p))
        .collect();
    if missing.is_empty() {
        return Vec::new();
    }
    let mut names: Vec<String> = missing.iter().take(10).map(|p| format!("`{p}`")).collect();
    if missing.len() > 10 {
        names.push("…".into());
    }
    vec![SetHit {
        case: None,
        message: format!(
            "{} of {} documents are never labelled: {}",
            missing.len(),
            corpus.docs.len(),
            names.join(", ")
        ),
    }]
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{labelled, on_set};
    use super::*;

    #[test]
    fn names_the_documents_no_label_points_at_and_not_the_covered_ones() {
        let retention = labelled("How long are snapshots kept?", "retention.md", "kept for 30 days");
        let hits = on_set(check, vec![retention.clone()]);
        let message = &hits[0].message;
        assert!(
            message.starts_with("4 of 5 documents are never labelled: `billing.md`"),
            "{message}"
        );
        assert!(!message.contains("retention.md"), "{message}");
        let billing = labelled("What does the Team plan cost?", "billing.md", "costs 8 euros");
        let install = labelled("Which port?", "install.md", "open port 8750");
        let retencion = labelled("¿Cuánto duran?", "retencion.md", "se conservan durante 30 días");
        let prune = labelled("When is space freed?", "prune.md", "released by the next prune");
        assert!(on_set(check, vec![retention, billing, install, retencion, prune]).is_empty());
    }
}
