//! `ragsynth eval`: hands each mode to its entry point, and scores a retrieval run (`--run`)
//! against the test set (or TREC qrels): prints the report, writes the per-question file and
//! baseline, and applies the baseline gate.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Result;
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::eval::{self, Run, baseline, questions};
use ragsynth::render::eval as render;

use super::{eval_answers, eval_calibration, eval_qrels, eval_ranking, open, save};
use crate::Exit;
use crate::cli::{EvalArgs, EvalMode};

pub fn run(args: EvalArgs, config: &ConfigFile, walk: &WalkOptions) -> Result<Exit> {
    match args.mode.chosen()? {
        EvalMode::Run(run) => retrieval(&args, run, walk),
        EvalMode::Ranking(runs) => eval_ranking::run(&args, runs, walk),
        EvalMode::Answers(answers) => eval_answers::run(&args, answers, config, walk),
        EvalMode::Calibration(file) => eval_calibration::run(&args, file),
        EvalMode::ExportQrels(dest) => eval_qrels::run(&args, dest, walk),
    }
}

fn retrieval(args: &EvalArgs, run: &Path, walk: &WalkOptions) -> Result<Exit> {
    let (options, format) = (args.options()?, args.report_format()?);
    args.check_single_run()?;
    let run = Run::load(run)?;
    let report = if questions::is_qrels(&args.testset) {
        eval::evaluate(&questions::from_qrels(&args.testset)?, &run, None, &options)?
    } else {
        let ws = open(&args.testset, &args.open_options(walk))?;
        let chunks = ws.set_chunks()?;
        eval::evaluate_testset(&ws.set, ws.corpus.as_ref(), chunks.as_ref(), &run, &options)?
    };
    let scoring = &args.scoring;
    save(scoring.out.as_deref(), |b| render::json::questions(&report, b))?;
    save(scoring.save_baseline.as_deref(), |b| {
        render::json::report(&report, b, None)
    })?;
    let comparison = match &scoring.baseline {
        Some(path) => Some(baseline::compare(
            &report,
            &baseline::load(path)?,
            scoring.tolerance,
        )),
        None => None,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    render::write(&mut out, format, &report, comparison.as_ref())?;
    out.flush()?;
    Ok(Exit::findings_if(comparison.is_some_and(|c| c.failed())))
}
