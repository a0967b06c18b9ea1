//! Which key an endpoint gets, and over what.
//!
//! Where the URL and the key's variable may come from is the configuration's business: a
//! `ragsynth.toml` found in a cloned repository cannot set `base_url`, `api_key_env` or a model
//! with a URL at all (`config::trust`). What is left here: the key named for the endpoint, and a
//! key never travels over plain http to another machine unless the user says `--allow-insecure`.

use secrecy::SecretString;

use super::error::LlmError;
use super::spec::{Endpoint, LlmConfig, env};

/// The key to send to `endpoint`: `given` (passed directly) wins, else the variable `[llm]
/// api_key_env` names, else the provider's own.
pub(crate) fn choose_key(
    endpoint: &Endpoint,
    config: &LlmConfig,
    given: Option<SecretString>,
) -> Option<SecretString> {
    given.or_else(|| {
        let var = config.api_key_env.as_deref().or(endpoint.key_var)?;
        env(var).map(SecretString::from)
    })
}

/// Refuses to send a key over plain http to anything but this machine, unless allowed.
pub(crate) fn check_transport(base_url: &str, has_key: bool, allow_insecure: bool) -> Result<(), LlmError> {
    let Ok(url) = reqwest::Url::parse(base_url) else {
        return Ok(()); // the request itself will fail with a clear message
    };
    if !has_key || allow_insecure || url.scheme() != "http" || is_loopback(base_url) {
        return Ok(());
    }
    Err(LlmError::Config(format!(
        "refusing to send the API key over plain http to {}: use an https URL, or pass --allow-insecure",
        url.host_str().unwrap_or("the server")
    )))
}

/// True for a URL naming this machine (`localhost`, 127.0.0.0/8, `[::1]`).
pub(crate) fn is_loopback(url: &str) -> bool {
    let Some(host) = reqwest::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
    else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_with_a_key_only_to_this_machine() {
        assert!(check_transport("http://10.0.0.5:8000/v1", true, false).is_err());
        assert!(check_transport("http://10.0.0.5:8000/v1", true, true).is_ok());
        assert!(check_transport("http://10.0.0.5:8000/v1", false, false).is_ok());
        assert!(check_transport("https://api.example.com/v1", true, false).is_ok());
        for local in [
            "http://127.0.0.1:8080/v1",
            "http://localhost/v1",
            "http://[::1]:9/v1",
        ] {
            assert!(check_transport(local, true, false).is_ok(), "{local}");
        }
    }

    #[test]
    fn loopback_urls() {
        assert!(is_loopback("http://127.0.0.1:8080/v1"));
        assert!(is_loopback("http://localhost/v1"));
        assert!(is_loopback("http://[::1]:8080/v1"));
        assert!(!is_loopback("https://api.example.com/v1"));
        assert!(!is_loopback("http://127.example.com/v1"));
    }
}
