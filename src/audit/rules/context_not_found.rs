//! RS406 `context-not-found`: a context passage its generator gave is not in the corpus.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS406",
    name: "context-not-found",
    summary: "A context passage the generator gave is nowhere in the corpus",
    doc: "\
**What it flags**: a case imported from another tool (or audited as its export) with passages
under `unlocated`: contexts that were found neither exactly, nor with white space, case,
punctuation and hyphenation set aside, nor fuzzily (similarity ≥ 0.8) in any document.

**Why it matters**: the case claims an answer in a passage no retriever can return from this
corpus — it was cut from another version of the documents, rewritten by the generator, or
comes from a file missing here. It is not an unanswerable question (so RS502/RS504 leave it
alone), but its labels are incomplete until a person finds the passage or drops it.

**Example**: a Ragas multi-hop case whose second hop quotes a page of a PDF that is not in
`--corpus`.",
    severity: Severity::Warning,
    family: Family::Labels,
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let n = input.case.unlocated();
    if n == 0 || input.cx.corpus.is_none() {
        return None;
    }
    let first = input
        .case
        .extra
        .get(crate::testset::foreign::convert::UNLOCATED)
        .and_then(|u| u.get(0)?.get("text")?.as_str())
        .unwrap_or("");
    let words: Vec<&str> = first.split_whitespace().take(10).collect();
    Some(Hit::new(format!(
        "{n} context passage(s) not found in the corpus (the first begins \"{}…\"); {} located",
        words.join(" "),
        input.case.relevant.len()
    )))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_a_passage_not_found_and_not_a_located_case() {
        let mut c = labelled("How long are snapshots kept?", "retention.md", "kept for 30 days");
        passes(check, &c);
        c.extra.insert(
            "unlocated".into(),
            serde_json::json!([{"text": "Backups of the payroll system are mirrored to a second region nightly."}]),
        );
        let m = flags(check, &c);
        assert!(m.starts_with("1 context passage(s) not found"), "{m}");
        assert!(m.contains("\"Backups of the payroll system"), "{m}");
        assert!(!c.is_unanswerable());
    }
}
