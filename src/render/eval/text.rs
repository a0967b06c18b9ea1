//! An evaluation for a terminal: the counts, the overall metrics, the per-tag table, the
//! unanswerable questions, and the baseline comparison with its verdict.

use std::fmt::Write as _;

use crate::eval::EvalReport;
use crate::eval::baseline::{Comparison, Delta};

/// The report as tables for a terminal.
pub fn report(r: &EvalReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} questions scored (split: {}); {} unanswerable not scored; {} missing from the run{}",
        r.scored,
        r.split,
        r.unanswerable.count,
        r.missing.len(),
        if r.missing.is_empty() {
            ""
        } else if r.skip_missing {
            " (left out)"
        } else {
            " (scored 0)"
        }
    );
    if !r.left_out.is_empty() {
        let states: Vec<String> = r.left_out.iter().map(|(s, n)| format!("{n} {s}")).collect();
        let _ = writeln!(
            out,
            "not scored, as `run` does not ask them: {} (--include-pending scores pending ones)",
            states.join(", ")
        );
    }
    if r.not_in_set > 0 {
        let _ = writeln!(
            out,
            "{} run questions are not in the test set (ignored)",
            r.not_in_set
        );
    }
    if r.unresolved > 0 {
        let _ = writeln!(
            out,
            "{} run items name nothing in the corpus (not relevant)",
            r.unresolved
        );
    }
    out.push('\n');
    let _ = writeln!(out, "{:<12} {:>7}", "metric", "all");
    for (name, v) in r.overall.named(&r.ks) {
        let _ = writeln!(out, "{name:<12} {v:>7.4}");
    }
    if !r.groups.is_empty() {
        let k = r.max_k();
        let head = [
            format!("recall@{k}"),
            format!("hit@{k}"),
            format!("nDCG@{k}"),
            "MRR".into(),
            "MAP".into(),
        ];
        let width = r
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
        for g in &r.groups {
            // Tag values come from the test set: escape what would steer the terminal.
            let label = format!("{}={}", g.tag, crate::terminal::data(&g.value));
            let _ = write!(out, "{label:<width$} {:>5}", g.n);
            for h in &head {
                let v = g
                    .metrics
                    .named(&r.ks)
                    .into_iter()
                    .find(|(n, _)| n == h)
                    .map_or(0.0, |(_, v)| v);
                let _ = write!(out, " {v:>9.4}");
            }
            out.push('\n');
        }
    }
    if r.unanswerable.count > 0 {
        let _ = write!(
            out,
            "\nunanswerable: {} ({} in the run)",
            r.unanswerable.count, r.unanswerable.in_run
        );
        if let (Some(u), Some(a)) = (
            r.unanswerable.mean_top_score,
            r.unanswerable.answerable_mean_top_score,
        ) {
            let _ = write!(out, "; mean top-1 score {u:.4} vs {a:.4} on answerable questions");
        }
        out.push('\n');
    }
    out
}

/// A baseline comparison as a table for a terminal.
pub fn comparison(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "against baseline (tolerance {}):", c.tolerance);
    let _ = writeln!(
        out,
        "{:<12} {:>8} {:>8} {:>8}",
        "metric", "before", "now", "change"
    );
    for d in &c.overall {
        let mark = if d.change() < -c.tolerance - 1e-12 {
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
    let k = c.recall_k;
    let changed: Vec<&Delta> = c
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
    if !c.dropped.is_empty() {
        let _ = writeln!(
            out,
            "\n{} question(s) whose RR or recall@{k} dropped:",
            c.dropped.len()
        );
        for q in &c.dropped {
            let _ = writeln!(
                out,
                "  {}  RR {:.4} -> {:.4}  recall@{k} {:.4} -> {:.4}",
                q.id, q.rr.0, q.rr.1, q.recall.0, q.recall.1
            );
        }
    }
    let regressions = c.regressions();
    if regressions.is_empty() {
        let _ = writeln!(out, "\ngate: pass");
    } else {
        let names: Vec<&str> = regressions.iter().map(|d| d.metric.as_str()).collect();
        let _ = writeln!(
            out,
            "\ngate: FAIL ({} fell by more than {})",
            names.join(", "),
            c.tolerance
        );
    }
    out
}
