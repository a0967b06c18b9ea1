//! `ragsynth chunk`: shows or exports the chunks every other command sees, streaming the corpus
//! (memory bounded by a few documents, never by the corpus).

use std::io::{BufWriter, Write};

use anyhow::{Result, bail};
use ragsynth::Error;
use ragsynth::chunk::{Chunker, Streamed};
use ragsynth::corpus::{Walk, WalkOptions};
use ragsynth::render::chunk::{Table, jsonl};

use super::warning;
use crate::Exit;
use crate::cli::{ChunkArgs, ChunkFormat};

pub fn run(args: ChunkArgs, walk: &WalkOptions) -> Result<Exit> {
    let chunker = Chunker::new(args.chunking.to_chunking()?)?;
    let options = args.chunking.walk_options(walk);
    let configured = options.language;
    let walk = Walk::new(&args.corpus, options)?;
    walk.walk_skips().iter().for_each(warning);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut table = Table::new(walk.walk_skips().len());
    let (mut read, mut skipped) = (0, walk.walk_skips().len());
    chunker.stream(&walk, |item| match item {
        Streamed::Skipped(s) => {
            warning(s);
            table.skip();
            skipped += 1;
            Ok(())
        }
        Streamed::Chunked(doc, chunks) => {
            read += 1;
            match args.format {
                ChunkFormat::Jsonl => jsonl(&mut out, &chunks),
                ChunkFormat::Text => {
                    table.add(
                        doc,
                        ragsynth::lang::document_label(&doc.text, configured),
                        &chunks,
                    );
                    Ok(())
                }
            }
        }
    })?;
    // An empty table with zeros reads as success; a corpus with nothing to read is a mistake.
    if read == 0 {
        bail!(Error::NoDocuments {
            root: args.corpus.clone(),
            skipped
        });
    }
    if args.format == ChunkFormat::Text {
        table.write(&mut out)?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
