//! One module per subcommand; each turns parsed arguments into library calls, renders the
//! result and picks the exit code. What several commands share: printing warnings and notes
//! (here), writing reports and running with a connected LLM ([`output`]).

mod audit;
mod chunk;
mod eval;
mod eval_answers;
mod eval_calibration;
mod export;
mod generate;
mod import;
mod output;
mod progress;
mod remap;
mod review;
mod run;

use std::fmt::Display;

use anyhow::Result;
use ragsynth::corpus::WalkOptions;

pub use output::{emit, open_browser, save, with_llm};

use crate::Exit;
use crate::cli::{Cli, Command};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Exit> {
    let walk = WalkOptions {
        follow_outside_links: cli.follow_outside_links,
        language: corpus_language(&cli)?,
        ..WalkOptions::default()
    };
    match cli.command {
        Command::Audit(args) => audit::run(args, cli.config.as_deref(), &walk),
        Command::Chunk(args) => chunk::run(args, &walk),
        Command::Import(args) => import::run(args, &walk),
        Command::Remap(args) => remap::run(args, &walk),
        Command::Review(args) => review::run(args, &walk),
        Command::Eval(args) => eval::run(args, cli.config.as_deref(), &walk),
        Command::Export(args) => export::run(args, &walk),
        Command::Run(args) => run::run(args, &walk),
        Command::Generate(args) => generate::run(args, cli.config.as_deref(), &walk),
    }
}

/// `[corpus]` of the configuration file.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusSection {
    /// The documents' language (ISO 639-1 code), instead of detecting each one's.
    language: Option<ragsynth::lang::Language>,
}

/// The documents' language: `--language`, else `[corpus] language`, else none (detected).
fn corpus_language(cli: &Cli) -> Result<Option<ragsynth::lang::Language>> {
    if let Some(code) = &cli.language {
        return Ok(Some(ragsynth::lang::Language::parse(code).ok_or_else(|| {
            anyhow::anyhow!(
                "--language {code}: not a language this build knows (use an ISO 639-1 code such as {})",
                ragsynth::lang::Language::known_codes().join(", ")
            )
        })?));
    }
    let file = ragsynth::config::ConfigFile::load(cli.config.as_deref())?;
    Ok(file.section::<CorpusSection>("corpus")?.language)
}

/// Prints `warning: …` on stderr, secrets masked and control characters escaped (a warning
/// often names a file or quotes a server).
pub fn warning(message: impl Display) {
    eprintln!("warning: {}", ragsynth::terminal::safe(&message.to_string()));
}

/// Prints `note: …` on stderr, like [`warning`].
pub fn note(message: impl Display) {
    eprintln!("note: {}", ragsynth::terminal::safe(&message.to_string()));
}
