//! Arguments of `ragsynth export`.

use std::path::PathBuf;

use clap::Args;
use clap::builder::PossibleValuesParser;
use ragsynth::testset::Selection;

/// `ragsynth export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Test set to export (YAML or JSON Lines).
    pub testset: PathBuf,
    /// The tool to export for: ragas (EvaluationDataset.from_jsonl), deepeval
    /// (add_goldens_from_json_file), giskard (QATestset.load), promptfoo (a tests file), jsonl
    /// (flat records for your own scripts).
    #[arg(long, value_name = "FORMAT", value_parser = PossibleValuesParser::new(format_names()))]
    pub to: String,
    /// File to write (atomically) [default: standard output].
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Export pending cases (and real questions still waiting for a label) too, not only
    /// accepted ones; rejected cases are never exported.
    #[arg(long)]
    pub include_pending: bool,
    /// Corpus directory the labelled passages are read from (default: the test set's corpus
    /// root; without one, each label's quote is exported).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
}

fn format_names() -> Vec<&'static str> {
    ragsynth::export::formats().iter().map(|f| f.name).collect()
}

impl ExportArgs {
    /// Which cases go out.
    pub fn selection(&self) -> Selection {
        Selection {
            include_pending: self.include_pending,
        }
    }
}
