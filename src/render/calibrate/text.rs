//! A calibration for people: one row per judge and source, the pooled row that is kept in bold
//! words ("runs" / "does not run"), then the misses when asked for.

use std::fmt::Write;

use crate::calibrate::{Calibrated, Row};
use crate::terminal::data;

/// The table; `misses` adds each wrong verdict.
pub fn report(c: &Calibrated, misses: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "judges of {}\n", data(&c.model));
    let _ = writeln!(
        out,
        "{:<11} {:<22} {:>4} {:>6} {:>15} {:>8} {:>4} {:>5} {:>4}",
        "judge", "data", "n", "kappa", "95% interval", "accuracy", "yes", "truly", "lost"
    );
    for r in &c.rows {
        let _ = write!(out, "{}", row(r));
        if let Some(runs) = r.runs {
            let verdict = if runs { "runs" } else { "does not run" };
            let _ = write!(out, "  {verdict} (bar {})", c.bar);
            if r.agreement.n < 30 {
                let _ = write!(out, "; few items, wide interval");
            }
        }
        out.push('\n');
    }
    for (judge, prompt) in &c.prompts {
        if c.rows.iter().any(|r| r.judge == *judge) {
            let _ = writeln!(out, "prompt {judge}: {}", data(prompt));
        }
    }
    if misses && !c.misses.is_empty() {
        let _ = writeln!(out, "\nwrong verdicts:");
        for m in &c.misses {
            let _ = writeln!(
                out,
                "  {} [{}] truth {}: {} | {}",
                m.judge,
                data(&m.source),
                m.truth,
                data(&m.question),
                data(&m.answer)
            );
        }
    }
    out
}

fn row(r: &Row) -> String {
    let a = &r.agreement;
    let kappa = a.kappa.map_or("-".into(), |k| format!("{k:.2}"));
    let ci = a.ci.map_or("-".into(), |[lo, hi]| format!("[{lo:.2}, {hi:.2}]"));
    let acc = a.accuracy.map_or("-".into(), |x| format!("{x:.2}"));
    let source: String = data(&r.source).chars().take(22).collect();
    format!(
        "{:<11} {source:<22} {:>4} {kappa:>6} {ci:>15} {acc:>8} {:>4} {:>5} {:>4}",
        r.judge, a.n, r.says_yes, r.truly_yes, r.lost
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::calibration::{Agreement, KAPPA_BAR};

    #[test]
    fn the_pooled_row_says_whether_the_judge_runs() {
        let row = |source: &str, n, kappa| Row {
            judge: "answers",
            source: source.into(),
            agreement: Agreement {
                n,
                accuracy: Some(0.9),
                kappa: Some(kappa),
                ci: Some([kappa - 0.1, kappa + 0.1]),
            },
            says_yes: 5,
            truly_yes: 5,
            lost: 0,
            runs: (source == "all").then_some(kappa >= KAPPA_BAR),
        };
        let c = Calibrated {
            model: "llamacpp:m".into(),
            prompts: [("answers", "judge_answers@1".to_string())].into(),
            rows: vec![row("hand marks", 60, 0.8), row("all", 60, 0.8)],
            misses: Vec::new(),
            bar: KAPPA_BAR,
        };
        let t = report(&c, false);
        assert!(t.contains("answers     all"), "{t}");
        assert!(t.contains("60   0.80    [0.70, 0.90]     0.90"), "{t}");
        assert!(t.contains("runs (bar 0.6)") && !t.contains("does not run"), "{t}");
        assert!(t.contains("prompt answers: judge_answers@1"), "{t}");
    }
}
