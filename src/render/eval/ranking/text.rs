//! The ranking check for a terminal: the systems with their value and place on each part, then
//! Kendall's τ-b with its interval, the winners, and the gate.

use std::fmt::Write as _;

use crate::eval::ranking::RankingReport;
use crate::terminal;

/// The report as a table and a few lines.
pub fn report(r: &RankingReport, min_tau: Option<f64>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} runs ranked by {} on {} real and {} synthetic questions (split: {})",
        r.systems.len(),
        r.metric,
        r.real_questions,
        r.synthetic_questions,
        r.split
    );
    if r.left_out > 0 {
        let _ = writeln!(out, "{} questions left out: a run does not list them", r.left_out);
    }
    // Names come from the command line or file names: escape what would steer the terminal.
    let names: Vec<String> = r.systems.iter().map(|s| terminal::safe(&s.name)).collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        out,
        "\n{:<width$} {:>9} {:>4}  {:>9} {:>4}",
        "system", "real", "rank", "synthetic", "rank"
    );
    for (s, name) in r.systems.iter().zip(&names) {
        let _ = writeln!(
            out,
            "{name:<width$} {:>9.4} {:>4}  {:>9.4} {:>4}",
            s.real.value, s.real.rank, s.synthetic.value, s.synthetic.rank
        );
    }
    out.push('\n');
    match (r.tau_b, &r.interval) {
        (Some(t), Some(i)) => {
            let _ = writeln!(
                out,
                "Kendall τ-b {t:.2} (95% bootstrap interval {:.2} to {:.2}; {} resamples of the questions within each part, seed {})",
                i.low, i.high, r.resamples, r.seed
            );
            if i.defined < r.resamples {
                let _ = writeln!(
                    out,
                    "  τ-b was undefined on {} resamples (a part tied every system)",
                    r.resamples - i.defined
                );
            }
            if i.low <= 0.0 && i.high >= 0.0 {
                let _ = writeln!(
                    out,
                    "  the interval holds 0: on these questions the synthetic ranking may be unrelated to the real one"
                );
            } else if i.high < 0.0 {
                let _ = writeln!(
                    out,
                    "  the interval is below 0: the synthetic part orders the systems against the real part"
                );
            }
        }
        (Some(t), None) => {
            let _ = writeln!(out, "Kendall τ-b {t:.2} (no bootstrap interval: --resamples 0)");
        }
        (None, _) => {
            let _ = writeln!(out, "Kendall τ-b undefined: a part scores every system the same");
        }
    }
    let list = |w: &[String]| {
        w.iter()
            .map(|n| terminal::safe(n))
            .collect::<Vec<_>>()
            .join(" = ")
    };
    let _ = write!(
        out,
        "winner: real {}, synthetic {}: {}",
        list(&r.real_winners),
        list(&r.synthetic_winners),
        if r.same_winner() {
            "the same"
        } else {
            "they differ"
        }
    );
    match r.winner_agreement {
        Some(a) => {
            let _ = writeln!(out, " (the same on {:.0}% of resamples)", a * 100.0);
        }
        None => out.push('\n'),
    }
    if let Some(min) = min_tau {
        let verdict = if r.passes(min) {
            "pass".to_string()
        } else {
            let mut why = Vec::new();
            match r.tau_b {
                Some(t) if t < min => why.push(format!("τ-b {t:.2} < {min:.2}")),
                None => why.push("τ-b undefined".to_string()),
                _ => {}
            }
            if !r.same_winner() {
                why.push("the winners differ".into());
            }
            format!("fail: {}", why.join(", "))
        };
        let _ = writeln!(out, "gate (--min-tau {min}): {verdict}");
    }
    out
}
