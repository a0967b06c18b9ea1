//! Arguments of `ragsynth generate`.

use std::path::PathBuf;

use clap::Args;

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
    /// Shares of question types [default: lookup=0.6,multi_hop=0.2,unanswerable=0.2].
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
    /// Folder of prompt templates (`single_hop.j2`, ...) overriding the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<PathBuf>,
    /// Rounds at most: after the planned pass, kinds short of their planned count get
    /// replacement candidates; 1 = no replacements. Bounds the calls at R times one pass [default: 3].
    #[arg(long, value_name = "R")]
    pub max_rounds: Option<u32>,
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
