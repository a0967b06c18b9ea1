//! `ragsynth eval --answers`: scores a system's answers against the test set, prints the
//! report, writes the per-case file and baseline, and applies the baseline gate.

use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Result, bail};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::eval::answers::{self, Answers, baseline};
use ragsynth::eval::questions;
use ragsynth::prompts::Prompts;
use ragsynth::render::answers as render;

use super::{calibration, open, save, warning, with_llm};
use crate::Exit;
use crate::cli::EvalArgs;

pub fn run(args: &EvalArgs, path: &Path, file: &ConfigFile, walk: &WalkOptions) -> Result<Exit> {
    let options = args.answer_options()?;
    if questions::is_qrels(&args.testset) {
        bail!("--answers needs a ragsynth test set (reference answers), not TREC qrels");
    }
    let ws = open(&args.testset, &args.open_options(walk))?;
    let ids: HashSet<&str> = ws.set.cases.iter().map(|c| c.id.as_str()).collect();
    let answers = Answers::load(path, |id| ids.contains(id))?;
    let mut report = answers::score(&ws.set, &answers, &options);
    if args.llm.llm.is_some() {
        let prompts = Prompts::load(args.prompts.as_deref())?;
        let set = &ws.set;
        // The journal is kept per corpus, as for generate and audit.
        let corpus = ws.corpus.as_ref().map(|c| c.root.as_path());
        let known = calibration(&args.testset);
        with_llm(&args.llm, file, corpus, async |llm| {
            answers::judged::judge(&mut report, set, &answers, llm, &prompts, &known).await
        })?;
    }
    // A broken records file must not stop an evaluation: the report then says "not calibrated".
    if let Err(e) = report.attach_calibration(&args.testset) {
        warning(format_args!("{e}; the judges are shown as not calibrated"));
    }
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
    render::write(&mut out, args.answers_format(), &report, comparison.as_ref())?;
    out.flush()?;
    Ok(Exit::findings_if(comparison.is_some_and(|c| c.failed())))
}
