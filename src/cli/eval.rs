//! Arguments of `ragsynth eval`, and what they describe. Eval has four modes, each chosen by
//! its flag and each with its own entry point in `cmd/`: `--run` scores a retrieval run (given
//! twice or more, it ranks the runs on the set's real and synthetic parts and compares the two
//! rankings),
//! `--answers` a system's answers, `--calibration` measures the answer judges against a
//! person's marks, `--export-qrels` writes the set as TREC qrels. Clap holds them apart: the
//! mode flags are one group of which exactly one is required, and the flags of a mode are a
//! group of their own that the other modes' flags exclude, so a flag given to a mode that
//! does not read it is refused, not ignored. The `--llm` family is read by `--answers` only and
//! not refused elsewhere: `RAGSYNTH_LLM` may be set in the environment for every command.

use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::{ArgAction, Args, ValueEnum};
use ragsynth::corpus::WalkOptions;

use super::LlmArgs;
use ragsynth::eval::answers::AnswerOptions;
use ragsynth::eval::ranking::{Metric, RankingOptions};
use ragsynth::eval::{EvalOptions, Rule};
use ragsynth::render::answers;
use ragsynth::render::eval::Format;
use ragsynth::testset::{Selection, Split};
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource};

/// `ragsynth eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Test set (`.yaml`/`.jsonl`), or TREC qrels (`qid iter docid grade`) for `--run`.
    pub testset: PathBuf,
    /// Which of the four modes.
    #[command(flatten)]
    pub mode: ModeArgs,
    /// `--run` only.
    #[command(flatten)]
    pub retrieval: RetrievalArgs,
    /// `--run` given twice or more.
    #[command(flatten)]
    pub ranking: RankingArgs,
    /// `--run` and `--answers`.
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Corpus directory (default: the test set's `corpus.root`).
    #[arg(long, conflicts_with = "calibration")]
    pub corpus: Option<PathBuf>,
    /// Folder of prompt templates overriding the built-in judges' (`judge_correct.j2`, ...).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["run", "calibration", "export_qrels"])]
    pub prompts: Option<PathBuf>,
    /// With `--answers`: judge each answer with this LLM (`correct`, `refused`, `grounded`).
    #[command(flatten)]
    pub llm: LlmArgs,
    /// `text`: tables; `json`: the report (and the comparison under `baseline`); `html`: a
    /// page (`--answers` only).
    #[arg(long, value_enum, default_value_t = EvalFormat::Text, conflicts_with = "export_qrels")]
    pub format: EvalFormat,
}

/// The mode flags: exactly one is given.
#[derive(Debug, Args)]
#[group(id = "mode", required = true, multiple = false)]
pub struct ModeArgs {
    /// Score a retrieval run: TREC (`qid Q0 docid rank score tag`) or JSONL (`{"id",
    /// "retrieved": [...]}`). Given twice or more (`--run bm25=bm25.jsonl --run dense.jsonl`,
    /// named `NAME=` or by the file's stem): rank the runs on the set's real and on its
    /// synthetic questions and compare the two rankings (Kendall τ-b, the winners).
    #[arg(long, value_name = "[NAME=]RUN", action = ArgAction::Append)]
    pub run: Vec<PathBuf>,
    /// Score the system's answers: JSON Lines, `{"id", "answer", "contexts"?}` per case.
    #[arg(long)]
    pub answers: Option<PathBuf>,
    /// Measure the answer judges against a person's marks: the per-case file of `--answers
    /// --out` whose verdicts were marked with `ragsynth review --answers` (the marks are read
    /// from `<file stem>.marks.jsonl` beside it). Prints each judge's agreement (count,
    /// accuracy, Cohen's kappa) and keeps it in `judge-calibration.json` beside the test set,
    /// where every later answers report of the set finds it.
    #[arg(long, value_name = "PER_QUESTION")]
    pub calibration: Option<PathBuf>,
    /// Write the test set as TREC qrels to this file (`-` for stdout), so results can be
    /// cross-checked with trec_eval.
    #[arg(long)]
    pub export_qrels: Option<PathBuf>,
}

/// The chosen mode and its file.
#[derive(Debug, Clone, Copy)]
pub enum Mode<'a> {
    /// `--run`, once.
    Run(&'a Path),
    /// `--run`, twice or more: the ranking check.
    Ranking(&'a [PathBuf]),
    /// `--answers`.
    Answers(&'a Path),
    /// `--calibration`.
    Calibration(&'a Path),
    /// `--export-qrels`.
    ExportQrels(&'a Path),
}

impl ModeArgs {
    /// The mode given (clap requires exactly one).
    pub fn chosen(&self) -> anyhow::Result<Mode<'_>> {
        let (answers, calibration) = (&self.answers, &self.calibration);
        let run = self.run.first().filter(|_| self.run.len() == 1);
        Ok(match (run, answers, calibration, &self.export_qrels) {
            _ if self.run.len() > 1 => Mode::Ranking(&self.run),
            (Some(p), _, _, _) => Mode::Run(p),
            (_, Some(p), _, _) => Mode::Answers(p),
            (_, _, Some(p), _) => Mode::Calibration(p),
            (_, _, _, Some(p)) => Mode::ExportQrels(p),
            _ => bail!("one of --run, --answers, --calibration, --export-qrels is required"),
        })
    }
}

/// How a retrieved item counts (`--run` only).
#[derive(Debug, Args)]
#[group(id = "retrieval", multiple = true, conflicts_with_all = ["answers", "calibration", "export_qrels"])]
pub struct RetrievalArgs {
    /// Cutoffs for P@k, recall@k, hit@k and nDCG@k.
    #[arg(short, long, value_delimiter = ',', default_value = "1,3,5,10")]
    pub k: Vec<usize>,
    /// Share of a labelled span a retrieved span must cover to be relevant without the quote.
    #[arg(long, default_value_t = 0.5)]
    pub min_coverage: f64,
    /// Lowest grade that counts as relevant (trec_eval's -l); nDCG gains use every grade.
    #[arg(long, default_value_t = 1)]
    pub relevance_level: u32,
}

/// How several runs are compared (`--run` given twice or more).
#[derive(Debug, Args)]
#[group(id = "ranking", multiple = true, conflicts_with_all = ["answers", "calibration", "export_qrels"])]
pub struct RankingArgs {
    /// Metric the systems are ranked by: `mrr` (the default), `map`, `ndcg@K`, `recall@K`,
    /// `p@K`, `hit@K`.
    #[arg(long)]
    pub metric: Option<Metric>,
    /// Bootstrap resamples for the interval of Kendall's τ-b; 0: none [default: 2000]
    #[arg(long, value_name = "N")]
    pub resamples: Option<usize>,
    /// Seed of the bootstrap: the same runs and seed give the same interval [default: 0]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Gate: exit 2 when τ-b is below this, or when the real and synthetic parts pick
    /// different winners.
    #[arg(long, value_name = "TAU", allow_negative_numbers = true)]
    pub min_tau: Option<f64>,
}

/// Which questions are scored, and what is kept of the scores (`--run` and `--answers`).
#[derive(Debug, Args)]
#[group(id = "scoring", multiple = true, conflicts_with_all = ["calibration", "export_qrels"])]
pub struct ScoringArgs {
    /// Which questions to score.
    #[arg(long, value_enum, default_value_t = SplitArg::Dev)]
    pub split: SplitArg,
    /// Leave questions the run (or the answers file) does not list out of the averages
    /// (trec_eval without -c) instead of scoring them 0.
    #[arg(long)]
    pub skip_missing: bool,
    /// Score pending cases too (and real questions waiting for a label), as `ragsynth run
    /// --include-pending` asks them; by default the accepted cases `run` asks.
    #[arg(long)]
    pub include_pending: bool,
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
    /// One self-contained HTML page (`--answers` only).
    Html,
}

impl EvalArgs {
    /// The retrieval scoring settings, checked.
    pub fn options(&self) -> anyhow::Result<EvalOptions> {
        let r = &self.retrieval;
        if r.k.is_empty() || r.k.contains(&0) {
            bail!("-k: cutoffs must be positive integers, e.g. -k 1,3,5,10");
        }
        if !(r.min_coverage > 0.0 && r.min_coverage <= 1.0) {
            bail!("--min-coverage must be in (0, 1], got {}", r.min_coverage);
        }
        self.check_tolerance()?;
        Ok(EvalOptions {
            ks: r.k.clone(),
            split: self.split(),
            rule: Rule {
                min_coverage: r.min_coverage,
                level: r.relevance_level.max(1),
                ..Rule::default()
            },
            skip_missing: self.scoring.skip_missing,
            selection: self.selection(),
        })
    }

    /// What to score with `--answers`.
    pub fn answer_options(&self) -> anyhow::Result<AnswerOptions> {
        self.check_tolerance()?;
        Ok(AnswerOptions {
            split: self.split(),
            skip_missing: self.scoring.skip_missing,
            selection: self.selection(),
        })
    }

    /// The runs to rank, each with its name (`NAME=` before the path, else the file's stem);
    /// the scoring settings (with the metric's cutoff among them) and the ranking's, checked.
    /// Refuses the single-run flags.
    pub fn ranking(&self, runs: &[PathBuf]) -> anyhow::Result<(Vec<NamedRun>, EvalOptions, RankingOptions)> {
        let s = &self.scoring;
        if s.baseline.is_some() || s.save_baseline.is_some() || s.out.is_some() {
            bail!("--baseline, --save-baseline and --out are for one run; with several, --min-tau gates");
        }
        if let Some(t) = self.ranking.min_tau.filter(|t| !(-1.0..=1.0).contains(t)) {
            bail!("--min-tau must be in [-1, 1], got {t}");
        }
        let mut named: Vec<NamedRun> = Vec::with_capacity(runs.len());
        for run in runs {
            let (name, path) = split_name(run);
            if named.iter().any(|(n, _)| *n == name) {
                bail!("two runs are named `{name}`: name them with NAME=PATH");
            }
            named.push((name, path));
        }
        let (r, default) = (&self.ranking, RankingOptions::default());
        let options = RankingOptions {
            metric: r.metric.unwrap_or(default.metric),
            resamples: r.resamples.unwrap_or(default.resamples),
            seed: r.seed.unwrap_or(default.seed),
        };
        let mut scoring = self.options()?;
        if let Some(k) = options.metric.cutoff().filter(|k| !scoring.ks.contains(k)) {
            scoring.ks.push(k);
        }
        Ok((named, scoring, options))
    }

    /// Refuses the ranking flags with a single run: they compare two or more.
    pub fn check_single_run(&self) -> anyhow::Result<()> {
        let r = &self.ranking;
        if r.metric.is_some() || r.resamples.is_some() || r.seed.is_some() || r.min_tau.is_some() {
            bail!("--metric, --resamples, --seed and --min-tau compare runs: give --run twice or more");
        }
        Ok(())
    }

    /// The cases scored: those `run` asks with the same flag.
    fn selection(&self) -> Selection {
        Selection {
            include_pending: self.scoring.include_pending,
        }
    }

    fn check_tolerance(&self) -> anyhow::Result<()> {
        let t = self.scoring.tolerance;
        if t.is_nan() || t < 0.0 {
            bail!("--tolerance must be ≥ 0, got {t}");
        }
        Ok(())
    }

    fn split(&self) -> Option<Split> {
        match self.scoring.split {
            SplitArg::Dev => Some(Split::Dev),
            SplitArg::Heldout => Some(Split::Heldout),
            SplitArg::All => None,
        }
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

    /// The retrieval report's format; a page is for answers.
    pub fn report_format(&self) -> anyhow::Result<Format> {
        match self.format {
            EvalFormat::Text => Ok(Format::Text),
            EvalFormat::Json => Ok(Format::Json),
            EvalFormat::Html => bail!("--format html is for answers reports (--answers); use text or json"),
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

    /// The calibration's format: JSON or else text; a page is refused.
    pub fn calibration_json(&self) -> anyhow::Result<bool> {
        match self.format {
            EvalFormat::Text => Ok(false),
            EvalFormat::Json => Ok(true),
            EvalFormat::Html => bail!("--calibration prints text or json, not html"),
        }
    }
}

/// A run to rank: its name and file.
pub type NamedRun = (String, PathBuf);

/// `NAME=PATH` into its name and path, when the text before `=` is a plain name and the whole
/// is not itself a file; else the path, named by its stem.
fn split_name(run: &Path) -> (String, PathBuf) {
    let text = run.to_string_lossy();
    if let Some((name, path)) = text.split_once('=')
        && !name.is_empty()
        && !name.contains(['/', '\\'])
        && !run.exists()
    {
        return (name.to_string(), PathBuf::from(path));
    }
    let stem = run
        .file_stem()
        .map_or_else(|| text.to_string(), |s| s.to_string_lossy().into_owned());
    (stem, run.to_path_buf())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::cli::{Cli, Command};

    fn parse(args: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(
            ["ragsynth", "eval", "set.yaml"]
                .into_iter()
                .chain(args.split_whitespace()),
        )
    }

    #[test]
    fn one_mode_is_required_and_each_flag_belongs_to_its_modes() {
        assert!(parse("").is_err(), "no mode");
        assert!(parse("--run r --answers a").is_err(), "two modes");
        let ok = parse("--answers a --split all --out o --prompts p --format html").unwrap();
        let Command::Eval(args) = ok.command else {
            panic!("eval")
        };
        assert!(matches!(args.mode.chosen().unwrap(), super::Mode::Answers(_)));
        assert!(args.report_format().is_err(), "a retrieval report is no page");
        parse("--run r -k 1,5 --baseline b --corpus c").unwrap();
        parse("--export-qrels - --corpus c").unwrap();
        for refused in [
            "--answers a -k 3",
            "--answers a --min-coverage 0.3",
            "--run r --prompts p",
            "--calibration c --out o",
            "--calibration c --corpus c",
            "--export-qrels - --format json",
            "--export-qrels - --split all",
        ] {
            assert!(parse(refused).is_err(), "{refused}");
        }
    }
}
