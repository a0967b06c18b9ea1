//! The CI gate: compares a report with a saved one (the JSON of `--format json` /
//! `--save-baseline`).
//!
//! Headline metrics are the overall ones (every P@k, recall@k, hit@k, nDCG@k, MRR and MAP of the
//! scored split). The gate fails when any of them fell by more than the tolerance (absolute, in
//! metric units). Per-tag changes are shown but do not gate (small groups are noisy). Questions
//! whose RR or recall at the largest cutoff dropped are listed so a reviewer can open them.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::Metrics;
use super::report::EvalReport;
use crate::{Error, Result};

/// One metric before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct Delta {
    /// `all`, or `tag=value`.
    pub scope: String,
    /// Metric name.
    pub metric: String,
    /// Baseline value.
    pub before: f64,
    /// Current value.
    pub after: f64,
}

impl Delta {
    /// `after - before`.
    pub fn change(&self) -> f64 {
        self.after - self.before
    }
}

/// A question that got worse.
#[derive(Debug, Clone, PartialEq)]
pub struct Dropped {
    /// Case id.
    pub id: String,
    /// RR before and after.
    pub rr: (f64, f64),
    /// Recall at the largest cutoff, before and after.
    pub recall: (f64, f64),
}

/// The comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Allowed drop.
    pub tolerance: f64,
    /// Overall metrics present in both reports.
    pub overall: Vec<Delta>,
    /// Per-tag metrics present in both reports.
    pub groups: Vec<Delta>,
    /// Questions whose RR or recall dropped.
    pub dropped: Vec<Dropped>,
    /// Recall cutoff used for `dropped`.
    pub recall_k: usize,
}

/// Reads a baseline file.
pub fn load(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: Some(e.line()),
        column: Some(e.column()),
        message: crate::limits::json_message(&e),
    })?;
    if !value.get("metrics").is_some_and(Value::is_object) {
        return Err(Error::Field {
            path: path.to_path_buf(),
            line: None,
            case: None,
            field: "metrics".into(),
            message: "missing: is this the output of `ragsynth eval --format json`?".into(),
        });
    }
    Ok(value)
}

/// Compares `report` with `baseline`.
pub fn compare(report: &EvalReport, baseline: &Value, tolerance: f64) -> Comparison {
    let deltas = |scope: &str, now: serde_json::Map<String, Value>, before: Option<&Value>| -> Vec<Delta> {
        now.into_iter()
            .filter_map(|(metric, after)| {
                let before = before?.get(&metric)?.as_f64()?;
                Some(Delta {
                    scope: scope.to_string(),
                    metric,
                    before,
                    after: after.as_f64()?,
                })
            })
            .collect()
    };
    let overall = deltas(
        "all",
        Metrics::to_map(&report.overall, &report.ks),
        baseline.get("metrics"),
    );
    let base_groups: HashMap<(String, String), &Value> = baseline
        .get("by_tag")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|g| {
            let key = (
                g.get("tag")?.as_str()?.to_string(),
                g.get("value")?.as_str()?.to_string(),
            );
            Some((key, g.get("metrics")?))
        })
        .collect();
    let groups = report
        .groups
        .iter()
        .flat_map(|g| {
            let scope = format!("{}={}", g.tag, g.value);
            deltas(
                &scope,
                Metrics::to_map(&g.metrics, &report.ks),
                base_groups.get(&(g.tag.clone(), g.value.clone())).copied(),
            )
        })
        .collect();

    let recall_k = report.max_k();
    let recall_name = format!("recall@{recall_k}");
    let base_questions: HashMap<&str, &Value> = baseline
        .get("questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|q| {
            Some((
                q.get("id")?.as_str()?,
                q.get("metrics").filter(|m| m.is_object())?,
            ))
        })
        .collect();
    let mut dropped = Vec::new();
    for q in &report.questions {
        let (Some(m), Some(before)) = (&q.metrics, base_questions.get(q.id.as_str())) else {
            continue;
        };
        let get = |name: &str| before.get(name).and_then(Value::as_f64);
        let recall_now = report
            .ks
            .iter()
            .position(|&k| k == recall_k)
            .map_or(0.0, |i| m.recall[i]);
        let (Some(rr0), Some(rec0)) = (get("RR"), get(&recall_name)) else {
            continue;
        };
        if m.rr < rr0 - 1e-9 || recall_now < rec0 - 1e-9 {
            dropped.push(Dropped {
                id: q.id.clone(),
                rr: (rr0, m.rr),
                recall: (rec0, recall_now),
            });
        }
    }
    Comparison {
        tolerance,
        overall,
        groups,
        dropped,
        recall_k,
    }
}

impl Comparison {
    /// Headline metrics that fell by more than the tolerance.
    pub fn regressions(&self) -> Vec<&Delta> {
        self.overall
            .iter()
            .filter(|d| d.change() < -self.tolerance - 1e-12)
            .collect()
    }

    /// True when the gate fails.
    pub fn failed(&self) -> bool {
        !self.regressions().is_empty()
    }
}
