//! The `--llm` family of options, shared by every command that calls a model (`generate`,
//! `audit`, `eval --answers`, `calibrate`): flatten [`LlmArgs`] into a command's arguments.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use ragsynth::config::ConfigFile;
use ragsynth::llm::LlmSettings;

/// Which LLM to call and how hard.
#[derive(Debug, Clone, Default, Args)]
pub struct LlmArgs {
    /// `openai:<model>`, `anthropic:<model>`, `ollama:<model>`, `openai-compatible:<model>@<url>`,
    /// `llamacpp[:<file.gguf>]` (default: `[llm] model`, else the local llama.cpp model).
    #[arg(long, env = "RAGSYNTH_LLM", value_name = "PROVIDER:MODEL")]
    pub llm: Option<String>,
    /// Requests in flight (for llamacpp: the server's slots).
    #[arg(long, value_name = "N")]
    pub llm_concurrency: Option<usize>,
    /// Requests-per-minute limit.
    #[arg(long, value_name = "N")]
    pub rpm: Option<u32>,
    /// Tokens-per-minute limit.
    #[arg(long, value_name = "N")]
    pub tpm: Option<u32>,
    /// Per-request timeout in seconds [default: 180].
    #[arg(long, value_name = "SECS")]
    pub llm_timeout: Option<f64>,
    /// Retries of a 429, 5xx, timeout or dropped connection [default: 6].
    #[arg(long, value_name = "N")]
    pub llm_retries: Option<u32>,
    /// Folder of the LLM journal [default: ~/.cache/ragsynth/llm].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Do not replay or record LLM answers.
    #[arg(long)]
    pub no_cache: bool,
    /// Send the API key over plain http to a server that is not this machine.
    #[arg(long)]
    pub allow_insecure: bool,
    /// Follow a 307 or 308 redirect to the same host (none is followed otherwise; a 301, 302 or
    /// 303 never, as it would drop the request's body).
    #[arg(long)]
    pub llm_follow_redirects: bool,
    /// Send the requests through the provider's batch API (OpenAI Batch, Anthropic Message
    /// Batches, or an OpenAI-compatible server that has one): half the price, no per-minute
    /// limits, results within 24 hours; a rerun collects the batches instead of resubmitting.
    #[arg(long)]
    pub batch: bool,
}

impl LlmArgs {
    /// The settings these options describe, with `config` for everything left unset.
    pub fn settings(&self, config: &ConfigFile) -> LlmSettings {
        LlmSettings {
            concurrency: self.llm_concurrency,
            rpm: self.rpm,
            tpm: self.tpm,
            timeout: self
                .llm_timeout
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64),
            max_retries: self.llm_retries,
            cache_dir: self.cache_dir.clone(),
            no_cache: self.no_cache,
            allow_insecure: self.allow_insecure,
            follow_redirects: self.llm_follow_redirects,
            batch: self.batch,
            config: config.clone(),
            ..LlmSettings::default()
        }
    }
}
