//! Keeping secrets out of everything ragsynth prints or writes.
//!
//! An API key must never reach a terminal, a CI log or a file beside the results, but error
//! messages quote what servers say, a gateway may echo the request back — headers included —
//! and a URL may carry a password (`http://user:pw@host`) or a token in its query
//! (`?api_key=…`). So every error, warning and message written to a file passes through
//! [`redact`]: the secrets in use (the LLM key, `--header` values, registered as they are read,
//! and the values of the usual key variables) are masked wherever they appear; so are the values
//! of `Authorization`, `x-api-key` and `api-key` headers, `Bearer` tokens and `sk-…` keys,
//! whoever's they are; and every URL keeps its host and path but not its credentials, query
//! values or fragment ([`url`]). Data a system returned (answers, passages) is only stripped of
//! the registered secrets ([`secrets`]), so its text stays what the system said.

use std::borrow::Cow;
use std::sync::{OnceLock, RwLock};

use regex::Regex;

/// What a secret is replaced with.
pub const MASK: &str = "[redacted]";

/// Environment variables whose values are API keys wherever they appear.
pub const KEY_VARS: &[&str] = &["OPENAI_API_KEY", "ANTHROPIC_API_KEY"];

/// Secrets registered while running (keys read from other variables, or given directly).
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Masks `secret` in every later [`redact`]. Values shorter than 8 characters are ignored:
/// masking them would mangle ordinary words, and no real key is that short.
pub fn register(secret: &str) {
    let secret = secret.trim();
    if secret.len() < 8 {
        return;
    }
    let mut list = SECRETS.write().unwrap_or_else(|p| p.into_inner());
    if !list.iter().any(|s| s == secret) {
        list.push(secret.to_string());
    }
}

fn patterns() -> &'static [(Regex, &'static str)] {
    static P: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    P.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("valid pattern");
        vec![
            // A header or field named like a credential, with its value (scheme included).
            (
                re(r#"(?i)\b((?:proxy-)?authorization|x-api-key|api[-_]?key|x-goog-api-key)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;}\]]+"#),
                "${1}${2}[redacted]",
            ),
            (re(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"), "Bearer [redacted]"),
            (re(r"\bsk-[A-Za-z0-9_-]{12,}"), "sk-[redacted]"),
        ]
    })
}

/// `text` with the secrets in use (registered ones and the key variables' values) masked;
/// borrowed when there was none. For data, whose other text must stay as it was.
pub fn secrets(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    let env_keys = KEY_VARS
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .filter(|k| k.trim().len() >= 8);
    let registered = SECRETS.read().unwrap_or_else(|p| p.into_inner()).clone();
    for secret in env_keys.chain(registered) {
        let secret = secret.trim();
        if out.contains(secret) {
            out = Cow::Owned(out.replace(secret, MASK));
        }
    }
    out
}

/// `text` with every secret masked (see the module doc). Borrowed when there was nothing to mask.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out = secrets(text);
    if let Cow::Owned(s) = url_pattern().replace_all(&out, |c: &regex::Captures<'_>| url(&c[0])) {
        out = Cow::Owned(s);
    }
    for (re, with) in patterns() {
        if let Cow::Owned(s) = re.replace_all(&out, *with) {
            out = Cow::Owned(s);
        }
    }
    out
}

fn url_pattern() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| Regex::new(r#"(?i)\b[a-z][a-z0-9+.-]{1,15}://[^\s"'<>(){}`]+"#).expect("valid pattern"))
}

/// A URL as it may be shown or written: scheme, host, port and path; user and password, every
/// query value and the fragment masked (`http://[redacted]@host/ask?api_key=[redacted]`). Text
/// that is not a URL only has the secrets in use masked.
pub fn url(text: &str) -> String {
    let Ok(u) = reqwest::Url::parse(text) else {
        return secrets(text).into_owned();
    };
    let mut out = format!("{}://", u.scheme());
    if !u.username().is_empty() || u.password().is_some() {
        out.push_str(MASK);
        out.push('@');
    }
    if let Some(host) = u.host_str() {
        out.push_str(host);
    }
    if let Some(port) = u.port() {
        out.push_str(&format!(":{port}"));
    }
    out.push_str(u.path());
    if let Some(query) = u.query() {
        let masked: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, _)) => format!("{k}={MASK}"),
                None if pair.is_empty() => String::new(),
                None => MASK.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&masked.join("&"));
    }
    if u.fragment().is_some() {
        out.push('#');
        out.push_str(MASK);
    }
    secrets(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_headers_tokens_and_keys_are_masked() {
        let echo = r#"bad request: {"headers": {"Authorization": "Bearer sk-proj-abcdef1234567890XYZ", "x-api-key": "sk-ant-api03-zzzzzzzzzzzzzzzz"}} api-key: 0123456789abcdef"#;
        let r = redact(echo);
        assert!(
            !r.contains("abcdef1234567890XYZ") && !r.contains("zzzzzzzz"),
            "{r}"
        );
        assert!(!r.contains("0123456789abcdef"), "{r}");
        assert!(
            r.contains("Authorization") && r.contains("x-api-key") && r.contains(MASK),
            "{r}"
        );
        let r = redact("Authorization: Bearer abc.def-ghi_jkl");
        assert_eq!(r, "Authorization: [redacted]");
        let r = redact("token sk-live-1234567890abcdefgh here");
        assert_eq!(r, "token sk-[redacted] here");
    }

    #[test]
    fn registered_secrets_are_masked_anywhere_and_plain_text_is_left_alone() {
        register("proxy-secret-9f8e7d6c");
        let r = redact("connect http://u:proxy-secret-9f8e7d6c@host/v1 failed");
        assert_eq!(r, format!("connect http://{MASK}@host/v1 failed"));
        let plain = "12 cases read from set.yaml; the key sentence is short";
        assert!(matches!(redact(plain), Cow::Borrowed(_)));
        register("short");
        assert_eq!(redact("a short word"), "a short word");
    }

    /// Issue 66, defect 5: a URL's password and query values were written as they came.
    #[test]
    fn urls_lose_credentials_query_values_and_fragment() {
        assert_eq!(
            url("http://user:pw@host:8080/ask?api_key=abc&x=1#frag"),
            format!("http://{MASK}@host:8080/ask?api_key={MASK}&x={MASK}#{MASK}")
        );
        assert_eq!(url("https://host/v1"), "https://host/v1");
        let r = redact("error sending request for url (http://u:hunter2@10.0.0.1/ask?token=t0k3n): refused");
        assert!(
            !r.contains("hunter2") && !r.contains("t0k3n") && r.contains("10.0.0.1/ask"),
            "{r}"
        );
        assert!(r.ends_with("): refused"), "{r}");
        register("header-value-0123456789");
        assert_eq!(
            secrets("echo: header-value-0123456789, sk-not-registered-123456789"),
            format!("echo: {MASK}, sk-not-registered-123456789")
        );
    }
}
