//! What can go wrong with an LLM call, sorted by what the caller should do about it: stop the
//! run ([`LlmError::Fatal`]), drop one candidate ([`LlmError::Rejected`]), or decide whether a
//! provider that keeps failing is worth waiting for ([`LlmError::Exhausted`]).
//!
//! Messages name the provider and the fix; they never contain an API key.

use std::time::Duration;

/// An LLM call that did not produce an answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// Retrying cannot help and every further call would fail the same way (wrong key, bad
    /// request, missing model or binary): stop the run.
    #[error("{provider}: {message}")]
    Fatal {
        /// The provider, e.g. `openai` or `llamacpp`.
        provider: String,
        /// What happened and how to fix it.
        message: String,
    },
    /// The answer was malformed after every re-ask, or the prompt does not fit the model: one
    /// candidate is lost, the run goes on.
    #[error("answer rejected: {reason}")]
    Rejected {
        /// Why, e.g. `invalid JSON: expected value at line 1 column 1`.
        reason: String,
    },
    /// Transient failures (429, 5xx, timeouts, dropped connections) outlasted the retries.
    #[error("{provider}: gave up after {attempts} attempts; last: {last}")]
    Exhausted {
        /// The provider.
        provider: String,
        /// Requests made, including the first.
        attempts: u32,
        /// The last failure.
        last: String,
    },
    /// The `[llm]` configuration or the `--llm` spec is unusable.
    #[error("{0}")]
    Config(String),
}

impl LlmError {
    /// Whether the whole run should stop (as opposed to losing one candidate).
    pub fn is_fatal(&self) -> bool {
        matches!(self, LlmError::Fatal { .. } | LlmError::Config(_))
    }

    pub(crate) fn fatal(provider: &str, message: impl Into<String>) -> Self {
        LlmError::Fatal {
            provider: provider.to_string(),
            message: message.into(),
        }
    }
}

/// How one HTTP attempt failed; decides whether the executor retries.
#[derive(Debug, Clone)]
pub(crate) enum Failure {
    /// Worth retrying after a pause (at least `retry_after` when the server said so).
    Transient {
        reason: String,
        retry_after: Option<Duration>,
    },
    /// The request itself is wrong for this model (e.g. longer than its context): one candidate lost.
    Rejected(String),
    /// Nothing will work until someone fixes something.
    Fatal(String),
}

impl Failure {
    pub(crate) fn is_transient(&self) -> bool {
        matches!(self, Failure::Transient { .. })
    }
}
