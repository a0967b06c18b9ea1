//! What a command shows while it runs: `run`'s bar, and `generate`'s progress bars, one per kind of question,
//! on stderr when it is a terminal; in a pipe or a log, where bars do not draw, a plain line at
//! each round and at least every 20 seconds, so a long run never looks hung (the library
//! reports progress through [`Progress`]; showing it is the binary's business).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use ragsynth::generate::candidate::{Kind, Task};
use ragsynth::generate::kinds::KINDS;
use ragsynth::generate::pipeline::{Progress, Verdict};
use ragsynth::generate::plan::Plan;
use ragsynth::run;

/// One progress bar per kind of question the plan asks for.
pub struct Bars {
    multi: MultiProgress,
    bars: Vec<(Kind, ProgressBar)>,
    /// The plain lines, when stderr is not a terminal.
    lines: Option<Heartbeat>,
}

impl Bars {
    /// Bars for `plan`'s kinds; plain lines instead when stderr is not a terminal; nothing when
    /// `quiet`.
    pub fn new(plan: &Plan, quiet: bool) -> Bars {
        let terminal = std::io::stderr().is_terminal();
        let lines = (!quiet && !terminal).then(Heartbeat::start);
        let target = if quiet || !terminal {
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
        Bars { multi, bars, lines }
    }

    /// Clears the bars, so the summary that follows starts on a clean line.
    pub fn finish(&self) {
        if let Some(h) = &self.lines {
            h.stop();
        }
        for (_, b) in &self.bars {
            b.finish_and_clear();
        }
        let _ = self.multi.clear();
    }
}

impl Progress for Bars {
    fn round(&self, round: u32, tasks: &[Task]) {
        if let Some(h) = &self.lines {
            h.round(round, tasks.len());
        }
        for (kind, b) in &self.bars {
            let n = tasks.iter().filter(|t| t.kind == *kind).count();
            b.inc_length(n as u64);
            if round > 1 && n > 0 {
                b.set_message(format!("round {round}"));
            }
        }
    }

    fn verdict(&self, v: &Verdict) {
        if let Some(h) = &self.lines {
            h.verdict(v);
        }
        if let Some((_, b)) = self.bars.iter().find(|(k, _)| *k == v.kind) {
            b.inc(1);
            if let Some(Err(r)) = v.results.iter().find(|r| r.is_err()) {
                b.set_message(format!("last rejected: {r}"));
            }
        }
    }
}

/// Plain progress lines on stderr: one when a round starts, and one at least every 20 seconds
/// while it runs (a single call to a slow local model can take longer than that).
struct Heartbeat {
    state: Arc<Beat>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

#[derive(Default)]
struct Beat {
    total: AtomicU64,
    done: AtomicU64,
    accepted: AtomicU64,
    round: AtomicU64,
    stopped: AtomicBool,
    wake: (Mutex<()>, Condvar),
}

const EVERY: Duration = Duration::from_secs(20);

impl Heartbeat {
    fn start() -> Heartbeat {
        let state = Arc::new(Beat::default());
        let beat = state.clone();
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let (lock, cvar) = &beat.wake;
            let mut guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if beat.stopped.load(Ordering::SeqCst) {
                    return;
                }
                guard = cvar
                    .wait_timeout(guard, EVERY)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if beat.stopped.load(Ordering::SeqCst) {
                    return;
                }
                eprintln!(
                    "generate: {} of {} tasks done, {} cases accepted (round {}, {} s)",
                    beat.done.load(Ordering::SeqCst),
                    beat.total.load(Ordering::SeqCst),
                    beat.accepted.load(Ordering::SeqCst),
                    beat.round.load(Ordering::SeqCst).max(1),
                    started.elapsed().as_secs()
                );
            }
        });
        Heartbeat {
            state,
            thread: Mutex::new(Some(thread)),
        }
    }

    fn round(&self, round: u32, tasks: usize) {
        self.state.round.store(u64::from(round), Ordering::SeqCst);
        self.state.total.fetch_add(tasks as u64, Ordering::SeqCst);
        let what = if round == 1 {
            "asking for"
        } else {
            "replacing rejected ones:"
        };
        eprintln!("generate: round {round}: {what} {tasks} task(s)");
    }

    fn verdict(&self, v: &Verdict) {
        self.state.done.fetch_add(1, Ordering::SeqCst);
        let ok = v.results.iter().filter(|r| r.is_ok()).count();
        self.state.accepted.fetch_add(ok as u64, Ordering::SeqCst);
    }

    fn stop(&self) {
        {
            // Under the lock: the thread is either waiting (and woken) or sees the flag first.
            let _guard = self.state.wake.0.lock().unwrap_or_else(|e| e.into_inner());
            self.state.stopped.store(true, Ordering::SeqCst);
            self.state.wake.1.notify_all();
        }
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// `ragsynth run`'s bar on stderr when it is a terminal; each failed case is one warning line
/// either way.
pub struct RunBar(ProgressBar);

impl RunBar {
    /// A bar for `ragsynth run`.
    pub fn new() -> RunBar {
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
        RunBar(bar)
    }

    /// Clears the bar before the summary.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl run::Progress for RunBar {
    fn start(&self, to_ask: usize, resumed: usize) {
        self.0.set_length(to_ask as u64);
        if resumed > 0 {
            self.0
                .suspend(|| eprintln!("resuming: {resumed} case(s) already answered are not asked again"));
        }
    }

    fn done(&self, entry: &run::Entry) {
        self.0.inc(1);
        if let (Some(kind), Some(message)) = (&entry.error, &entry.message) {
            let line = format!(
                "case `{}`: {kind} after {} attempt(s): {message}",
                entry.id, entry.attempts
            );
            self.0.suspend(|| super::warning(line));
        }
    }
}

/// One line on stderr per poll of a batch: how far it is, and at this pace how long it needs.
pub fn batch_line(p: &ragsynth::llm::BatchProgress) {
    let mins = |d: std::time::Duration| format!("{:.1} min", d.as_secs_f64() / 60.0);
    let eta = p.eta.map_or(String::new(), |e| format!(", eta {}", mins(e)));
    let state = match (p.ended, p.resumed) {
        (true, _) => "ended",
        (false, true) => "collecting (submitted by an earlier run)",
        (false, false) => "running",
    };
    eprintln!(
        "batch {}: {state}, {}/{} done, {} failed, {} elapsed{eta}",
        ragsynth::terminal::safe(&p.batch),
        p.done,
        p.requests,
        p.failed,
        mins(p.elapsed)
    );
}
