//! The one place that talks HTTP: bounded concurrency (a semaphore), requests- and
//! tokens-per-minute limits (governor), a real per-request timeout, and retries with
//! exponential backoff and jitter that wait at least as long as `Retry-After` says.
//!
//! The permit and the rate limits are taken before the clock of the timeout starts, so a queued
//! request never times out while waiting its turn. Redirects and reply sizes follow
//! [`crate::http`]: none followed unless asked, a reply read up to `RAGSYNTH_MAX_REPLY_BYTES`.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use reqwest::header::HeaderValue;
use secrecy::{ExposeSecret, SecretString};
use tokio::sync::Semaphore;

use super::error::{Failure, LlmError};
use super::provider::{Completion, Dialect, HttpRequest, Prompt, classify};
use super::trust::is_loopback;
use crate::http::{self, BodyError, Redirects};
use crate::limits::{self, REPLY_BYTES};

/// How an [`Executor`] behaves.
#[derive(Debug)]
pub(crate) struct Limits {
    pub concurrency: usize,
    pub rpm: Option<u32>,
    pub tpm: Option<u32>,
    pub timeout: Duration,
    pub max_retries: u32,
    /// First backoff delay (doubled each retry, with jitter, up to 30 s).
    pub backoff_base: Duration,
    /// Which redirects are followed.
    pub redirects: Redirects,
}

/// What a provider's successful (2xx) response held.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A completion.
    Usable(Completion),
    /// A body that is not a usable answer, and why (the caller may ask again).
    Unusable(String),
}

/// Sends requests for one endpoint.
#[derive(Debug)]
pub(crate) struct Executor {
    provider: String,
    dialect: Dialect,
    base_url: String,
    key: Option<SecretString>,
    key_var: Option<&'static str>,
    http: reqwest::Client,
    slots: Semaphore,
    rpm: Option<DefaultDirectRateLimiter>,
    tpm: Option<(DefaultDirectRateLimiter, NonZeroU32)>,
    timeout: Duration,
    backoff: ExponentialBuilder,
}

impl Executor {
    pub(crate) fn new(
        provider: &str,
        dialect: Dialect,
        base_url: String,
        key: Option<SecretString>,
        key_var: Option<&'static str>,
        limits: &Limits,
    ) -> Result<Executor, LlmError> {
        let mut builder =
            http::client(limits.redirects).connect_timeout(limits.timeout.min(Duration::from_secs(30)));
        if is_loopback(&base_url) {
            // A local server must not be sent through an HTTP(S)_PROXY from the environment.
            builder = builder.no_proxy();
        }
        let http = builder
            .build()
            .map_err(|e| LlmError::fatal(provider, format!("cannot build the HTTP client: {e}")))?;
        // Evenly spaced (burst of one), so a limit holds over short runs too.
        let per_minute = |n: u32| {
            let n = NonZeroU32::new(n)?;
            Some(RateLimiter::direct(Quota::with_period(
                Duration::from_secs(60) / n.get(),
            )?))
        };
        let tpm = limits.tpm.and_then(NonZeroU32::new).map(|n| {
            // Tokens refill continuously; a whole minute's worth may be spent at once.
            (RateLimiter::direct(Quota::per_minute(n)), n)
        });
        Ok(Executor {
            provider: provider.to_string(),
            dialect,
            base_url,
            key,
            key_var,
            http,
            slots: Semaphore::new(limits.concurrency.max(1)),
            rpm: limits.rpm.and_then(per_minute),
            tpm,
            timeout: limits.timeout,
            backoff: ExponentialBuilder::default()
                .with_min_delay(limits.backoff_base)
                .with_max_delay(Duration::from_secs(30))
                .with_factor(2.0)
                .with_jitter()
                .with_max_times(limits.max_retries as usize),
        })
    }

    /// Sends `prompt`, retrying transient failures; [`Answer::Unusable`] is a 2xx whose body is
    /// not a usable answer (the caller may re-ask). `on_retry` is called once per retry.
    pub(crate) async fn complete(
        &self,
        prompt: &Prompt<'_>,
        tokens: u32,
        on_retry: impl Fn(),
    ) -> Result<Answer, LlmError> {
        let req = self.dialect.build(&self.base_url, prompt);
        let attempts = AtomicU32::new(0);
        let outcome = (|| {
            attempts.fetch_add(1, Ordering::Relaxed);
            self.attempt(&req, tokens)
        })
        .retry(self.backoff)
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
        .notify(|_, _| on_retry())
        .await;
        outcome.map_err(|f| match f {
            Failure::Transient { reason, .. } => LlmError::Exhausted {
                provider: self.provider.clone(),
                attempts: attempts.load(Ordering::Relaxed),
                last: reason,
            },
            Failure::Rejected(reason) => LlmError::Rejected { reason },
            Failure::Fatal(message) => LlmError::fatal(&self.provider, message),
        })
    }

    async fn attempt(&self, req: &HttpRequest, tokens: u32) -> Result<Answer, Failure> {
        let _slot = self.slots.acquire().await.expect("the semaphore is never closed");
        if let Some(limit) = &self.rpm {
            limit.until_ready().await;
        }
        if let Some((limit, cap)) = &self.tpm {
            let n = NonZeroU32::new(tokens.clamp(1, cap.get())).expect("at least one");
            // Cannot fail: n never exceeds the burst size.
            let _ = limit.until_n_ready(n).await;
        }
        let mut rb = self.http.post(&req.url).timeout(self.timeout).json(&req.body);
        for (name, value) in &req.headers {
            rb = rb.header(*name, value);
        }
        if let Some(key) = &self.key {
            let (name, value) = self.dialect.auth_header(key.expose_secret());
            let mut value = HeaderValue::from_str(&value).map_err(|_| {
                Failure::Fatal("the API key contains characters a header cannot carry".into())
            })?;
            value.set_sensitive(true);
            rb = rb.header(name, value);
        }
        let resp = rb.send().await.map_err(|e| self.transport(e))?;
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if status.is_redirection() {
            let to = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok());
            return Err(Failure::Fatal(http::not_followed(
                status.as_u16(),
                to,
                "--llm-follow-redirects",
            )));
        }
        let limit = REPLY_BYTES.get();
        let body = http::body(resp, limit).await.map_err(|e| match e {
            BodyError::Transport(e) => self.transport(e),
            BodyError::TooLarge { limit } => Failure::Fatal(format!(
                "the reply is larger than {}, the limit on a reply; {}",
                limits::human(limit),
                REPLY_BYTES.how_to_raise()
            )),
        })?;
        if !status.is_success() {
            return Err(classify(
                status.as_u16(),
                retry_after.as_deref(),
                &body,
                self.key_var,
            ));
        }
        Ok(match self.dialect.parse(&body) {
            Ok(c) => Answer::Usable(c),
            Err(why) => Answer::Unusable(why),
        })
    }

    fn transport(&self, e: reqwest::Error) -> Failure {
        if e.is_builder() {
            let message = format!("bad request URL {}: {e}", crate::redact::url(&self.base_url));
            return Failure::Fatal(crate::redact::redact(&message).into_owned());
        }
        let reason = if e.is_timeout() {
            format!("no answer within {:.1}s", self.timeout.as_secs_f64())
        } else {
            let mut msg = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                msg = format!("{msg}: {s}");
                source = s.source();
            }
            // reqwest names the URL, query and all: the reason may end up in a summary or file.
            crate::redact::redact(&msg).into_owned()
        };
        Failure::Transient {
            reason,
            retry_after: None,
        }
    }
}
