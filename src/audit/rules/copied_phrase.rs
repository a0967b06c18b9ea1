//! RS101 `copied-phrase`: the question copies a phrase from its source.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::lang::Analyzer;
use crate::text::tokens;

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
compound (\"peer-to-peer\") counts as one word.

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
    let unspaced = input.language.unspaced();
    let run = input.figures.runs.iter().find(|r| {
        let (words, content) = own_wording(
            &input.case.question,
            r.question.clone(),
            input.language.analyzer(),
        );
        let (words, content) = if unspaced {
            let per_word = input.language.copied_chars_per_word();
            (as_words(words, per_word), as_words(content, per_word))
        } else {
            (words.min(r.tokens), content.min(r.content_tokens))
        };
        words >= cfg.copied_run && content >= cfg.copied_run_content
    })?;
    let phrase = &input.case.question[run.question.clone()];
    let length = if unspaced {
        format!("{} characters", run.tokens + 1)
    } else {
        format!("{} words", run.tokens)
    };
    Some(Hit {
        message: format!("copies {length} from its source: \"{phrase}\""),
        highlight: Some(run.question.clone()),
    })
}

/// (words, content words) of a copied phrase once names and compounds are set apart: on other
/// tools' sets most 4-word runs that were not lifted wording were a term copied as anyone would
/// type it ("Retrieval-Augmented Generation (RAG)", "a peer-to-peer network"), not phrasing.
/// Words a run of `bigrams` character bigrams stands for (n bigrams are n + 1 characters; see
/// [`crate::lang::Language::copied_chars_per_word`]).
fn as_words(bigrams: usize, chars_per_word: f64) -> usize {
    if bigrams == 0 {
        return 0;
    }
    ((bigrams + 1) as f64 / chars_per_word).floor() as usize
}

fn own_wording(question: &str, run: std::ops::Range<usize>, analyzer: &Analyzer) -> (usize, usize) {
    let (mut words, mut content) = (0, 0);
    let mut prev_end = None;
    for t in tokens(&question[run.clone()]) {
        let start = run.start + t.byte;
        // "peer-to-peer": the parts after a hyphen join the word before.
        let joined = prev_end.is_some_and(|end| question.get(end..start) == Some("-"));
        prev_end = Some(start + t.raw.len());
        if joined {
            continue;
        }
        words += 1;
        // A capital inside the question marks a name, except in German, which capitalises
        // every noun.
        let name = start > 0 && t.raw.chars().any(char::is_uppercase) && analyzer.language().code() != "de";
        if !name && !analyzer.is_stopword(&t.norm) {
            content += 1;
        }
    }
    (words, content)
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
        assert_eq!(
            own_wording(q, run, crate::lang::Language::ENGLISH.analyzer()),
            (3, 2)
        );
        let q = "Why does Retrieval-Augmented Generation (RAG) need evaluating?";
        let run = q.find("Retrieval").unwrap()..q.find(") need").unwrap();
        assert_eq!(
            own_wording(q, run, crate::lang::Language::ENGLISH.analyzer()),
            (3, 0)
        );
    }
}
