//! One module per subcommand; each turns parsed arguments into library calls and output.

mod audit;
mod chunk;
mod eval;
mod generate;
mod import;
mod remap;
mod review;

use std::fmt::Display;

use anyhow::Result;

use ragsynth::corpus::WalkOptions;

use crate::Exit;
use crate::cli::{ChunkingArgs, Cli, Command};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Exit> {
    let walk = WalkOptions {
        follow_outside_links: cli.follow_outside_links,
        ..WalkOptions::default()
    };
    match cli.command {
        Command::Audit(args) => audit::run(args, cli.config.as_deref(), &walk),
        Command::Chunk(args) => chunk::run(args, &walk),
        Command::Import(args) => import::run(args, &walk),
        Command::Remap(args) => remap::run(args, &walk),
        Command::Review(args) => review::run(args, &walk),
        Command::Eval(args) => eval::run(args, &walk),
        Command::Generate(args) => generate::run(args, cli.config.as_deref(), &walk),
    }
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

impl ChunkingArgs {
    /// The chunking these arguments describe.
    pub fn to_chunking(&self) -> Result<ragsynth::chunk::Chunking> {
        let splitter = match self.splitter.as_str() {
            "auto" => ragsynth::chunk::Splitter::Auto,
            "markdown" => ragsynth::chunk::Splitter::Markdown,
            "text" => ragsynth::chunk::Splitter::Text,
            other => anyhow::bail!("unknown splitter `{other}`: use auto, markdown or text"),
        };
        let c = ragsynth::chunk::Chunking {
            splitter,
            unit: self.unit.parse()?,
            size: self.size,
            min_size: self.min_size,
            overlap: self.overlap,
        };
        c.validate()?;
        Ok(c)
    }

    /// Walk options from these arguments laid over `base` (the global ones).
    pub fn walk_options(&self, base: &WalkOptions) -> WalkOptions {
        WalkOptions {
            max_file_bytes: self.max_file_size,
            ..base.clone()
        }
    }
}
