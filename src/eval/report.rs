//! Averages per-question results overall and per tag ([`EvalReport`]); `crate::render::eval`
//! renders it (a table for people, JSON for machines — the same JSON is the baseline file —
//! and JSON Lines per question).

use std::collections::BTreeMap;

use super::EvalOptions;
use super::metrics::Metrics;

/// One question's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionResult {
    /// Case id.
    pub id: String,
    /// Tags, as `(tag, value)`.
    pub tags: Vec<(&'static str, String)>,
    /// True when the run lists the question.
    pub in_run: bool,
    /// Items the run retrieved for it.
    pub retrieved: usize,
    /// Rank of the first relevant item.
    pub first_relevant: Option<usize>,
    /// Labels at or above the relevance level.
    pub labels: usize,
    /// Labels found anywhere in the ranking.
    pub found: usize,
    /// Score of the top-ranked item, when the run gives scores.
    pub top_score: Option<f64>,
    /// Items that named nothing in the corpus.
    pub unresolved: usize,
    /// Metrics; `None` for an unanswerable question.
    pub metrics: Option<Metrics>,
}

/// Metrics of one tag value.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Tag name (`type`, `topic`, `source`, `split`).
    pub tag: String,
    /// Tag value.
    pub value: String,
    /// Questions averaged.
    pub n: usize,
    /// Mean metrics.
    pub metrics: Metrics,
}

/// Unanswerable questions: not averaged in, reported on their own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unanswerable {
    /// How many the selected split holds.
    pub count: usize,
    /// How many of them the run lists.
    pub in_run: usize,
    /// Mean top-1 retrieval score on them (a system that abstains wants this low).
    pub mean_top_score: Option<f64>,
    /// Mean top-1 score on answerable questions, for comparison.
    pub answerable_mean_top_score: Option<f64>,
}

/// A whole evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalReport {
    /// Cutoffs.
    pub ks: Vec<usize>,
    /// Split scored (`all` when none).
    pub split: String,
    /// Answerable questions averaged.
    pub scored: usize,
    /// Mean over those.
    pub overall: Metrics,
    /// Per tag value, sorted by tag then value.
    pub groups: Vec<Group>,
    /// Unanswerable questions.
    pub unanswerable: Unanswerable,
    /// Answerable questions the run does not list (scored 0 unless skipped).
    pub missing: Vec<String>,
    /// True when missing questions were left out of the averages.
    pub skip_missing: bool,
    /// Questions in the run that the test set does not have.
    pub not_in_set: usize,
    /// Run items that named nothing in the corpus (never relevant).
    pub unresolved: usize,
    /// Every selected question.
    pub questions: Vec<QuestionResult>,
    /// Cases of the test set not selected (as `run` does not ask them), per review state.
    pub left_out: Vec<(String, usize)>,
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

impl EvalReport {
    /// Averages the per-question results.
    pub fn build(
        questions: Vec<QuestionResult>,
        options: &EvalOptions,
        not_in_set: usize,
        scored_run: bool,
    ) -> EvalReport {
        let ks = &options.ks;
        let counted = |q: &&QuestionResult| q.metrics.is_some() && (q.in_run || !options.skip_missing);
        let overall_items: Vec<&QuestionResult> = questions.iter().filter(counted).collect();
        let overall = Metrics::mean(overall_items.iter().filter_map(|q| q.metrics.as_ref()), ks);
        let mut by_tag: BTreeMap<(String, String), Vec<&Metrics>> = BTreeMap::new();
        for q in &overall_items {
            for (tag, value) in &q.tags {
                by_tag
                    .entry((tag.to_string(), value.clone()))
                    .or_default()
                    .extend(q.metrics.as_ref());
            }
        }
        let groups = by_tag
            .into_iter()
            .map(|((tag, value), ms)| Group {
                tag,
                value,
                n: ms.len(),
                metrics: Metrics::mean(ms, ks),
            })
            .collect();
        let unanswerable: Vec<&QuestionResult> = questions.iter().filter(|q| q.metrics.is_none()).collect();
        let top = |qs: &mut dyn Iterator<Item = &QuestionResult>| {
            if scored_run {
                mean(qs.filter_map(|q| q.top_score))
            } else {
                None
            }
        };
        EvalReport {
            ks: ks.clone(),
            split: options
                .split
                .map_or("all".to_string(), |s| s.as_str().to_string()),
            scored: overall_items.len(),
            overall,
            groups,
            unanswerable: Unanswerable {
                count: unanswerable.len(),
                in_run: unanswerable.iter().filter(|q| q.in_run).count(),
                mean_top_score: top(&mut unanswerable.iter().copied()),
                answerable_mean_top_score: top(&mut questions.iter().filter(|q| q.metrics.is_some())),
            },
            missing: questions
                .iter()
                .filter(|q| !q.in_run && q.metrics.is_some())
                .map(|q| q.id.clone())
                .collect(),
            skip_missing: options.skip_missing,
            not_in_set,
            unresolved: questions.iter().map(|q| q.unresolved).sum(),
            questions,
            left_out: Vec::new(),
        }
    }

    /// The largest cutoff (the one regressions are listed at).
    pub fn max_k(&self) -> usize {
        self.ks.iter().copied().max().unwrap_or(0)
    }
}
