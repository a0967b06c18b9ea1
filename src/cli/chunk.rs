//! Arguments of `ragsynth chunk`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::ChunkingArgs;

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
