//! `ragsynth import`: reads a question file, adds its rows to a test set as real cases
//! (personal data scrubbed, labels anchored or proposed) and prints a summary.

use std::io::{BufWriter, Write};

use anyhow::Result;
use ragsynth::corpus::WalkOptions;
use ragsynth::import;
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource, Workspace};

use super::warning;
use crate::Exit;
use crate::cli::ImportArgs;

pub fn run(args: ImportArgs, walk: &WalkOptions) -> Result<Exit> {
    let options = args.options()?;
    let rows = import::read(&args.file, &args.columns())?;
    // Saved through `Tracked`: what others write into the set meanwhile is kept.
    let mut ws = Workspace::open(
        &args.into,
        &OpenOptions {
            set: SetSource::CreateIfMissing,
            corpus: args.corpus.clone(),
            need: CorpusNeed::Required,
            walk: walk.clone(),
            check_fingerprint: true,
            ..OpenOptions::default()
        },
    )?;
    ws.notes.iter().for_each(warning);
    ws.adopt_header();
    let chunks = ws.chunk()?;
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    let summary = import::import_chunked(&mut ws.set, &rows, corpus, &chunks, &options);
    let mut out = BufWriter::new(std::io::stdout().lock());
    ragsynth::render::import::text(&mut out, &summary, &args.file, &args.into)?;
    if args.dry_run {
        writeln!(out, "dry run: {} not written", args.into.display())?;
    } else if summary.added.is_empty() && ws.existed() {
        writeln!(out, "nothing to add; {} left as it was", args.into.display())?;
    } else {
        ws.save()?;
        writeln!(out, "wrote {}", args.into.display())?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
