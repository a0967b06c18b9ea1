//! The CI gate: compares a report with a saved one (the JSON of `--format json` /
//! `--save-baseline`).
//!
//! Headline metrics are the overall ones (every P@k, recall@k, hit@k, nDCG@k, MRR and MAP of the
//! scored split). The gate fails when any of them fell by more than the tolerance (absolute, in
//! metric units). Per-tag changes are shown but do not gate (small groups are noisy). Questions
//! whose RR or recall at the largest cutoff dropped are listed so a reviewer can open them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::report::{Report, named_map};
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
        message: e.to_string(),
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
pub fn compare(report: &Report, baseline: &Value, tolerance: f64) -> Comparison {
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
        named_map(&report.overall, &report.ks),
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
                named_map(&g.metrics, &report.ks),
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

    /// A table for the terminal.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "against baseline (tolerance {}):", self.tolerance);
        let _ = writeln!(
            out,
            "{:<12} {:>8} {:>8} {:>8}",
            "metric", "before", "now", "change"
        );
        for d in &self.overall {
            let mark = if d.change() < -self.tolerance - 1e-12 {
                "  REGRESSED"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{:<12} {:>8.4} {:>8.4} {:>+8.4}{mark}",
                d.metric,
                d.before,
                d.after,
                d.change()
            );
        }
        let k = self.recall_k;
        let changed: Vec<&Delta> = self
            .groups
            .iter()
            .filter(|d| [format!("recall@{k}"), "MRR".into(), format!("nDCG@{k}")].contains(&d.metric))
            .filter(|d| d.change().abs() > 1e-9)
            .collect();
        if !changed.is_empty() {
            let _ = writeln!(out, "\nper tag (changed only):");
            for d in changed {
                let _ = writeln!(
                    out,
                    "{:<24} {:<10} {:>8.4} {:>8.4} {:>+8.4}",
                    d.scope,
                    d.metric,
                    d.before,
                    d.after,
                    d.change()
                );
            }
        }
        if !self.dropped.is_empty() {
            let _ = writeln!(
                out,
                "\n{} question(s) whose RR or recall@{k} dropped:",
                self.dropped.len()
            );
            for q in &self.dropped {
                let _ = writeln!(
                    out,
                    "  {}  RR {:.4} -> {:.4}  recall@{k} {:.4} -> {:.4}",
                    q.id, q.rr.0, q.rr.1, q.recall.0, q.recall.1
                );
            }
        }
        let regressions = self.regressions();
        if regressions.is_empty() {
            let _ = writeln!(out, "\ngate: pass");
        } else {
            let names: Vec<&str> = regressions.iter().map(|d| d.metric.as_str()).collect();
            let _ = writeln!(
                out,
                "\ngate: FAIL ({} fell by more than {})",
                names.join(", "),
                self.tolerance
            );
        }
        out
    }

    /// The comparison as JSON.
    pub fn to_json(&self) -> Value {
        let delta = |d: &Delta| json!({"scope": d.scope, "metric": d.metric, "before": d.before, "now": d.after, "change": d.change()});
        json!({
            "tolerance": self.tolerance,
            "failed": self.failed(),
            "regressed": self.regressions().into_iter().map(|d| d.metric.clone()).collect::<Vec<_>>(),
            "overall": self.overall.iter().map(delta).collect::<Vec<_>>(),
            "by_tag": self.groups.iter().map(delta).collect::<Vec<_>>(),
            "dropped_questions": self.dropped.iter().map(|q| json!({
                "id": q.id, "rr": [q.rr.0, q.rr.1], format!("recall@{}", self.recall_k): [q.recall.0, q.recall.1],
            })).collect::<Vec<_>>(),
        })
    }
}
