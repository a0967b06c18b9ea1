//! How documents are read and cut into chunks (`--size`, `--unit`, ...), shared by the
//! commands that chunk a corpus without a test set to name the chunking (`chunk`, `generate`).

use clap::Args;
use ragsynth::chunk::Chunking;
use ragsynth::corpus::WalkOptions;

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

impl ChunkingArgs {
    /// The chunking these arguments describe.
    pub fn to_chunking(&self) -> anyhow::Result<Chunking> {
        let c = Chunking {
            splitter: self.splitter.parse()?,
            unit: self.unit.parse()?,
            size: self.size,
            min_size: self.min_size,
            overlap: self.overlap,
        };
        c.validate()?;
        Ok(c)
    }

    /// Walk options from these arguments laid over `base` (the global ones).
    pub fn walk_options(&self, base: &WalkOptions) -> WalkOptions {
        WalkOptions {
            max_file_bytes: self.max_file_size,
            ..base.clone()
        }
    }
}
