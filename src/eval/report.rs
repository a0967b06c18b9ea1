//! Averages per-question results overall and per tag, and renders them: a table for people,
//! JSON for machines (the same JSON is the baseline file), JSON Lines per question.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Map, Value, json};

use super::Options;
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
pub struct Report {
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
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

impl Report {
    /// Averages the per-question results.
    pub fn build(
        questions: Vec<QuestionResult>,
        options: &Options,
        not_in_set: usize,
        scored_run: bool,
    ) -> Report {
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
        Report {
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
        }
    }

    /// The largest cutoff (the one regressions are listed at).
    pub fn max_k(&self) -> usize {
        self.ks.iter().copied().max().unwrap_or(0)
    }

    /// The report as JSON; also the baseline file format. `extra` keys (the baseline
    /// comparison) are appended. Written straight to `out`: a report of 100,000 questions never
    /// exists as a JSON tree in memory.
    pub fn write_json(
        &self,
        out: &mut dyn std::io::Write,
        extra: Option<(&str, &Value)>,
    ) -> std::io::Result<()> {
        let names: Vec<String> = self.overall.named(&self.ks).into_iter().map(|(n, _)| n).collect();
        let doc = ReportJson {
            ks: &self.ks,
            split: &self.split,
            scored: self.scored,
            metrics: named_map(&self.overall, &self.ks),
            by_tag: self
                .groups
                .iter()
                .map(|g| json!({"tag": g.tag, "value": g.value, "n": g.n, "metrics": named_map(&g.metrics, &self.ks)}))
                .collect(),
            unanswerable: json!({
                "count": self.unanswerable.count,
                "in_run": self.unanswerable.in_run,
                "mean_top_score": self.unanswerable.mean_top_score,
                "answerable_mean_top_score": self.unanswerable.answerable_mean_top_score,
            }),
            missing_from_run: &self.missing,
            missing_scored_zero: !self.skip_missing,
            not_in_test_set: self.not_in_set,
            unresolved_items: self.unresolved,
            questions: self.questions.iter().map(|q| QuestionJson::new(q, &names)).collect(),
            extra: extra.into_iter().collect(),
        };
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)
    }

    /// One JSON line per question (the `--out` file). RR and AP are named so.
    pub fn write_questions(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let names: Vec<String> = self.overall.named(&self.ks).into_iter().map(|(n, _)| n).collect();
        for q in &self.questions {
            serde_json::to_writer(&mut *out, &QuestionJson::new(q, &names))?;
            writeln!(out)?;
        }
        Ok(())
    }

    /// A table for the terminal.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} questions scored (split: {}); {} unanswerable not scored; {} missing from the run{}",
            self.scored,
            self.split,
            self.unanswerable.count,
            self.missing.len(),
            if self.missing.is_empty() {
                ""
            } else if self.skip_missing {
                " (left out)"
            } else {
                " (scored 0)"
            }
        );
        if self.not_in_set > 0 {
            let _ = writeln!(
                out,
                "{} run questions are not in the test set (ignored)",
                self.not_in_set
            );
        }
        if self.unresolved > 0 {
            let _ = writeln!(
                out,
                "{} run items name nothing in the corpus (not relevant)",
                self.unresolved
            );
        }
        out.push('\n');
        let _ = writeln!(out, "{:<12} {:>7}", "metric", "all");
        for (name, v) in self.overall.named(&self.ks) {
            let _ = writeln!(out, "{name:<12} {v:>7.4}");
        }
        if !self.groups.is_empty() {
            let k = self.max_k();
            let head = [
                format!("recall@{k}"),
                format!("hit@{k}"),
                format!("nDCG@{k}"),
                "MRR".into(),
                "MAP".into(),
            ];
            let width = self
                .groups
                .iter()
                .map(|g| g.tag.len() + g.value.len() + 1)
                .max()
                .unwrap_or(0)
                .max(6);
            let _ = write!(out, "\n{:<width$} {:>5}", "tag", "n");
            for h in &head {
                let _ = write!(out, " {h:>9}");
            }
            out.push('\n');
            for g in &self.groups {
                // Tag values come from the test set: escape what would steer the terminal.
                let label = format!("{}={}", g.tag, crate::terminal::data(&g.value));
                let _ = write!(out, "{label:<width$} {:>5}", g.n);
                for h in &head {
                    let v = g
                        .metrics
                        .named(&self.ks)
                        .into_iter()
                        .find(|(n, _)| n == h)
                        .map_or(0.0, |(_, v)| v);
                    let _ = write!(out, " {v:>9.4}");
                }
                out.push('\n');
            }
        }
        if self.unanswerable.count > 0 {
            let _ = write!(
                out,
                "\nunanswerable: {} ({} in the run)",
                self.unanswerable.count, self.unanswerable.in_run
            );
            if let (Some(u), Some(a)) = (
                self.unanswerable.mean_top_score,
                self.unanswerable.answerable_mean_top_score,
            ) {
                let _ = write!(out, "; mean top-1 score {u:.4} vs {a:.4} on answerable questions");
            }
            out.push('\n');
        }
        out
    }
}

/// Metrics as a JSON object keyed by name.
pub fn named_map(m: &Metrics, ks: &[usize]) -> Map<String, Value> {
    m.named(ks)
        .into_iter()
        .map(|(n, v)| (n, Value::from(v)))
        .collect()
}

#[derive(Serialize)]
struct ReportJson<'a> {
    ks: &'a [usize],
    split: &'a str,
    scored: usize,
    metrics: Map<String, Value>,
    by_tag: Vec<Value>,
    unanswerable: Value,
    missing_from_run: &'a [String],
    missing_scored_zero: bool,
    not_in_test_set: usize,
    unresolved_items: usize,
    questions: Vec<QuestionJson<'a>>,
    #[serde(flatten)]
    extra: BTreeMap<&'a str, &'a Value>,
}

#[derive(Serialize)]
struct QuestionJson<'a> {
    id: &'a str,
    tags: Tags<'a>,
    unanswerable: bool,
    in_run: bool,
    retrieved: usize,
    labels: usize,
    found: usize,
    first_relevant: Option<usize>,
    top_score: Option<f64>,
    unresolved: usize,
    metrics: Option<Named<'a>>,
}

impl<'a> QuestionJson<'a> {
    fn new(q: &'a QuestionResult, names: &'a [String]) -> Self {
        QuestionJson {
            id: &q.id,
            tags: Tags(&q.tags),
            unanswerable: q.metrics.is_none(),
            in_run: q.in_run,
            retrieved: q.retrieved,
            labels: q.labels,
            found: q.found,
            first_relevant: q.first_relevant,
            top_score: q.top_score,
            unresolved: q.unresolved,
            metrics: q.metrics.as_ref().map(|m| Named { names, metrics: m }),
        }
    }
}

struct Tags<'a>(&'a [(&'static str, String)]);

impl Serialize for Tags<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (t, v) in self.0 {
            map.serialize_entry(t, v)?;
        }
        map.end()
    }
}

/// One question's metrics keyed by name (`MRR`/`MAP` written as `RR`/`AP`), without building
/// a map per question.
struct Named<'a> {
    names: &'a [String],
    metrics: &'a Metrics,
}

impl Serialize for Named<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.metrics;
        let values = m.precision.iter().chain(&m.recall).chain(&m.hit).chain(&m.ndcg);
        let mut map = s.serialize_map(Some(self.names.len()))?;
        for (name, v) in self.names.iter().zip(values) {
            map.serialize_entry(name, v)?;
        }
        map.serialize_entry("RR", &m.rr)?;
        map.serialize_entry("AP", &m.ap)?;
        map.end()
    }
}
