//! `ragsynth generate`: corpus in, synthetic cases merged into a test set out.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use ragsynth::chunk::Chunker;
use ragsynth::config::ConfigFile;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::generate::context::{GenerateContext, RunOptions};
use ragsynth::generate::estimate;
use ragsynth::generate::merge::{self, Stamp};
use ragsynth::generate::pipeline::{self, Progress, RunError, Verdict};
use ragsynth::generate::plan::{self, Kind, Mix, Plan, Task};
use ragsynth::generate::summary::{LlmFigures, Summary};
use ragsynth::generate::{
    DEFAULT_HELDOUT, DEFAULT_MAX_ROUNDS, DEFAULT_N, DEFAULT_OUTPUT, DEFAULT_STOP_AFTER_LLM_FAILED,
    GenerateConfig,
};
use ragsynth::llm::Llm;
use ragsynth::prompts::Prompts;
use ragsynth::testset::{self, Severity, TestSet, Tracked};

use super::{note, warning};
use crate::Exit;
use crate::cli::GenerateArgs;

pub fn run(args: GenerateArgs, config_path: Option<&Path>, walk: &WalkOptions) -> Result<Exit> {
    let started = Instant::now();
    let config = ConfigFile::load(config_path)?;
    let cfg: GenerateConfig = config.section("generate")?;
    let output = args
        .output
        .clone()
        .or(cfg.output.clone())
        .unwrap_or_else(|| PathBuf::from(DEFAULT_OUTPUT));
    let n = args.n.or(cfg.n).unwrap_or(DEFAULT_N);
    let mix: Mix = match args.mix.as_deref().or(cfg.mix.as_deref()) {
        Some(m) => m.parse()?,
        None => Mix::default(),
    };
    let seed = args.seed.or(cfg.seed).unwrap_or(0);
    let heldout = args.heldout.or(cfg.heldout).unwrap_or(DEFAULT_HELDOUT);
    if !(0.0..=1.0).contains(&heldout) {
        bail!("--heldout {heldout}: must be between 0 and 1");
    }
    let max_rounds = args.max_rounds.or(cfg.max_rounds).unwrap_or(DEFAULT_MAX_ROUNDS);
    if max_rounds == 0 {
        bail!("--max-rounds 0: must be at least 1 (1 = the planned pass only)");
    }
    let prompts = Prompts::load(args.prompts.as_deref().or(cfg.prompts.as_deref()))?;

    // The target set: its chunking wins, so new chunk ids agree with the existing ones. It is
    // saved through `Tracked`, so decisions made on it while this runs are kept.
    let mut tracked =
        Tracked::open_or_new(&output).with_context(|| format!("reading {}", output.display()))?;
    let chunking = match tracked.set.chunking.clone() {
        Some(c) => c,
        None => args.chunking.to_chunking()?,
    };
    let corpus = Corpus::load(&args.corpus, args.chunking.walk_options(walk))
        .with_context(|| format!("reading corpus {}", args.corpus.display()))?;
    for s in &corpus.skipped {
        warning(s);
    }
    if corpus.docs.is_empty() {
        bail!("{}: no readable documents", args.corpus.display());
    }
    if let Some(fp) = tracked.set.corpus.as_ref().and_then(|c| c.fingerprint.as_ref())
        && *fp != corpus.fingerprint()
    {
        warning(format_args!(
            "{} was made from another version of the corpus (fingerprint differs); existing labels may need `ragsynth remap`",
            output.display()
        ));
    }
    let chunks = Chunker::new(chunking.clone())?.chunk_all(&corpus.docs);
    let plan = plan::plan(&chunks, n, mix, seed);
    // A set without a corpus or chunking header gets ours: its new labels point into this corpus.
    let fresh = merge::new_set(&output, &corpus, &chunking);
    let set = &mut tracked.set;
    if set.corpus.is_none() {
        set.corpus = fresh.corpus;
    }
    if set.chunking.is_none() {
        set.chunking = fresh.chunking;
    }

    let mut summary = Summary::new(output.display().to_string());
    summary.existing_cases = set.cases.len();
    summary.chunks = plan.chunks;
    summary.skipped_chunks = plan.skipped.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    summary.notes = plan.notes.clone();
    for k in Kind::ALL {
        summary.kind(k).planned = plan.count(k);
    }
    summary.max_rounds = max_rounds;
    summary.worst_case_calls = estimate::worst_case_calls(&plan, max_rounds);
    let options = RunOptions {
        seed,
        temperature: args.temperature.unwrap_or(RunOptions::default().temperature),
        max_rounds,
        stop_after_llm_failed: cfg.stop_after_llm_failed.unwrap_or(DEFAULT_STOP_AFTER_LLM_FAILED),
        ..RunOptions::default()
    };

    if args.dry_run {
        let ctx = GenerateContext::new(&corpus, &chunks, &prompts, set, options, None);
        summary.dry_run = true;
        summary.llm = estimate::estimate(&ctx, &plan)?;
        summary.llm.model = args.llm.llm.clone().unwrap_or_else(|| "default".to_string());
        for k in Kind::ALL {
            let tasks = plan.tasks.iter().filter(|t| t.kind == k).count() as u64;
            summary.kind(k).llm_calls = tasks * estimate::calls_per_task(k);
        }
        summary.wall_seconds = started.elapsed().as_secs_f64();
        if !args.json {
            print!("{}", plan_table(&plan, &chunks));
        }
        return report(&summary, args.json);
    }

    let runtime = tokio::runtime::Runtime::new()?;
    let accepted = runtime.block_on(async {
        let llm = Llm::connect(args.llm.llm.as_deref(), args.llm.settings(&config)).await?;
        for n in llm.notes() {
            warning(n);
        }
        let ctx = GenerateContext::new(&corpus, &chunks, &prompts, set, options, llm.context_tokens());
        let bars = Bars::new(&plan, args.quiet || args.json);
        let result = pipeline::run(&llm, &ctx, &plan, &mut summary, &bars).await;
        bars.finish();
        summary.llm = figures(&llm);
        llm.shutdown().await;
        match result {
            Err(RunError::ProviderDown { count, last }) => Err(provider_down(&llm, &output, count, &last)),
            r => anyhow::Ok(r?),
        }
    })?;

    let (created, pinned) = created_time()?;
    let stamp = Stamp {
        model: summary.llm.model.clone(),
        created,
        pinned,
        heldout,
    };
    let ids = merge::append(set, accepted, &stamp);
    summary.heldout = ids
        .iter()
        .filter(|id| set.case(id).is_some_and(|c| c.split() == testset::Split::Heldout))
        .count();
    check_new_cases(set, &ids, &corpus)?;
    let saved = tracked.save()?;
    if saved.merged {
        note(format_args!(
            "{} changed while generating; the new cases were added to it as it is now",
            output.display()
        ));
    }
    summary.finish();
    summary.wall_seconds = started.elapsed().as_secs_f64();
    report(&summary, args.json)
}

/// The error for a provider that is down. Nothing is written, accepted cases of earlier rounds
/// included: every answer is in the journal, so the same command resumes where this run
/// stopped and writes what an uninterrupted run would (writing part of the cases now would
/// make the rerun reject those as duplicates of themselves and top up again).
fn provider_down(llm: &Llm, output: &Path, count: usize, last: &str) -> anyhow::Error {
    let resume = match llm.journal_path() {
        Some(j) => format!(
            "the answers received so far are journaled in {}; rerun the same command to resume without asking them again",
            j.display()
        ),
        None => "with --no-cache the answers received were not kept".to_string(),
    };
    anyhow::anyhow!(
        "{} looks down: {count} candidates in a row failed after all retries (last: {last}); stopped, \
         nothing written to {}; {resume}",
        llm.id(),
        output.display()
    )
}

/// The `created` time of this run and whether it is pinned: `SOURCE_DATE_EPOCH` when set (the
/// reproducible-builds convention; it then stamps every new case), else now, to the second,
/// which only stamps cases whose answer has no journal time (`--no-cache`). Otherwise a case's
/// time is when its answer was journaled, so a resumed run writes what an uninterrupted one does.
fn created_time() -> Result<(String, bool)> {
    let (secs, pinned) = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(v) => (
            v.trim()
                .parse::<i64>()
                .with_context(|| format!("SOURCE_DATE_EPOCH `{v}` is not a number of seconds"))?,
            true,
        ),
        Err(_) => (jiff::Timestamp::now().as_second(), false),
    };
    Ok((jiff::Timestamp::from_second(secs)?.to_string(), pinned))
}

/// New cases must satisfy every invariant; a failure here is a bug, not bad input.
fn check_new_cases(set: &TestSet, ids: &[String], corpus: &Corpus) -> Result<()> {
    let new: std::collections::HashSet<&str> = ids.iter().map(String::as_str).collect();
    let bad: Vec<String> = testset::validate(set, Some(corpus))
        .into_iter()
        .filter(|i| i.severity == Severity::Error && i.case.as_deref().is_some_and(|c| new.contains(c)))
        .map(|i| i.to_string())
        .collect();
    if !bad.is_empty() {
        bail!(
            "generated cases fail validation (nothing written): {}",
            bad.join("; ")
        );
    }
    Ok(())
}

fn figures(llm: &Llm) -> LlmFigures {
    let u = llm.usage().total;
    LlmFigures {
        model: llm.id(),
        calls: u.calls,
        cache_hits: u.cache_hits,
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
        retries: u.retries,
        cost_usd: u.cost_usd,
    }
}

fn report(summary: &Summary, json: bool) -> Result<Exit> {
    if json {
        println!("{}", serde_json::to_string_pretty(summary)?);
    } else {
        print!("{}", summary.to_table());
    }
    Ok(Exit::Ok)
}

/// The plan per document, for `--dry-run`.
fn plan_table(plan: &Plan, chunks: &[ragsynth::chunk::Chunk]) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    let mut rows: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for c in chunks {
        rows.entry(c.doc.as_str()).or_default()[0] += 1;
    }
    for t in &plan.tasks {
        let col = 1 + Kind::ALL.iter().position(|k| *k == t.kind).unwrap_or(0);
        for &i in &t.chunks {
            rows.entry(chunks[i].doc.as_str()).or_default()[col] += 1;
        }
    }
    let mut s = format!(
        "{:<40} {:>6} {:>6} {:>9} {:>12}\n",
        "document", "chunks", "lookup", "multi_hop", "unanswerable"
    );
    for (doc, r) in rows {
        let doc = ragsynth::terminal::data(doc);
        let _ = writeln!(s, "{doc:<40} {:>6} {:>6} {:>9} {:>12}", r[0], r[1], r[2], r[3]);
    }
    s.push('\n');
    s
}

impl Progress for Bars {
    fn round(&self, round: u32, tasks: &[Task]) {
        for (kind, b) in &self.bars {
            let n = tasks.iter().filter(|t| t.kind == *kind).count();
            b.inc_length(n as u64);
            if round > 1 && n > 0 {
                b.set_message(format!("round {round}"));
            }
        }
    }

    fn verdict(&self, v: &Verdict) {
        if let Some((_, b)) = self.bars.iter().find(|(k, _)| *k == v.kind) {
            b.inc(1);
            if let Some(Err(r)) = v.results.iter().find(|r| r.is_err()) {
                b.set_message(format!("last rejected: {r}"));
            }
        }
    }
}

/// One progress bar per kind of question, drawn on stderr only when it is a terminal.
struct Bars {
    multi: MultiProgress,
    bars: Vec<(Kind, ProgressBar)>,
}

impl Bars {
    fn new(plan: &Plan, quiet: bool) -> Bars {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let multi = MultiProgress::with_draw_target(target);
        let style = ProgressStyle::with_template("{prefix:>13} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .expect("valid template")
            .progress_chars("=> ");
        // Lengths grow as each round's tasks are known.
        let bars = Kind::ALL
            .iter()
            .filter(|k| plan.count(**k) > 0)
            .map(|&k| {
                let b = multi.add(ProgressBar::new(0));
                b.set_style(style.clone());
                b.set_prefix(k.as_str());
                (k, b)
            })
            .collect();
        Bars { multi, bars }
    }

    fn finish(&self) {
        for (_, b) in &self.bars {
            b.finish_and_clear();
        }
        let _ = self.multi.clear();
    }
}
