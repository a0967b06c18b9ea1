//! Which endpoint may receive which API key.
//!
//! `ragsynth.toml` is read from the working directory when no `--config` names a file, and a
//! working directory can be a freshly cloned repository: a base URL found there must not
//! receive `OPENAI_API_KEY` just because ragsynth was run in it. Such a URL gets only a key
//! whose variable the file names for it (`api_key_env`, never one of the providers' own
//! variables), else none, with a note saying why. And a key never travels over plain http to
//! another machine unless the user says `--allow-insecure`.

use secrecy::SecretString;

use super::error::LlmError;
use super::spec::{Endpoint, LlmConfig, Spec, env};
use crate::config::ConfigFile;
use crate::redact::KEY_VARS;

/// The key to send to `endpoint`, and a note for the user when one was withheld.
pub(crate) struct KeyChoice {
    pub key: Option<SecretString>,
    pub note: Option<String>,
}

/// What set the endpoint's URL, when it was an implicit configuration file: `[llm] base_url`
/// or a `[llm] model` spec carrying a URL.
fn url_from_implicit_file(
    spec: &Spec,
    spec_from_file: bool,
    config: &LlmConfig,
    file: &ConfigFile,
) -> Option<&'static str> {
    if !file.is_implicit() {
        return None;
    }
    match spec {
        Spec::OpenAiCompatible { .. } if spec_from_file => Some("model"),
        Spec::OpenAi { .. } | Spec::Anthropic { .. } | Spec::Ollama { .. } if config.base_url.is_some() => {
            Some("base_url")
        }
        _ => None,
    }
}

/// Chooses the key for `endpoint` (see the module doc). `given` is a key the caller passed
/// directly, which always wins.
pub(crate) fn choose_key(
    spec: &Spec,
    spec_from_file: bool,
    endpoint: &Endpoint,
    config: &LlmConfig,
    file: &ConfigFile,
    given: Option<SecretString>,
) -> Result<KeyChoice, LlmError> {
    if given.is_some() {
        return Ok(KeyChoice {
            key: given,
            note: None,
        });
    }
    let named = config.api_key_env.as_deref();
    let Some(field) = url_from_implicit_file(spec, spec_from_file, config, file) else {
        let var = named.or(endpoint.key_var);
        return Ok(KeyChoice {
            key: var.and_then(env).map(SecretString::from),
            note: None,
        });
    };
    let shown = file
        .path()
        .map_or("ragsynth.toml".to_string(), |p| p.display().to_string());
    match named {
        Some(var) if KEY_VARS.contains(&var) || Some(var) == endpoint.key_var => Err(LlmError::Config(format!(
            "{shown} (found in the working directory) sets [llm] {field} = {} and api_key_env = \"{var}\": \
             a URL from a file you did not name with --config gets only a key exported for it under its own \
             name; pass --config {shown} if you trust the file",
            endpoint.base_url
        ))),
        Some(var) => Ok(KeyChoice {
            key: env(var).map(SecretString::from),
            note: None,
        }),
        None => Ok(KeyChoice {
            key: None,
            note: endpoint.key_var.filter(|v| env(v).is_some()).map(|var| {
                format!(
                    "[llm] {field} = {} comes from {shown} in the working directory, not from a file named \
                     with --config: {var} is not sent there (name the key's variable in [llm] api_key_env, or \
                     pass --config {shown} if you trust the file)",
                    endpoint.base_url
                )
            }),
        }),
    }
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
