//! `ragsynth run`: asks the user's RAG system every selected question (a progress bar on a
//! terminal, one error line per case that still fails), then says where the run and answers
//! files are and how to score them.

use anyhow::{Result, bail};
use ragsynth::corpus::WalkOptions;
use ragsynth::run;
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource, Workspace};

use super::warning;
use crate::Exit;
use crate::cli::RunArgs;
use crate::progress::RunBar;

pub fn run(args: RunArgs, walk: &WalkOptions) -> Result<Exit> {
    let options = args.options()?;
    let ws = Workspace::open(
        &args.testset,
        &OpenOptions {
            set: SetSource::ReadOnly,
            need: CorpusNeed::IfNamed,
            walk: walk.clone(),
            ..OpenOptions::default()
        },
    )?;
    let bar = RunBar::new(warning);
    let summary = tokio::runtime::Runtime::new()?.block_on(run::run(&ws.set, &args.out, &options, &bar))?;
    bar.finish();
    let failures: Vec<String> = summary.failures.iter().map(|(k, n)| format!("{k} {n}")).collect();
    eprintln!(
        "{} of {} case(s) answered ({} asked now, {} answered before){}",
        summary.answered,
        summary.cases,
        summary.asked,
        summary.resumed,
        if failures.is_empty() {
            String::new()
        } else {
            format!("; failed attempts: {}", failures.join(", "))
        }
    );
    let set = args.testset.display();
    println!(
        "run:     {}   (ragsynth eval {set} --run {0})",
        summary.run_file.display()
    );
    println!(
        "answers: {}   (ragsynth eval {set} --answers {0})",
        summary.answers_file.display()
    );
    if let Some(errors) = &summary.errors_file {
        bail!(
            "{} case(s) got no answer (listed in {}); run the same command again to ask only those",
            summary.failed.len(),
            errors.display()
        );
    }
    Ok(Exit::Ok)
}
