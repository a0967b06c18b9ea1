//! `--batch`: the requests of a run go through the provider's batch API (OpenAI Batch, and
//! OpenAI-compatible servers that implement it; Anthropic Message Batches) at half the price and
//! outside the per-minute limits, while every caller still asks one request and awaits its
//! answer, as on the online path.
//!
//! How a stage becomes one batch: a request is queued, and the collector submits the queue once
//! it stops growing for [`GATHER`] — the commands ask a stage's requests all at once (generate's
//! round, audit's and eval's judges, calibrate's items), so a stage's requests go as one batch and
//! the next stage (the judges of the answers that came back) as the next. Each request's custom
//! id is the hash of its body, so the same request asked again has the same id.
//!
//! Resuming: every batch submitted is written to `batches.jsonl` in the journal's folder (its id
//! and its requests' ids) before it is polled. A rerun that asks a request already in a
//! journaled batch polls that batch and collects its result instead of submitting it again; the
//! answers themselves go to the LLM journal as on the online path, so a rerun after the end
//! replays them with no call at all. A request the batch did not run (expired, cancelled, a 429 or
//! 5xx inside the batch, missing from the results) goes into the next batch, at most
//! `max_retries` times.

use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use backon::{ExponentialBuilder, Retryable};
use reqwest::header::HeaderValue;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, oneshot};

use super::error::{Failure, LlmError};
use super::executor::Answer;
use super::provider::{
    BatchLine, BatchState, BatchStatus, Dialect, HttpRequest, LineOutcome, Prompt, anthropic_batch, classify,
    openai_batch,
};
use super::trust::is_loopback;

/// How long the queue must stay unchanged before it goes as a batch.
pub(crate) const GATHER: Duration = Duration::from_millis(1500);
/// Requests callers keep in flight in batch mode: a whole stage at once.
pub(crate) const CONCURRENCY: usize = 10_000;
/// Requests per batch at most (OpenAI takes 50,000 per file, Anthropic 100,000 per batch).
const MAX_LINES: usize = 50_000;
/// The journal of submitted batches, in the LLM journal's folder.
pub const INDEX_FILE: &str = "batches.jsonl";

/// Where a batch stands, for progress reports.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchProgress {
    /// The provider's batch id.
    pub batch: String,
    /// Requests in it.
    pub requests: u64,
    /// Answered so far.
    pub done: u64,
    /// Failed, cancelled or expired so far.
    pub failed: u64,
    /// Since it was submitted (by this run or the one before).
    pub elapsed: Duration,
    /// At the pace so far, how long the rest will take.
    pub eta: Option<Duration>,
    /// Submitted by an earlier run, collected by this one.
    pub resumed: bool,
    /// Its results have been read.
    pub ended: bool,
}

/// Hears of every poll of every batch.
#[derive(Clone)]
pub struct BatchObserver(pub Arc<dyn Fn(&BatchProgress) + Send + Sync>);

impl std::fmt::Debug for BatchObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BatchObserver")
    }
}

/// How to reach the batch API and how patiently.
pub(crate) struct BatchOptions {
    pub provider: String,
    pub dialect: Dialect,
    pub base_url: String,
    pub key: Option<SecretString>,
    pub key_var: Option<&'static str>,
    /// Between two polls of a batch.
    pub poll: Duration,
    /// Batches a request may go into after the first.
    pub max_retries: u32,
    /// The folder of `batches.jsonl` (none: batches are not journaled).
    pub dir: Option<PathBuf>,
    pub observer: Option<BatchObserver>,
}

/// A line of `batches.jsonl`.
#[derive(Debug, Serialize, Deserialize)]
struct Submitted {
    batch: String,
    provider: String,
    ids: Vec<String>,
    submitted: jiff::Timestamp,
}

/// Sends requests as batches. Cheap to share; the collector and pollers run as tasks.
pub(crate) struct Batcher {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Batcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batcher")
            .field("provider", &self.shared.provider)
            .finish_non_exhaustive()
    }
}

struct Shared {
    provider: String,
    dialect: Dialect,
    base_url: String,
    key: Option<SecretString>,
    key_var: Option<&'static str>,
    http: reqwest::Client,
    poll: Duration,
    max_retries: u32,
    index: Option<PathBuf>,
    observer: Option<BatchObserver>,
    state: Mutex<State>,
    wake: Notify,
}

#[derive(Default)]
struct State {
    /// Lines waiting for the next batch.
    queue: Vec<BatchLine>,
    /// Who waits for each request's result.
    waiters: HashMap<String, Vec<oneshot::Sender<LineOutcome>>>,
    /// The batch each request was last put in (this run's and the journaled ones).
    placed: HashMap<String, String>,
    /// When each batch was submitted, and whether by an earlier run.
    batches: HashMap<String, (jiff::Timestamp, bool)>,
    /// Batches a task of this run is polling.
    polling: HashSet<String>,
    /// Results read so far, by request id.
    results: HashMap<String, LineOutcome>,
    collector: bool,
}

impl Batcher {
    /// A batcher over `options`, with the batches an earlier run journaled.
    pub(crate) fn new(options: BatchOptions) -> Result<Batcher, LlmError> {
        let mut builder = reqwest::Client::builder().connect_timeout(Duration::from_secs(30));
        if is_loopback(&options.base_url) {
            builder = builder.no_proxy();
        }
        let http = builder
            .build()
            .map_err(|e| LlmError::fatal(&options.provider, format!("cannot build the HTTP client: {e}")))?;
        let index = options.dir.map(|d| d.join(INDEX_FILE));
        let mut state = State::default();
        if let Some(path) = &index {
            load_index(path, &options.provider, &mut state);
        }
        Ok(Batcher {
            shared: Arc::new(Shared {
                provider: options.provider,
                dialect: options.dialect,
                base_url: options.base_url,
                key: options.key,
                key_var: options.key_var,
                http,
                poll: options.poll,
                max_retries: options.max_retries,
                index,
                observer: options.observer,
                state: Mutex::new(state),
                wake: Notify::new(),
            }),
        })
    }

    /// Sends `prompt` in a batch (or collects it from the journaled batch it is in) and waits
    /// for its result; a request the batch did not run goes into the next one. `on_retry` is
    /// called once per batch a request goes into again.
    pub(crate) async fn complete(
        &self,
        prompt: &Prompt<'_>,
        on_retry: impl Fn(),
    ) -> Result<Answer, LlmError> {
        let s = &self.shared;
        let line = BatchLine::of(&s.dialect.build(&s.base_url, prompt));
        let mut again = false;
        for attempt in 0.. {
            let rx = Shared::enqueue(s, line.clone(), again);
            let outcome = rx.await.map_err(|_| {
                LlmError::fatal(&s.provider, "the batch collector stopped before the result came")
            })?;
            match outcome {
                LineOutcome::Body(body) => {
                    return Ok(match s.dialect.parse(&body) {
                        Ok(c) => Answer::Usable(c),
                        Err(why) => Answer::Unusable(why),
                    });
                }
                LineOutcome::Retry(reason) | LineOutcome::Failed(Failure::Transient { reason, .. }) => {
                    if attempt >= s.max_retries {
                        return Err(LlmError::Exhausted {
                            provider: s.provider.clone(),
                            attempts: attempt + 1,
                            last: reason,
                        });
                    }
                    on_retry();
                    again = true;
                }
                LineOutcome::Failed(Failure::Rejected(reason)) => return Err(LlmError::Rejected { reason }),
                LineOutcome::Failed(Failure::Fatal(message)) => {
                    return Err(LlmError::fatal(&s.provider, message));
                }
            }
        }
        unreachable!("the loop returns")
    }
}

impl Shared {
    /// Registers a waiter for `line`'s result: from a batch already read, from the journaled
    /// batch it is in, or, when it is in none (or `again`), from the next batch.
    fn enqueue(self: &Arc<Self>, line: BatchLine, again: bool) -> oneshot::Receiver<LineOutcome> {
        let (tx, rx) = oneshot::channel();
        let id = line.custom_id.clone();
        let mut st = self.state.lock().expect("batch state");
        if !again && let Some(done) = st.results.get(&id) {
            let _ = tx.send(done.clone());
            return rx;
        }
        if again {
            st.results.remove(&id);
            st.placed.remove(&id);
        }
        let first = !st.waiters.contains_key(&id);
        st.waiters.entry(id.clone()).or_default().push(tx);
        if !first {
            return rx;
        }
        if let Some(batch) = st.placed.get(&id).cloned() {
            if st.polling.insert(batch.clone()) {
                tokio::spawn(Arc::clone(self).poll(batch));
            }
            return rx;
        }
        st.queue.push(line);
        if !st.collector {
            st.collector = true;
            tokio::spawn(Arc::clone(self).collect());
        }
        drop(st);
        self.wake.notify_one();
        rx
    }

    /// Submits the queue as a batch whenever it has stopped growing.
    async fn collect(self: Arc<Self>) {
        loop {
            self.wake.notified().await;
            // Gather the stage: wait until no request was added for GATHER.
            let mut seen = usize::MAX;
            loop {
                let n = self.state.lock().expect("batch state").queue.len();
                if n == seen {
                    break;
                }
                seen = n;
                tokio::time::sleep(GATHER).await;
            }
            let lines = std::mem::take(&mut self.state.lock().expect("batch state").queue);
            for chunk in lines.chunks(MAX_LINES) {
                match self.submit(chunk).await {
                    Ok(batch) => {
                        let mut st = self.state.lock().expect("batch state");
                        for l in chunk {
                            st.placed.insert(l.custom_id.clone(), batch.clone());
                        }
                        if st.polling.insert(batch.clone()) {
                            tokio::spawn(Arc::clone(&self).poll(batch));
                        }
                    }
                    Err(f) => {
                        let mut st = self.state.lock().expect("batch state");
                        for l in chunk {
                            for tx in st.waiters.remove(&l.custom_id).unwrap_or_default() {
                                let _ = tx.send(LineOutcome::Failed(f.clone()));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Uploads and creates one batch, journals it, and returns its id.
    async fn submit(&self, lines: &[BatchLine]) -> Result<String, Failure> {
        let body = match self.dialect {
            Dialect::OpenAi { .. } => {
                let file = openai_batch::input_file(lines);
                let uploaded = self.upload(&file).await?;
                let id = openai_batch::parse_file(&uploaded).map_err(Failure::Fatal)?;
                self.send(&openai_batch::create(&self.base_url, &id)).await?
            }
            Dialect::Anthropic => self.send(&anthropic_batch::create(&self.base_url, lines)).await?,
        };
        let status = self
            .dialect
            .batch_status(&self.base_url, &body)
            .map_err(Failure::Fatal)?;
        let now = jiff::Timestamp::now();
        let entry = Submitted {
            batch: status.id.clone(),
            provider: self.provider.clone(),
            ids: lines.iter().map(|l| l.custom_id.clone()).collect(),
            submitted: now,
        };
        if let Some(path) = &self.index {
            append(path, &entry).map_err(|e| {
                Failure::Fatal(format!(
                    "batch {} was submitted but cannot be journaled in {}: {e}",
                    status.id,
                    path.display()
                ))
            })?;
        }
        self.state
            .lock()
            .expect("batch state")
            .batches
            .insert(status.id.clone(), (now, false));
        Ok(status.id)
    }

    /// Polls batch `id` until it ends, then hands each waiting request its result.
    async fn poll(self: Arc<Self>, id: String) {
        let started = Instant::now();
        loop {
            let status = match self
                .retrying(|| self.get(&self.dialect.batch_url(&self.base_url, &id)), true)
                .await
            {
                Ok(Some(body)) => self
                    .dialect
                    .batch_status(&self.base_url, &body)
                    .map_err(Failure::Fatal),
                // Gone (deleted, or another account's): its requests were never answered here.
                Ok(None) => {
                    let why = format!("batch {id} is gone at the provider");
                    self.settle(&id, |_| Some(LineOutcome::Retry(why.clone())));
                    return;
                }
                Err(f) => Err(f),
            };
            let status = match status {
                Ok(s) => s,
                Err(f) => {
                    self.lost(&id, f);
                    return;
                }
            };
            match status.state {
                BatchState::Running => {
                    self.report(&status, started, false);
                    tokio::time::sleep(self.poll).await;
                }
                BatchState::Failed(why) => {
                    let message = format!("batch {id}: {why}");
                    self.settle(&id, |_| {
                        Some(LineOutcome::Failed(Failure::Fatal(message.clone())))
                    });
                    return;
                }
                BatchState::Ended => {
                    let mut read = HashMap::new();
                    for url in &status.results {
                        match self.retrying(|| self.get(url), false).await {
                            Ok(body) => read.extend(self.dialect.batch_results(&body.unwrap_or_default())),
                            Err(f) => {
                                self.lost(&id, f);
                                return;
                            }
                        }
                    }
                    {
                        let mut st = self.state.lock().expect("batch state");
                        for (cid, outcome) in &read {
                            if st.placed.get(cid) == Some(&id) {
                                st.results.insert(cid.clone(), outcome.clone());
                            }
                        }
                    }
                    self.settle(&id, |cid| {
                        Some(read.remove(cid).unwrap_or_else(|| {
                            LineOutcome::Retry(format!("batch {id} returned no result for it"))
                        }))
                    });
                    self.report(&status, started, true);
                    return;
                }
            }
        }
    }

    /// Batch `id` could not be read (after retries): its requests stay in it, so a rerun
    /// collects them; submitting them again would pay twice.
    fn lost(&self, id: &str, f: Failure) {
        let why = match f {
            Failure::Transient { reason, .. } | Failure::Rejected(reason) | Failure::Fatal(reason) => reason,
        };
        let message =
            format!("cannot read batch {id}: {why}; its requests stay in it: rerun to collect them");
        self.settle(id, |_| Some(LineOutcome::Failed(Failure::Fatal(message.clone()))));
    }

    /// Hands each request waiting on batch `id` what `outcome` says, and stops polling it.
    fn settle(&self, id: &str, mut outcome: impl FnMut(&str) -> Option<LineOutcome>) {
        let mut st = self.state.lock().expect("batch state");
        st.polling.remove(id);
        let mine: Vec<String> = st
            .waiters
            .keys()
            .filter(|cid| st.placed.get(*cid).map(String::as_str) == Some(id))
            .cloned()
            .collect();
        for cid in mine {
            let Some(o) = outcome(&cid) else { continue };
            for tx in st.waiters.remove(&cid).unwrap_or_default() {
                let _ = tx.send(o.clone());
            }
        }
    }

    fn progress(&self, status: &BatchStatus, started: Instant, ended: bool) -> BatchProgress {
        let (since, resumed) = self
            .state
            .lock()
            .expect("batch state")
            .batches
            .get(&status.id)
            .copied()
            .unwrap_or((jiff::Timestamp::now(), false));
        let elapsed = if resumed {
            let secs = (jiff::Timestamp::now().as_second() - since.as_second()).max(0);
            Duration::from_secs(secs as u64)
        } else {
            started.elapsed()
        };
        let finished = status.done + status.failed;
        let eta = (finished > 0 && status.total > finished)
            .then(|| elapsed.mul_f64((status.total - finished) as f64 / finished as f64));
        BatchProgress {
            batch: status.id.clone(),
            requests: status.total,
            done: status.done,
            failed: status.failed,
            elapsed,
            eta,
            resumed,
            ended,
        }
    }

    fn report(&self, status: &BatchStatus, started: Instant, ended: bool) {
        if let Some(o) = &self.observer {
            (o.0)(&self.progress(status, started, ended));
        }
    }

    /// `req` as JSON, with the key; transient failures retried with backoff.
    async fn send(&self, req: &HttpRequest) -> Result<Vec<u8>, Failure> {
        let build = || {
            let mut rb = self.http.post(&req.url).json(&req.body);
            for (name, value) in &req.headers {
                rb = rb.header(*name, value);
            }
            rb
        };
        Ok(self.retrying(build, false).await?.unwrap_or_default())
    }

    /// The input file as `multipart/form-data` (`purpose=batch`, `file`).
    async fn upload(&self, file: &[u8]) -> Result<Vec<u8>, Failure> {
        let url = openai_batch::upload_url(&self.base_url);
        let build = || {
            let part = reqwest::multipart::Part::bytes(file.to_vec()).file_name("ragsynth-batch.jsonl");
            let form = reqwest::multipart::Form::new()
                .text("purpose", "batch")
                .part("file", part);
            self.http.post(&url).multipart(form)
        };
        Ok(self.retrying(build, false).await?.unwrap_or_default())
    }

    fn get(&self, url: &str) -> reqwest::RequestBuilder {
        let mut rb = self.http.get(url);
        for (name, value) in self.dialect.batch_headers() {
            rb = rb.header(name, value);
        }
        rb
    }

    /// Sends what `build` makes, with the key, retrying 429, 5xx and dropped connections. With
    /// `missing_ok`, a 404 is `None` rather than an error.
    async fn retrying(
        &self,
        build: impl Fn() -> reqwest::RequestBuilder,
        missing_ok: bool,
    ) -> Result<Option<Vec<u8>>, Failure> {
        let once = || async {
            let mut rb = build().timeout(Duration::from_secs(300));
            if let Some(key) = &self.key {
                let (name, value) = self.dialect.auth_header(key.expose_secret());
                let mut value = HeaderValue::from_str(&value).map_err(|_| {
                    Failure::Fatal("the API key contains characters a header cannot carry".into())
                })?;
                value.set_sensitive(true);
                rb = rb.header(name, value);
            }
            let resp = rb.send().await.map_err(|e| Failure::Transient {
                reason: e.to_string(),
                retry_after: None,
            })?;
            let status = resp.status();
            let retry_after = resp
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let body = resp.bytes().await.map_err(|e| Failure::Transient {
                reason: e.to_string(),
                retry_after: None,
            })?;
            if missing_ok && status == reqwest::StatusCode::NOT_FOUND {
                return Ok(None);
            }
            if !status.is_success() {
                return Err(classify(
                    status.as_u16(),
                    retry_after.as_deref(),
                    &body,
                    self.key_var,
                ));
            }
            Ok(Some(body.to_vec()))
        };
        once.retry(
            ExponentialBuilder::default()
                .with_min_delay(Duration::from_secs(1))
                .with_max_delay(Duration::from_secs(60))
                .with_jitter()
                .with_max_times(self.max_retries as usize),
        )
        .when(Failure::is_transient)
        .adjust(|e, next| match (e, next) {
            (
                Failure::Transient {
                    retry_after: Some(wait),
                    ..
                },
                Some(_),
            ) => Some(*wait),
            (_, next) => next,
        })
        .await
    }
}

/// Reads the batches an earlier run journaled for `provider` (a torn last line is skipped).
fn load_index(path: &Path, provider: &str, state: &mut State) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    for line in text.lines() {
        let Ok(s) = serde_json::from_str::<Submitted>(line) else {
            continue;
        };
        if s.provider != provider {
            continue;
        }
        for id in &s.ids {
            state.placed.insert(id.clone(), s.batch.clone());
        }
        state.batches.insert(s.batch, (s.submitted, true));
    }
}

/// Appends one line to `batches.jsonl`, synced: a batch paid for must be found again.
fn append(path: &Path, entry: &Submitted) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    let mut line = serde_json::to_vec(entry).map_err(std::io::Error::other)?;
    line.push(b'\n');
    // A torn line from a killed run would glue onto this one: start on a fresh line.
    if file.metadata()?.len() > 0 {
        let text = std::fs::read(path)?;
        if text.last() != Some(&b'\n') {
            file.write_all(b"\n")?;
        }
    }
    file.write_all(&line)?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_survives_a_torn_line_and_later_batches_win() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(INDEX_FILE);
        let entry = |batch: &str, ids: &[&str]| Submitted {
            batch: batch.into(),
            provider: "openai".into(),
            ids: ids.iter().map(|s| s.to_string()).collect(),
            submitted: jiff::Timestamp::UNIX_EPOCH,
        };
        append(&path, &entry("b1", &["x", "y"])).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(br#"{"batch": "torn"#)
            .unwrap();
        append(&path, &entry("b2", &["y"])).unwrap();
        let mut st = State::default();
        load_index(&path, "openai", &mut st);
        assert_eq!(st.placed["x"], "b1");
        assert_eq!(st.placed["y"], "b2");
        assert!(st.batches["b1"].1, "journaled batches are resumed ones");
        let mut other = State::default();
        load_index(&path, "anthropic", &mut other);
        assert!(other.placed.is_empty());
    }
}
