//! RS101 `copied-phrase`: the question copies a phrase from its source.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::overlap::{is_copied_phrase, run_length};

pub const INFO: RuleInfo = RuleInfo {
    code: "RS101",
    name: "copied-phrase",
    summary: "The question copies a run of words verbatim from its labelled source",
    doc: "\
**What it flags**: a question containing a run of at least `copied_run` (default 4) consecutive
words, `copied_run_content` (default 3) of them not stopwords, found verbatim in the chunk(s)
of its labelled source. Words are lower-cased and punctuation is ignored. A name is not
wording: words written with a capital letter inside the question (\"Large Language Models
(LLMs)\", \"Part 8: Building Feedback Loops\") do not count as content words, and a hyphenated
compound (\"peer-to-peer\") counts as one word. A multi-hop case (`hops`) is read against its
last hop's passage: it reaches the first by saying what that passage says (HotpotQA's \"the
player named 2015 Diamond Head Classic's MVP\"), and copying those words is how it points there.

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
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let cfg = input.config;
    let q = &input.case.question;
    let run = input
        .figures
        .runs
        .iter()
        .find(|r| is_copied_phrase(q, r, cfg.copied_run, cfg.copied_run_content, input.language))?;
    Some(Hit {
        message: format!(
            "copies {} from its source: \"{}\"",
            run_length(run, input.language),
            &q[run.question.clone()]
        ),
        highlight: Some(run.question.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;
    use crate::lang::Language;
    use crate::wording::overlap::own_wording;

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

    #[test]
    fn a_multi_hop_question_may_copy_its_first_hops_words_not_its_last() {
        use super::super::fixture::hops;
        // Hop 1 (prune.md) leads to the prune; hop 2 (retention.md) says something about it.
        let case = |question: &str| {
            hops(
                question,
                ("prune.md", "the space is actually released by the next prune"),
                ("retention.md", "Snapshots are kept for 30 days on the free plan."),
            )
        };
        passes(
            check,
            &case("how long are snapshots around before the step where the space is actually released"),
        );
        assert!(
            flags(
                check,
                &case("are snapshots kept for 30 days on the free plan before the step that frees space")
            )
            .contains("kept for 30 days on the free plan")
        );
    }

    #[test]
    fn a_name_or_compound_copied_as_anyone_would_type_it_is_not_wording() {
        let quote = "The archive tier of Tidepool is called Glacier Vault and keeps data for ten years.";
        // "tidepool is called glacier vault": five copied words, but three of them a name.
        passes(
            check,
            &labelled(
                "Since when is Tidepool is called Glacier Vault?",
                "retention.md",
                quote,
            ),
        );
        let q = "Why use a peer-to-peer network for sync?";
        let run = q.find("a peer").unwrap()..q.find(" for").unwrap();
        assert_eq!(own_wording(q, run, Language::ENGLISH.analyzer()), (3, 2));
        let q = "Why does Retrieval-Augmented Generation (RAG) need evaluating?";
        let run = q.find("Retrieval").unwrap()..q.find(") need").unwrap();
        assert_eq!(own_wording(q, run, Language::ENGLISH.analyzer()), (3, 0));
    }
}
