//! `ragsynth run`: asks the user's RAG system every selected question (a progress bar on a
//! terminal, one error line per case that still fails), then says where the run and answers
//! files are and how to score them.

use std::io::IsTerminal;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ragsynth::corpus::WalkOptions;
use ragsynth::run::{self, Entry, Progress};
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource, Workspace};

use super::warning;
use crate::Exit;
use crate::cli::RunArgs;

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
    let bar = Bar::new();
    let summary = tokio::runtime::Runtime::new()?.block_on(run::run(&ws.set, &args.out, &options, &bar))?;
    bar.0.finish_and_clear();
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

/// A progress bar on stderr when it is a terminal; each failed case is one line either way.
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Bar {
        let bar = ProgressBar::with_draw_target(
            Some(0),
            if std::io::stderr().is_terminal() {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template("asking [{bar:30}] {pos}/{len} ({elapsed}, {eta} left) {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar(bar)
    }
}

impl Progress for Bar {
    fn start(&self, to_ask: usize, resumed: usize) {
        self.0.set_length(to_ask as u64);
        if resumed > 0 {
            self.0
                .suspend(|| eprintln!("resuming: {resumed} case(s) already answered are not asked again"));
        }
    }

    fn done(&self, entry: &Entry) {
        self.0.inc(1);
        if let (Some(kind), Some(message)) = (&entry.error, &entry.message) {
            let line = format!(
                "case `{}`: {kind} after {} attempt(s): {message}",
                entry.id, entry.attempts
            );
            self.0.suspend(|| warning(line));
        }
    }
}
