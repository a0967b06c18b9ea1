//! The LLM client follows no redirect (issue 66, defect 4): a gateway answering 302 is an error
//! naming where it leads, never a GET without the prompt, and a key never travels to the host a
//! redirect names. `--llm-follow-redirects` follows a 307/308 to the same host only.

mod raw_http;

use std::path::Path;
use std::process::{Command, Output};

use ragsynth::prompts::Prompts;
use raw_http::{RawServer, Reply};
use serde_json::json;

const KEY: &str = "sk-test-redirect-0123456789abcdef";

fn audit(dir: &Path, spec: &str, extra: &[&str]) -> Output {
    // The answerability judge runs only where it is calibrated for the model: say it is, so the
    // audit calls the server.
    let prompt = Prompts::load(None).unwrap().id("judge_answerable");
    let record = json!({"judge": "answerable", "model": "openai-compatible:m", "prompt": prompt,
        "n": 40, "accuracy": 0.9, "kappa": 0.8, "measured": "2026-12-01T00:00:00Z", "marks": "test"});
    std::fs::write(
        dir.join("judge-calibration.json"),
        json!({"ragsynth_calibration": 1, "records": [record]}).to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join("set.yaml"),
        format!(
            "ragsynth: 1\ncorpus: {{root: {}/corpora/docs}}\ncases:\n  - id: syn-1\n    question: Can snapshots be stored on tape?\n    relevant: []\n    tags: {{type: unanswerable, source: synthetic}}\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .env_remove("RAGSYNTH_CONFIG")
        .env("XDG_CONFIG_HOME", dir.join("none"))
        .env("OPENAI_API_KEY", KEY)
        .current_dir(dir)
        .args([
            "audit",
            "set.yaml",
            "--no-cache",
            "--llm-retries",
            "0",
            "--llm",
            spec,
        ])
        .args(extra)
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_llm_client_follows_no_redirect_and_sends_no_key_elsewhere() {
    let elsewhere = RawServer::start(|_| Reply::json(500, &json!({"error": "should not be here"}))).await;
    let away = format!("{}/v1/chat/completions", elsewhere.url);
    let gateway = RawServer::start(move |r| match r.path.as_str() {
        "/a/v1/chat/completions" => Reply::redirect(302, "/b/v1/chat/completions"),
        "/c/v1/chat/completions" => Reply::redirect(307, "/d/v1/chat/completions"),
        "/e/v1/chat/completions" => Reply::redirect(308, &away),
        _ => Reply::json(
            503,
            &json!({"error": {"message": "reached the redirect's target"}}),
        ),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let spec = |p: &str| format!("openai-compatible:m@{}/{p}/v1", gateway.url);

    let o = audit(dir.path(), &spec("a"), &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("HTTP 302: the server redirects to") && err.contains("POST into a GET"),
        "{err}"
    );

    let o = audit(dir.path(), &spec("c"), &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--llm-follow-redirects"), "{err}");

    // Asked for: a 307 to the same host is followed, with the prompt; a 308 elsewhere is not.
    let o = audit(dir.path(), &spec("c"), &["--llm-follow-redirects"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("reached the redirect's target"));
    let o = audit(dir.path(), &spec("e"), &["--llm-follow-redirects"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(elsewhere.requests().is_empty(), "nothing reached the other host");

    let requests = gateway.requests();
    assert!(
        requests
            .iter()
            .all(|r| r.method == "POST" && r.header("referer").is_none())
    );
    let followed: Vec<_> = requests
        .iter()
        .filter(|r| r.path == "/d/v1/chat/completions")
        .collect();
    assert!(!followed.is_empty());
    assert!(
        followed
            .iter()
            .all(|r| String::from_utf8_lossy(&r.body).contains("messages"))
    );
    assert!(
        requests.iter().all(|r| r.path != "/b/v1/chat/completions"),
        "a 302 was followed"
    );
}
