//! `ragsynth generate`: corpus in, synthetic cases merged into a test set out.

use std::time::Instant;

use anyhow::Result;
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::generate::context::{GenerateContext, RunOptions};
use ragsynth::generate::summary::{GenerateSummary, LlmFigures};
use ragsynth::generate::{estimate, merge, pipeline, session};
use ragsynth::llm::price_for;
use ragsynth::prompts::Prompts;
use ragsynth::render::generate as render;

use super::{calibration, note, open, with_llm};
use crate::Exit;
use crate::cli::GenerateArgs;
use crate::progress::Bars;

pub fn run(args: GenerateArgs, config: &ConfigFile, walk: &WalkOptions) -> Result<Exit> {
    let started = Instant::now();
    let s = args.settings(config)?;
    let prompts = Prompts::load(s.prompts.as_deref())?;
    // Saved through `Tracked`: decisions made on the set while this runs are kept.
    let mut ws = open(&s.output, &args.open_options(walk)?)?;
    let chunks = session::chunk(&mut ws)?;
    let mut prepared = session::prepare(&ws, &chunks, &s);
    if !args.json {
        prepared.language_notes.iter().for_each(note);
    }
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    let options = RunOptions {
        keywords_alone: prepared.target.figures.keywords > 0.0,
        broaden: ragsynth::generate::answered_by::wanted(&ws.set),
        ..s.options.clone()
    };
    if args.dry_run {
        let ctx = GenerateContext::new(corpus, &chunks, &prompts, &ws.set, options, None);
        let spec = args.llm.llm.as_deref();
        let price = price_for(spec, config, args.llm.batch)?;
        estimate::dry_run(&mut prepared.summary, &ctx, &prepared.plan, spec, price)?;
        if !args.json {
            render::text::plan(&mut std::io::stdout(), &prepared.plan, &chunks)?;
        }
        return finish(prepared.summary, started, args.json);
    }
    let accepted = with_llm(&args.llm, config, Some(&corpus.root), async |llm| {
        let ctx = GenerateContext::new(
            corpus,
            &chunks,
            &prompts,
            &ws.set,
            options.clone(),
            llm.context_tokens(),
        )
        .with_calibration(calibration(&s.output));
        let bars = Bars::new(&prepared.plan, args.quiet);
        let result = pipeline::run(llm, &ctx, &prepared.plan, &mut prepared.summary, &bars).await;
        bars.finish();
        prepared.summary.llm = LlmFigures::of(llm);
        Ok(result.map_err(|e| merge::stopped(llm, &s.output, e)))
    })?
    .map_err(anyhow::Error::msg)?;
    if session::write(&mut ws, &chunks, accepted, &mut prepared, &s)? {
        let shown = s.output.display();
        note(format_args!(
            "{shown} changed while generating; the new cases were added to it as it is now"
        ));
    }
    finish(prepared.summary, started, args.json)
}

/// Prints the account, its totals and wall time filled in.
fn finish(mut summary: GenerateSummary, started: Instant, json: bool) -> Result<Exit> {
    summary.finish();
    summary.wall_seconds = started.elapsed().as_secs_f64();
    render::write(&mut std::io::stdout(), &summary, json)?;
    Ok(Exit::Ok)
}
