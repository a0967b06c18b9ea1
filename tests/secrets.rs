//! API keys stay where they belong: a provider that echoes the request in its error does not
//! put the key on stderr, a base URL from a `ragsynth.toml` that merely sits in the working
//! directory does not receive `OPENAI_API_KEY`, and no key goes over plain http to another
//! machine unless `--allow-insecure` says so.

mod stub_llm;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::json;
use stub_llm::Stub;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "sk-test-SECRET-0123456789abcdef";

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("OPENAI_BASE_URL")
        .env("OPENAI_API_KEY", KEY)
        .current_dir(dir);
    c
}

/// A one-case set (an unanswerable question, so `audit --llm` asks one judge question).
fn write_set(dir: &Path) {
    let set = format!(
        "ragsynth: 1\ncorpus: {{root: {}/corpora/docs}}\ncases:\n  - id: syn-1\n    question: Can snapshots be stored on tape?\n    relevant: []\n    tags: {{type: unanswerable, source: synthetic}}\n",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(dir.join("set.yaml"), set).unwrap();
    // The judges run only where calibrated for the model: these are.
    stub_llm::trust(
        dir,
        &["openai-compatible:m", "openai:gpt-4o-mini"],
        &["answerable"],
    );
}

fn audit(dir: &Path, extra: &[&str]) -> Output {
    ragsynth(dir)
        .args(["audit", "set.yaml", "--no-cache", "--llm-retries", "0"])
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_echoing_the_request_does_not_put_keys_on_stderr() {
    for status in [400, 503] {
        let server = MockServer::start().await;
        let echo = format!(
            "invalid request; received headers: {{'Authorization': 'Bearer {KEY}', 'x-api-key': 'sk-ant-other-9876543210zyxw', 'api-key': 'abcdef0123456789'}}"
        );
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(status).set_body_json(json!({"error": {"message": echo}})))
            .mount(&server)
            .await;
        let dir = tempfile::tempdir().unwrap();
        write_set(dir.path());
        let llm = format!("openai-compatible:m@{}/v1", server.uri());
        let o = audit(dir.path(), &["--llm", &llm]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "HTTP {status}: {err}");
        assert!(err.contains(&format!("HTTP {status}")), "{err}");
        for secret in [KEY, "SECRET-0123", "9876543210zyxw", "abcdef0123456789"] {
            assert!(!err.contains(secret), "HTTP {status}: {secret} on stderr: {err}");
        }
        assert!(err.contains("[redacted]"), "{err}");
        // The key did go to the server, in its header.
        let sent = &server.received_requests().await.unwrap()[0];
        assert_eq!(sent.headers["authorization"], format!("Bearer {KEY}").as_str());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_base_url_from_a_config_in_the_working_directory_gets_no_key() {
    let stub = Stub::start(Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    write_set(dir.path());
    let config = |extra: &str| {
        let text = format!("[llm]\nbase_url = \"{}/v1\"\n{extra}", stub.server.uri());
        std::fs::write(dir.path().join("ragsynth.toml"), text).unwrap();
    };
    let authorization = || async {
        let requests = stub.server.received_requests().await.unwrap();
        requests.last().map(|r| {
            r.headers
                .get("authorization")
                .map(|v| v.to_str().unwrap().to_string())
        })
    };

    // A cloned repository's ragsynth.toml points `openai` at its own server.
    config("");
    let o = audit(dir.path(), &["--llm", "openai:gpt-4o-mini"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("OPENAI_API_KEY is not sent there"), "{err}");
    assert_eq!(authorization().await, None, "nothing was sent");

    // Named with --config, the file is the user's own: the key is sent.
    let o = audit(
        dir.path(),
        &["--llm", "openai:gpt-4o-mini", "--config", "ragsynth.toml"],
    );
    assert_ne!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(authorization().await, Some(Some(format!("Bearer {KEY}"))));

    // The file may name a key variable of its own; it may not claim the provider's.
    config("api_key_env = \"PROXY_KEY\"\n");
    let o = ragsynth(dir.path())
        .env("PROXY_KEY", "proxy-key-for-this-url")
        .args(["audit", "set.yaml", "--no-cache", "--llm", "openai:gpt-4o-mini"])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        authorization().await,
        Some(Some("Bearer proxy-key-for-this-url".into()))
    );
    config("api_key_env = \"OPENAI_API_KEY\"\n");
    let o = audit(dir.path(), &["--llm", "openai:gpt-4o-mini"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("api_key_env") && err.contains("--config"), "{err}");

    // A model spec carrying a URL in that file: called, but without the key.
    std::fs::write(
        dir.path().join("ragsynth.toml"),
        format!("[llm]\nmodel = \"{}\"\n", stub.spec()),
    )
    .unwrap();
    let before = stub.requests().await;
    let o = ragsynth(dir.path())
        .args(["generate", concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/docs")])
        .args([
            "-o",
            "out.yaml",
            "-n",
            "1",
            "--mix",
            "lookup=1",
            "--no-cache",
            "--quiet",
        ])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("[llm] model") && err.contains("is not sent there"),
        "{err}"
    );
    let requests = stub.server.received_requests().await.unwrap();
    assert!(requests.len() > before);
    assert!(
        requests[before..]
            .iter()
            .all(|r| !r.headers.contains_key("authorization"))
    );
}

#[test]
fn a_key_is_not_sent_over_plain_http_to_another_machine() {
    let dir = tempfile::tempdir().unwrap();
    write_set(dir.path());
    let started = std::time::Instant::now();
    let o = audit(
        dir.path(),
        &[
            "--llm",
            "openai-compatible:m@http://10.255.255.1:9/v1",
            "--llm-timeout",
            "3",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("refusing to send the API key over plain http to 10.255.255.1"),
        "{err}"
    );
    assert!(err.contains("--allow-insecure"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(3), "it tried to connect");
}
