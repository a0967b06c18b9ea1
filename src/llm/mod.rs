//! The LLM layer: one [`Llm`] handle that asks a model for a typed JSON answer and makes the
//! calls boring — retried, rate-limited, timed out, journaled for resumption, and accounted.
//!
//! Layout: `provider` holds each API's wire format as pure functions; `executor` sends requests
//! (HTTP, retries, limits, timeouts); `journal` is the resumable on-disk cache; `llamacpp` runs a
//! private local server for keyless runs; `usage` counts calls and cost; `spec` and `trust`
//! read which model to call and which key it may see; `batch` sends the same requests through a
//! provider's batch API instead (`--batch`). `connect` wires a provider into an
//! [`Llm`]; `ask` is the one way to ask it (cache lookup, prompt fitting, re-asking malformed
//! answers, accounting). This file holds the handle and its types.

mod ask;
pub mod batch;
mod connect;
mod error;
mod executor;
pub mod journal;
pub mod llamacpp;
mod provider;
mod spec;
mod trust;
mod usage;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use secrecy::SecretString;

pub use batch::{BatchObserver, BatchProgress};
pub use connect::price_for;
pub use error::LlmError;
pub use spec::{LlmConfig, Spec};
pub use usage::{Price, PriceTable, TagUsage, Usage, price_of};

use batch::Batcher;
use executor::{Answer, Executor};
use journal::Journal;
use usage::Event;

use crate::config::ConfigFile;

/// Context size per slot given to a local llama-server unless `[llm] context` says otherwise.
pub const DEFAULT_LOCAL_CONTEXT: usize = 4096;

/// One question to the model. The answer's shape comes from the type asked for.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    /// Instructions.
    pub system: String,
    /// The question, with its material.
    pub user: String,
    /// Upper bound of the answer's length; always sent.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Sampling seed, where the provider supports one.
    pub seed: Option<u64>,
    /// What the request is for (e.g. `lookup`), for per-tag accounting.
    pub tag: String,
}

impl ChatRequest {
    /// A request with 512 max tokens, temperature 0 and no seed.
    pub fn new(tag: impl Into<String>, system: impl Into<String>, user: impl Into<String>) -> ChatRequest {
        ChatRequest {
            system: system.into(),
            user: user.into(),
            max_tokens: 512,
            temperature: 0.0,
            seed: None,
            tag: tag.into(),
        }
    }
}

/// A validated answer.
#[derive(Debug, Clone)]
pub struct Reply<T> {
    /// The answer.
    pub value: T,
    /// Whether it was replayed from the journal rather than asked for.
    pub cached: bool,
    /// When the answer was journaled (to the second): now for a fresh answer, the stored time
    /// for a replayed one. `None` without a journal, or for entries written before times were.
    pub journaled: Option<jiff::Timestamp>,
    /// Whether this run already had this answer for the same request (two tasks asking one
    /// thing, as multi-hops through one bridge do): replayed from the journal at no cost.
    pub repeat: bool,
}

/// How to run the LLM. `None` fields fall back to `[llm]` in `config`, then to built-in defaults.
#[derive(Debug, Clone, Default)]
pub struct LlmSettings {
    /// Requests in flight (local llama-server: its slots). Default 8 hosted, 4 OpenAI-compatible, 2 local.
    pub concurrency: Option<usize>,
    /// Requests per minute.
    pub rpm: Option<u32>,
    /// Tokens per minute (estimated prompt + max_tokens).
    pub tpm: Option<u32>,
    /// Per-request timeout (default 180 s).
    pub timeout: Option<Duration>,
    /// Retries of a transient failure (default 6).
    pub max_retries: Option<u32>,
    /// Re-asks of a malformed answer (default 2).
    pub max_reasks: Option<u32>,
    /// First retry delay (default 1 s; doubles with jitter up to 30 s).
    pub backoff_base: Option<Duration>,
    /// Journal folder (default `$RAGSYNTH_CACHE/llm`, else `~/.cache/ragsynth/llm`, with a
    /// folder per [`LlmSettings::corpus`] inside).
    pub cache_dir: Option<PathBuf>,
    /// The corpus the run works on: the default journal folder keeps one journal per corpus.
    pub corpus: Option<PathBuf>,
    /// Neither read nor write the journal.
    pub no_cache: bool,
    /// The API key; default from the provider's environment variable (or `[llm] api_key_env`).
    pub api_key: Option<SecretString>,
    /// Send the key over plain http to a host that is not this machine.
    pub allow_insecure: bool,
    /// Follow a 307 or 308 to the same origin (no redirect is followed otherwise).
    pub follow_redirects: bool,
    /// The configuration file (`[llm]`, `[prices]`).
    pub config: ConfigFile,
    /// Send the requests through the provider's batch API (OpenAI Batch, Anthropic Message
    /// Batches), a stage at a time, at the batch price.
    pub batch: bool,
    /// Hears of each batch's progress while it is polled.
    pub on_batch: Option<BatchObserver>,
}

/// A connected LLM. Cheap to clone; the last clone dropped stops a local server.
#[derive(Clone)]
pub struct Llm {
    inner: Arc<Inner>,
}

/// How requests leave: one HTTP call each, or gathered into the provider's batches.
#[derive(Debug)]
enum Transport {
    Online(Box<Executor>),
    Batch(Batcher),
}

impl Transport {
    async fn complete(
        &self,
        prompt: &provider::Prompt<'_>,
        tokens: u32,
        on_retry: impl Fn(),
    ) -> Result<Answer, LlmError> {
        match self {
            Transport::Online(e) => e.complete(prompt, tokens, on_retry).await,
            Transport::Batch(b) => b.complete(prompt, on_retry).await,
        }
    }
}

struct Inner {
    id: String,
    /// The spec as the user gave it (`--llm`, `[llm] model`), for messages that tell them
    /// what to run.
    spec: String,
    exec: Transport,
    journal: Option<Journal>,
    usage: Mutex<Usage>,
    price: Option<Price>,
    context: Option<usize>,
    concurrency: usize,
    max_reasks: u32,
    server: tokio::sync::Mutex<Option<llamacpp::Server>>,
    /// The keys of the requests asked so far in this run.
    asked: Mutex<std::collections::HashSet<String>>,
}

impl std::fmt::Debug for Llm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Llm")
            .field("id", &self.inner.id)
            .field("context", &self.inner.context)
            .field("concurrency", &self.inner.concurrency)
            .finish_non_exhaustive()
    }
}

impl Llm {
    /// Usage so far, with costs.
    pub fn usage(&self) -> Usage {
        let u = self.inner.usage.lock().expect("usage lock").clone();
        u.priced(self.inner.price)
    }

    /// `provider:model`, for provenance.
    pub fn id(&self) -> String {
        self.inner.id.clone()
    }

    /// The model as the user names it on the command line (`--llm openai:gpt-4o-mini`,
    /// `llamacpp:smollm2`; `llamacpp` for the default local model).
    pub fn spec(&self) -> &str {
        &self.inner.spec
    }

    /// The journal file answers are kept in (none with `--no-cache`).
    pub fn journal_path(&self) -> Option<PathBuf> {
        self.inner.journal.as_ref().map(|j| j.path().to_path_buf())
    }

    /// The model's context window in tokens, when known (a local llama-server reports it).
    pub fn context_tokens(&self) -> Option<usize> {
        self.inner.context
    }

    /// How many requests callers should keep in flight.
    pub fn concurrency(&self) -> usize {
        self.inner.concurrency
    }

    /// A cheap token estimate for budgeting prompts: a quarter of the characters, rounded up.
    pub fn estimate_tokens(text: &str) -> usize {
        text.chars().count().div_ceil(4)
    }

    /// Stops a local server, if this handle started one. Later calls fail as transient errors.
    pub async fn shutdown(&self) {
        if let Some(mut s) = self.inner.server.lock().await.take() {
            s.stop().await;
        }
    }

    fn record(&self, tag: &str, e: Event) {
        self.inner.usage.lock().expect("usage lock").record(tag, e);
    }
}
