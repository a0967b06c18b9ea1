//! Command-line arguments. Defaults that matter live in the library's config types, not here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Seed and audit the test sets used to evaluate retrieval-augmented generation systems.
#[derive(Debug, Parser)]
#[command(name = "ragsynth", version, about, propagate_version = true)]
pub struct Cli {
    /// Configuration file (default: ./ragsynth.toml when present).
    #[arg(long, global = true, env = "RAGSYNTH_CONFIG")]
    pub config: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show or export the chunks the other commands see.
    Chunk(ChunkArgs),
}

/// How documents are read and cut into chunks.
#[derive(Debug, Clone, Args)]
pub struct ChunkingArgs {
    /// Largest chunk, in the unit below.
    #[arg(long, default_value_t = 1200)]
    pub size: usize,
    /// Smallest chunk the splitter aims for (default: --size).
    #[arg(long)]
    pub min_size: Option<usize>,
    /// Overlap between neighbouring chunks.
    #[arg(long, default_value_t = 120)]
    pub overlap: usize,
    /// `chars`, or `tokens:<encoding>` (cl100k_base, o200k_base, p50k_base, r50k_base).
    #[arg(long, default_value = "chars")]
    pub unit: String,
    /// `auto` (markdown splitter for .md files), `markdown` or `text`.
    #[arg(long, default_value = "auto")]
    pub splitter: String,
    /// Skip files larger than this many bytes.
    #[arg(long, default_value_t = ragsynth::corpus::DEFAULT_MAX_FILE_BYTES)]
    pub max_file_size: u64,
}

/// `ragsynth chunk`.
#[derive(Debug, Args)]
pub struct ChunkArgs {
    /// Corpus directory (or a single file).
    pub corpus: PathBuf,
    /// Chunking.
    #[command(flatten)]
    pub chunking: ChunkingArgs,
    /// `text`: per-document counts and size statistics; `jsonl`: one chunk a line.
    #[arg(long, value_enum, default_value_t = ChunkFormat::Text)]
    pub format: ChunkFormat,
}

/// Output of `ragsynth chunk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChunkFormat {
    /// A table for people.
    Text,
    /// `{id, doc, start, end, text}` per line.
    Jsonl,
}
