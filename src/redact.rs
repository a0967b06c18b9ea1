//! Keeping secrets out of everything ragsynth prints.
//!
//! An API key must never reach a terminal or a CI log, but error messages quote what servers
//! say, and a gateway may echo the request back — headers included. So every error and warning
//! line passes through [`redact`] before it is printed: the keys in use (registered by the LLM
//! layer, and the values of the usual key variables) are masked wherever they appear, and so
//! are the values of `Authorization`, `x-api-key` and `api-key` headers, `Bearer` tokens and
//! `sk-…` keys, whoever's they are.

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

/// `text` with every secret masked (see the module doc). Borrowed when there was nothing to mask.
pub fn redact(text: &str) -> Cow<'_, str> {
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
    for (re, with) in patterns() {
        if let Cow::Owned(s) = re.replace_all(&out, *with) {
            out = Cow::Owned(s);
        }
    }
    out
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
        assert_eq!(r, format!("connect http://u:{MASK}@host/v1 failed"));
        let plain = "12 cases read from set.yaml; the key sentence is short";
        assert!(matches!(redact(plain), Cow::Borrowed(_)));
        register("short");
        assert_eq!(redact("a short word"), "a short word");
    }
}
