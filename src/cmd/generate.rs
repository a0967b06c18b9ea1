//! `ragsynth generate`: corpus in, synthetic cases merged into a test set out.

use std::path::Path;
use std::time::Instant;

use anyhow::{Result, bail};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::generate::context::GenerateContext;
use ragsynth::generate::merge::{self, Stamp};
use ragsynth::generate::pipeline;
use ragsynth::generate::plan;
use ragsynth::generate::summary::{GenerateSummary, LlmFigures};
use ragsynth::prompts::Prompts;
use ragsynth::render::generate as render;
use ragsynth::workspace::Workspace;

use super::progress::Bars;
use super::{note, warning, with_llm};
use crate::Exit;
use crate::cli::GenerateArgs;

pub fn run(args: GenerateArgs, config_path: Option<&Path>, walk: &WalkOptions) -> Result<Exit> {
    let started = Instant::now();
    let config = ConfigFile::load(config_path)?;
    let s = args.settings(&config)?;
    let prompts = Prompts::load(s.prompts.as_deref())?;
    // The set's chunking wins, so new chunk ids agree with the existing ones; it is saved
    // through `Tracked`, so decisions made on it while this runs are kept.
    let mut ws = Workspace::open(&s.output, &args.open_options(walk)?)?;
    ws.notes.iter().for_each(warning);
    if ws.corpus.as_ref().is_some_and(|c| c.docs.is_empty()) {
        bail!("{}: no readable documents", args.corpus.display());
    }
    // A set without a corpus or chunking header gets ours: its new labels point into this corpus.
    ws.adopt_header();
    let chunks = ws.chunk()?;
    let plan = plan::plan(&chunks, s.n, s.mix, s.options.seed);
    let existing = ws.set.cases.len();
    let mut summary = GenerateSummary::planned(&s.output, existing, &plan, s.options.max_rounds);
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    if args.dry_run {
        let ctx = GenerateContext::new(corpus, &chunks, &prompts, &ws.set, s.options, None);
        summary.estimate(&ctx, &plan, args.llm.llm.as_deref())?;
        summary.wall_seconds = started.elapsed().as_secs_f64();
        if !args.json {
            render::text::plan(&mut std::io::stdout(), &plan, &chunks)?;
        }
        render::write(&mut std::io::stdout(), &summary, args.json)?;
        return Ok(Exit::Ok);
    }
    let accepted = with_llm(&args.llm, &config, async |llm| {
        let tokens = llm.context_tokens();
        let ctx = GenerateContext::new(corpus, &chunks, &prompts, &ws.set, s.options, tokens);
        let bars = Bars::new(&plan, args.quiet || args.json);
        let result = pipeline::run(llm, &ctx, &plan, &mut summary, &bars).await;
        bars.finish();
        summary.llm = LlmFigures::of(llm);
        Ok(result.map_err(|e| merge::stopped(llm, &s.output, e)))
    })?
    .map_err(anyhow::Error::msg)?;
    let stamp = Stamp::new(summary.llm.model.clone(), s.heldout, s.source_date_epoch)?;
    let ids = merge::append(&mut ws.set, accepted, &stamp);
    summary.count_heldout(&ws.set, &ids);
    merge::check_new_cases(&ws.set, &ids, corpus)?;
    if ws.save()?.merged {
        let shown = s.output.display();
        note(format_args!(
            "{shown} changed while generating; the new cases were added to it as it is now"
        ));
    }
    summary.finish();
    summary.wall_seconds = started.elapsed().as_secs_f64();
    render::write(&mut std::io::stdout(), &summary, args.json)?;
    Ok(Exit::Ok)
}
