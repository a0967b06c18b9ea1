//! Wording checks that the generator (to turn candidates away) and the auditor (to flag cases)
//! share, so a question `generate` writes can never be one `audit` flags for the same reason.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::text::content_terms;

/// Where a question points at the material its writer was shown — "the passage", "this
/// document", "according to the text" — which a user of a RAG system has never seen. The idiom
/// "in the context of" is not a reference.
pub fn meta_reference(question: &str) -> Option<Range<usize>> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(the|this|that|given|above|following|provided)\s+(passage|text|document|article|paragraph|context|excerpt|section|snippet|chunk)s?\b",
        )
        .expect("valid regex")
    });
    re.find_iter(question)
        .find(|m| !is_context_idiom(question, m.range()))
        .map(|m| m.range())
}

/// "in the context of": a figure of speech, not a pointer at a passage.
fn is_context_idiom(question: &str, m: Range<usize>) -> bool {
    let lower = question.to_lowercase();
    let matched = &lower[m.clone()];
    matched.ends_with("context")
        && lower[..m.start].trim_end().ends_with(" in")
        && lower[m.end..].trim_start().starts_with("of ")
}

/// Whether a short answer is already in its question: every content word (stemmed, not a
/// stopword) of an answer of 1 to 6 of them occurs in the question. "Yes" is not counted.
pub fn restates_answer(question: &str, answer: &str) -> bool {
    let terms = content_terms(answer);
    if terms.is_empty() || terms.len() > 6 || matches!(terms.as_slice(), [t] if t == "yes") {
        return false;
    }
    let q: HashSet<String> = content_terms(question).into_iter().collect();
    terms.iter().all(|t| q.contains(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_references_are_found_and_the_idiom_is_not() {
        let q = "According to the passage, how long are snapshots kept?";
        assert_eq!(&q[meta_reference(q).unwrap()], "the passage");
        assert!(meta_reference("What does the provided context say about keys?").is_some());
        assert!(meta_reference("How is a lock used in the context of a prune?").is_none());
        assert!(meta_reference("How long are snapshots kept on the free plan?").is_none());
    }

    #[test]
    fn an_answer_in_its_question() {
        assert!(restates_answer(
            "Is the archive tier of Tidepool called Glacier Vault?",
            "Glacier Vault"
        ));
        assert!(!restates_answer(
            "What is the archive tier called?",
            "Glacier Vault"
        ));
        assert!(!restates_answer("Is it on?", "Yes"));
    }
}
