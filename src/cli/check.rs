//! Arguments of `ragsynth check`: the set and its corpus, which cases, which checks, the
//! output, and the LLM for the judges.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use ragsynth::corpus::WalkOptions;
use ragsynth::generate::check_set::{CheckOptions, Which};
use ragsynth::generate::checks::Skip;
use ragsynth::workspace::{CorpusNeed, OpenOptions};

use super::{ColumnArgs, FromFormat, LlmArgs};

/// `ragsynth check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Test set (ragsynth YAML/JSONL, or an export of Ragas, DeepEval, Giskard, LlamaIndex, CSV).
    #[arg(required_unless_present_any = ["list", "explain"])]
    pub testset: Option<PathBuf>,
    /// Corpus directory (default: the set's `corpus.root`, relative to the set's file).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Format of the test set: `auto` detects it from the extension and the fields.
    #[arg(long, value_enum, default_value_t = FromFormat::Auto)]
    pub from: FromFormat,
    /// Column names of a plain question file.
    #[command(flatten)]
    pub columns: ColumnArgs,
    /// Which cases to check.
    #[arg(long, value_enum, default_value_t = Cases::All)]
    pub cases: Cases,
    /// Leave these checks out (codes or names, comma separated).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub skip: Vec<String>,
    /// One JSON object per case and line: `{"id", "type", "codes", "findings"}`; `codes` is empty
    /// when generate would accept the case.
    #[arg(long)]
    pub json: bool,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// List every check (code, name, stage, kinds, what it reads of a language), then exit.
    #[arg(long)]
    pub list: bool,
    /// Print what a check catches, why, an example and a known false alarm, then exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// The LLM for the judges (RS509, RS504), which run only where calibrated for it; without
    /// `--llm` they are not run.
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// `--cases`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Cases {
    /// Every case.
    All,
    /// The real ones.
    Real,
    /// The synthetic ones.
    Synthetic,
}

impl CheckArgs {
    /// What to run.
    pub fn options(&self) -> anyhow::Result<CheckOptions> {
        Ok(CheckOptions {
            skip: Skip::parse(self.skip.iter().map(String::as_str))
                .map_err(|e| anyhow::anyhow!("--skip: {e}"))?,
            which: match self.cases {
                Cases::All => Which::All,
                Cases::Real => Which::Real,
                Cases::Synthetic => Which::Synthetic,
            },
        })
    }

    /// How to open the set: ours or another tool's, with a corpus it must have.
    pub fn open_options(&self, path: &Path, walk: &WalkOptions) -> ragsynth::Result<OpenOptions> {
        Ok(OpenOptions {
            set: super::audit::set_source(self.from, path, &self.columns)?,
            columns: self.columns.columns(),
            corpus: self.corpus.clone(),
            need: CorpusNeed::Required,
            walk: walk.clone(),
            ..OpenOptions::default()
        })
    }
}
