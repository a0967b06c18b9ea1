//! `ragsynth remap`: re-anchors a test set's labels to the corpus and chunking as they are now,
//! prints what happened to each label, and saves unless `--dry-run`.

use std::io::{BufWriter, Write};

use anyhow::Result;
use ragsynth::corpus::WalkOptions;
use ragsynth::remap;
use ragsynth::render::remap as render;
use ragsynth::workspace::{CorpusNeed, OpenOptions, Workspace};

use super::warning;
use crate::Exit;
use crate::cli::{RemapArgs, RemapFormat};

pub fn run(args: RemapArgs, walk: &WalkOptions) -> Result<Exit> {
    let options = args.options()?;
    // Saved through `Tracked`: review decisions made meanwhile are kept.
    let mut ws = Workspace::open(
        &args.testset,
        &OpenOptions {
            corpus: args.corpus.clone(),
            need: CorpusNeed::Required,
            walk: walk.clone(),
            ..OpenOptions::default()
        },
    )?;
    ws.notes.iter().for_each(warning);
    ws.chunking = args.chunking(ws.chunking.clone())?;
    let root = ws.header_root().expect("a required corpus is loaded");
    let chunks = ws.chunk()?;
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    let report = remap::remap_chunked(&mut ws.set, corpus, &root, &chunks, options);
    let mut out = BufWriter::new(std::io::stdout().lock());
    match args.format {
        RemapFormat::Text => render::text(&mut out, &report)?,
        RemapFormat::Json => render::json(&mut out, &report, !args.dry_run)?,
    }
    if !args.dry_run {
        ws.save()?;
    }
    let shown = args.testset.display();
    match (args.format, args.dry_run) {
        (RemapFormat::Text, true) => writeln!(out, "dry run: {shown} not written")?,
        (RemapFormat::Text, false) => writeln!(out, "wrote {shown}")?,
        (RemapFormat::Json, _) => {}
    }
    out.flush()?;
    Ok(Exit::findings_if(report.has_lost()))
}
