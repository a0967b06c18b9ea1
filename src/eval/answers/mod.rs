//! `ragsynth eval --answers`: scores a RAG system's answers against the test set.
//!
//! [`file`] reads the answers (strictly: a bad line is an error naming it), [`squad`] computes
//! the judge-free SQuAD v2 exact match and token F1, [`refusal`] is the lexical "does it
//! decline?" detector, [`report`] averages per case, overall and per tag, and [`baseline`]
//! compares two reports for the CI gate. The LLM judges (`correct`, `refused`, `grounded`) run
//! in [`judged`] and overwrite the per-case verdicts before the figures are recomputed.
//! [`per_question`] reads the per-case file back, [`marks`] keeps a person's marks on its
//! verdicts, and [`calibration`] measures each judge against them.
//!
//! Semantics a user relies on:
//! - a case of the scored split that the file does not answer is *unanswered*: listed, and
//!   scored as wrong (exact match and F1 0, not refused, not correct) so a system that skips
//!   hard questions does not look better; [`AnswerOptions::skip_missing`] leaves them out;
//! - the references of an answerable case are its `answer` and, when present, the strings of
//!   an `answers` list (other acceptable wordings, as SQuAD keeps several); an unanswerable
//!   case's only reference is the empty answer, whatever its `answer` says.

pub mod baseline;
pub mod calibration;
pub mod file;
pub mod judged;
pub mod marks;
pub mod per_question;
pub mod refusal;
pub mod report;
pub mod squad;

use serde_json::Value;

pub use file::{Answer, Answers};
pub use report::{AnswerReport, CaseResult, Figures, Shown};

use crate::testset::{Case, Selection, Split, TestSet};

/// What to score.
#[derive(Debug, Clone, Default)]
pub struct AnswerOptions {
    /// Only cases of this split (`None`: all).
    pub split: Option<Split>,
    /// Leave unanswered cases out of the figures instead of scoring them as wrong.
    pub skip_missing: bool,
    /// Which cases count: the same as `run` asks.
    pub selection: Selection,
}

/// The reference answers of an answerable case: `answer`, then the strings of `answers`.
pub fn references(case: &Case) -> Vec<&str> {
    let extra = case
        .extra
        .get("answers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    case.answer.as_deref().into_iter().chain(extra).collect()
}

/// Scores `answers` against the cases of `set` without a judge.
pub fn score(set: &TestSet, answers: &Answers, options: &AnswerOptions) -> AnswerReport {
    let selected = |c: &&Case| options.split.is_none_or(|s| c.split() == s);
    let questions: Vec<CaseResult> = options
        .selection
        .cases(set)
        .filter(selected)
        .map(|case| score_case(case, answers.by_id.get(&case.id)))
        .collect();
    let other_split = options
        .selection
        .cases(set)
        .filter(|c| !selected(c) && answers.by_id.contains_key(&c.id))
        .count();
    AnswerReport::build(
        questions,
        options
            .split
            .map_or("all".to_string(), |s| s.as_str().to_string()),
        options.skip_missing,
        other_split,
    )
}

fn score_case(case: &Case, answer: Option<&Answer>) -> CaseResult {
    let unanswerable = case.is_unanswerable();
    let refs = if unanswerable {
        Vec::new()
    } else {
        references(case)
    };
    // An answerable case without a reference answer cannot be matched; an unanswerable one
    // always can (against the empty answer).
    let matchable = unanswerable || !refs.is_empty();
    let (exact_match, f1) = match (answer, matchable) {
        (_, false) => (None, None),
        (Some(a), true) => {
            let (em, f1) = squad::score(&refs, &a.answer);
            (Some(em), Some(f1))
        }
        (None, true) => (Some(0.0), Some(0.0)),
    };
    let refused = answer.map(|a| refusal::refused(&a.answer));
    CaseResult {
        id: case.id.clone(),
        tags: crate::eval::questions::tags_of(case),
        unanswerable,
        answered: answer.is_some(),
        exact_match,
        f1,
        refused,
        refused_lexical: refused,
        correct: None,
        grounded: None,
        reasons: Default::default(),
        shown: Shown {
            question: case.question.clone(),
            references: refs.iter().map(|r| r.to_string()).collect(),
            answer: answer.map(|a| a.answer.clone()),
            contexts: answer.and_then(|a| a.contexts.clone()),
        },
    }
}
