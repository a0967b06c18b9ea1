//! `ragsynth eval SET --run a --run b ...`: scores every run on the set, ranks the systems on
//! its real and on its synthetic questions, prints the two rankings with Kendall's τ-b and the
//! winners, and applies the `--min-tau` gate.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use ragsynth::corpus::WalkOptions;
use ragsynth::eval::{self, Run, questions, ranking};
use ragsynth::render::eval::ranking as render;

use super::open;
use crate::Exit;
use crate::cli::EvalArgs;

pub fn run(args: &EvalArgs, runs: &[PathBuf], walk: &WalkOptions) -> Result<Exit> {
    let format = args.report_format()?;
    let (runs, options, ranking_options) = args.ranking(runs)?;
    if questions::is_qrels(&args.testset) {
        bail!("ranking runs needs a ragsynth test set: its `source` tags say which questions are real");
    }
    let ws = open(&args.testset, &args.open_options(walk))?;
    let chunks = ws.set_chunks()?;
    let mut reports = Vec::with_capacity(runs.len());
    for (name, path) in runs {
        let run = Run::load(&path)?;
        let report = eval::evaluate_testset(&ws.set, ws.corpus.as_ref(), chunks.as_ref(), &run, &options)
            .with_context(|| format!("scoring run `{name}` ({})", path.display()))?;
        reports.push((name, report));
    }
    let report = ranking::compare(&reports, &ranking_options)?;
    let min_tau = args.ranking.min_tau;
    let mut out = BufWriter::new(std::io::stdout().lock());
    render::write(&mut out, format, &report, min_tau)?;
    out.flush()?;
    Ok(Exit::findings_if(min_tau.is_some_and(|t| !report.passes(t))))
}
