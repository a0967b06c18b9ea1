//! Arguments of `ragsynth remap`, and the chunking and settings they describe.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ragsynth::chunk::Chunking;
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
    /// `base` (the test set's chunking) with the chunking options given laid over it, checked.
    pub fn chunking(&self, mut base: Chunking) -> anyhow::Result<Chunking> {
        base.size = self.size.unwrap_or(base.size);
        base.min_size = self.min_size.or(base.min_size);
        base.overlap = self.overlap.unwrap_or(base.overlap);
        if let Some(unit) = &self.unit {
            base.unit = unit.parse()?;
        }
        if let Some(splitter) = &self.splitter {
            base.splitter = splitter.parse()?;
        }
        base.validate()?;
        Ok(base)
    }

    /// The remap settings, checked.
    pub fn options(&self) -> anyhow::Result<RemapOptions> {
        super::check_similarity(self.min_similarity)?;
        Ok(RemapOptions {
            min_similarity: self.min_similarity,
        })
    }
}
