//! `ragsynth generate`: corpus in, synthetic cases merged into a test set out.

use std::path::Path;
use std::time::Instant;

use anyhow::{Result, bail};
use ragsynth::Error;
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::generate::context::GenerateContext;
use ragsynth::generate::estimate;
use ragsynth::generate::merge::{self, Stamp};
use ragsynth::generate::pairs::Pairing;
use ragsynth::generate::pipeline;
use ragsynth::generate::plan;
use ragsynth::generate::restyle;
use ragsynth::generate::summary::{GenerateSummary, LlmFigures};
use ragsynth::lang::Language;
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
    if let Some(c) = ws.corpus.as_ref().filter(|c| c.docs.is_empty()) {
        bail!(Error::no_documents(&c.root, c.skipped.len()));
    }
    // A set without a corpus or chunking header gets ours: its new labels point into this corpus.
    ws.adopt_header();
    let chunks = ws.chunk()?;
    let pairing = Pairing {
        languages: (0..chunks.len()).map(|i| chunks.language_of(i)).collect(),
        cross_language: args.cross_language,
    };
    if !args.json {
        language_notes(&pairing.languages);
    }
    let plan = plan::plan_paired(&chunks, &pairing, s.n, &s.mix, s.options.seed);
    let mut summary = GenerateSummary::planned(&s.output, ws.set.cases.len(), &plan, s.options.max_rounds);
    let target = restyle::target(&ws.set, &chunks, s.style);
    summary.target = Some(target.clone());
    let seed = s.options.seed;
    let corpus = ws.corpus.as_ref().expect("a required corpus is loaded");
    if args.dry_run {
        let ctx = GenerateContext::new(corpus, &chunks, &prompts, &ws.set, s.options, None);
        estimate::dry_run(&mut summary, &ctx, &plan, args.llm.llm.as_deref())?;
        summary.wall_seconds = started.elapsed().as_secs_f64();
        if !args.json {
            render::text::plan(&mut std::io::stdout(), &plan, &chunks)?;
        }
        render::write(&mut std::io::stdout(), &summary, args.json)?;
        return Ok(Exit::Ok);
    }
    let mut accepted = with_llm(&args.llm, &config, Some(&corpus.root), async |llm| {
        let tokens = llm.context_tokens();
        let ctx = GenerateContext::new(corpus, &chunks, &prompts, &ws.set, s.options, tokens);
        // With --json the summary goes to stdout; progress stays on stderr unless --quiet.
        let bars = Bars::new(&plan, args.quiet);
        let result = pipeline::run(llm, &ctx, &plan, &mut summary, &bars).await;
        bars.finish();
        summary.llm = LlmFigures::of(llm);
        Ok(result.map_err(|e| merge::stopped(llm, &s.output, e)))
    })?
    .map_err(anyhow::Error::msg)?;
    summary.restyled = Some(restyle::restyle(&mut accepted, &target, &chunks, seed));
    // Nothing accepted, nothing written: a new set is not created, an existing one not touched.
    if !accepted.is_empty() {
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
    }
    summary.finish();
    summary.wall_seconds = started.elapsed().as_secs_f64();
    render::write(&mut std::io::stdout(), &summary, args.json)?;
    Ok(Exit::Ok)
}

/// Tells what a language of the corpus lacks: questions in it are still written and checked,
/// with words compared as written and without its question words.
fn language_notes(languages: &[Language]) {
    let mut count: std::collections::BTreeMap<Language, usize> = Default::default();
    for &l in languages {
        *count.entry(l).or_default() += 1;
    }
    for (l, n) in count {
        let mut missing = l.analyzer().missing();
        if !ragsynth::lang::questions::readable(l) {
            missing.push("no question words");
        }
        if !missing.is_empty() {
            note(format_args!(
                "{n} chunk(s) in {} ({l}): {}; words are compared as written and questions checked only for their form",
                l.name(),
                missing.join(", ")
            ));
        }
    }
}
