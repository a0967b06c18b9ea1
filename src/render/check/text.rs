//! `ragsynth check` for people: each case generate would turn away with its codes, then how
//! many would be accepted and which checks turned the others away.

use std::fmt::Write;

use crate::generate::check_set::CheckReport;
use crate::terminal::safe;

/// The report as text.
pub fn text(report: &CheckReport) -> String {
    let mut out = String::new();
    for case in &report.cases {
        if let Some(why) = &case.unchecked {
            let _ = writeln!(out, "{}: not checked: {}", safe(&case.id), safe(why));
            continue;
        }
        let kind = case.kind.as_deref().or(case.read_as).unwrap_or("?");
        for (f, lead) in case
            .findings
            .iter()
            .map(|f| (f, ""))
            .chain(case.hints.iter().map(|f| (f, "hint ")))
        {
            let _ = writeln!(
                out,
                "{} ({kind}): {lead}{} {}: {}",
                safe(&case.id),
                f.code.code(),
                f.name,
                safe(&f.detail)
            );
        }
    }
    let checked = report.cases.iter().filter(|c| c.unchecked.is_none()).count();
    let _ = writeln!(
        out,
        "\n{} of {checked} case(s) checked would be accepted by generate",
        report.accepted()
    );
    for (check, n) in report.by_check() {
        let _ = writeln!(out, "  {:<36} {n}", check.to_string());
    }
    if !report.not_run.is_empty() {
        let codes: Vec<&str> = report.not_run.iter().map(|c| c.code()).collect();
        let _ = writeln!(
            out,
            "not run: {} (they read how generate builds a case, or need --llm with a calibrated judge)",
            codes.join(", ")
        );
    }
    out
}
