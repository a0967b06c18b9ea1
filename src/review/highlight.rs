//! Which words a question copies from its source passages, so a reviewer sees at a glance how
//! much of the question was lifted from the text it was written beside.
//!
//! Two kinds of mark: a *run* is two or more consecutive question tokens found in the same order
//! in a passage (at least one of them a content word, so "of the" alone is no run); a *word* is a
//! single content word of the question whose stem occurs in the passage. Runs win where both
//! apply. Offsets are in characters (Unicode scalar values), like the labels of the test set.

use std::collections::HashMap;

use serde::Serialize;

use crate::lang::Language;
use crate::text::{Token, tokens};

/// How a marked stretch of text is copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// A single content word (matched by stem).
    Word,
    /// Part of a run of two or more consecutive tokens.
    Run,
}

/// A marked stretch of text, in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// Start (inclusive).
    pub start: usize,
    /// End (exclusive).
    pub end: usize,
    /// Run or single word.
    pub kind: MarkKind,
}

/// The copied words of a question, on both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Copied {
    /// Marks in the question.
    pub question: Vec<Mark>,
    /// Marks in each passage, in the order the passages were given.
    pub passages: Vec<Vec<Mark>>,
    /// Length in tokens of the longest run copied from any one passage.
    pub longest_run: usize,
}

/// Finds what `question` copies from each of `passages`.
pub fn copied(question: &str, passages: &[&str], language: Language) -> Copied {
    let words = language.analyzer();
    let q = tokens(question);
    let mut q_marks: Vec<Option<MarkKind>> = vec![None; q.len()];
    let mut out = Vec::with_capacity(passages.len());
    let mut longest_run = 0;
    for passage in passages {
        let s = tokens(passage);
        let mut s_marks: Vec<Option<MarkKind>> = vec![None; s.len()];
        let mut by_word: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_stem: HashMap<String, Vec<usize>> = HashMap::new();
        for (j, t) in s.iter().enumerate() {
            by_word.entry(t.norm.as_str()).or_default().push(j);
            if !words.is_stopword(&t.norm) {
                by_stem.entry(words.stem(&t.norm)).or_default().push(j);
            }
        }
        let mut i = 0;
        while i < q.len() {
            // The longest run starting at question token i, and everywhere the passage has it.
            let (mut len, mut starts) = (0, Vec::new());
            for &j in by_word.get(q[i].norm.as_str()).map(Vec::as_slice).unwrap_or(&[]) {
                let l = q[i..]
                    .iter()
                    .zip(&s[j..])
                    .take_while(|(a, b)| a.norm == b.norm)
                    .count();
                if l > len {
                    (len, starts) = (l, vec![j]);
                } else if l == len {
                    starts.push(j);
                }
            }
            if len >= 2 && q[i..i + len].iter().any(|t| !words.is_stopword(&t.norm)) {
                longest_run = longest_run.max(len);
                q_marks[i..i + len].fill(Some(MarkKind::Run));
                for j in starts {
                    s_marks[j..j + len].fill(Some(MarkKind::Run));
                }
                i += len;
                continue;
            }
            if !words.is_stopword(&q[i].norm)
                && let Some(hits) = by_stem.get(&words.stem(&q[i].norm))
            {
                q_marks[i] = q_marks[i].max(Some(MarkKind::Word));
                for &j in hits {
                    s_marks[j] = s_marks[j].max(Some(MarkKind::Word));
                }
            }
            i += 1;
        }
        out.push(to_marks(passage, &s, &s_marks));
    }
    Copied {
        question: to_marks(question, &q, &q_marks),
        passages: out,
        longest_run,
    }
}

/// Turns per-token marks into character ranges; consecutive run tokens become one range that
/// covers the spaces and punctuation between them.
fn to_marks(text: &str, toks: &[Token<'_>], marks: &[Option<MarkKind>]) -> Vec<Mark> {
    let mut out: Vec<Mark> = Vec::new();
    let mut chars_before = 0;
    let mut last_byte = 0;
    let mut prev_run = false;
    for (t, m) in toks.iter().zip(marks) {
        chars_before += text[last_byte..t.byte].chars().count();
        let start = chars_before;
        let end = start + t.raw.chars().count();
        chars_before = end;
        last_byte = t.byte + t.raw.len();
        match m {
            Some(MarkKind::Run) if prev_run => {
                if let Some(last) = out.last_mut() {
                    last.end = end;
                }
            }
            Some(kind) => out.push(Mark {
                start,
                end,
                kind: *kind,
            }),
            None => {}
        }
        prev_run = *m == Some(MarkKind::Run);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked<'a>(text: &'a str, marks: &[Mark]) -> Vec<(&'a str, MarkKind)> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let byte = |c: usize| chars.get(c).map(|p| p.0).unwrap_or(text.len());
        marks
            .iter()
            .map(|m| (&text[byte(m.start)..byte(m.end)], m.kind))
            .collect()
    }

    #[test]
    fn a_spanish_question_is_marked_with_spanish_words() {
        let q = "¿Dónde se abre la cuenta de ahorro en línea?";
        let p = "La cuenta de ahorro se abre en cualquier sucursal.";
        let c = copied(q, &[p], Language::parse("es").unwrap());
        // Two runs side by side ("se abre", "la cuenta de ahorro") read as one mark; "en" alone
        // is a Spanish function word and "línea" is not in the passage.
        assert_eq!(
            marked(q, &c.question),
            [("se abre la cuenta de ahorro", MarkKind::Run)]
        );
    }

    #[test]
    fn marks_runs_and_single_content_words_on_both_sides() {
        let q = "How long are snapshots kept on the Community plan?";
        let p = "On the Community plan, snapshots older than 30 days are forgotten.";
        let c = copied(q, &[p], Language::ENGLISH);
        assert_eq!(
            marked(q, &c.question),
            [
                ("snapshots", MarkKind::Word),
                ("on the Community plan", MarkKind::Run)
            ]
        );
        assert_eq!(
            marked(p, &c.passages[0]),
            [
                ("On the Community plan", MarkKind::Run),
                ("snapshots", MarkKind::Word)
            ]
        );
        assert_eq!(c.longest_run, 4);
    }

    #[test]
    fn stopword_only_runs_and_stopwords_are_not_marks() {
        let c = copied(
            "What is in the box?",
            &["Nothing is in the drawer."],
            Language::ENGLISH,
        );
        assert!(c.question.is_empty(), "{:?}", c.question);
        assert_eq!(c.longest_run, 0);
    }

    #[test]
    fn single_words_match_by_stem_and_offsets_are_characters() {
        let q = "Café returns?";
        let p = "Le café: returned items.";
        let c = copied(q, &[p], Language::ENGLISH);
        assert_eq!(
            marked(q, &c.question),
            [("Café", MarkKind::Word), ("returns", MarkKind::Word)]
        );
        assert_eq!(
            marked(p, &c.passages[0]),
            [("café", MarkKind::Word), ("returned", MarkKind::Word)]
        );
        // "Le café" — the mark starts at character 3, not at byte 3 of a multi-byte text.
        assert_eq!(c.passages[0][0].start, 3);
        assert_eq!(c.passages[0][1].start, 9);
    }

    #[test]
    fn every_passage_gets_its_own_marks() {
        let c = copied(
            "Which port does the agent use?",
            &["The agent uses port 8751.", "Nothing here."],
            Language::ENGLISH,
        );
        assert_eq!(c.passages.len(), 2);
        assert!(!c.passages[0].is_empty());
        assert!(c.passages[1].is_empty());
    }
}
