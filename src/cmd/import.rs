//! `ragsynth import`: reads a question file or another tool's test set, adds its cases to a
//! test set (questions: personal data scrubbed, labels anchored or proposed; a generator's
//! set: every context located as a label) and prints a summary.

use std::io::{BufWriter, Write};

use anyhow::{Result, bail};
use ragsynth::corpus::WalkOptions;
use ragsynth::import;
use ragsynth::locate::CorpusIndex;
use ragsynth::testset::foreign::{self, ConvertOptions, Format};

use super::open;
use crate::Exit;
use crate::cli::ImportArgs;

pub fn run(args: ImportArgs, walk: &WalkOptions) -> Result<Exit> {
    let options = args.options()?;
    let read = args.read_options();
    let set = match foreign::detect(&args.file, &read)? {
        Format::Ragsynth => bail!(
            "{} is a ragsynth test set; import reads question files and other tools' test sets",
            args.file.display()
        ),
        Format::Plain if !import::rows::has_context(&args.file, &read.columns)? => None,
        _ => Some(foreign::read(&args.file, &read)?),
    };
    let rows = match set {
        None => Some(import::read(&args.file, &read.columns)?),
        Some(_) => None,
    };
    // Saved through `Tracked`: what others write into the set meanwhile is kept.
    let mut ws = open(&args.into, &args.open_options(walk))?;
    ws.adopt_header();
    let chunks = ws.chunk()?;
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    let mut out = BufWriter::new(std::io::stdout().lock());
    let nothing_added = match (rows, set) {
        (Some(rows), _) => {
            let summary = import::import_chunked(&mut ws.set, &rows, corpus, &chunks, &options);
            ragsynth::render::import::text(&mut out, &summary, &args.file, &args.into)?;
            summary.added.is_empty()
        }
        (None, Some(set)) => {
            let index = CorpusIndex::new(corpus);
            let converted = foreign::convert(
                &set,
                Some(&index),
                &ConvertOptions {
                    source: options.source,
                    min_similarity: options.min_similarity,
                    file_name: options.source_name.clone(),
                },
            );
            converted.require_located(&args.file, &corpus.root)?;
            let summary = import::add_converted(&mut ws.set, converted, &chunks, &options);
            ragsynth::render::import::foreign_text(&mut out, &summary, &args.file, &args.into)?;
            summary.added.is_empty()
        }
        (None, None) => unreachable!("rows are read when the file is no set"),
    };
    if args.dry_run {
        writeln!(out, "dry run: {} not written", args.into.display())?;
    } else if nothing_added && ws.existed() {
        writeln!(out, "nothing to add; {} left as it was", args.into.display())?;
    } else {
        ws.save()?;
        writeln!(out, "wrote {}", args.into.display())?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
