//! The ranking check as one JSON document.

use serde_json::json;

use crate::eval::ranking::{Placed, RankingReport};

/// The report as JSON: `metric`, `split`, the question counts, `systems` (each with `real` and
/// `synthetic` value and rank), `kendall_tau_b` (`value`, `low`, `high`, `resamples`, `seed`,
/// `defined_resamples`), `winners` (`real`, `synthetic`, `same`, `same_on_resamples`) and, with
/// a gate, `gate` (`min_tau`, `passed`).
pub fn report(r: &RankingReport, out: &mut dyn std::io::Write, min_tau: Option<f64>) -> std::io::Result<()> {
    let placed = |p: &Placed| json!({"value": p.value, "rank": p.rank});
    let mut doc = json!({
        "metric": r.metric.to_string(),
        "split": r.split,
        "questions": {"real": r.real_questions, "synthetic": r.synthetic_questions, "left_out": r.left_out},
        "systems": r.systems.iter().map(|s| json!({
            "name": s.name,
            "real": placed(&s.real),
            "synthetic": placed(&s.synthetic),
        })).collect::<Vec<_>>(),
        "kendall_tau_b": {
            "value": r.tau_b,
            "low": r.interval.map(|i| i.low),
            "high": r.interval.map(|i| i.high),
            "level": 0.95,
            "resamples": r.resamples,
            "defined_resamples": r.interval.map_or(0, |i| i.defined),
            "seed": r.seed,
        },
        "winners": {
            "real": r.real_winners,
            "synthetic": r.synthetic_winners,
            "same": r.same_winner(),
            "same_on_resamples": r.winner_agreement,
        },
    });
    if let Some(min) = min_tau {
        doc["gate"] = json!({"min_tau": min, "passed": r.passes(min)});
    }
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
