//! `ragsynth chunk`: shows or exports the chunks every other command sees.

use std::io::{BufWriter, Write};

use anyhow::Result;
use ragsynth::chunk::Chunker;
use ragsynth::corpus::{Walk, WalkOptions};

use super::warning;
use crate::Exit;
use crate::cli::{ChunkArgs, ChunkFormat};

pub fn run(args: ChunkArgs, walk: &WalkOptions) -> Result<Exit> {
    let chunker = Chunker::new(args.chunking.to_chunking()?)?;
    let walk = Walk::new(&args.corpus, args.chunking.walk_options(walk))?;
    for s in walk.walk_skips() {
        warning(s);
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut rows = Vec::new();
    let mut skipped = walk.walk_skips().len();
    let mut sizes: Vec<usize> = Vec::new();
    // Documents are read in small batches and split in parallel: memory is bounded by a few of
    // the largest documents, never by the corpus.
    let batch = rayon::current_num_threads() * 2;
    let mut docs = walk.documents().peekable();
    while docs.peek().is_some() {
        let mut read = Vec::with_capacity(batch);
        for doc in docs.by_ref().take(batch) {
            match doc {
                Ok(d) => read.push(d),
                Err(s) => {
                    warning(s);
                    skipped += 1;
                }
            }
        }
        let refs: Vec<_> = read.iter().collect();
        for (doc, chunks) in read.iter().zip(chunker.chunk_each(&refs)) {
            match args.format {
                ChunkFormat::Jsonl => {
                    for c in &chunks {
                        serde_json::to_writer(&mut out, c)?;
                        out.write_all(b"\n")?;
                    }
                }
                ChunkFormat::Text => {
                    let lens: Vec<usize> = chunks.iter().map(|c| c.len()).collect();
                    sizes.extend(&lens);
                    // A file name can hold escape sequences: show them, do not send them.
                    rows.push((
                        ragsynth::terminal::data(&doc.path).into_owned(),
                        doc.char_len(),
                        lens,
                    ));
                }
            }
        }
    }
    if args.format == ChunkFormat::Text {
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(8).max(8);
        writeln!(
            out,
            "{:<width$}  {:>9}  {:>6}  {:>6}  {:>6}  {:>6}",
            "document", "chars", "chunks", "min", "mean", "max"
        )?;
        for (path, chars, lens) in &rows {
            let (min, mean, max) = stats(lens);
            writeln!(
                out,
                "{path:<width$}  {chars:>9}  {:>6}  {min:>6}  {mean:>6.0}  {max:>6}",
                lens.len()
            )?;
        }
        let (min, mean, max) = stats(&sizes);
        writeln!(
            out,
            "\n{} documents, {} chunks (chars per chunk: min {min}, mean {mean:.0}, max {max}), {skipped} files skipped",
            rows.len(),
            sizes.len()
        )?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}

fn stats(v: &[usize]) -> (usize, f64, usize) {
    if v.is_empty() {
        return (0, 0.0, 0);
    }
    let sum: usize = v.iter().sum();
    (
        *v.iter().min().unwrap_or(&0),
        sum as f64 / v.len() as f64,
        *v.iter().max().unwrap_or(&0),
    )
}
