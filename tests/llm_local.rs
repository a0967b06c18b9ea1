//! End to end against the real local model: ragsynth starts `llama-server` with SmolLM2, asks
//! for a structured answer, gets a valid one, and stops the server. Skipped (with a reason) when
//! the server or model is not installed, unless `RAGSYNTH_REQUIRE_LLM=1`.

use std::time::Duration;

use ragsynth::llm::{ChatRequest, Llm, LlmError, LlmSettings};
use schemars::JsonSchema;
use serde::Deserialize;

mod local_llm;
use local_llm::local_llm_available;

/// The shape of a generated test case: nested, optional, a list, an integer, an enum.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(
    dead_code,
    reason = "the fields shape the schema; the test checks the answer parses"
)]
struct Case {
    question: String,
    answer: Option<String>,
    quotes: Vec<Quote>,
    kind: Kind,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[allow(
    dead_code,
    reason = "the fields shape the schema; the test checks the answer parses"
)]
struct Quote {
    text: String,
    paragraph: u32,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code, reason = "variants are chosen by the model")]
enum Kind {
    Lookup,
    Comparison,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Capital {
    city: String,
    confident: bool,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_llama_server_gives_a_valid_structured_answer() {
    if !local_llm_available() {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let settings = LlmSettings {
        cache_dir: Some(cache.path().to_path_buf()),
        timeout: Some(Duration::from_secs(120)),
        // The server is local: a failure after shutdown should show at once.
        max_retries: Some(1),
        backoff_base: Some(Duration::from_millis(10)),
        ..LlmSettings::default()
    };
    let t = std::time::Instant::now();
    let llm = Llm::connect(Some("llamacpp:smollm2"), settings).await.unwrap();
    eprintln!("llama-server up in {:?}", t.elapsed());
    assert_eq!(llm.id(), "llamacpp:SmolLM2-135M-Instruct.Q4_1");
    assert_eq!(llm.context_tokens(), Some(ragsynth::llm::DEFAULT_LOCAL_CONTEXT));
    // Four slots by default, as the server itself reports them (`/props`).
    assert_eq!(llm.concurrency(), 4);

    let mut req = ChatRequest::new(
        "e2e",
        "You answer geography questions as JSON.",
        "What is the capital of France?",
    );
    req.max_tokens = 64;
    let t = std::time::Instant::now();
    let reply = llm.structured::<Capital>(&req).await.unwrap();
    eprintln!("answer in {:?}: {reply:?}", t.elapsed());
    assert!(!reply.cached && !reply.repeat);
    // The schema is enforced by the server's grammar; whether a 135M model gets Paris right is
    // not this layer's business.
    assert!(
        !reply.value.city.trim().is_empty() || !reply.value.confident,
        "{reply:?}"
    );
    let u = llm.usage().total;
    assert_eq!((u.calls, u.rejected), (1, 0));
    assert!(u.prompt_tokens > 0 && u.completion_tokens > 0, "{u:?}");
    assert_eq!(u.cost_usd, Some(0.0));

    // Schemas with nesting, options, lists, integers and enums pass the server's grammar too.
    let mut req2 = ChatRequest::new(
        "e2e",
        "You write one quiz question about the text, as JSON.",
        "Text: (1) Tidepool backs up files every night. (2) Restores take ten minutes.",
    );
    req2.max_tokens = 200;
    let case = llm.structured::<Case>(&req2).await.unwrap().value;
    assert!(!case.question.is_empty(), "{case:?}");
    eprintln!("case: {case:?}");

    // Replayed from the journal, as a repeat of this run's own request (no new cost), and a
    // prompt that cannot fit is refused without a call.
    let again = llm.structured::<Capital>(&req).await.unwrap();
    assert!(again.cached && again.repeat, "{again:?}");
    let long = ChatRequest::new("e2e", "s", "word ".repeat(20_000));
    let e = llm.structured::<Capital>(&long).await.unwrap_err();
    assert!(
        matches!(e, LlmError::Rejected { .. }) && e.to_string().contains("context"),
        "{e}"
    );
    assert_eq!(llm.usage().total.calls, 2);

    llm.shutdown().await;
    let after = llm
        .structured::<Capital>(&ChatRequest::new("e2e", "s", "Capital of Spain?"))
        .await;
    assert!(after.is_err(), "the server should be gone after shutdown");
}

#[tokio::test]
async fn a_missing_model_names_the_install_command() {
    let e = Llm::connect(
        Some("llamacpp:/nonexistent/model.gguf"),
        LlmSettings {
            no_cache: true,
            ..LlmSettings::default()
        },
    )
    .await
    .unwrap_err();
    assert!(e.is_fatal(), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.starts_with("llamacpp:") && msg.contains("install-llm.sh"),
        "{msg}"
    );
}

/// Child side of the Ctrl-C test: starts a server, says so, and waits to be interrupted.
#[test]
fn child_holds_a_server() {
    if std::env::var("RAGSYNTH_HOLD_SERVER").is_err() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let llm = Llm::connect(
            Some("llamacpp:smollm2"),
            LlmSettings {
                no_cache: true,
                ..LlmSettings::default()
            },
        )
        .await
        .unwrap();
        println!("ready {}", llm.id());
        tokio::time::sleep(Duration::from_secs(120)).await;
    });
}

/// Process ids of the children of `pid` (Linux `/proc`).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|s| {
            s.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        // A zombie (state Z) has exited and only waits to be reaped.
        .is_ok_and(|s| {
            s.rsplit_once(") ")
                .is_some_and(|(_, rest)| !rest.starts_with('Z'))
        })
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_server_too() {
    use std::io::BufRead;
    if !local_llm_available() {
        return;
    }
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_holds_a_server",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("RAGSYNTH_HOLD_SERVER", "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = lines.any(|l| l.unwrap().contains("ready llamacpp:"));
    if !ready {
        let _ = child.kill();
    }
    assert!(ready, "the child never started its server");
    let servers = children(child.id());
    assert_eq!(
        servers.len(),
        1,
        "expected one llama-server under the child: {servers:?}"
    );
    // SIGINT to the ragsynth process only, as `kill -INT` would send (a terminal's Ctrl-C
    // reaches the whole process group anyway).
    // SAFETY: plain kill(2) on a child we own.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    child.wait().unwrap();
    let t = std::time::Instant::now();
    while alive(servers[0]) {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "llama-server {} outlived ragsynth",
            servers[0]
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
