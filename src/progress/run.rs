//! `run`'s progress: a bar on stderr when it is a terminal, and one warning line per case that
//! still fails either way.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ragsynth::run;

/// `ragsynth run`'s bar on stderr when it is a terminal; each failed case is one warning line
/// either way.
pub struct RunBar {
    bar: ProgressBar,
    /// Prints a warning line (the binary's one way of warning).
    warn: fn(String),
}

impl RunBar {
    /// A bar for `ragsynth run`; each case that fails is told through `warn`.
    pub fn new(warn: fn(String)) -> RunBar {
        let bar = ProgressBar::with_draw_target(
            Some(0),
            if std::io::stderr().is_terminal() {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template("asking [{bar:30}] {pos}/{len} ({elapsed}, {eta} left) {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        RunBar { bar, warn }
    }

    /// Clears the bar before the summary.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl run::Progress for RunBar {
    fn start(&self, to_ask: usize, resumed: usize) {
        self.bar.set_length(to_ask as u64);
        if resumed > 0 {
            self.bar
                .suspend(|| eprintln!("resuming: {resumed} case(s) already answered are not asked again"));
        }
    }

    fn done(&self, entry: &run::Entry) {
        self.bar.inc(1);
        if let (Some(kind), Some(message)) = (&entry.error, &entry.message) {
            let line = format!(
                "case `{}`: {kind} after {} attempt(s): {message}",
                entry.id, entry.attempts
            );
            self.bar.suspend(|| (self.warn)(line));
        }
    }
}
