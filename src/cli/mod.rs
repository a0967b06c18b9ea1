//! Command-line arguments: one file per command, plus the option families several commands
//! share (`--llm ...`, chunking). The only place besides `cmd/` that knows clap; defaults that
//! matter live in the library's config types, not here. Each argument type converts itself into
//! the library's settings type, so a command stays "arguments in, library call, render out".

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use ragsynth::config::{ConfigFile, Sources};
use ragsynth::corpus::WalkOptions;
use ragsynth::lang::Language;

mod audit;
mod calibrate;
mod check;
mod chunk;
mod chunking;
mod columns;
mod eval;
mod export;
mod generate;
mod import;
mod llm;
mod remap;
mod review;
mod run;

pub use audit::AuditArgs;
pub use calibrate::CalibrateArgs;
pub use check::CheckArgs;
pub use chunk::{ChunkArgs, ChunkFormat};
pub use chunking::ChunkingArgs;
pub use columns::{ColumnArgs, FromFormat};
pub use eval::{EvalArgs, Mode as EvalMode};
pub use export::ExportArgs;
pub use generate::GenerateArgs;
pub use import::ImportArgs;
pub use llm::LlmArgs;
pub use remap::{RemapArgs, RemapFormat};
pub use review::ReviewArgs;
pub use run::RunArgs;

/// Seed and audit the test sets used to evaluate retrieval-augmented generation systems.
#[derive(Debug, Parser)]
#[command(name = "ragsynth", version, about, propagate_version = true)]
pub struct Cli {
    /// Configuration file, trusted (default: ~/.config/ragsynth/config.toml, then
    /// ./ragsynth.toml when present, which may not name programs, hosts, variables or paths
    /// outside the working directory).
    #[arg(long, global = true, env = "RAGSYNTH_CONFIG")]
    pub config: Option<PathBuf>,
    /// Trust ./ragsynth.toml as if it were your own: let it name programs, hosts, key variables
    /// and paths outside the working directory.
    #[arg(long, global = true)]
    pub trust: bool,
    /// Read documents through symlinks that lead outside the corpus directory (skipped with a
    /// warning otherwise).
    #[arg(long, global = true)]
    pub follow_outside_links: bool,
    /// The documents' language (ISO 639-1 code, e.g. `es`) instead of detecting each
    /// document's; also `[corpus] language` in the configuration file.
    #[arg(long, global = true, value_name = "CODE")]
    pub language: Option<String>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The configuration's layers (see `ragsynth::config`).
    pub fn config(&self) -> ragsynth::Result<ConfigFile> {
        ConfigFile::load(&Sources::standard(self.config.as_deref(), self.trust))
    }

    /// How to read a corpus: links, and the documents' language.
    pub fn walk_options(&self, config: &ConfigFile) -> anyhow::Result<WalkOptions> {
        Ok(WalkOptions {
            follow_outside_links: self.follow_outside_links,
            language: corpus_language(self, config)?,
            ..WalkOptions::default()
        })
    }
}

/// `[corpus]` of the configuration file.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusSection {
    /// The documents' language (ISO 639-1 code), instead of detecting each one's.
    language: Option<Language>,
}

/// The documents' language: `--language`, else `[corpus] language`, else none (detected).
fn corpus_language(cli: &Cli, config: &ConfigFile) -> anyhow::Result<Option<Language>> {
    if let Some(code) = &cli.language {
        return Ok(Some(Language::parse(code).ok_or_else(|| {
            anyhow::anyhow!(
                "--language {code}: not a language this build knows (use an ISO 639-1 code such as {})",
                Language::known_codes().join(", ")
            )
        })?));
    }
    Ok(config.section::<CorpusSection>("corpus")?.language)
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Flag weak cases (copied phrases, trivial wording, duplicates, broken labels), compare
    /// synthetic with real questions, exit 2 on findings for CI.
    Audit(AuditArgs),
    /// Run generate's checks on the cases of a set (hand-written, another tool's, ours): per case,
    /// the codes that would turn it away; exit 2 when any would be.
    Check(CheckArgs),
    /// Show or export the chunks the other commands see.
    Chunk(ChunkArgs),
    /// Add real questions from a CSV or JSON Lines file (personal data scrubbed).
    Import(ImportArgs),
    /// Re-anchor labels after the corpus or the chunking changed.
    Remap(RemapArgs),
    /// Accept, reject or edit pending synthetic cases on a local web page.
    Review(ReviewArgs),
    /// Score a RAG system's retrieval run against the test set, with a baseline gate for CI.
    Eval(EvalArgs),
    /// Ask a RAG system (HTTP endpoint or command) every question; write what eval --run and
    /// eval --answers read.
    Run(RunArgs),
    /// Write the accepted cases for Ragas, DeepEval, Giskard, promptfoo or as flat JSON Lines.
    Export(ExportArgs),
    /// Measure each LLM judge with a model against human-marked and labelled data; the judges
    /// run only where their kappa clears 0.6.
    Calibrate(CalibrateArgs),
    /// Write synthetic test cases (lookup, identifier, comparison, multi-hop, unanswerable) from a
    /// corpus into a test set.
    Generate(GenerateArgs),
}

/// Checks a `--min-similarity` value.
fn check_similarity(s: f32) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&s),
        "--min-similarity must be between 0 and 1, not {s}"
    );
    Ok(())
}
