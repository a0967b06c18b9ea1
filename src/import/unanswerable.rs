//! Whether a real question's row says the corpus does not answer it. Users' files say so in one
//! of four ways: a type column (`type: unanswerable`), a yes/no column (`unanswerable`,
//! `is_impossible` as SQuAD 2.0 names it, or `answerable` the other way round), an empty
//! `relevant` list (a JSON Lines row written by a script), or only in the answer, as a person
//! fills in a spreadsheet: "not in the docs".
//!
//! The columns are read in every language. The answer is read conservatively, and only in
//! English: the whole answer (case, white space, quotes and a closing full stop aside) must be
//! one of a few statements that the documentation lacks it ("not in the docs", "not documented",
//! "the docs don't say", "no answer", "I don't know"), optionally after a bare "No,". An answer
//! that says more ("Not in the docs, but the API has an endpoint for it") may hold an answer
//! and stays answerable, and so does a row that names a document or quotes one: those say where
//! the answer is. A row a column calls answerable is never read from its answer.

use std::sync::LazyLock;

use regex::Regex;

use super::rows::Row;
use crate::testset::QuestionType;

/// Why a row is read as unanswerable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Because {
    /// Its type column says `unanswerable`.
    Type,
    /// A yes/no column says so (`unanswerable: yes`, `is_impossible: true`, `answerable: no`).
    Column(String),
    /// Its `relevant` list is empty.
    EmptyRelevant,
    /// Its answer says the documentation does not have it.
    Answer(String),
}

/// Why `row` is unanswerable, or `None` when nothing in it says so.
pub fn because(row: &Row) -> Option<Because> {
    if row.kind.as_deref() == Some(QuestionType::Unanswerable.as_str()) {
        return Some(Because::Type);
    }
    match &row.answerable {
        Some((column, false)) if column == "relevant" => return Some(Because::EmptyRelevant),
        Some((column, false)) => return Some(Because::Column(column.clone())),
        Some((_, true)) => return None,
        None => {}
    }
    let answer = row.answer.as_deref()?;
    (row.doc.is_none() && row.quote.is_none() && row.kind.is_none() && says_absent(answer))
        .then(|| Because::Answer(answer.to_string()))
}

/// Whether an English `answer` is, as a whole, a statement that the documentation does not
/// have the answer.
pub fn says_absent(answer: &str) -> bool {
    static ABSENT: LazyLock<Regex> = LazyLock::new(|| {
        let docs = r"(?:the\s+)?(?:docs?|documentation|manual|corpus|knowledge\s*base|kb|sources?)";
        let not = r"(?:do\s+not|does\s+not|don't|doesn't|dont|doesnt)";
        Regex::new(&format!(
            r"^(?:no\s*[,;:.—–-]\s*)?(?:(?:it's|it\s+is|this\s+is|that's|that\s+is)\s+)?(?:(?:not|nowhere)\s+(?:(?:in|covered\s+(?:in|by)|mentioned\s+in|documented\s+in|found\s+in|stated\s+in|answered\s+(?:in|by))\s+{docs}|documented)|undocumented|{docs}\s+{not}\s+(?:say|cover|mention|answer)(?:\s+(?:it|this|that))?|no\s+answer(?:\s+present)?|unanswerable|not\s+answerable|i\s+(?:don't|do\s+not|dont)\s+know)$"
        ))
        .expect("valid regex")
    });
    let a = answer
        .trim()
        .replace(['\u{2019}', '\u{2018}'], "'")
        .to_lowercase();
    let a = a
        .trim_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '[' | ']'))
        .trim_end_matches(['.', '!'])
        .trim();
    let a = a.split_whitespace().collect::<Vec<_>>().join(" ");
    ABSENT.is_match(&a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_answer_saying_the_docs_lack_it_is_unanswerable() {
        for a in [
            "not in the docs",
            "Not in the docs.",
            "NOT IN THE DOCUMENTATION",
            "No, not in the docs",
            "No - not documented",
            "not documented",
            "Undocumented.",
            "The docs don't say.",
            "the documentation does not cover it",
            "docs don\u{2019}t mention this",
            "it's not covered by the documentation",
            "\"not in the knowledge base\"",
            "No answer present.",
            "Unanswerable",
            "I don't know",
        ] {
            assert!(says_absent(a), "{a}");
        }
    }

    #[test]
    fn an_answer_that_says_more_or_something_else_is_answerable() {
        for a in [
            "Not in the docs, but the API has an endpoint for it",
            "No; agent needs macOS 13 Ventura or later",
            "not in the free plan",
            "No",
            "n/a",
            "unknown",
            "The docs say 30 days",
            "not supported",
            "Nicht in der Dokumentation",
        ] {
            assert!(!says_absent(a), "{a}");
        }
    }

    fn row(answer: &str) -> Row {
        Row {
            line: 2,
            question: Some("is there an iphone app".into()),
            answer: Some(answer.into()),
            ..Row::default()
        }
    }

    #[test]
    fn columns_come_first_and_a_named_source_keeps_a_row_answerable() {
        assert_eq!(
            because(&row("not in the docs")),
            Some(Because::Answer("not in the docs".into()))
        );
        let mut r = row("not in the docs");
        r.doc = Some("faq.md".into());
        assert_eq!(because(&r), None);
        let mut r = row("not in the docs");
        r.answerable = Some(("answerable".into(), true));
        assert_eq!(because(&r), None);
        let mut r = row("30 days");
        r.answerable = Some(("is_impossible".into(), false));
        assert_eq!(because(&r), Some(Because::Column("is_impossible".into())));
        r.answerable = Some(("relevant".into(), false));
        assert_eq!(because(&r), Some(Because::EmptyRelevant));
        r.kind = Some("unanswerable".into());
        assert_eq!(because(&r), Some(Because::Type));
    }
}
