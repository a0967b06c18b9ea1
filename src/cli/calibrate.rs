//! Arguments of `ragsynth calibrate`: the model (`--llm ...`), which judges and data, and where
//! the records go.

use std::path::PathBuf;

use clap::Args;
use ragsynth::calibrate::{DEFAULT_LIMIT, Options};
use ragsynth::judge::calibration::DEFAULT_FILE;

use super::LlmArgs;

/// `ragsynth calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// The model to measure, and how to call it.
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Also measure on this SQuAD-format file (v2.0 or v1.1; a folder: each `.json` in it), e.g.
    /// SQuAD 2.0 for the answerability judge's look-alike unanswerable questions. Repeatable.
    #[arg(long, value_name = "PATH")]
    pub squad: Vec<PathBuf>,
    /// Measure on the `--squad` data only, not on the hand marks that ship with ragsynth (as
    /// the built-in table was measured).
    #[arg(long)]
    pub no_hand_marks: bool,
    /// Measure only this judge (answerable, supported, answers, correct, refused, grounded).
    /// Repeatable.
    #[arg(long = "judge", value_name = "NAME")]
    pub judges: Vec<String>,
    /// Items per judge and data source.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT)]
    pub limit: usize,
    /// Skip the first N items per judge and source (measure on items a wording was not tuned on).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,
    /// Folder of judge templates replacing the built-in ones (measures that wording).
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<PathBuf>,
    /// The records file to keep the kappas in; `generate`, `audit` and `eval` read
    /// `judge-calibration.json` beside their test set.
    #[arg(short, long, value_name = "FILE", default_value = DEFAULT_FILE)]
    pub output: PathBuf,
    /// Print the table only; keep nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Also print every wrong verdict.
    #[arg(long)]
    pub show_misses: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

impl CalibrateArgs {
    /// What to measure.
    pub fn options(&self) -> Options {
        Options {
            judges: self.judges.clone(),
            limit: self.limit,
            offset: self.offset,
            squad: self.squad.clone(),
            hand_marks: !self.no_hand_marks,
        }
    }
}
