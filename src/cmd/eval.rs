//! `ragsynth eval`: scores a run against the test set (or TREC qrels), prints the report, writes
//! the per-question file and baseline, and applies the baseline gate; `--export-qrels` writes
//! the set as qrels instead.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use ragsynth::corpus::WalkOptions;
use ragsynth::eval::{self, Run, baseline, questions};
use ragsynth::fsutil::write_atomic;
use ragsynth::render::eval as render;
use ragsynth::workspace::Workspace;

use super::{save, warning};
use crate::Exit;
use crate::cli::EvalArgs;

pub fn run(args: EvalArgs, config: Option<&Path>, walk: &WalkOptions) -> Result<Exit> {
    if let Some(dest) = &args.export_qrels {
        return export(&args, walk, dest);
    }
    if args.answers.is_some() {
        return super::eval_answers::run(args, config, walk);
    }
    if args.calibration.is_some() {
        return super::eval_calibration::run(&args);
    }
    let options = args.options()?;
    let run = Run::load(args.run.as_ref().context("--run is required")?)?;
    let report = if questions::is_qrels(&args.testset) {
        eval::evaluate(&questions::from_qrels(&args.testset)?, &run, None, &options)?
    } else {
        let ws = open(&args, walk)?;
        let chunks = ws.set_chunks()?;
        eval::evaluate_testset(&ws.set, ws.corpus.as_ref(), chunks.as_ref(), &run, &options)?
    };
    save(args.out.as_deref(), |b| render::json::questions(&report, b))?;
    save(args.save_baseline.as_deref(), |b| {
        render::json::report(&report, b, None)
    })?;
    let comparison = match &args.baseline {
        Some(path) => Some(baseline::compare(&report, &baseline::load(path)?, args.tolerance)),
        None => None,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    render::write(&mut out, args.report_format(), &report, comparison.as_ref())?;
    out.flush()?;
    Ok(Exit::findings_if(comparison.is_some_and(|c| c.failed())))
}

pub(super) fn open(args: &EvalArgs, walk: &WalkOptions) -> Result<Workspace> {
    let ws = Workspace::open(&args.testset, &args.open_options(walk))?;
    ws.notes.iter().for_each(warning);
    Ok(ws)
}

fn export(args: &EvalArgs, walk: &WalkOptions, dest: &Path) -> Result<Exit> {
    if questions::is_qrels(&args.testset) {
        bail!("{} is already TREC qrels", args.testset.display());
    }
    let ws = open(args, walk)?;
    let corpus = ws
        .corpus
        .as_ref()
        .context("exporting qrels needs the corpus to derive chunk ids")?;
    let chunks = ws.chunk()?;
    let qrels = questions::export_qrels(&ws.set, corpus, &chunks)?;
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
