//! `ragsynth eval`: scores a RAG system's retrieval run against the test set.
//!
//! The pieces, in the order data flows: [`run`] reads what the system retrieved, [`questions`]
//! reads what should have been retrieved (a test set, or TREC qrels), [`relevance`] decides which
//! retrieved items count, [`metrics`] turns a judged ranking into numbers, [`report`] averages
//! them overall and per tag and renders them, and [`baseline`] compares two reports for a CI gate.
//! [`ranking`] compares several runs' reports: do the set's real and synthetic questions rank
//! the systems alike?
//! [`answers`] scores the answers a system gave (`--answers`) the same way.
//!
//! Semantics a user relies on:
//! - a question of the test set that the run does not mention scores 0 on every metric
//!   (`trec_eval` would silently leave it out unless given `-c`); [`EvalOptions::skip_missing`]
//!   restores `trec_eval`'s behaviour;
//! - unanswerable questions (no label) are not averaged in; they are counted, and the run's mean
//!   top-1 score on them is reported next to the answerable questions' when the run has scores.

pub mod answers;
pub mod baseline;
pub mod metrics;
pub mod questions;
pub mod ranking;
pub mod relevance;
pub mod report;
pub mod run;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use crate::corpus::Corpus;
use crate::testset::{Selection, Split, TestSet};
use crate::workspace::ChunkedCorpus;
pub use metrics::Metrics;
pub use questions::Question;
pub use relevance::{Resolver, Rule};
pub use report::{EvalReport, QuestionResult};
pub use run::Run;

/// Default cutoffs.
pub const DEFAULT_KS: [usize; 4] = [1, 3, 5, 10];

/// What to score and how.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Cutoffs for P@k, recall@k, hit@k and nDCG@k.
    pub ks: Vec<usize>,
    /// Only questions of this split (`None`: all).
    pub split: Option<Split>,
    /// The relevance rule.
    pub rule: Rule,
    /// Leave out questions the run does not mention instead of scoring them 0 (`trec_eval`
    /// without `-c`).
    pub skip_missing: bool,
    /// Which cases of a test set count: the same as `run` asks.
    pub selection: Selection,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            ks: DEFAULT_KS.to_vec(),
            split: Some(Split::Dev),
            rule: Rule::default(),
            skip_missing: false,
            selection: Selection::default(),
        }
    }
}

/// Scores `run` against `questions`. Span labels need `resolver` (built over the corpus and the
/// test set's chunking) to turn run items into spans; docid labels (qrels) do not.
pub fn evaluate(
    questions: &[Question],
    run: &Run,
    resolver: Option<&mut Resolver>,
    options: &EvalOptions,
) -> crate::Result<EvalReport> {
    let selected: Vec<&Question> = questions
        .iter()
        .filter(|q| options.split.is_none_or(|s| q.split == s))
        .collect();
    let spans = match resolver {
        Some(r)
            if selected.iter().any(|q| {
                q.labels
                    .iter()
                    .any(|l| matches!(l.target, questions::Target::Span { .. }))
            }) =>
        {
            Some(r.resolve_run(run, &options.rule)?)
        }
        _ => None,
    };
    let judged = relevance::judge_all(&selected, run, spans.as_deref(), &options.rule);
    let in_set: FxHashSet<&str> = questions.iter().map(|q| q.id.as_str()).collect();
    let not_in_set = run
        .queries
        .iter()
        .filter(|(q, _)| !in_set.contains(q.as_str()))
        .count();

    let results: Vec<QuestionResult> = selected
        .par_iter()
        .zip(judged)
        .map(|(q, (judged, unresolved))| {
            let items = run.get(&q.id);
            let top_score = items.and_then(|i| i.first()).and_then(|r| r.score());
            let level = options.rule.level;
            let relevant_labels = q.labels.iter().filter(|l| l.grade >= level).count();
            let unanswerable = relevant_labels == 0;
            let metrics = match (&judged, unanswerable) {
                (_, true) => None,
                (Some(list), false) => {
                    let grades: Vec<f64> = q.labels.iter().map(|l| l.grade as f64).collect();
                    Some(metrics::compute(list, &grades, relevant_labels, &options.ks))
                }
                (None, false) => Some(Metrics::zero(&options.ks)),
            };
            QuestionResult {
                id: q.id.clone(),
                tags: q.tags.clone(),
                in_run: judged.is_some(),
                retrieved: items.map_or(0, <[_]>::len),
                first_relevant: judged
                    .as_ref()
                    .and_then(|l| l.iter().position(|j| j.relevant))
                    .map(|p| p + 1),
                labels: relevant_labels,
                found: judged
                    .as_ref()
                    .map_or(0, |l| l.iter().map(|j| j.found as usize).sum()),
                top_score,
                unresolved,
                metrics,
            }
        })
        .collect();
    Ok(EvalReport::build(results, options, not_in_set, run.has_scores()))
}

/// Scores `run` against the questions of `set`: labels are resolved through `corpus` (when
/// there is one) and chunk ids through `chunks`, the corpus cut under the set's chunking (when
/// it names one).
pub fn evaluate_testset(
    set: &TestSet,
    corpus: Option<&Corpus>,
    chunks: Option<&ChunkedCorpus>,
    run: &Run,
    options: &EvalOptions,
) -> crate::Result<EvalReport> {
    let mut resolver = Resolver::new(corpus, chunks);
    let mut report = evaluate(
        &questions::from_testset(set, corpus, options.selection),
        run,
        Some(&mut resolver),
        options,
    )?;
    report.left_out = options
        .selection
        .left_out(set)
        .into_iter()
        .map(|(review, n)| (review.as_str().to_string(), n))
        .collect();
    Ok(report)
}
