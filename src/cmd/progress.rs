//! What a command shows while it runs: `generate`'s progress bars, one per kind of question,
//! on stderr and only when it is a terminal (the library reports progress through
//! [`Progress`]; drawing it is the binary's business).

use std::io::IsTerminal;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use ragsynth::generate::candidate::{Kind, Task};
use ragsynth::generate::kinds::KINDS;
use ragsynth::generate::pipeline::{Progress, Verdict};
use ragsynth::generate::plan::Plan;

/// One progress bar per kind of question the plan asks for.
pub struct Bars {
    multi: MultiProgress,
    bars: Vec<(Kind, ProgressBar)>,
}

impl Bars {
    /// Bars for `plan`'s kinds; hidden when `quiet` or stderr is not a terminal.
    pub fn new(plan: &Plan, quiet: bool) -> Bars {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let multi = MultiProgress::with_draw_target(target);
        let style = ProgressStyle::with_template("{prefix:>13} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .expect("valid template")
            .progress_chars("=> ");
        // Lengths grow as each round's tasks are known.
        let bars = KINDS
            .iter()
            .map(|k| k.kind)
            .filter(|&k| plan.count(k) > 0)
            .map(|k| {
                let b = multi.add(ProgressBar::new(0));
                b.set_style(style.clone());
                b.set_prefix(k.as_str());
                (k, b)
            })
            .collect();
        Bars { multi, bars }
    }

    /// Clears the bars, so the summary that follows starts on a clean line.
    pub fn finish(&self) {
        for (_, b) in &self.bars {
            b.finish_and_clear();
        }
        let _ = self.multi.clear();
    }
}

impl Progress for Bars {
    fn round(&self, round: u32, tasks: &[Task]) {
        for (kind, b) in &self.bars {
            let n = tasks.iter().filter(|t| t.kind == *kind).count();
            b.inc_length(n as u64);
            if round > 1 && n > 0 {
                b.set_message(format!("round {round}"));
            }
        }
    }

    fn verdict(&self, v: &Verdict) {
        if let Some((_, b)) = self.bars.iter().find(|(k, _)| *k == v.kind) {
            b.inc(1);
            if let Some(Err(r)) = v.results.iter().find(|r| r.is_err()) {
                b.set_message(format!("last rejected: {r}"));
            }
        }
    }
}
