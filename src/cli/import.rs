//! Arguments of `ragsynth import`, and the import settings they describe.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ragsynth::corpus::WalkOptions;
use ragsynth::import::ImportOptions;
use ragsynth::testset::Source;
use ragsynth::testset::foreign::ReadOptions;
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource};

use super::{ColumnArgs, FromFormat};

/// `ragsynth import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Questions (CSV/TSV with a header row, JSON Lines) or another tool's test set (Ragas,
    /// DeepEval, Giskard, LlamaIndex: CSV, JSON or JSON Lines).
    pub file: PathBuf,
    /// Test set to add to; created (with corpus and chunking header) when absent.
    #[arg(long)]
    pub into: PathBuf,
    /// Which tool wrote the file: `auto` tells it from the fields.
    #[arg(long, value_enum, default_value_t = FromFormat::Auto)]
    pub from: FromFormat,
    /// Tag the cases with this source [default: synthetic for a generator's set, real for
    /// questions].
    #[arg(long, value_enum)]
    pub source: Option<SourceArg>,
    /// Column names of a plain question file.
    #[command(flatten)]
    pub columns: ColumnArgs,
    /// Keep personal data (e-mail, phone, card, IBAN, IP, URL with secrets, long ids) as is.
    #[arg(long)]
    pub no_scrub: bool,
    /// Corpus directory (default: the test set's corpus root).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Candidate labels proposed for a question without one.
    #[arg(long, default_value_t = 3)]
    pub candidates: usize,
    /// Similarity a quote or context needs to be matched fuzzily (0..1).
    #[arg(long, default_value_t = ragsynth::locate::DEFAULT_MIN_SIMILARITY)]
    pub min_similarity: f32,
    /// Print the summary only; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `--source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SourceArg {
    /// Asked by real users.
    Real,
    /// Written by a model.
    Synthetic,
}

impl ImportArgs {
    /// How to read the file.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            family: self.from.family(),
            columns: self.columns.columns(),
        }
    }

    /// The import settings, checked.
    pub fn options(&self) -> anyhow::Result<ImportOptions> {
        super::check_similarity(self.min_similarity)?;
        Ok(ImportOptions {
            scrub: !self.no_scrub,
            candidates: self.candidates,
            min_similarity: self.min_similarity,
            source_name: self
                .file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            source: self.source.map(|s| match s {
                SourceArg::Real => Source::Real,
                SourceArg::Synthetic => Source::Synthetic,
            }),
        })
    }

    /// How to open the set cases are added to: created when absent, with the corpus required.
    pub fn open_options(&self, walk: &WalkOptions) -> OpenOptions {
        OpenOptions {
            set: SetSource::CreateIfMissing,
            corpus: self.corpus.clone(),
            need: CorpusNeed::Required,
            walk: walk.clone(),
            check_fingerprint: true,
            ..OpenOptions::default()
        }
    }
}
