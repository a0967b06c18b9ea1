//! An evaluation of answers for a terminal: the counts, the overall figures, the per-tag table,
//! the judges' cost, and the baseline comparison with its verdict.

use std::fmt::Write as _;

use crate::eval::answers::AnswerReport;
use crate::eval::answers::baseline::{AnswerComparison, worse};
use crate::eval::answers::report::Figures;

/// Column heads of the per-tag table, with the figure each shows.
const COLUMNS: [(&str, &str); 6] = [
    ("EM", "exact_match"),
    ("F1", "f1"),
    ("correct", "correct"),
    ("refuse-U", "refused_unanswerable"),
    ("refuse-A", "refused_answerable"),
    ("grounded", "grounded"),
];

fn cell(f: &Figures, name: &str) -> String {
    f.named()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map_or("-".into(), |(_, v)| format!("{v:.4}"))
}

/// The report as tables for a terminal.
pub fn report(r: &AnswerReport) -> String {
    let f = &r.overall;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} cases scored (split: {}): {} answerable, {} unanswerable; {} unanswered{}",
        f.cases,
        r.split,
        f.answerable,
        f.unanswerable,
        r.unanswered.len(),
        match (r.unanswered.is_empty(), r.skip_missing) {
            (true, _) => "",
            (false, true) => " (left out)",
            (false, false) => " (scored as wrong)",
        }
    );
    if !r.unanswered.is_empty() {
        let shown: Vec<String> = r
            .unanswered
            .iter()
            .take(10)
            .map(|id| crate::terminal::data(id).to_string())
            .collect();
        let more = r.unanswered.len().saturating_sub(shown.len());
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let _ = writeln!(out, "unanswered: {}{tail}", shown.join(", "));
    }
    if r.other_split > 0 {
        let _ = writeln!(
            out,
            "{} answers to cases of another split (ignored)",
            r.other_split
        );
    }
    out.push('\n');
    let _ = writeln!(out, "{:<22} {:>7} {:>6}", "figure", "all", "n");
    let counts = [
        ("exact_match", f.with_reference),
        ("f1", f.with_reference),
        ("correct", f.judged_correct),
        ("refused_unanswerable", f.unanswerable),
        ("refused_answerable", f.answerable),
        ("grounded", f.judged_grounded),
    ];
    for (name, n) in counts {
        let trust = calibration(r, name).map(|c| format!("  {c}")).unwrap_or_default();
        let _ = writeln!(out, "{name:<22} {:>7} {n:>6}{trust}", cell(f, name));
    }
    if r.judges.is_none() {
        let _ = writeln!(
            out,
            "(correct and grounded need the LLM judges: --llm; refusals are lexical)"
        );
    }
    if !r.groups.is_empty() {
        let width = r
            .groups
            .iter()
            .map(|g| g.tag.len() + g.value.len() + 1)
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = write!(out, "\n{:<width$} {:>5}", "tag", "n");
        for (h, _) in COLUMNS {
            let _ = write!(out, " {h:>9}");
        }
        out.push('\n');
        for g in &r.groups {
            // Tag values come from the test set: escape what would steer the terminal.
            let label = format!("{}={}", g.tag, crate::terminal::data(&g.value));
            let _ = write!(out, "{label:<width$} {:>5}", g.figures.cases);
            for (_, name) in COLUMNS {
                let _ = write!(out, " {:>9}", cell(&g.figures, name));
            }
            out.push('\n');
        }
    }
    if let Some(j) = &r.judges {
        let _ = writeln!(out, "\njudges: {}", crate::terminal::data(&j.model));
        for c in &j.standing {
            let _ = writeln!(out, "  {}", crate::terminal::data(&c.line()));
        }
        for (name, asked) in &j.asked {
            let lost = j.lost.get(name).copied().unwrap_or(0);
            let _ = writeln!(out, "  {name:<9} {asked} asked, {lost} replies lost");
        }
        let _ = writeln!(out, "  {}", j.usage);
    }
    out
}

/// The judge behind figure `name` and how far it is trusted: with the LLM judges, whether it
/// ran and why; without, the lexical detector's last measured agreement with people (`eval
/// --calibration`); `None` when the figure comes from no judge.
pub fn calibration(r: &AnswerReport, name: &str) -> Option<String> {
    let judge = match name {
        "correct" => "correct",
        "refused_unanswerable" | "refused_answerable" => "refused",
        "grounded" => "grounded",
        _ => return None,
    };
    if let Some(c) = r
        .judges
        .iter()
        .flat_map(|j| &j.standing)
        .find(|c| c.judge == judge)
    {
        return Some(if c.calibrated {
            format!("{judge} judge: {}", c.why)
        } else if judge == "refused" {
            format!("lexical detector; {judge} judge not run: {}", c.why)
        } else {
            format!("{judge} judge not run: {}", c.why)
        });
    }
    let (_, record) = r.calibration.iter().find(|(j, _)| *j == judge)?;
    let who = if r.judges.is_none() { "lexical " } else { "" };
    Some(match record {
        Some(rec) => format!("{who}{judge} judge: {}", rec.summary()),
        None => format!("{who}{judge} judge: not calibrated"),
    })
}

/// A baseline comparison as a table for a terminal.
pub fn comparison(c: &AnswerComparison) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "against baseline (tolerance {}):", c.tolerance);
    let _ = writeln!(
        out,
        "{:<22} {:>8} {:>8} {:>8}",
        "figure", "before", "now", "change"
    );
    for d in &c.overall {
        let mark = if worse(d, c.tolerance) { "  REGRESSED" } else { "" };
        let _ = writeln!(
            out,
            "{:<22} {:>8.4} {:>8.4} {:>+8.4}{mark}",
            d.metric,
            d.before,
            d.after,
            d.change()
        );
    }
    let changed: Vec<_> = c.groups.iter().filter(|d| d.change().abs() > 1e-9).collect();
    if !changed.is_empty() {
        let _ = writeln!(out, "\nper tag (changed only):");
        for d in changed {
            let _ = writeln!(
                out,
                "{:<24} {:<22} {:>8.4} {:>8.4} {:>+8.4}",
                crate::terminal::data(&d.scope),
                d.metric,
                d.before,
                d.after,
                d.change()
            );
        }
    }
    if !c.dropped.is_empty() {
        let _ = writeln!(out, "\n{} case(s) that got worse:", c.dropped.len());
        for q in &c.dropped {
            let what: Vec<String> = q
                .changes
                .iter()
                .map(|(n, b, a)| format!("{n} {b:.4} -> {a:.4}"))
                .collect();
            let _ = writeln!(out, "  {}  {}", crate::terminal::data(&q.id), what.join("  "));
        }
    }
    let regressions = c.regressions();
    if regressions.is_empty() {
        let _ = writeln!(out, "\ngate: pass");
    } else {
        let names: Vec<&str> = regressions.iter().map(|d| d.metric.as_str()).collect();
        let _ = writeln!(
            out,
            "\ngate: FAIL ({} moved the wrong way by more than {})",
            names.join(", "),
            c.tolerance
        );
    }
    out
}
