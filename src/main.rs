//! The `ragsynth` binary: parses arguments and dispatches to the library. Each subcommand lives
//! in `src/cmd/`, what a long one shows while it works in `src/progress/`; the work itself
//! lives in the library modules.

mod cli;
mod cmd;
mod progress;

use std::process::ExitCode;

use clap::Parser;

/// Exit codes: scripts and CI tell findings apart from failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Done, nothing to report at the failing level.
    Ok = 0,
    /// Something could not be done (bad input, I/O, LLM unreachable).
    Error = 1,
    /// Done, and the findings (audit) or the regression (eval gate) say "fail".
    Findings = 2,
}

impl Exit {
    /// [`Exit::Findings`] when the run found what fails it, else [`Exit::Ok`].
    pub fn findings_if(found: bool) -> Exit {
        if found { Exit::Findings } else { Exit::Ok }
    }
}

// The audit and chunker allocate many small strings across threads; mimalloc handles that
// pattern faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cmd::run(cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => {
            // Errors quote files and servers: no secret or escape sequence reaches the terminal.
            eprintln!("error: {}", ragsynth::terminal::safe(&format!("{err:#}")));
            ExitCode::from(Exit::Error as u8)
        }
    }
}
