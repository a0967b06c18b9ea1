//! RS101 `copied-phrase`: the question copies a phrase from its source.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS101",
    name: "copied-phrase",
    summary: "The question copies a run of words verbatim from its labelled source",
    doc: "\
**What it flags**: a question containing a run of at least `copied_run` (default 4) consecutive
words, `copied_run_content` (default 3) of them not stopwords, found verbatim in the chunk(s)
of its labelled source. Words are lower-cased and punctuation is ignored.

**Why it matters**: a question written while looking at the text reuses its phrasing, and
keyword retrieval then finds the source for free. Real users rarely copy a passage they have
not seen: on public data a 4-word copied run occurs in 5% of real queries and 31% of questions
written beside the passage. A set full of copied phrases flatters BM25 and hides the failures
of the retriever on real wording.

**Example**: source \"Digital goods are eligible for a refund within 14 days\"; question \"Are
digital goods eligible for a refund within 14 days?\" copies \"eligible for a refund within 14
days\" (7 words). A user would ask \"can I get my money back for an e-book?\".",
    severity: Severity::Warning,
    family: Family::Overlap,
    english_only: true,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let cfg = input.config;
    let run = input
        .figures
        .runs
        .iter()
        .find(|r| r.tokens >= cfg.copied_run && r.content_tokens >= cfg.copied_run_content)?;
    let phrase = &input.case.question[run.question.clone()];
    Some(Hit {
        message: format!("copies {} words from its source: \"{phrase}\"", run.tokens),
        highlight: Some(run.question.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_a_phrase_copied_from_the_source_and_not_own_words() {
        let quote = "Snapshots are kept for 30 days on the free plan.";
        let copied = labelled(
            "Are snapshots kept for 30 days on the free plan?",
            "retention.md",
            quote,
        );
        assert!(flags(check, &copied).contains("\"kept for 30 days on the free plan\""));
        passes(
            check,
            &labelled("How long do backups stay around unpaid?", "retention.md", quote),
        );
    }
}
