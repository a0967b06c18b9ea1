//! Arguments of `ragsynth generate`, and the run's settings they make with `[generate]` of
//! `ragsynth.toml` (flags win).

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::Args;
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::generate::checks::Skip;
use ragsynth::generate::context::RunOptions;
use ragsynth::generate::plan::Mix;
use ragsynth::generate::restyle::StyleChoice;
use ragsynth::generate::session::Settings;
use ragsynth::generate::{
    DEFAULT_HELDOUT, DEFAULT_MAX_ROUNDS, DEFAULT_N, DEFAULT_OUTPUT, DEFAULT_STOP_AFTER_LLM_FAILED,
    GenerateConfig,
};
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource};

use super::{ChunkingArgs, LlmArgs};

/// `ragsynth generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Corpus directory.
    pub corpus: PathBuf,
    /// Test set to merge the new cases into (created when absent) [default: output/testset.yaml].
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Cases to plan [default: 20].
    #[arg(short, long)]
    pub n: Option<usize>,
    /// Shares of question types by their tag names: lookup, identifier, comparison, multi_hop,
    /// unanswerable [default: lookup=0.3,identifier=0.15,comparison=0.15,multi_hop=0.2,unanswerable=0.2].
    #[arg(long, value_name = "KIND=SHARE,...")]
    pub mix: Option<String>,
    /// Seed for planning and sampling; the same seed plans the same cases [default: 0].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Sampling temperature for writing questions; judging always uses 0 [default: 0.3].
    #[arg(long)]
    pub temperature: Option<f32>,
    /// Share of new cases marked `split: heldout` [default: 0.2].
    #[arg(long, value_name = "SHARE")]
    pub heldout: Option<f64>,
    /// Folder of prompt templates (`lookup.j2`, ...) overriding the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<PathBuf>,
    /// Rounds at most: after the planned pass, kinds short of their planned count get
    /// replacement candidates; 1 = no replacements. Bounds the calls at R times one pass [default: 8].
    #[arg(long, value_name = "R")]
    pub max_rounds: Option<u32>,
    /// Real questions of the set shown to the model as style examples; 0 shows none (the
    /// default: the local 1.5B model copied their subjects instead of asking about its fact).
    #[arg(long, value_name = "N")]
    pub style_examples: Option<usize>,
    /// How the new questions are written: `auto` matches the set's real questions (their
    /// length, case, keywords and how hard keyword search finds their sources) when it has 5 or
    /// more, else `chat`; `search` (short keyword queries), `chat` (short natural questions) and
    /// `formal` (full sentences) are presets measured on public real queries [default: auto].
    #[arg(long, value_name = "STYLE")]
    pub style: Option<String>,
    /// Append each candidate's verdict (written, or turned away with the check's code and the
    /// candidate as far as it was built) to this JSON Lines file [default: verdicts.jsonl beside
    /// the LLM journal].
    #[arg(long, value_name = "FILE")]
    pub verdicts: Option<PathBuf>,
    /// Leave these checks out (codes or names, comma separated or repeated): generate accepts
    /// what they would turn away. `ragsynth check --list` lists them; docs/checks.md says what
    /// each catches and what it wrongly turns away.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Let a multi-hop question join passages in two languages (off: both passages are in one
    /// language, as a user's question would be).
    #[arg(long)]
    pub cross_language: bool,
    /// Show the plan and the estimated LLM calls and tokens; call nothing, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bars.
    #[arg(short, long)]
    pub quiet: bool,
    /// Chunking (a test set that already names one keeps its own).
    #[command(flatten)]
    pub chunking: ChunkingArgs,
    /// LLM.
    #[command(flatten)]
    pub llm: LlmArgs,
}

impl GenerateArgs {
    /// The settings of this run, from the flags, then the config file's `[generate]`.
    pub fn settings(&self, config: &ConfigFile) -> anyhow::Result<Settings> {
        let cfg: GenerateConfig = config.section("generate")?;
        let mix = match self.mix.as_deref().or(cfg.mix.as_deref()) {
            Some(m) => m.parse()?,
            None => Mix::default(),
        };
        let style = match self.style.as_deref().or(cfg.style.as_deref()) {
            Some(s) => s.parse()?,
            None => StyleChoice::default(),
        };
        let heldout = self.heldout.or(cfg.heldout).unwrap_or(DEFAULT_HELDOUT);
        if !(0.0..=1.0).contains(&heldout) {
            bail!("--heldout {heldout}: must be between 0 and 1");
        }
        let max_rounds = self.max_rounds.or(cfg.max_rounds).unwrap_or(DEFAULT_MAX_ROUNDS);
        if max_rounds == 0 {
            bail!("--max-rounds 0: must be at least 1 (1 = the planned pass only)");
        }
        let keys = self
            .skip
            .iter()
            .chain(cfg.skip.iter().flatten())
            .map(String::as_str);
        let skip = Skip::parse(keys).map_err(|e| anyhow::anyhow!("--skip / [generate] skip: {e}"))?;
        let source_date_epoch = match std::env::var("SOURCE_DATE_EPOCH") {
            Ok(v) => Some(
                v.trim()
                    .parse::<i64>()
                    .with_context(|| format!("SOURCE_DATE_EPOCH `{v}` is not a number of seconds"))?,
            ),
            Err(_) => None,
        };
        Ok(Settings {
            output: self
                .output
                .clone()
                .or(cfg.output)
                .unwrap_or_else(|| PathBuf::from(DEFAULT_OUTPUT)),
            n: self.n.or(cfg.n).unwrap_or(DEFAULT_N),
            mix,
            style,
            heldout,
            prompts: self.prompts.clone().or(cfg.prompts),
            source_date_epoch,
            cross_language: self.cross_language,
            options: RunOptions {
                seed: self.seed.or(cfg.seed).unwrap_or(0),
                temperature: self.temperature.unwrap_or(RunOptions::default().temperature),
                max_rounds,
                examples: self.style_examples.or(cfg.style_examples).unwrap_or(0),
                stop_after_llm_failed: cfg.stop_after_llm_failed.unwrap_or(DEFAULT_STOP_AFTER_LLM_FAILED),
                skip,
                verdicts: self.verdicts.clone(),
                ..RunOptions::default()
            },
        })
    }

    /// How to open the output set: created when missing, with the corpus given (it must hold
    /// readable documents), its chunking unless the set names one; a corpus other than the one
    /// the set's labels were anchored in is noted.
    pub fn open_options(&self, walk: &WalkOptions) -> anyhow::Result<OpenOptions> {
        Ok(OpenOptions {
            set: SetSource::CreateIfMissing,
            corpus: Some(self.corpus.clone()),
            need: CorpusNeed::Required,
            walk: self.chunking.walk_options(walk),
            chunking: self.chunking.to_chunking()?,
            check_fingerprint: true,
            ..OpenOptions::default()
        })
    }
}
