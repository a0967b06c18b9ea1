//! Which LLM to talk to: the `--llm` spec (`provider:model`), the `[llm]` section of
//! `ragsynth.toml`, and the environment variables that fill in base URLs and keys.

use std::path::PathBuf;
use std::str::FromStr;

use serde::Deserialize;

use super::error::LlmError;

/// Base URLs used when neither the spec nor the environment names one.
const OPENAI_URL: &str = "https://api.openai.com/v1";
const ANTHROPIC_URL: &str = "https://api.anthropic.com/v1";
const OLLAMA_URL: &str = "http://127.0.0.1:11434/v1";

/// A parsed `--llm` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// `openai:<model>`; base URL from `OPENAI_BASE_URL` or `[llm] base_url`.
    OpenAi { model: String },
    /// `anthropic:<model>`; base URL from `ANTHROPIC_BASE_URL` or `[llm] base_url`.
    Anthropic { model: String },
    /// `ollama:<model>` (the model may itself contain `:`); base URL from `OLLAMA_HOST`.
    Ollama { model: String },
    /// `openai-compatible:<model>@<base url>`.
    OpenAiCompatible { model: String, base_url: String },
    /// `llamacpp` (the installed default model), `llamacpp:<name>` (an installed model:
    /// `qwen2.5-coder-1.5b`, `smollm2`) or `llamacpp:<path.gguf>`.
    LlamaCpp { model: Option<PathBuf> },
}

impl Spec {
    /// The provider's name as written in specs and messages.
    pub fn provider(&self) -> &'static str {
        match self {
            Spec::OpenAi { .. } => "openai",
            Spec::Anthropic { .. } => "anthropic",
            Spec::Ollama { .. } => "ollama",
            Spec::OpenAiCompatible { .. } => "openai-compatible",
            Spec::LlamaCpp { .. } => "llamacpp",
        }
    }
}

impl FromStr for Spec {
    type Err = LlmError;

    fn from_str(s: &str) -> Result<Spec, LlmError> {
        let s = s.trim();
        let (provider, rest) = s.split_once(':').unwrap_or((s, ""));
        let need_model = |rest: &str| {
            if rest.is_empty() {
                Err(LlmError::Config(format!(
                    "--llm {s}: give a model, e.g. `{provider}:<model>`"
                )))
            } else {
                Ok(rest.to_string())
            }
        };
        Ok(match provider {
            "openai" => Spec::OpenAi {
                model: need_model(rest)?,
            },
            "anthropic" => Spec::Anthropic {
                model: need_model(rest)?,
            },
            "ollama" => Spec::Ollama {
                model: need_model(rest)?,
            },
            "openai-compatible" => {
                let Some((model, url)) = rest.rsplit_once("@http").map(|(m, u)| (m, format!("http{u}")))
                else {
                    return Err(LlmError::Config(format!(
                        "--llm {s}: write `openai-compatible:<model>@http://host:port/v1`"
                    )));
                };
                Spec::OpenAiCompatible {
                    model: need_model(model)?,
                    base_url: url,
                }
            }
            "llamacpp" => Spec::LlamaCpp {
                model: (!rest.is_empty()).then(|| PathBuf::from(rest)),
            },
            other => {
                return Err(LlmError::Config(format!(
                    "--llm {s}: unknown provider `{other}`; use openai, anthropic, ollama, openai-compatible or llamacpp"
                )));
            }
        })
    }
}

/// The `[llm]` section of `ragsynth.toml`. Command-line values win over these.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    /// A spec as for `--llm`.
    pub model: Option<String>,
    /// Base URL for `openai` / `anthropic` / `ollama` (e.g. a proxy or a vLLM server).
    pub base_url: Option<String>,
    /// Environment variable holding the key for this endpoint, instead of the provider's
    /// (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`).
    pub api_key_env: Option<String>,
    /// Requests in flight (for llamacpp: the server's slots).
    pub concurrency: Option<usize>,
    /// Requests per minute.
    pub rpm: Option<u32>,
    /// Tokens per minute (prompt estimate + max_tokens).
    pub tpm: Option<u32>,
    /// Per-request timeout in seconds.
    pub timeout_secs: Option<f64>,
    /// Retries of a transient failure.
    pub max_retries: Option<u32>,
    /// Re-asks of a malformed answer.
    pub max_reasks: Option<u32>,
    /// Journal folder (default `$RAGSYNTH_CACHE/llm` or `~/.cache/ragsynth/llm`).
    pub cache_dir: Option<PathBuf>,
    /// llamacpp: context tokens per slot (default 4096).
    pub context: Option<usize>,
    /// llamacpp: CPU threads for generation (default every core, half on a busy machine).
    pub threads: Option<usize>,
    /// llamacpp: the `llama-server` binary (default `$RAGSYNTH_LLAMA_SERVER` or the installed one).
    pub server: Option<PathBuf>,
    /// llamacpp: threads for prompt processing (default as many as for generation).
    pub threads_batch: Option<usize>,
    /// `--batch`: seconds between two polls of a batch (default 30).
    pub batch_poll_secs: Option<f64>,
}

/// Where an endpoint lives and how it authenticates; resolved from spec + config + environment.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub base_url: String,
    /// Environment variable holding the key (named in error messages), if the API takes one.
    pub key_var: Option<&'static str>,
}

/// Reads an environment variable, treating empty as unset.
pub(crate) fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl Spec {
    pub(crate) fn endpoint(&self, config: &LlmConfig) -> Endpoint {
        let base = |var: &str, default: &str| {
            config
                .base_url
                .clone()
                .or_else(|| env(var))
                .unwrap_or_else(|| default.to_string())
        };
        match self {
            Spec::OpenAi { .. } => Endpoint {
                base_url: base("OPENAI_BASE_URL", OPENAI_URL),
                key_var: Some("OPENAI_API_KEY"),
            },
            Spec::Anthropic { .. } => Endpoint {
                base_url: base("ANTHROPIC_BASE_URL", ANTHROPIC_URL),
                key_var: Some("ANTHROPIC_API_KEY"),
            },
            Spec::Ollama { .. } => Endpoint {
                base_url: config
                    .base_url
                    .clone()
                    .unwrap_or_else(|| match env("OLLAMA_HOST") {
                        Some(h) if h.starts_with("http") => format!("{}/v1", h.trim_end_matches('/')),
                        Some(h) => format!("http://{h}/v1"),
                        None => OLLAMA_URL.to_string(),
                    }),
                key_var: None,
            },
            Spec::OpenAiCompatible { base_url, .. } => Endpoint {
                base_url: base_url.clone(),
                // Optional: sent when set (vLLM and LM Studio may require one).
                key_var: Some("OPENAI_API_KEY"),
            },
            Spec::LlamaCpp { .. } => Endpoint {
                base_url: String::new(),
                key_var: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let p = |s: &str| s.parse::<Spec>().unwrap();
        assert_eq!(
            p("openai:gpt-4o-mini"),
            Spec::OpenAi {
                model: "gpt-4o-mini".into()
            }
        );
        assert_eq!(
            p("ollama:qwen2.5:7b"),
            Spec::Ollama {
                model: "qwen2.5:7b".into()
            }
        );
        assert_eq!(
            p("openai-compatible:my@model@http://127.0.0.1:8000/v1"),
            Spec::OpenAiCompatible {
                model: "my@model".into(),
                base_url: "http://127.0.0.1:8000/v1".into()
            }
        );
        assert_eq!(p("llamacpp"), Spec::LlamaCpp { model: None });
        assert_eq!(
            p("llamacpp:/m/x.gguf"),
            Spec::LlamaCpp {
                model: Some("/m/x.gguf".into())
            }
        );
        for bad in ["openai", "gpt:4", "openai-compatible:m", "anthropic:"] {
            let e = bad.parse::<Spec>().unwrap_err();
            assert!(
                matches!(e, LlmError::Config(_)) && e.to_string().contains(bad),
                "{e}"
            );
        }
    }
}
