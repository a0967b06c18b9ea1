//! A remap report for people: one line per label that moved, then the counts, the chunking and
//! the corpus fingerprint before and after.

use std::io::{self, Write};

use crate::remap::{Outcome, RemapReport, Status};

/// Writes the report.
pub fn text(out: &mut dyn Write, report: &RemapReport) -> io::Result<()> {
    for o in report
        .labels
        .iter()
        .filter(|o| !matches!(o.status, Status::Unchanged | Status::Rechunked))
    {
        writeln!(out, "{:<8} {}", o.status.as_str(), label_line(o))?;
    }
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|s| format!("{} {}", report.count(*s), s.as_str()))
        .collect();
    writeln!(out, "{} labels: {}", report.labels.len(), counts.join(", "))?;
    let before = report
        .chunking_before
        .as_ref()
        .map_or("none".to_string(), ToString::to_string);
    let now = report.chunking.to_string();
    if before == now {
        writeln!(out, "chunking: {now} (unchanged)")?;
    } else {
        writeln!(out, "chunking: {before} -> {now}")?;
    }
    let short = |f: &str| f.chars().take(19).collect::<String>();
    match report.fingerprint_before.as_deref() {
        Some(b) if b == report.fingerprint => writeln!(out, "corpus: {} (unchanged)", short(b)),
        Some(b) => writeln!(out, "corpus: {} -> {}", short(b), short(&report.fingerprint)),
        None => writeln!(
            out,
            "corpus: {} (no fingerprint before)",
            short(&report.fingerprint)
        ),
    }
}

fn span((s, e): (usize, usize)) -> String {
    format!("{s}..{e}")
}

fn label_line(o: &Outcome) -> String {
    let who = format!("{} relevant[{}]", o.case, o.label);
    let after = o.new_span.map(span).unwrap_or_default();
    let mut line = match o.status {
        Status::Renamed => format!(
            "{who}: {} {} -> {} {after}",
            o.doc,
            span(o.span),
            o.new_doc.as_deref().unwrap_or_default()
        ),
        Status::Lost => format!(
            "{who}: {} {}: quote not found; left in place and flagged `remap: {{status: lost}}`",
            o.doc,
            span(o.span)
        ),
        _ => format!("{who}: {} {} -> {after}", o.doc, span(o.span)),
    };
    if let Some(sim) = o.similarity.filter(|s| *s < 1.0 || o.status == Status::Fuzzy) {
        line.push_str(&format!(" (similarity {sim:.2})"));
    }
    if let Some(c) = &o.new_chunk {
        line.push_str(&format!(" [chunk {} -> {c}]", o.chunk.as_deref().unwrap_or("-")));
    }
    if let Some(l) = o.line {
        line = format!("line {l}: {line}");
    }
    line
}
