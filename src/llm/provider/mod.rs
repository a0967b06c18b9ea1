//! Wire formats of the supported APIs as pure functions: build the HTTP request, parse the
//! response, classify an error status. No I/O here, so every provider is unit-tested without a
//! network; the executor (`super::executor`) does the sending.

pub(crate) mod anthropic;
pub(crate) mod anthropic_batch;
pub(crate) mod openai;
pub(crate) mod openai_batch;

use std::time::Duration;

use serde_json::Value;

use super::error::Failure;

/// The request/response format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// `POST {base}/chat/completions` with `response_format: json_schema`.
    OpenAi {
        /// OpenAI itself wants `max_completion_tokens`; compatible servers want `max_tokens`.
        completion_tokens_field: bool,
    },
    /// `POST {base}/messages` with one forced tool.
    Anthropic,
}

/// Who said a message after the system prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    User,
    Assistant,
}

impl Role {
    fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One conversation turn.
#[derive(Debug, Clone)]
pub(crate) struct Message {
    pub role: Role,
    pub content: String,
}

/// Everything a provider needs to build one request.
#[derive(Debug)]
pub(crate) struct Prompt<'a> {
    pub model: &'a str,
    pub system: &'a str,
    pub messages: &'a [Message],
    /// JSON schema of the answer.
    pub schema: &'a Value,
    pub max_tokens: u32,
    pub temperature: f32,
    pub seed: Option<u64>,
}

/// An HTTP request without credentials (the executor adds those, marked sensitive).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HttpRequest {
    pub url: String,
    pub headers: Vec<(&'static str, String)>,
    pub body: Value,
}

/// A successful response, reduced to what the executor needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Completion {
    /// The answer as JSON text (for Anthropic: the forced tool's input, serialized).
    pub text: String,
    /// The model stopped at `max_tokens`, so the JSON is probably cut off.
    pub truncated: bool,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Dialect {
    /// Builds the request for `prompt` against `base_url` (no trailing slash needed).
    pub(crate) fn build(self, base_url: &str, prompt: &Prompt<'_>) -> HttpRequest {
        match self {
            Dialect::OpenAi {
                completion_tokens_field,
            } => openai::build(base_url, prompt, completion_tokens_field),
            Dialect::Anthropic => anthropic::build(base_url, prompt),
        }
    }

    /// Parses a 2xx body. `Err` means the body is not a usable answer (malformed, truncated,
    /// refused): the caller re-asks.
    pub(crate) fn parse(self, body: &[u8]) -> Result<Completion, String> {
        match self {
            Dialect::OpenAi { .. } => openai::parse(body),
            Dialect::Anthropic => anthropic::parse(body),
        }
    }

    /// The header that carries the key, and how its value is written.
    pub(crate) fn auth_header(self, key: &str) -> (&'static str, String) {
        match self {
            Dialect::OpenAi { .. } => ("authorization", format!("Bearer {key}")),
            Dialect::Anthropic => ("x-api-key", key.to_string()),
        }
    }
}

/// `base_url` with `path` appended to its path, its query (a gateway's `?api-version=…` or
/// token) kept after it: `https://h/v1?k=x` + `chat/completions` is
/// `https://h/v1/chat/completions?k=x`, not `https://h/v1?k=x/chat/completions`.
pub(crate) fn join(base_url: &str, path: &str) -> String {
    match reqwest::Url::parse(base_url) {
        Ok(mut u) => {
            let joined = format!("{}/{path}", u.path().trim_end_matches('/'));
            u.set_path(&joined);
            u.to_string()
        }
        Err(_) => format!("{}/{path}", base_url.trim_end_matches('/')),
    }
}

/// One request of a batch: the body the online path would send, and the id its result comes
/// back under.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BatchLine {
    pub custom_id: String,
    pub body: Value,
}

impl BatchLine {
    /// The line for `req`: its id is the hash of the body (64 hex digits, which both APIs
    /// accept), so the same request asked again — by a rerun — has the same id.
    pub(crate) fn of(req: &HttpRequest) -> BatchLine {
        use sha2::{Digest, Sha256};
        let bytes = serde_json::to_vec(&req.body).expect("a JSON value serializes");
        BatchLine {
            custom_id: hex::encode(Sha256::digest(&bytes)),
            body: req.body.clone(),
        }
    }
}

/// Where a batch stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BatchState {
    /// Still working.
    Running,
    /// Done (completed, expired or cancelled): its results can be read; what they lack goes
    /// again.
    Ended,
    /// Rejected as a whole (OpenAI's `failed`: the input did not validate).
    Failed(String),
}

/// A batch as the provider reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BatchStatus {
    pub id: String,
    pub state: BatchState,
    /// Requests in it.
    pub total: u64,
    /// Answered.
    pub done: u64,
    /// Failed, cancelled or expired.
    pub failed: u64,
    /// URLs of the result files, once it has ended.
    pub results: Vec<String>,
}

/// One request's result in a batch.
#[derive(Debug, Clone)]
pub(crate) enum LineOutcome {
    /// The body of its response, as the online path would have received it.
    Body(Vec<u8>),
    /// Not run (expired, cancelled): it goes into the next batch.
    Retry(String),
    /// Run and failed, as the online path's status would have said.
    Failed(Failure),
}

/// How a dialect's batch API is spoken.
impl Dialect {
    /// The results a batch's result file holds.
    pub(crate) fn batch_results(self, body: &[u8]) -> Vec<(String, LineOutcome)> {
        match self {
            Dialect::OpenAi { .. } => openai_batch::parse_results(body),
            Dialect::Anthropic => anthropic_batch::parse_results(body),
        }
    }

    /// Parses a batch object.
    pub(crate) fn batch_status(self, base_url: &str, body: &[u8]) -> Result<BatchStatus, String> {
        match self {
            Dialect::OpenAi { .. } => openai_batch::parse_batch(base_url, body),
            Dialect::Anthropic => anthropic_batch::parse_batch(body),
        }
    }

    /// `GET` URL of batch `id`.
    pub(crate) fn batch_url(self, base_url: &str, id: &str) -> String {
        match self {
            Dialect::OpenAi { .. } => openai_batch::retrieve_url(base_url, id),
            Dialect::Anthropic => anthropic_batch::retrieve_url(base_url, id),
        }
    }

    /// Headers every batch call carries besides the key (Anthropic's version).
    pub(crate) fn batch_headers(self) -> Vec<(&'static str, String)> {
        match self {
            Dialect::OpenAi { .. } => Vec::new(),
            Dialect::Anthropic => vec![("anthropic-version", anthropic::VERSION.to_string())],
        }
    }
}

/// Sorts a non-2xx response into retry / reject / stop. `key_var` names the environment
/// variable holding the key, for the fix in the message. The body's text is only quoted for
/// statuses whose bodies explain a request error, and only its `error.message`.
pub(crate) fn classify(
    status: u16,
    retry_after: Option<&str>,
    body: &[u8],
    key_var: Option<&str>,
) -> Failure {
    let detail = error_message(body);
    match status {
        408 | 409 | 425 | 429 | 500..=599 => Failure::Transient {
            reason: match detail {
                Some(d) => format!("HTTP {status}: {d}"),
                None => format!("HTTP {status}"),
            },
            retry_after: retry_after.and_then(parse_retry_after),
        },
        401 | 403 => Failure::Fatal(format!(
            "the API key was refused (HTTP {status}){}",
            match key_var {
                Some(var) => format!("; check {var}"),
                None => String::new(),
            }
        )),
        _ => {
            let d = detail.unwrap_or_else(|| "no error message".to_string());
            if is_context_overflow(&d) {
                Failure::Rejected(format!(
                    "prompt does not fit the model's context (HTTP {status}: {d})"
                ))
            } else if status == 404 {
                Failure::Fatal(format!("HTTP 404: {d}; check the model name and base URL"))
            } else {
                Failure::Fatal(format!("HTTP {status}: {d}"))
            }
        }
    }
}

/// `error.message` (OpenAI, Anthropic, llama-server) or a plain `error` string, shortened.
fn error_message(body: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let m = v
        .pointer("/error/message")
        .or_else(|| v.get("error").filter(|e| e.is_string()))
        .or_else(|| v.get("message"))?
        .as_str()?;
    // A gateway may echo the request, headers and all: mask secrets before quoting it.
    Some(crate::redact::redact(m).chars().take(300).collect())
}

fn is_context_overflow(message: &str) -> bool {
    let m = message.to_lowercase();
    m.contains("context length")
        || m.contains("context_length")
        || m.contains("exceeds the available context")
        || m.contains("exceed_context")
        || m.contains("too many tokens")
}

/// `Retry-After` as seconds (fractions allowed) or as an HTTP date (the wait until then, 0 when
/// it has passed); at most 10 minutes. Anything else falls back to the exponential backoff.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    const MAX: Duration = Duration::from_secs(600);
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs).min(MAX));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(std::time::SystemTime::now())
            .unwrap_or_default()
            .min(MAX),
    )
}

/// The schema as sent: the `$schema` marker dropped, and whether it meets OpenAI's strict mode
/// (every object closed, every property required).
pub(crate) fn wire_schema(schema: &Value) -> (Value, bool) {
    let mut s = schema.clone();
    if let Some(o) = s.as_object_mut() {
        o.remove("$schema");
    }
    let strict = is_strict(&s);
    (s, strict)
}

fn is_strict(v: &Value) -> bool {
    match v {
        Value::Object(o) => {
            if o.get("type").and_then(Value::as_str) == Some("object") || o.contains_key("properties") {
                let props = o.get("properties").and_then(Value::as_object);
                let required: Vec<&str> = o
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let closed = o.get("additionalProperties") == Some(&Value::Bool(false));
                let all_required = props.is_none_or(|p| p.keys().all(|k| required.contains(&k.as_str())));
                if !closed || !all_required {
                    return false;
                }
            }
            o.values().all(is_strict)
        }
        Value::Array(a) => a.iter().all(is_strict),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 66, defect 5: a base URL with a query was joined into `…?k=x/chat/completions`.
    #[test]
    fn a_base_url_with_a_query_keeps_it_after_the_path() {
        assert_eq!(
            join("https://gw.example/v1?api-key=XYZ", "chat/completions"),
            "https://gw.example/v1/chat/completions?api-key=XYZ"
        );
        assert_eq!(
            join("http://127.0.0.1:8080/v1/", "messages"),
            "http://127.0.0.1:8080/v1/messages"
        );
    }

    #[test]
    fn statuses_sort_into_retry_reject_stop() {
        assert!(matches!(
            classify(429, Some("2"), b"{}", None),
            Failure::Transient { retry_after: Some(d), .. } if d == Duration::from_secs(2)
        ));
        for s in [500, 502, 503, 529, 408] {
            assert!(classify(s, None, b"", None).is_transient(), "{s}");
        }
        let Failure::Fatal(m) = classify(
            401,
            None,
            br#"{"error":{"message":"Incorrect API key provided: sk-abc"}}"#,
            Some("OPENAI_API_KEY"),
        ) else {
            panic!()
        };
        assert!(m.contains("OPENAI_API_KEY") && !m.contains("sk-abc"), "{m}");
        assert!(
            matches!(classify(400, None, br#"{"error":{"message":"bad schema"}}"#, None), Failure::Fatal(m) if m.contains("bad schema"))
        );
        assert!(matches!(
            classify(
                400,
                None,
                br#"{"error":{"code":400,"message":"the request exceeds the available context size"}}"#,
                None
            ),
            Failure::Rejected(_)
        ));
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after(" 1.5 "), Some(Duration::from_millis(1500)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO),
            "past"
        );
        let soon = std::time::SystemTime::now() + Duration::from_secs(30);
        let wait = parse_retry_after(&httpdate::fmt_http_date(soon)).unwrap();
        assert!(
            wait > Duration::from_secs(27) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        let late = std::time::SystemTime::now() + Duration::from_secs(3600);
        assert_eq!(
            parse_retry_after(&httpdate::fmt_http_date(late)),
            Some(Duration::from_secs(600))
        );
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn strictness_follows_the_schema() {
        let closed = serde_json::json!({"$schema": "x", "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
        let (s, strict) = wire_schema(&closed);
        assert!(strict && s.get("$schema").is_none());
        let open = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert!(!wire_schema(&open).1);
    }
}
