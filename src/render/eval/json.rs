//! An evaluation as JSON: the report (also the baseline file, with the comparison under
//! `comparison`) and JSON Lines with one question each.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Map, Value, json};

use crate::eval::baseline::{Comparison, Delta};
use crate::eval::{EvalReport, Metrics, QuestionResult};

/// The report as JSON; also the baseline file format. `extra` keys (the baseline
/// comparison) are appended. Written straight to `out`: a report of 100,000 questions never
/// exists as a JSON tree in memory.
pub fn report(
    r: &EvalReport,
    out: &mut dyn std::io::Write,
    extra: Option<(&str, &Value)>,
) -> std::io::Result<()> {
    let names: Vec<String> = r.overall.named(&r.ks).into_iter().map(|(n, _)| n).collect();
    let doc = ReportJson {
        ks: &r.ks,
        split: &r.split,
        scored: r.scored,
        metrics: Metrics::to_map(&r.overall, &r.ks),
        by_tag: r
            .groups
            .iter()
            .map(|g| json!({"tag": g.tag, "value": g.value, "n": g.n, "metrics": Metrics::to_map(&g.metrics, &r.ks)}))
            .collect(),
        unanswerable: json!({
            "count": r.unanswerable.count,
            "in_run": r.unanswerable.in_run,
            "mean_top_score": r.unanswerable.mean_top_score,
            "answerable_mean_top_score": r.unanswerable.answerable_mean_top_score,
        }),
        missing_from_run: &r.missing,
        missing_scored_zero: !r.skip_missing,
        not_in_test_set: r.not_in_set,
        unresolved_items: r.unresolved,
        not_selected: r.left_out.iter().map(|(s, n)| (s.as_str(), *n)).collect(),
        questions: r.questions.iter().map(|q| QuestionJson::new(q, &names)).collect(),
        extra: extra.into_iter().collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

/// One JSON line per question (the `--out` file). RR and AP are named so.
pub fn questions(r: &EvalReport, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let names: Vec<String> = r.overall.named(&r.ks).into_iter().map(|(n, _)| n).collect();
    for q in &r.questions {
        serde_json::to_writer(&mut *out, &QuestionJson::new(q, &names))?;
        writeln!(out)?;
    }
    Ok(())
}

/// A baseline comparison as JSON (the `comparison` key of the report).
pub fn comparison(c: &Comparison) -> Value {
    let delta = |d: &Delta| json!({"scope": d.scope, "metric": d.metric, "before": d.before, "now": d.after, "change": d.change()});
    json!({
        "tolerance": c.tolerance,
        "failed": c.failed(),
        "regressed": c.regressions().into_iter().map(|d| d.metric.clone()).collect::<Vec<_>>(),
        "overall": c.overall.iter().map(delta).collect::<Vec<_>>(),
        "by_tag": c.groups.iter().map(delta).collect::<Vec<_>>(),
        "dropped_questions": c.dropped.iter().map(|q| json!({
            "id": q.id, "rr": [q.rr.0, q.rr.1], format!("recall@{}", c.recall_k): [q.recall.0, q.recall.1],
        })).collect::<Vec<_>>(),
    })
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
    /// Cases of the set not scored, per review state (`run` does not ask them either).
    not_selected: BTreeMap<&'a str, usize>,
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
