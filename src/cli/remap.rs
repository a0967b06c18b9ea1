//! Arguments of `ragsynth remap`, and the chunking and settings they describe.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ragsynth::chunk::ChunkingOverrides;
use ragsynth::remap::RemapOptions;

/// `ragsynth remap`.
#[derive(Debug, Args)]
pub struct RemapArgs {
    /// Test set to re-anchor (YAML or JSON Lines).
    pub testset: PathBuf,
    /// Corpus directory as it is now (default: the test set's corpus root).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// New chunk size (default: the test set's chunking).
    #[arg(long)]
    pub size: Option<usize>,
    /// New smallest chunk size.
    #[arg(long)]
    pub min_size: Option<usize>,
    /// New overlap.
    #[arg(long)]
    pub overlap: Option<usize>,
    /// New unit: `chars` or `tokens:<encoding>`.
    #[arg(long)]
    pub unit: Option<String>,
    /// New splitter: `auto`, `markdown` or `text`.
    #[arg(long)]
    pub splitter: Option<String>,
    /// Similarity a reworded quote needs to be re-found (0..1).
    #[arg(long, default_value_t = ragsynth::locate::DEFAULT_MIN_SIMILARITY)]
    pub min_similarity: f32,
    /// Print the report only; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// `text` for people, `json` for scripts (JSON Lines: one line per label, then a summary).
    #[arg(long, value_enum, default_value_t = RemapFormat::Text)]
    pub format: RemapFormat,
}

/// Output of `ragsynth remap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RemapFormat {
    /// Lines for people.
    Text,
    /// JSON Lines tagged by `type`.
    Json,
}

impl RemapArgs {
    /// The chunking options given, to lay over the test set's own.
    pub fn overrides(&self) -> anyhow::Result<ChunkingOverrides> {
        Ok(ChunkingOverrides {
            size: self.size,
            min_size: self.min_size,
            overlap: self.overlap,
            unit: self.unit.as_deref().map(str::parse).transpose()?,
            splitter: self.splitter.as_deref().map(str::parse).transpose()?,
        })
    }

    /// The remap settings, checked.
    pub fn options(&self) -> anyhow::Result<RemapOptions> {
        super::check_similarity(self.min_similarity)?;
        Ok(RemapOptions {
            min_similarity: self.min_similarity,
        })
    }
}
