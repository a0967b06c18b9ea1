//! What the binary shows while a long command works: progress bars on a terminal, and in a pipe
//! or a log plain lines often enough that a run never looks hung. The library reports
//! progress through traits (`generate::pipeline::Progress`, `run::Progress`); drawing it is
//! the binary's business, kept out of the commands so each stays "arguments → library call →
//! render → exit code".

mod batch;
mod generate;
mod run;

pub use batch::line as batch_line;
pub use generate::Bars;
pub use run::RunBar;
