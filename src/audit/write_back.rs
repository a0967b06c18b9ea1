//! `audit --write`: each case's flags and figures stored in its `audit` field.

use serde_json::json;

use super::AuditReport;
use crate::testset::TestSet;

/// Which cases `--write` touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteScope {
    /// Synthetic cases only: real cases stay byte-for-byte as they were.
    Synthetic,
    /// Every case, real ones included.
    All,
}

/// Stores each case's flags and figures in its `audit` field (`{flags, overlap, copied_run,
/// source_rank}`); returns how many cases changed. Cases outside `scope` are left alone.
/// `source_rank` is the rank by which keyword search finds what the question needs
/// ([`needed_rank`](super::context::CaseFigures::needed_rank): the last label's chunk of a
/// comparison or a multi-hop case, as generate's `difficulty.source_rank` counts it), a string
/// `">1000"` when the source is not found within [`crate::index::RANK_DEPTH`] chunks.
pub fn write_back(set: &mut TestSet, report: &AuditReport, scope: WriteScope) -> usize {
    let mut flags: std::collections::HashMap<&str, Vec<&'static str>> = Default::default();
    for f in &report.findings {
        if let Some(id) = &f.case {
            let v = flags.entry(id.as_str()).or_default();
            if !v.contains(&f.code) {
                v.push(f.code);
            }
        }
    }
    let mut changed = 0;
    for (case, fig) in set.cases.iter_mut().zip(&report.figures) {
        if scope == WriteScope::Synthetic && !case.is_synthetic() {
            continue;
        }
        let mut codes = flags.get(case.id.as_str()).cloned().unwrap_or_default();
        codes.sort_unstable();
        let mut v = json!({ "flags": codes });
        let round = |x: f32| (x as f64 * 1000.0).round() / 1000.0;
        if let Some(c) = fig.containment {
            v["overlap"] = json!(round(c));
        }
        if let Some(r) = fig.copied_run {
            v["copied_run"] = json!(r);
        }
        if let Some(r) = fig.needed_rank() {
            v["source_rank"] = if r > crate::index::RANK_DEPTH {
                json!(format!(">{}", crate::index::RANK_DEPTH))
            } else {
                json!(r)
            };
        }
        let v = Some(v);
        if case.audit != v {
            case.audit = v;
            changed += 1;
        }
    }
    changed
}
