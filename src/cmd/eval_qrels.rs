//! `ragsynth eval --export-qrels`: writes the test set as TREC qrels, so results can be
//! cross-checked with trec_eval.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use ragsynth::corpus::WalkOptions;
use ragsynth::eval::questions;
use ragsynth::fsutil::write_atomic;

use super::open;
use crate::Exit;
use crate::cli::EvalArgs;

pub fn run(args: &EvalArgs, dest: &Path, walk: &WalkOptions) -> Result<Exit> {
    if questions::is_qrels(&args.testset) {
        bail!("{} is already TREC qrels", args.testset.display());
    }
    let ws = open(&args.testset, &args.open_options(walk))?;
    let corpus = ws
        .corpus
        .as_ref()
        .context("exporting qrels needs the corpus to derive chunk ids")?;
    let chunks = ws.chunk()?;
    let qrels = questions::export_qrels(&ws.set, &args.testset, corpus, &chunks)?;
    if dest == Path::new("-") {
        std::io::stdout().lock().write_all(qrels.as_bytes())?;
    } else {
        write_atomic(dest, qrels.as_bytes())?;
        eprintln!(
            "wrote {} qrels line(s) to {}",
            qrels.lines().count(),
            dest.display()
        );
    }
    Ok(Exit::Ok)
}
