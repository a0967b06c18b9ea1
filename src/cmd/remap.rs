//! `ragsynth remap`: re-anchors a test set's labels to the corpus and chunking as they are now,
//! prints what happened to each label, and saves unless `--dry-run`.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use ragsynth::chunk::{Chunking, Splitter};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::remap::{self, Outcome, Report, Status, anchor};
use ragsynth::testset::Tracked;
use serde_json::json;

use super::warning;
use crate::Exit;
use crate::cli::{RemapArgs, ReportFormat};

pub fn run(args: RemapArgs, walk: &WalkOptions) -> Result<Exit> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.min_similarity),
        "--min-similarity must be between 0 and 1, not {}",
        args.min_similarity
    );
    // Saved through `Tracked`: review decisions made meanwhile are kept.
    let mut tracked = Tracked::open(&args.testset)?;
    let set = &mut tracked.set;
    let header_dir = set.corpus_root(&args.testset);
    let corpus_dir = args
        .corpus
        .clone()
        .or_else(|| header_dir.clone())
        .with_context(|| {
            format!(
                "{} has no corpus header; give the corpus with --corpus DIR",
                args.testset.display()
            )
        })?;
    let corpus = Corpus::load(&corpus_dir, walk.clone())
        .with_context(|| format!("reading corpus {}", corpus_dir.display()))?;
    for s in &corpus.skipped {
        warning(s);
    }
    // Keep the header's spelling of the root when it names the same directory.
    let root = match (&set.corpus, &header_dir) {
        (Some(c), Some(h)) if same_dir(h, &corpus_dir) => c.root.clone(),
        _ => anchor::root_relative_to(&args.testset, &corpus_dir),
    };
    let chunking = chunking(&args, set.chunking.clone().unwrap_or_default())?;
    let options = remap::Options {
        min_similarity: args.min_similarity,
    };
    let report = remap::remap(set, &corpus, &root, chunking, options)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        ReportFormat::Text => write_text(&mut out, &report)?,
        ReportFormat::Json => write_json(&mut out, &report, args.dry_run)?,
    }
    if !args.dry_run {
        tracked.save()?;
    }
    if args.format == ReportFormat::Text {
        if args.dry_run {
            writeln!(out, "dry run: {} not written", args.testset.display())?;
        } else {
            writeln!(out, "wrote {}", args.testset.display())?;
        }
    }
    out.flush()?;
    Ok(if report.has_lost() {
        Exit::Findings
    } else {
        Exit::Ok
    })
}

/// The header's chunking with the options given on the command line laid over it.
fn chunking(args: &RemapArgs, mut c: Chunking) -> Result<Chunking> {
    if let Some(size) = args.size {
        c.size = size;
    }
    if let Some(min) = args.min_size {
        c.min_size = Some(min);
    }
    if let Some(overlap) = args.overlap {
        c.overlap = overlap;
    }
    if let Some(unit) = &args.unit {
        c.unit = unit.parse()?;
    }
    if let Some(splitter) = &args.splitter {
        c.splitter = match splitter.as_str() {
            "auto" => Splitter::Auto,
            "markdown" => Splitter::Markdown,
            "text" => Splitter::Text,
            other => anyhow::bail!("unknown splitter `{other}`: use auto, markdown or text"),
        };
    }
    c.validate()?;
    Ok(c)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn describe(c: &Chunking) -> String {
    let splitter = match c.splitter {
        Splitter::Auto => "auto",
        Splitter::Markdown => "markdown",
        Splitter::Text => "text",
    };
    format!(
        "{splitter} splitter, {} {}, overlap {}",
        c.size, c.unit, c.overlap
    )
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

fn write_text(out: &mut impl Write, report: &Report) -> Result<()> {
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
        .map_or("none".to_string(), describe);
    let now = describe(&report.chunking);
    if before == now {
        writeln!(out, "chunking: {now} (unchanged)")?;
    } else {
        writeln!(out, "chunking: {before} -> {now}")?;
    }
    let short = |f: &str| f.chars().take(19).collect::<String>();
    match report.fingerprint_before.as_deref() {
        Some(b) if b == report.fingerprint => writeln!(out, "corpus: {} (unchanged)", short(b))?,
        Some(b) => writeln!(out, "corpus: {} -> {}", short(b), short(&report.fingerprint))?,
        None => writeln!(
            out,
            "corpus: {} (no fingerprint before)",
            short(&report.fingerprint)
        )?,
    }
    Ok(())
}

fn write_json(out: &mut impl Write, report: &Report, dry_run: bool) -> Result<()> {
    for o in &report.labels {
        let mut v = serde_json::to_value(o)?;
        if let Some(m) = v.as_object_mut() {
            m.shift_insert(0, "type".into(), json!("label"));
        }
        writeln!(out, "{v}")?;
    }
    let counts: serde_json::Map<String, serde_json::Value> = Status::ALL
        .iter()
        .map(|s| (s.as_str().to_string(), json!(report.count(*s))))
        .collect();
    let summary = json!({
        "type": "summary",
        "labels": report.labels.len(),
        "counts": counts,
        "fingerprint_before": report.fingerprint_before,
        "fingerprint": report.fingerprint,
        "chunking_before": report.chunking_before,
        "chunking": report.chunking,
        "written": !dry_run,
    });
    writeln!(out, "{summary}")?;
    Ok(())
}
