//! `ragsynth check`: generate's checks on the cases of a set; exit 2 when any case would be
//! turned away.

use anyhow::{Result, bail};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::generate::check_set;
use ragsynth::generate::checks::Check;
use ragsynth::generate::context::{GenerateContext, RunOptions};
use ragsynth::prompts::Prompts;
use ragsynth::render::check as render;

use super::{emit, open, with_llm};
use crate::Exit;
use crate::cli::CheckArgs;

pub fn run(args: CheckArgs, file: &ConfigFile, walk: &WalkOptions) -> Result<Exit> {
    if args.list {
        emit(args.output.as_deref(), render::list().as_bytes())?;
        return Ok(Exit::Ok);
    }
    if let Some(key) = &args.explain {
        let Some(check) = Check::find(key) else {
            bail!("no check '{key}' (`ragsynth check --list` lists them)");
        };
        println!("{}", render::explain(check));
        return Ok(Exit::Ok);
    }
    let path = args.testset.as_deref().expect("clap requires it without --list");
    let options = args.options()?;
    let ws = open(path, &args.open_options(path, walk)?)?;
    let chunks = ws.chunk()?;
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    let prompts = Prompts::load(None)?;
    let run = RunOptions {
        skip: options.skip.clone(),
        ..RunOptions::default()
    };
    let ctx = GenerateContext::new(corpus, &chunks, &prompts, &Default::default(), run, None);
    let mut report = check_set::check_set(&ws.set, &ctx, &options);
    if args.llm.llm.is_some() {
        with_llm(&args.llm, file, Some(&corpus.root), async |llm| {
            check_set::judge(&mut report, &ws.set, &ctx, llm, &options).await
        })?;
    }
    let shown = if args.json {
        render::json(&report)
    } else {
        render::text(&report)
    };
    emit(args.output.as_deref(), shown.as_bytes())?;
    Ok(Exit::findings_if(report.accepted() < report.cases.len()))
}
