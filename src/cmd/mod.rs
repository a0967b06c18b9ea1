//! One module per subcommand; each turns parsed arguments into library calls, renders the
//! result and picks the exit code. What several commands share: printing warnings and notes
//! (here), writing reports and running with a connected LLM ([`output`]), announcing a served
//! page ([`page`]).

mod audit;
mod calibrate;
mod check;
mod chunk;
mod eval;
mod eval_answers;
mod eval_calibration;
mod eval_qrels;
mod eval_ranking;
mod export;
mod generate;
mod import;
mod output;
mod page;
mod remap;
mod review;
mod run;

use std::fmt::Display;

use anyhow::Result;
use ragsynth::workspace::{OpenOptions, Workspace};

pub use output::{calibration, emit, save, with_llm};

use crate::Exit;
use crate::cli::{Cli, Command};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Exit> {
    let config = cli.config()?;
    // A key a cloned repository's ragsynth.toml may not set is said once, before anything runs.
    config.ignored().iter().for_each(note);
    let walk = cli.walk_options(&config)?;
    match cli.command {
        Command::Audit(args) => audit::run(args, &config, &walk),
        Command::Check(args) => check::run(args, &config, &walk),
        Command::Chunk(args) => chunk::run(args, &walk),
        Command::Import(args) => import::run(args, &walk),
        Command::Remap(args) => remap::run(args, &walk),
        Command::Review(args) => review::run(args, &walk),
        Command::Eval(args) => eval::run(args, &config, &walk),
        Command::Export(args) => export::run(args, &walk),
        Command::Run(args) => run::run(args, &walk),
        Command::Generate(args) => generate::run(args, &config, &walk),
        Command::Calibrate(args) => calibrate::run(args, &config),
    }
}

/// Opens the workspace of the set at `path` and prints what the user should hear of it.
pub fn open(path: &std::path::Path, options: &OpenOptions) -> Result<Workspace> {
    let ws = Workspace::open(path, options)?;
    ws.notes.iter().for_each(warning);
    Ok(ws)
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
