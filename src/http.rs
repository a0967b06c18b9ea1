//! What every HTTP client of ragsynth shares (the LLM client and `run --http`).
//!
//! - No redirect is followed unless the user asks, and then only a 307 or 308 to the same
//!   origin: those keep the method and the body, so a question is never turned into a `GET`
//!   without it (301, 302 and 303 would), and credentials — `Authorization`, an `x-api-key`,
//!   a `--header` value — never reach another host. No `Referer` is sent, so a URL's query
//!   (`?api_key=…`) does not travel either.
//! - A reply's body is read as a stream up to a limit, so an endless or huge reply costs at
//!   most the limit in memory, not whatever the server sends.

use reqwest::redirect::{Attempt, Policy};

/// Which redirects a client follows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Redirects {
    /// None: a 3xx is the answer, and an error names the flag that follows it.
    #[default]
    Never,
    /// A 307 or 308 to the same scheme, host and port (at most 5).
    SameOrigin,
}

/// A client builder with the redirect policy and without `Referer`.
pub fn client(redirects: Redirects) -> reqwest::ClientBuilder {
    let policy = match redirects {
        Redirects::Never => Policy::none(),
        Redirects::SameOrigin => Policy::custom(same_origin),
    };
    reqwest::Client::builder().redirect(policy).referer(false)
}

fn same_origin(attempt: Attempt<'_>) -> reqwest::redirect::Action {
    let keeps_body = matches!(attempt.status().as_u16(), 307 | 308);
    let first = attempt.previous().first().map(reqwest::Url::origin);
    if keeps_body && first == Some(attempt.url().origin()) && attempt.previous().len() <= 5 {
        attempt.follow()
    } else {
        attempt.stop()
    }
}

/// Why a reply's body was not read.
#[derive(Debug)]
pub enum BodyError {
    /// It is (or says it is) longer than the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The connection failed while reading.
    Transport(reqwest::Error),
}

/// The body of `response`, read chunk by chunk and refused once it passes `limit` bytes.
pub async fn body(mut response: reqwest::Response, limit: u64) -> Result<Vec<u8>, BodyError> {
    if response.content_length().is_some_and(|n| n > limit) {
        return Err(BodyError::TooLarge { limit });
    }
    let mut out = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Transport)? {
        if (out.len() + chunk.len()) as u64 > limit {
            return Err(BodyError::TooLarge { limit });
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// The sentence for a redirect that was not followed: where it leads (query and credentials
/// masked) and what would follow it.
pub fn not_followed(status: u16, location: Option<&str>, flag: &str) -> String {
    let to = location.map_or_else(String::new, |l| format!(" to {}", crate::redact::url(l)));
    let how = if matches!(status, 307 | 308) {
        format!("pass {flag} to follow a 307 or 308 to the same host")
    } else {
        "a 301, 302 or 303 would turn the POST into a GET without the question; point the URL at the final address".to_string()
    };
    format!("HTTP {status}: the server redirects{to}, and redirects are not followed ({how})")
}
