//! Asking the user's RAG system every question of a test set, and writing what it answered and
//! retrieved in the shapes `eval --answers` and `eval --run` read.
//!
//! A real system is flaky: each question is retried with exponential backoff and jitter on a
//! timeout, a 5xx, a dropped connection or a malformed reply; what still fails is named per
//! case, never dropped. Every outcome is journaled as it arrives ([`journal`]), so a run that
//! was killed picks up where it stopped and never asks an answered question again. A system
//! that cannot be reached at all stops the run at its first question.
//!
//! What a system returns is bounded: a reply's size ([`Bounds`]), its contexts per answer
//! ([`RunOptions::max_contexts`]), and the line each answer takes in `run.jsonl`, which may not
//! pass what `eval` reads ([`limits::LINE_BYTES`]). What is written — the journal, the error
//! file, the outputs — carries no registered secret and no URL credentials.

pub mod journal;
pub mod reply;
pub mod transport;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use futures::StreamExt;
use serde_json::{Value, json};

pub use journal::Entry;
pub use reply::{Fields, Strings};
pub use transport::{Bounds, Failure, FailureKind, Target};

use crate::fsutil::write_atomic;
use crate::limits::{self, LINE_BYTES};
use crate::redact;
use crate::testset::{Selection, TestSet};
use crate::{Error, Result};
use journal::Journal;
use transport::Transport;

/// How to run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub target: Target,
    pub fields: Fields,
    /// Questions in flight at once (a command answers one at a time whatever this says).
    pub concurrency: usize,
    /// Longest wait for one reply.
    pub timeout: Duration,
    /// Attempts after the first, per question.
    pub retries: usize,
    /// The first backoff; it doubles, with jitter, up to 30 s.
    pub backoff: Duration,
    /// Which cases are asked.
    pub selection: Selection,
    /// Reply size and redirects.
    pub bounds: Bounds,
    /// Contexts one answer may hold.
    pub max_contexts: usize,
}

/// Contexts per answer unless `--max-contexts` says otherwise.
pub const DEFAULT_MAX_CONTEXTS: usize = 1000;

/// What the caller shows while the run goes on.
pub trait Progress: Sync {
    /// `to_ask` questions will be asked; `resumed` were answered by an earlier run.
    fn start(&self, to_ask: usize, resumed: usize);
    /// A question's outcome, as journaled.
    fn done(&self, entry: &Entry);
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Cases selected.
    pub cases: usize,
    /// Answered by an earlier run into the same folder, not asked again.
    pub resumed: usize,
    /// Asked in this run.
    pub asked: usize,
    /// Cases with an answer now (earlier runs included).
    pub answered: usize,
    /// Cases still without one, in set order.
    pub failed: Vec<Entry>,
    /// Failed attempts in this run, by kind (retried ones included).
    pub failures: BTreeMap<String, usize>,
    /// `run.jsonl`, for `eval --run`.
    pub run_file: PathBuf,
    /// `answers.jsonl`, for `eval --answers`.
    pub answers_file: PathBuf,
    /// `errors.jsonl`, when a case failed.
    pub errors_file: Option<PathBuf>,
}

/// Asks every selected case of `set` and writes `run.jsonl`, `answers.jsonl` (and
/// `errors.jsonl`) into `dir`.
pub async fn run(
    set: &TestSet,
    dir: &Path,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Result<Summary> {
    let cases: Vec<(&str, &str)> = options
        .selection
        .cases(set)
        .map(|c| (c.id.as_str(), c.question.as_str()))
        .collect();
    let (journal, mut outcomes) = Journal::open(dir, &options.target.to_string())?;
    let todo: Vec<(&str, &str)> = cases
        .iter()
        .copied()
        .filter(|(id, _)| !outcomes.get(*id).is_some_and(Entry::answered))
        .collect();
    let resumed = cases.len() - todo.len();
    progress.start(todo.len(), resumed);
    let asker = Asker {
        transport: Transport::new(&options.target, options.bounds)?,
        options,
        failures: Mutex::new(BTreeMap::new()),
    };
    let result = asker.ask_all(&todo, &journal, progress).await;
    asker.transport.close().await;
    for entry in result? {
        outcomes.insert(entry.id.clone(), entry);
    }
    let mut summary = write_outputs(dir, &cases, &outcomes)?;
    summary.resumed = resumed;
    summary.asked = todo.len();
    summary.failures = asker.failures.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(summary)
}

struct Asker<'a> {
    transport: Transport,
    options: &'a RunOptions,
    failures: Mutex<BTreeMap<String, usize>>,
}

impl Asker<'_> {
    /// The first question alone (a system that cannot be reached stops the run there), then
    /// the rest, `concurrency` at a time; each outcome journaled as it arrives.
    async fn ask_all(
        &self,
        todo: &[(&str, &str)],
        journal: &Journal,
        progress: &dyn Progress,
    ) -> Result<Vec<Entry>> {
        let Some((&(id, question), rest)) = todo.split_first() else {
            return Ok(Vec::new());
        };
        let first = self.ask(id, question, true).await;
        if first.attempts == 1 && first.error.as_deref() == Some("unreachable") {
            return Err(Error::Config(format!(
                "cannot reach {}: {}",
                self.options.target,
                first.message.unwrap_or_default()
            )));
        }
        let finish = |entry: Entry| -> Result<Entry> {
            journal.append(&entry)?;
            progress.done(&entry);
            Ok(entry)
        };
        let mut entries = vec![finish(first)?];
        let mut stream = futures::stream::iter(rest.iter().map(|&(id, q)| self.ask(id, q, false)))
            .buffer_unordered(self.options.concurrency.max(1));
        while let Some(entry) = stream.next().await {
            entries.push(finish(entry)?);
        }
        Ok(entries)
    }

    /// One question, retried; `first`: an unreachable system is not retried.
    async fn ask(&self, id: &str, question: &str, first: bool) -> Entry {
        let attempts = AtomicU32::new(0);
        let o = self.options;
        let backoff = ExponentialBuilder::default()
            .with_min_delay(o.backoff)
            .with_max_delay(Duration::from_secs(30).max(o.backoff))
            .with_factor(2.0)
            .with_jitter()
            .with_max_times(o.retries);
        let outcome = (|| async {
            attempts.fetch_add(1, Ordering::Relaxed);
            let v = self.transport.ask(id, question, o.timeout).await?;
            let n = reply::contexts_len(&v, &o.fields);
            if n > o.max_contexts {
                return Err(Failure::new(
                    FailureKind::Refused,
                    format!(
                        "the reply holds {n} contexts, over the limit of {} per answer; raise it with --max-contexts",
                        o.max_contexts
                    ),
                ));
            }
            let r = reply::parse(&v, &o.fields).map_err(|m| Failure::new(FailureKind::Malformed, m))?;
            bounded(id, r)
        })
        .retry(backoff)
        .when(|f: &Failure| f.retryable() && !(first && f.kind == FailureKind::Unreachable))
        .notify(|f: &Failure, _| self.count(f))
        .await;
        let attempts = attempts.load(Ordering::Relaxed);
        match outcome {
            Ok(r) => Entry {
                id: id.to_string(),
                answer: Some(r.answer),
                retrieved: r.contexts.iter().map(reply::Retrieved::to_run_item).collect(),
                error: None,
                message: None,
                attempts,
            },
            Err(f) => {
                self.count(&f);
                Entry {
                    id: id.to_string(),
                    answer: None,
                    retrieved: Vec::new(),
                    error: Some(f.kind.name()),
                    message: Some(f.message),
                    attempts,
                }
            }
        }
    }

    fn count(&self, f: &Failure) {
        let mut m = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        *m.entry(f.kind.name()).or_default() += 1;
    }
}

/// `r` with the secrets in use masked in its text, or why it is refused: an answer whose lines
/// in `run.jsonl` or `answers.jsonl` would be longer than `eval` reads.
fn bounded(id: &str, r: reply::Reply) -> Result<reply::Reply, Failure> {
    let refused = |m: String| Failure::new(FailureKind::Refused, m);
    let mask = |t: &String| redact::secrets(t).into_owned();
    let r = reply::Reply {
        answer: mask(&r.answer),
        contexts: r
            .contexts
            .iter()
            .map(|c| match c {
                reply::Retrieved::Text(t) => reply::Retrieved::Text(mask(t)),
                other => other.clone(),
            })
            .collect(),
    };
    // The lines `write_outputs` will write for it, held to what eval reads back.
    let items: Vec<Value> = r.contexts.iter().map(reply::Retrieved::to_run_item).collect();
    let texts: Vec<&str> = items.iter().filter_map(|v| v.get("text")?.as_str()).collect();
    let lines = [
        ("run.jsonl", json!({"id": id, "retrieved": items})),
        (
            "answers.jsonl",
            json!({"id": id, "answer": r.answer, "contexts": texts}),
        ),
    ];
    let max = LINE_BYTES.get();
    for (file, line) in lines {
        let len = line.to_string().len() as u64;
        if len > max {
            return Err(refused(format!(
                "the answer would take {} in {file}, over the {} per line eval reads; {}",
                limits::human(len),
                limits::human(max),
                LINE_BYTES.how_to_raise()
            )));
        }
        if let Err(e) = limits::check_strings(Path::new(file), None, &line) {
            return Err(refused(format!("the answer would not be readable by eval: {e}")));
        }
    }
    Ok(r)
}

/// `run.jsonl`, `answers.jsonl` and `errors.jsonl` in set order, each written atomically.
fn write_outputs(dir: &Path, cases: &[(&str, &str)], outcomes: &HashMap<String, Entry>) -> Result<Summary> {
    let (mut run, mut answers, mut errors) = (String::new(), String::new(), String::new());
    let mut failed = Vec::new();
    let mut answered = 0;
    for (id, _) in cases {
        let Some(e) = outcomes.get(*id) else { continue };
        match &e.answer {
            Some(answer) => {
                answered += 1;
                push_line(&mut run, json!({"id": id, "retrieved": e.retrieved}));
                let texts: Vec<&str> = e
                    .retrieved
                    .iter()
                    .filter_map(|v| v.get("text")?.as_str())
                    .collect();
                let mut line = json!({"id": id, "answer": answer});
                if !texts.is_empty() {
                    line["contexts"] = json!(texts);
                }
                push_line(&mut answers, line);
            }
            None => {
                push_line(
                    &mut errors,
                    json!({"id": id, "error": e.error, "message": e.message, "attempts": e.attempts}),
                );
                failed.push(e.clone());
            }
        }
    }
    let run_file = dir.join("run.jsonl");
    let answers_file = dir.join("answers.jsonl");
    let errors_file = dir.join("errors.jsonl");
    write_atomic(&run_file, run.as_bytes())?;
    write_atomic(&answers_file, answers.as_bytes())?;
    let errors_file = if failed.is_empty() {
        match std::fs::remove_file(&errors_file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(&errors_file, e)),
            _ => None,
        }
    } else {
        write_atomic(&errors_file, errors.as_bytes())?;
        Some(errors_file)
    };
    Ok(Summary {
        cases: cases.len(),
        resumed: 0,
        asked: 0,
        answered,
        failed,
        failures: BTreeMap::new(),
        run_file,
        answers_file,
        errors_file,
    })
}

fn push_line(out: &mut String, v: Value) {
    out.push_str(&v.to_string());
    out.push('\n');
}
