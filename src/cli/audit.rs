//! Arguments of `ragsynth audit`, and what they describe: the rule thresholds, how to open the
//! set, the report's format, which cases `--write` touches and the failing severity.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use ragsynth::audit::{AuditConfig, WriteScope};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::render::audit::{Format, TextOptions};
use ragsynth::severity::Severity;
use ragsynth::testset::foreign::{self, ReadOptions};
use ragsynth::workspace::{OpenOptions, SetSource};

use super::{ColumnArgs, FromFormat, LlmArgs};

/// `ragsynth audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Test set (ragsynth YAML/JSONL, or an export of Ragas, DeepEval, Giskard, LlamaIndex, CSV).
    #[arg(required_unless_present = "explain")]
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
    /// Run only these rules (codes or prefixes, comma-separated: `RS1,RS301`).
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Skip these rules (codes or prefixes, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Print what a rule flags, why it matters and an example, then exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Exit 2 when a finding is at least this severe.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Store flags and figures in the `audit` field of each synthetic case (atomic rewrite).
    #[arg(long)]
    pub write: bool,
    /// With --write, also write into real cases (which then change).
    #[arg(long, requires = "write")]
    pub write_real: bool,
    /// Findings shown per rule in the text report (0: all).
    #[arg(long, default_value_t = 20)]
    pub max_per_rule: usize,
    /// Folder of judge templates (`judge_answerable.j2`, `judge_supported.j2`) replacing the
    /// built-in ones.
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<PathBuf>,
    /// The LLM for the judged checks (RS504-RS506); without `--llm` they are skipped.
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Output of `ragsynth audit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// Grouped by rule, worst first, for people.
    Text,
    /// `{"version":1,"findings":[...],"summary":{...}}`.
    Json,
    /// One self-contained HTML page (summary plots and every case with its flags), for sharing.
    Html,
}

/// Severity threshold of `--fail-on`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any finding fails.
    Info,
    /// Warnings and errors fail.
    Warning,
    /// Only errors fail.
    Error,
    /// Never fail on findings.
    Never,
}

/// How to read the set at `path` (`auto` looks at its extension and fields).
pub(super) fn set_source(from: FromFormat, path: &Path, columns: &ColumnArgs) -> ragsynth::Result<SetSource> {
    if from == FromFormat::Ragsynth {
        return Ok(SetSource::Existing);
    }
    let options = ReadOptions {
        family: from.family(),
        columns: columns.columns(),
    };
    Ok(match foreign::detect(path, &options)? {
        // Saved through `Tracked` with --write: review decisions made meanwhile are kept.
        foreign::Format::Ragsynth => SetSource::Existing,
        other => SetSource::Export(other),
    })
}

impl FailOn {
    /// The least severe finding that fails the run; `None` never fails.
    pub fn level(self) -> Option<Severity> {
        match self {
            FailOn::Info => Some(Severity::Info),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Error => Some(Severity::Error),
            FailOn::Never => None,
        }
    }
}

impl AuditArgs {
    /// The `[audit]` section of `file` with `--select` / `--ignore` added, checked.
    pub fn config(&self, file: &ConfigFile) -> ragsynth::Result<AuditConfig> {
        let mut cfg: AuditConfig = file.section("audit")?;
        cfg.select.extend(self.select.iter().cloned());
        cfg.ignore.extend(self.ignore.iter().cloned());
        ragsynth::audit::rules::check_codes(&cfg)?;
        Ok(cfg)
    }

    /// How to open the set at `path`: ours or an export, with `--corpus` when given.
    pub fn open_options(&self, path: &Path, walk: &WalkOptions) -> ragsynth::Result<OpenOptions> {
        Ok(OpenOptions {
            set: set_source(self.from, path, &self.columns)?,
            columns: self.columns.columns(),
            corpus: self.corpus.clone(),
            walk: walk.clone(),
            ..OpenOptions::default()
        })
    }

    /// The report's format; colours only for a terminal that wants them.
    pub fn report_format(&self, path: &Path) -> Format {
        match self.format {
            AuditFormat::Json => Format::Json,
            AuditFormat::Html => Format::Html(format!("ragsynth audit of {}", path.display())),
            AuditFormat::Text => Format::Text(TextOptions {
                color: self.output.is_none()
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none(),
                max_per_rule: self.max_per_rule,
            }),
        }
    }

    /// The cases `--write` stores figures in.
    pub fn write_scope(&self) -> WriteScope {
        if self.write_real {
            WriteScope::All
        } else {
            WriteScope::Synthetic
        }
    }
}
