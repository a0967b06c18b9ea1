//! The CI gate for answers: compares a report with a saved one (the JSON of `eval --answers
//! --format json` / `--save-baseline`).
//!
//! Headline figures are the overall ones ([`Figures::named`]). The gate fails when one moved
//! the wrong way by more than the tolerance: fell, or for `refused_answerable` rose. Per-tag
//! changes are shown but do not gate (small groups are noisy). Cases that got worse (F1 fell,
//! `correct` went from true to false, or the refusal went to the wrong side) are listed.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::report::{AnswerReport, Figures, LOWER_IS_BETTER};
use crate::eval::baseline::Delta;
use crate::{Error, Result};

/// The value of the `kind` key that marks an answers report.
pub const KIND: &str = "answers";

/// A case that got worse, with what changed (`figure`, before, now).
#[derive(Debug, Clone, PartialEq)]
pub struct DroppedCase {
    /// Case id.
    pub id: String,
    /// The figures that got worse.
    pub changes: Vec<(&'static str, f64, f64)>,
}

/// The comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerComparison {
    /// Allowed change the wrong way.
    pub tolerance: f64,
    /// Overall figures present in both reports.
    pub overall: Vec<Delta>,
    /// Per-tag figures present in both reports.
    pub groups: Vec<Delta>,
    /// Cases that got worse.
    pub dropped: Vec<DroppedCase>,
}

/// Reads a baseline file and checks it is an answers report, not a retrieval one.
pub fn load(path: &Path) -> Result<Value> {
    let value = crate::eval::baseline::load(path)?;
    if value.get("kind").and_then(Value::as_str) != Some(KIND) {
        return Err(Error::Field {
            path: path.to_path_buf(),
            line: None,
            case: None,
            field: "kind".into(),
            message: "not an answers report: save one with `ragsynth eval --answers ... --save-baseline`"
                .into(),
        });
    }
    Ok(value)
}

/// True when `d` moved the wrong way by more than `tolerance`.
pub fn worse(d: &Delta, tolerance: f64) -> bool {
    if LOWER_IS_BETTER.contains(&d.metric.as_str()) {
        d.change() > tolerance + 1e-12
    } else {
        d.change() < -tolerance - 1e-12
    }
}

fn deltas(scope: &str, now: &Figures, before: Option<&Value>) -> Vec<Delta> {
    now.named()
        .into_iter()
        .filter_map(|(metric, after)| {
            Some(Delta {
                scope: scope.to_string(),
                metric: metric.to_string(),
                before: before?.get(metric)?.as_f64()?,
                after,
            })
        })
        .collect()
}

/// Compares `report` with `baseline`.
pub fn compare(report: &AnswerReport, baseline: &Value, tolerance: f64) -> AnswerComparison {
    let overall = deltas("all", &report.overall, baseline.get("metrics"));
    let base_groups: HashMap<(&str, &str), &Value> = baseline
        .get("by_tag")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|g| {
            Some((
                (g.get("tag")?.as_str()?, g.get("value")?.as_str()?),
                g.get("metrics")?,
            ))
        })
        .collect();
    let groups = report
        .groups
        .iter()
        .flat_map(|g| {
            let before = base_groups.get(&(g.tag.as_str(), g.value.as_str())).copied();
            deltas(&format!("{}={}", g.tag, g.value), &g.figures, before)
        })
        .collect();
    let base_cases: HashMap<&str, &Value> = baseline
        .get("questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|q| Some((q.get("id")?.as_str()?, q)))
        .collect();
    let mut dropped = Vec::new();
    for q in &report.questions {
        let Some(before) = base_cases.get(q.id.as_str()) else {
            continue;
        };
        let num = |k: &str| before.get(k).and_then(Value::as_f64);
        let flag = |k: &str| {
            before
                .get(k)
                .and_then(Value::as_bool)
                .map(|b| f64::from(u8::from(b)))
        };
        let as_f = |b: Option<bool>| b.map(|b| f64::from(u8::from(b)));
        let refusal_before = flag("refused").map(|r| f64::from(u8::from((r == 1.0) == q.unanswerable)));
        let pairs = [
            ("f1", num("f1"), q.f1),
            ("correct", flag("correct"), as_f(q.correct)),
            ("refusal", refusal_before, as_f(q.refusal_right().or(Some(false)))),
        ];
        let changes: Vec<(&'static str, f64, f64)> = pairs
            .into_iter()
            .filter_map(|(n, b, a)| Some((n, b?, a?)))
            .filter(|(_, b, a)| a < &(b - 1e-9))
            .collect();
        if !changes.is_empty() {
            dropped.push(DroppedCase {
                id: q.id.clone(),
                changes,
            });
        }
    }
    AnswerComparison {
        tolerance,
        overall,
        groups,
        dropped,
    }
}

impl AnswerComparison {
    /// Headline figures that moved the wrong way by more than the tolerance.
    pub fn regressions(&self) -> Vec<&Delta> {
        self.overall.iter().filter(|d| worse(d, self.tolerance)).collect()
    }

    /// True when the gate fails.
    pub fn failed(&self) -> bool {
        !self.regressions().is_empty()
    }
}
