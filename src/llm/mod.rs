//! The LLM layer: one [`Llm`] handle that asks a model for a typed JSON answer and makes the
//! calls boring — retried, rate-limited, timed out, journaled for resumption, and accounted.
//!
//! Layout: `provider` holds each API's wire format as pure functions; `executor` sends requests
//! (HTTP, retries, limits, timeouts); `journal` is the resumable on-disk cache; `llamacpp` runs a
//! private local server for keyless runs; `usage` counts calls and cost. This file ties them
//! together: cache lookup, prompt fitting, re-asking malformed answers, accounting.

mod args;
mod error;
mod executor;
pub mod journal;
pub mod llamacpp;
mod provider;
mod spec;
mod trust;
mod usage;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use schemars::JsonSchema;
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use args::LlmArgs;
pub use error::LlmError;
pub use spec::{LlmConfig, Spec};
pub use usage::{Price, PriceTable, TagUsage, Usage, price_of};

use executor::{Executor, Limits};
use journal::{Entry, Journal, KeyParts};
use provider::{Dialect, Message, Prompt, Role};
use usage::Event;

use crate::config::ConfigFile;

/// Context size per slot given to a local llama-server unless `[llm] context` says otherwise.
pub const DEFAULT_LOCAL_CONTEXT: usize = 4096;
/// Tokens a chat template adds around the system and user messages (an over-estimate).
const TEMPLATE_TOKENS: usize = 32;

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
    /// What the request is for (e.g. `single_hop`), for per-tag accounting.
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
    /// Journal folder (default `$RAGSYNTH_CACHE/llm`, else `~/.cache/ragsynth/llm`).
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the journal.
    pub no_cache: bool,
    /// The API key; default from the provider's environment variable (or `[llm] api_key_env`).
    pub api_key: Option<SecretString>,
    /// Send the key over plain http to a host that is not this machine.
    pub allow_insecure: bool,
    /// The configuration file (`[llm]`, `[prices]`).
    pub config: ConfigFile,
}

/// A connected LLM. Cheap to clone; the last clone dropped stops a local server.
#[derive(Clone)]
pub struct Llm {
    inner: Arc<Inner>,
}

struct Inner {
    id: String,
    exec: Executor,
    journal: Option<Journal>,
    usage: Mutex<Usage>,
    price: Option<Price>,
    context: Option<usize>,
    concurrency: usize,
    max_reasks: u32,
    server: tokio::sync::Mutex<Option<llamacpp::Server>>,
    notes: Vec<String>,
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
    /// Connects to the LLM named by `spec` (see [`Spec`]); `None` = `[llm] model`, else the local
    /// llama.cpp default. For `llamacpp` this starts a private `llama-server`.
    pub async fn connect(spec: Option<&str>, settings: LlmSettings) -> Result<Llm, LlmError> {
        let config: LlmConfig = settings
            .config
            .section("llm")
            .map_err(|e| LlmError::Config(e.to_string()))?;
        let prices: PriceTable = settings
            .config
            .section("prices")
            .map_err(|e| LlmError::Config(e.to_string()))?;
        let spec_from_file = spec.is_none() && config.model.is_some();
        let spec: Spec = match spec.map(str::to_string).or_else(|| config.model.clone()) {
            Some(s) => s.parse()?,
            None => Spec::LlamaCpp { model: None },
        };
        let provider = spec.provider();
        let endpoint = spec.endpoint(&config);
        let mut concurrency = settings
            .concurrency
            .or(config.concurrency)
            .unwrap_or(match &spec {
                Spec::OpenAi { .. } | Spec::Anthropic { .. } => 8,
                Spec::OpenAiCompatible { .. } => 4,
                Spec::Ollama { .. } | Spec::LlamaCpp { .. } => 2,
            });
        let choice = trust::choose_key(
            &spec,
            spec_from_file,
            &endpoint,
            &config,
            &settings.config,
            settings.api_key.clone(),
        )?;
        let key = choice.key;
        if let Some(k) = &key {
            crate::redact::register(k.expose_secret());
        }
        let (model, dialect) = match &spec {
            Spec::OpenAi { model } => (
                model.clone(),
                Dialect::OpenAi {
                    completion_tokens_field: true,
                },
            ),
            Spec::Anthropic { model } => (model.clone(), Dialect::Anthropic),
            Spec::Ollama { model } | Spec::OpenAiCompatible { model, .. } => (
                model.clone(),
                Dialect::OpenAi {
                    completion_tokens_field: false,
                },
            ),
            Spec::LlamaCpp { model } => {
                let file = llamacpp::model_file(model.as_deref());
                let stem = file
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (
                    stem,
                    Dialect::OpenAi {
                        completion_tokens_field: false,
                    },
                )
            }
        };
        if matches!(spec, Spec::OpenAi { .. } | Spec::Anthropic { .. }) && key.is_none() {
            let var = config
                .api_key_env
                .as_deref()
                .or(endpoint.key_var)
                .unwrap_or_default();
            return Err(LlmError::fatal(
                provider,
                match &choice.note {
                    Some(withheld) => format!("no API key to send: {withheld}"),
                    None => format!("no API key: set {var}, or use `--llm llamacpp` for the local model"),
                },
            ));
        }
        let journal = if settings.no_cache {
            None
        } else {
            let dir = settings
                .cache_dir
                .clone()
                .or_else(|| config.cache_dir.clone())
                .unwrap_or_else(|| llamacpp::cache_root().join("llm"));
            Some(Journal::open(&dir).map_err(|e| {
                LlmError::Config(format!(
                    "cannot open the LLM journal in {}: {e} (use --cache-dir or --no-cache)",
                    dir.display()
                ))
            })?)
        };

        let (mut server, mut base_url, mut context) = (None, endpoint.base_url, None);
        if let Spec::LlamaCpp { model: path } = &spec {
            static STARTED: AtomicUsize = AtomicUsize::new(0);
            let log = std::env::temp_dir().join(format!(
                "ragsynth-llama-server-{}-{}.log",
                std::process::id(),
                STARTED.fetch_add(1, Ordering::Relaxed)
            ));
            let (binary, model) = (
                llamacpp::server_binary(config.server.as_deref()),
                llamacpp::model_file(path.as_deref()),
            );
            let s = llamacpp::start(&llamacpp::Options {
                binary: &binary,
                model: &model,
                slots: concurrency,
                ctx: config.context.unwrap_or(DEFAULT_LOCAL_CONTEXT),
                threads: config.threads.unwrap_or_else(llamacpp::default_threads),
                log: &log,
            })
            .await?;
            base_url = s.base_url.clone();
            context = s.n_ctx;
            concurrency = s.slots;
            server = Some(s);
        }
        trust::check_transport(&base_url, key.is_some(), settings.allow_insecure)?;
        let limits = Limits {
            concurrency,
            rpm: settings.rpm.or(config.rpm),
            tpm: settings.tpm.or(config.tpm),
            timeout: settings
                .timeout
                .or(config.timeout_secs.map(Duration::from_secs_f64))
                .unwrap_or(Duration::from_secs(180)),
            max_retries: settings.max_retries.or(config.max_retries).unwrap_or(6),
            backoff_base: settings.backoff_base.unwrap_or(Duration::from_secs(1)),
        };
        let exec = Executor::new(provider, dialect, base_url, key, endpoint.key_var, &limits)?;
        Ok(Llm {
            inner: Arc::new(Inner {
                id: format!("{provider}:{model}"),
                exec,
                journal,
                usage: Mutex::new(Usage::default()),
                price: price_of(provider, &model, &prices),
                context,
                concurrency,
                max_reasks: settings.max_reasks.or(config.max_reasks).unwrap_or(2),
                server: tokio::sync::Mutex::new(server),
                notes: choice.note.into_iter().collect(),
            }),
        })
    }

    /// Asks for a JSON value of type `T`. A journaled answer is replayed; otherwise the model is
    /// asked (with the schema of `T`), the answer parsed into `T`, malformed answers re-asked up
    /// to the re-ask limit, and the accepted answer journaled before it is returned.
    pub async fn structured<T: DeserializeOwned + JsonSchema>(
        &self,
        req: &ChatRequest,
    ) -> Result<Reply<T>, LlmError> {
        let inner = &*self.inner;
        let schema = schemars::schema_for!(T).to_value();
        let key = journal::key(&KeyParts {
            llm: &inner.id,
            system: &req.system,
            user: &req.user,
            schema: &schema,
            max_tokens: req.max_tokens,
            temperature: req.temperature,
            seed: req.seed,
        });
        if let Some(stored) = inner.journal.as_ref().and_then(|j| j.get(&key)) {
            if let Some(reason) = stored.rejected {
                self.record(&req.tag, Event::CacheHit);
                self.record(&req.tag, Event::Rejected);
                return Err(LlmError::Rejected { reason });
            }
            if let Ok(value) = serde_json::from_value::<T>(stored.value) {
                self.record(&req.tag, Event::CacheHit);
                return Ok(Reply {
                    value,
                    cached: true,
                    journaled: stored.time,
                });
            }
        }
        let prompt_tokens =
            Self::estimate_tokens(&req.system) + Self::estimate_tokens(&req.user) + TEMPLATE_TOKENS;
        if let Some(ctx) = inner.context
            && prompt_tokens + req.max_tokens as usize > ctx
        {
            self.record(&req.tag, Event::Rejected);
            return Err(LlmError::Rejected {
                reason: format!(
                    "prompt of ~{prompt_tokens} tokens plus max_tokens {} exceeds the model's {ctx}-token context",
                    req.max_tokens
                ),
            });
        }

        let mut messages = vec![Message {
            role: Role::User,
            content: req.user.clone(),
        }];
        let mut reason = String::new();
        for _ in 0..=inner.max_reasks {
            let prompt = Prompt {
                model: inner.id.split_once(':').map_or("", |(_, m)| m),
                system: &req.system,
                messages: &messages,
                schema: &schema,
                max_tokens: req.max_tokens,
                temperature: req.temperature,
                seed: req.seed,
            };
            let extra: usize = messages[1..]
                .iter()
                .map(|m| Self::estimate_tokens(&m.content))
                .sum();
            let tokens = (prompt_tokens + extra + req.max_tokens as usize).min(u32::MAX as usize) as u32;
            let outcome = inner
                .exec
                .complete(&prompt, tokens, || self.record(&req.tag, Event::Retry))
                .await;
            let completion = match outcome {
                Ok(Ok(c)) => c,
                Ok(Err(why)) => {
                    // The provider answered, but not with a usable body: ask again.
                    self.record(
                        &req.tag,
                        Event::Call {
                            prompt: 0,
                            completion: 0,
                        },
                    );
                    reason = why;
                    continue;
                }
                Err(e) => {
                    if matches!(e, LlmError::Rejected { .. }) {
                        self.record(&req.tag, Event::Rejected);
                    }
                    return Err(e);
                }
            };
            self.record(
                &req.tag,
                Event::Call {
                    prompt: completion.prompt_tokens,
                    completion: completion.completion_tokens,
                },
            );
            match check::<T>(&completion.text, completion.truncated) {
                Ok((value, json)) => {
                    let mut journaled = None;
                    if let Some(j) = &inner.journal {
                        let time = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second())
                            .expect("now is a valid time");
                        journaled = Some(time);
                        j.append(&Entry {
                            key,
                            llm: inner.id.clone(),
                            tag: req.tag.clone(),
                            value: json,
                            prompt_tokens: completion.prompt_tokens,
                            completion_tokens: completion.completion_tokens,
                            time: Some(time),
                            rejected: None,
                        })
                        .map_err(|e| {
                            LlmError::Config(format!("cannot append to {}: {e}", j.path().display()))
                        })?;
                    }
                    return Ok(Reply {
                        value,
                        cached: false,
                        journaled,
                    });
                }
                Err(why) => {
                    messages.truncate(1);
                    if !completion.truncated && !completion.text.trim().is_empty() {
                        messages.push(Message {
                            role: Role::Assistant,
                            content: completion.text,
                        });
                        messages.push(Message {
                            role: Role::User,
                            content: format!(
                                "That reply was not valid: {why}. Reply again with only a JSON value that matches the schema."
                            ),
                        });
                    }
                    reason = why;
                }
            }
        }
        self.record(&req.tag, Event::Rejected);
        let reason = format!("{reason} (after {} attempts)", inner.max_reasks + 1);
        if let Some(j) = &inner.journal {
            // The same request would be as malformed again: journal the verdict, so a rerun
            // replays it instead of paying for every re-ask once more.
            j.append(&Entry {
                key,
                llm: inner.id.clone(),
                tag: req.tag.clone(),
                value: Value::Null,
                prompt_tokens: 0,
                completion_tokens: 0,
                time: Some(
                    jiff::Timestamp::from_second(jiff::Timestamp::now().as_second())
                        .expect("now is a valid time"),
                ),
                rejected: Some(reason.clone()),
            })
            .map_err(|e| LlmError::Config(format!("cannot append to {}: {e}", j.path().display())))?;
        }
        Err(LlmError::Rejected { reason })
    }

    /// Usage so far, with costs.
    pub fn usage(&self) -> Usage {
        let u = self.inner.usage.lock().expect("usage lock").clone();
        u.priced(self.inner.price)
    }

    /// Things the user should know about the connection (a key withheld from an endpoint).
    pub fn notes(&self) -> &[String] {
        &self.inner.notes
    }

    /// `provider:model`, for provenance.
    pub fn id(&self) -> String {
        self.inner.id.clone()
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

/// Parses an answer into `T`, tolerating a Markdown code fence around the JSON.
fn check<T: DeserializeOwned>(text: &str, truncated: bool) -> Result<(T, Value), String> {
    if truncated {
        return Err("the answer was cut off at max_tokens".into());
    }
    let t = text.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|s| s.strip_suffix("```"))
        .unwrap_or(t)
        .trim();
    let json: Value = serde_json::from_str(t).map_err(|e| format!("invalid JSON: {e}"))?;
    let value =
        serde_json::from_value(json.clone()).map_err(|e| format!("JSON does not match the schema: {e}"))?;
    Ok((value, json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, JsonSchema, PartialEq)]
    struct A {
        n: u32,
    }

    #[test]
    fn answers_are_checked_against_the_type() {
        assert_eq!(
            check::<A>("```json\n{\"n\": 3}\n```", false).unwrap().0,
            A { n: 3 }
        );
        assert!(check::<A>("{\"n\": 3}", true).unwrap_err().contains("cut off"));
        assert!(
            check::<A>("{\"n\": ", false)
                .unwrap_err()
                .contains("invalid JSON")
        );
        assert!(check::<A>("{\"m\": 1}", false).unwrap_err().contains("schema"));
    }

    #[test]
    fn estimate_is_a_quarter_of_the_chars() {
        assert_eq!(Llm::estimate_tokens(""), 0);
        assert_eq!(Llm::estimate_tokens("abcde"), 2);
    }
}
