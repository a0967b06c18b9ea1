//! Arguments of `ragsynth review`.

use std::path::PathBuf;

use clap::Args;

/// `ragsynth review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The test-set file (YAML or JSONL); every decision is saved into it at once.
    #[arg(required_unless_present = "answers", conflicts_with = "answers")]
    pub testset: Option<PathBuf>,
    /// Check the answer judges instead: the per-case file of `eval --answers --out`. Each
    /// verdict is marked right or wrong by keyboard and saved at once into
    /// `<file stem>.marks.jsonl` beside it, for `eval --calibration`.
    #[arg(long, value_name = "PER_QUESTION")]
    pub answers: Option<PathBuf>,
    /// Corpus directory (default: the test set's `corpus.root`).
    #[arg(long, conflicts_with = "answers")]
    pub corpus: Option<PathBuf>,
    /// Port to listen on (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Address to listen on. Loopback by default; anything else exposes the page to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
}
