//! Wiring a provider into an [`Llm`]: the spec and `[llm]` section resolved into a model, a
//! wire dialect, a key the endpoint may be trusted with, a journal, a local server when the
//! spec asks for one, and the limits the executor enforces.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use secrecy::ExposeSecret;

use crate::config::ConfigFile;

use super::batch::{self, BatchOptions, Batcher};
use super::executor::{Executor, Limits};
use super::journal::{self, Journal};
use super::provider::Dialect;
use super::{
    DEFAULT_LOCAL_CONTEXT, Inner, Llm, LlmConfig, LlmError, LlmSettings, Price, PriceTable, Spec, Transport,
    Usage, llamacpp, price_of, trust,
};
use crate::http::Redirects;

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
        let spec_text = spec
            .map(str::to_string)
            .or_else(|| config.model.clone())
            .unwrap_or_else(|| "llamacpp".to_string());
        let spec: Spec = spec_text.parse()?;
        let provider = spec.provider();
        let endpoint = spec.endpoint(&config);
        let mut concurrency = settings
            .concurrency
            .or(config.concurrency)
            .unwrap_or(match &spec {
                Spec::OpenAi { .. } | Spec::Anthropic { .. } => 8,
                Spec::OpenAiCompatible { .. } => 4,
                Spec::Ollama { .. } => 2,
                // Batched generation on a CPU costs little more than one stream, and a round's
                // tasks all start at once: the README demo on an idle 2-core machine took
                // 194-215 s with four slots against 245 s with two (issue 68).
                Spec::LlamaCpp { .. } => 4,
            });
        let key = trust::choose_key(&endpoint, &config, settings.api_key.clone());
        if let Some(k) = &key {
            crate::redact::register(k.expose_secret());
        }
        let (model, dialect) = model_and_dialect(&spec);
        if matches!(spec, Spec::OpenAi { .. } | Spec::Anthropic { .. }) && key.is_none() {
            let var = config
                .api_key_env
                .as_deref()
                .or(endpoint.key_var)
                .unwrap_or_default();
            return Err(LlmError::fatal(
                provider,
                format!("no API key: set {var}, or use `--llm llamacpp` for the local model"),
            ));
        }
        if settings.batch
            && !matches!(
                spec,
                Spec::OpenAi { .. } | Spec::Anthropic { .. } | Spec::OpenAiCompatible { .. }
            )
        {
            return Err(LlmError::Config(format!(
                "--batch: {provider} has no batch API; batches go to openai, anthropic, or an openai-compatible server that serves /v1/files and /v1/batches"
            )));
        }
        let journal = open_journal(&settings, &config)?;

        let (mut server, mut base_url, mut context) = (None, endpoint.base_url, None);
        if let Spec::LlamaCpp { model: path } = &spec {
            let s = start_local(path.as_deref(), &config, concurrency).await?;
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
            redirects: if settings.follow_redirects {
                Redirects::SameOrigin
            } else {
                Redirects::Never
            },
        };
        let exec = if settings.batch {
            concurrency = batch::CONCURRENCY;
            Transport::Batch(Batcher::new(BatchOptions {
                provider: provider.to_string(),
                dialect,
                base_url,
                key,
                key_var: endpoint.key_var,
                poll: Duration::from_secs_f64(config.batch_poll_secs.unwrap_or(30.0).max(0.01)),
                max_retries: limits.max_retries,
                dir: journal
                    .as_ref()
                    .and_then(|j| j.path().parent().map(|p| p.to_path_buf())),
                observer: settings.on_batch.clone(),
            })?)
        } else {
            let exec = Executor::new(provider, dialect, base_url, key, endpoint.key_var, &limits)?;
            Transport::Online(Box::new(exec))
        };
        let price = price_of(provider, &model, &prices).map(|p| if settings.batch { p.batched() } else { p });
        Ok(Llm {
            inner: Arc::new(Inner {
                id: format!("{provider}:{model}"),
                spec: spec_text.trim().to_string(),
                exec,
                journal,
                usage: Mutex::new(Usage::default()),
                price,
                context,
                concurrency,
                max_reasks: settings.max_reasks.or(config.max_reasks).unwrap_or(2),
                server: tokio::sync::Mutex::new(server),
                asked: Mutex::new(Default::default()),
            }),
        })
    }
}

/// What `spec` (the default local model when `None`) charges per million tokens — through the
/// batch API with `batch` — by the built-in table and `[prices]` in `config`; `None` when the
/// model is in neither. For estimates: nothing is connected.
pub fn price_for(spec: Option<&str>, config: &ConfigFile, batch: bool) -> Result<Option<Price>, LlmError> {
    let section: LlmConfig = config
        .section("llm")
        .map_err(|e| LlmError::Config(e.to_string()))?;
    let prices: PriceTable = config
        .section("prices")
        .map_err(|e| LlmError::Config(e.to_string()))?;
    let spec: Spec = spec
        .map(str::to_string)
        .or(section.model)
        .unwrap_or_else(|| "llamacpp".into())
        .parse()?;
    let (model, _) = model_and_dialect(&spec);
    Ok(price_of(spec.provider(), &model, &prices).map(|p| if batch { p.batched() } else { p }))
}

/// The model name the provider is asked for, and how its API is spoken.
fn model_and_dialect(spec: &Spec) -> (String, Dialect) {
    let openai = |completion_tokens_field| Dialect::OpenAi {
        completion_tokens_field,
    };
    match spec {
        Spec::OpenAi { model } => (model.clone(), openai(true)),
        Spec::Anthropic { model } => (model.clone(), Dialect::Anthropic),
        Spec::Ollama { model } | Spec::OpenAiCompatible { model, .. } => (model.clone(), openai(false)),
        Spec::LlamaCpp { model } => {
            let file = llamacpp::model_file(model.as_deref());
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (stem, openai(false))
        }
    }
}

/// The journal answers are replayed from and recorded into; none with `no_cache`.
fn open_journal(settings: &LlmSettings, config: &LlmConfig) -> Result<Option<Journal>, LlmError> {
    if settings.no_cache {
        return Ok(None);
    }
    // A folder the user named is used as it is; the default one keeps a journal per corpus.
    let (dir, shared) = match settings.cache_dir.clone().or_else(|| config.cache_dir.clone()) {
        Some(dir) => (dir, None),
        None => {
            let base = llamacpp::cache_root().join("llm");
            match &settings.corpus {
                Some(corpus) => (
                    base.join(journal::folder_for(corpus)),
                    Some(base.join(journal::FILE_NAME)),
                ),
                None => (base, None),
            }
        }
    };
    let opened = Journal::open(&dir).map(|j| match &shared {
        Some(file) => j.replaying(file),
        None => j,
    });
    opened.map(Some).map_err(|e| {
        LlmError::Config(format!(
            "cannot open the LLM journal in {}: {e} (use --cache-dir or --no-cache)",
            dir.display()
        ))
    })
}

/// Starts a private llama-server for `model` (the default model when `None`), logging to a
/// file of its own in the temporary directory.
async fn start_local(
    model: Option<&std::path::Path>,
    config: &LlmConfig,
    slots: usize,
) -> Result<llamacpp::Server, LlmError> {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    let log = std::env::temp_dir().join(format!(
        "ragsynth-llama-server-{}-{}.log",
        std::process::id(),
        STARTED.fetch_add(1, Ordering::Relaxed)
    ));
    let (binary, model) = (
        llamacpp::server_binary(config.server.as_deref()),
        llamacpp::model_file(model),
    );
    // Watching the machine takes half a second: off the async workers.
    let threads = match config.threads {
        Some(n) => n,
        None => tokio::task::spawn_blocking(llamacpp::default_threads)
            .await
            .unwrap_or(1),
    };
    llamacpp::start(&llamacpp::Options {
        binary: &binary,
        model: &model,
        slots,
        ctx: config.context.unwrap_or(DEFAULT_LOCAL_CONTEXT),
        threads,
        // Prompt processing scales with threads as generation does: as many unless told.
        threads_batch: Some(config.threads_batch.unwrap_or(threads)),
        log: &log,
    })
    .await
}
