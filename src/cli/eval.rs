//! Arguments of `ragsynth eval`, and what they describe: the scoring settings, how to open the
//! set and the report's format.

use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, ValueEnum};
use ragsynth::corpus::WalkOptions;

use super::LlmArgs;
use ragsynth::eval::answers::AnswerOptions;
use ragsynth::eval::{EvalOptions, Rule};
use ragsynth::render::answers;
use ragsynth::render::eval::Format;
use ragsynth::testset::Split;
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource};

/// `ragsynth eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Test set (`.yaml`/`.jsonl`), or TREC qrels (`qid iter docid grade`).
    pub testset: PathBuf,
    /// The run: TREC (`qid Q0 docid rank score tag`) or JSONL (`{"id", "retrieved": [...]}`).
    #[arg(long, required_unless_present_any = ["export_qrels", "answers", "calibration"], conflicts_with = "answers")]
    pub run: Option<PathBuf>,
    /// Score the system's answers instead: JSON Lines, `{"id", "answer", "contexts"?}` per case.
    #[arg(long, conflicts_with = "export_qrels")]
    pub answers: Option<PathBuf>,
    /// Measure the answer judges against a person's marks instead: the per-case file of
    /// `--answers --out` whose verdicts were marked with `ragsynth review --answers` (the marks
    /// are read from `<file stem>.marks.jsonl` beside it). Prints each judge's agreement
    /// (count, accuracy, Cohen's kappa) and keeps it in `judge-calibration.json` beside the
    /// test set, where every later answers report of the set finds it.
    #[arg(long, value_name = "PER_QUESTION", conflicts_with_all = ["run", "answers", "export_qrels", "baseline", "save_baseline", "out"])]
    pub calibration: Option<PathBuf>,
    /// Cutoffs for P@k, recall@k, hit@k and nDCG@k.
    #[arg(short, long, value_delimiter = ',', default_value = "1,3,5,10")]
    pub k: Vec<usize>,
    /// Which questions to score.
    #[arg(long, value_enum, default_value_t = SplitArg::Dev)]
    pub split: SplitArg,
    /// Compare with this report (the JSON of `--format json` / `--save-baseline`); exit 2 when a
    /// headline metric fell by more than --tolerance.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Largest drop of a headline metric the gate accepts (absolute).
    #[arg(long, default_value_t = 0.02)]
    pub tolerance: f64,
    /// Write this run's report as a baseline for later runs.
    #[arg(long)]
    pub save_baseline: Option<PathBuf>,
    /// Write per-question results (JSON Lines).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// `text`: tables; `json`: the report (and the comparison under `baseline`); `html`: a
    /// page (with --answers).
    #[arg(long, value_enum, default_value_t = EvalFormat::Text)]
    pub format: EvalFormat,
    /// Corpus directory (default: the test set's `corpus.root`).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Share of a labelled span a retrieved span must cover to be relevant without the quote.
    #[arg(long, default_value_t = 0.5)]
    pub min_coverage: f64,
    /// Lowest grade that counts as relevant (trec_eval's -l); nDCG gains use every grade.
    #[arg(long, default_value_t = 1)]
    pub relevance_level: u32,
    /// Leave questions the run (or the answers file) does not list out of the averages
    /// (trec_eval without -c) instead of scoring them 0.
    #[arg(long)]
    pub skip_missing: bool,
    /// Write the test set as TREC qrels to this file (`-` for stdout) and exit, so results can be
    /// cross-checked with trec_eval.
    #[arg(long)]
    pub export_qrels: Option<PathBuf>,
    /// Folder of prompt templates overriding the built-in judges' (`judge_correct.j2`, ...).
    #[arg(long, value_name = "DIR", requires = "answers")]
    pub prompts: Option<PathBuf>,
    /// With `--answers`: judge each answer with this LLM (`correct`, `refused`, `grounded`).
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// `--split`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SplitArg {
    /// Questions used while tuning.
    Dev,
    /// The held-out questions.
    Heldout,
    /// Every question.
    All,
}

/// Output of `ragsynth eval`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// Tables for people.
    Text,
    /// One JSON document.
    Json,
    /// One self-contained HTML page (with --answers).
    Html,
}

impl EvalArgs {
    /// The scoring settings, checked.
    pub fn options(&self) -> anyhow::Result<EvalOptions> {
        if self.k.is_empty() || self.k.contains(&0) {
            bail!("-k: cutoffs must be positive integers, e.g. -k 1,3,5,10");
        }
        if !(self.min_coverage > 0.0 && self.min_coverage <= 1.0) {
            bail!("--min-coverage must be in (0, 1], got {}", self.min_coverage);
        }
        if self.format == EvalFormat::Html && self.answers.is_none() {
            bail!("--format html is for answers reports (--answers); use text or json");
        }
        if self.tolerance.is_nan() || self.tolerance < 0.0 {
            bail!("--tolerance must be ≥ 0, got {}", self.tolerance);
        }
        Ok(EvalOptions {
            ks: self.k.clone(),
            split: match self.split {
                SplitArg::Dev => Some(Split::Dev),
                SplitArg::Heldout => Some(Split::Heldout),
                SplitArg::All => None,
            },
            rule: Rule {
                min_coverage: self.min_coverage,
                level: self.relevance_level.max(1),
                ..Rule::default()
            },
            skip_missing: self.skip_missing,
        })
    }
}

impl EvalArgs {
    /// What to score with `--answers`.
    pub fn answer_options(&self) -> anyhow::Result<AnswerOptions> {
        let checked = self.options()?;
        Ok(AnswerOptions {
            split: checked.split,
            skip_missing: self.skip_missing,
        })
    }

    /// How to open the set: read only, with the corpus from `--corpus` or its `corpus.root`
    /// when that exists (without one, relevance falls back to span coverage).
    pub fn open_options(&self, walk: &WalkOptions) -> OpenOptions {
        OpenOptions {
            set: SetSource::ReadOnly,
            corpus: self.corpus.clone(),
            need: CorpusNeed::Optional {
                without: "relevance by span coverage only",
            },
            walk: walk.clone(),
            check_fingerprint: true,
            ..OpenOptions::default()
        }
    }

    /// The retrieval report's format (`html` is refused by [`EvalArgs::options`]).
    pub fn report_format(&self) -> Format {
        match self.format {
            EvalFormat::Text | EvalFormat::Html => Format::Text,
            EvalFormat::Json => Format::Json,
        }
    }

    /// The answers report's format.
    pub fn answers_format(&self) -> answers::Format {
        match self.format {
            EvalFormat::Text => answers::Format::Text,
            EvalFormat::Json => answers::Format::Json,
            EvalFormat::Html => answers::Format::Html,
        }
    }
}
