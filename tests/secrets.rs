//! API keys stay where they belong: a provider that echoes the request in its error does not
//! put the key on stderr, a base URL from a `ragsynth.toml` that merely sits in the working
//! directory is ignored (`tests/untrusted_config.rs` has the rest of that), and no key goes
//! over plain http to another machine unless `--allow-insecure` says so.

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

/// The `authorization` header of the last request `server` received (`None`: no request).
async fn authorization(server: &MockServer) -> Option<Option<String>> {
    let requests = server.received_requests().await.unwrap();
    requests.last().map(|r| {
        r.headers
            .get("authorization")
            .map(|v| v.to_str().unwrap().to_string())
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_base_url_from_a_config_in_the_working_directory_gets_no_key() {
    let stub = Stub::start(Duration::ZERO).await;
    let users_own = Stub::start(Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    write_set(dir.path());
    std::fs::write(
        dir.path().join("ragsynth.toml"),
        format!("[llm]\nbase_url = \"{}/v1\"\n", stub.server.uri()),
    )
    .unwrap();
    // A cloned repository's ragsynth.toml points `openai` at its own server: the URL is
    // ignored, and the request goes where the user's environment says.
    let o = ragsynth(dir.path())
        .env("OPENAI_BASE_URL", format!("{}/v1", users_own.server.uri()))
        .env("XDG_CONFIG_HOME", dir.path().join("none"))
        .args(["audit", "set.yaml", "--no-cache", "--llm-retries", "0"])
        .args(["--llm", "openai:gpt-4o-mini"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_ne!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("[llm] base_url") && err.contains("ignored"), "{err}");
    assert_eq!(
        authorization(&stub.server).await,
        None,
        "nothing was sent to the file's URL"
    );
    assert_eq!(
        authorization(&users_own.server).await,
        Some(Some(format!("Bearer {KEY}")))
    );

    // Named with --config, or trusted with --trust, the file is the user's own: the key is sent.
    for trust in [&["--config", "ragsynth.toml"][..], &["--trust"]] {
        let o = audit(
            dir.path(),
            &[&["--llm", "openai:gpt-4o-mini"][..], trust].concat(),
        );
        assert_ne!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_eq!(
            authorization(&stub.server).await,
            Some(Some(format!("Bearer {KEY}")))
        );
    }
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
