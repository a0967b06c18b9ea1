//! `kill -9` in the middle of a run loses nothing that was paid for: the rerun makes only the
//! calls the first run did not finish, and ends with the same answers as an uninterrupted run.
//!
//! The run under test is this test binary itself, re-executed as a child process in which
//! `child_run` does the work (it does nothing when run normally).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ragsynth::llm::{ChatRequest, Llm, LlmSettings};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const KEY: &str = "sk-ragsynth-test-KEY-5f2c9a";
const N: u64 = 60;

#[derive(Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
struct Square {
    n: u64,
    square: u64,
}

/// Answers `item <n>` with its square, after 100 ms.
struct Squares;

impl Respond for Squares {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let n: u64 = body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .trim_start_matches("item ")
            .parse()
            .unwrap();
        let content = json!({"n": n, "square": n * n}).to_string();
        ResponseTemplate::new(200)
            .set_body_json(json!({
                "choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 6},
            }))
            .set_delay(Duration::from_millis(100))
    }
}

/// The child's work: N requests, 4 in flight, answers written in order to `$KILL_OUT`.
#[test]
fn child_run() {
    let Ok(url) = std::env::var("RAGSYNTH_KILL_URL") else {
        return;
    };
    let cache = std::env::var("RAGSYNTH_KILL_CACHE").unwrap();
    let out = std::env::var("RAGSYNTH_KILL_OUT").unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let settings = LlmSettings {
            concurrency: Some(4),
            cache_dir: Some(cache.into()),
            ..LlmSettings::default()
        };
        let llm = Llm::connect(Some(&format!("openai-compatible:stub@{url}/v1")), settings)
            .await
            .unwrap();
        let tasks: Vec<_> = (0..N)
            .map(|i| {
                let llm = llm.clone();
                tokio::spawn(async move {
                    let req = ChatRequest::new("kill", "Answer with JSON.", format!("item {i}"));
                    llm.structured::<Square>(&req).await.unwrap().value
                })
            })
            .collect();
        let mut answers = Vec::new();
        for t in tasks {
            answers.push(t.await.unwrap());
        }
        ragsynth::fsutil::write_atomic(Path::new(&out), &serde_json::to_vec(&answers).unwrap()).unwrap();
        println!("{}", llm.usage());
    });
}

fn child(url: &str, cache: &Path, out: &Path) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args(["--exact", "child_run", "--nocapture", "--test-threads=1"])
        .env("RAGSYNTH_KILL_URL", url)
        .env("RAGSYNTH_KILL_CACHE", cache)
        .env("RAGSYNTH_KILL_OUT", out)
        .env("OPENAI_API_KEY", KEY)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn journal_lines(cache: &Path) -> usize {
    std::fs::read_to_string(cache.join("journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count()
}

fn run_to_end(mut cmd: Command) -> String {
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "child failed: {text}");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rerun_after_kill_makes_only_the_missing_calls() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(Squares)
        .mount(&server)
        .await;
    let calls = || async { server.received_requests().await.unwrap().len() };
    let tmp = tempfile::tempdir().unwrap();

    // Reference: an uninterrupted run.
    let (cache_a, out_a) = (tmp.path().join("a"), tmp.path().join("a.json"));
    let log_a = run_to_end(child(&server.uri(), &cache_a, &out_a));
    assert_eq!(calls().await, N as usize);

    // Killed a third of the way through.
    let (cache_b, out_b) = (tmp.path().join("b"), tmp.path().join("b.json"));
    let mut victim = child(&server.uri(), &cache_b, &out_b).spawn().unwrap();
    let t = Instant::now();
    while journal_lines(&cache_b) < (N / 3) as usize {
        assert!(t.elapsed() < Duration::from_secs(60), "child made no progress");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    victim.kill().unwrap(); // SIGKILL
    victim.wait().unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let done = journal_lines(&cache_b);
    assert!(
        done < N as usize && !out_b.exists(),
        "the kill came too late to test anything"
    );
    let before = calls().await;

    let log_b = run_to_end(child(&server.uri(), &cache_b, &out_b));
    let rerun_calls = calls().await - before;
    assert_eq!(
        rerun_calls,
        N as usize - done,
        "the rerun repeated journaled calls"
    );
    assert!(log_b.contains(&format!("{done} cached")), "{log_b}");
    assert_eq!(journal_lines(&cache_b), N as usize);

    let a: Vec<Square> = serde_json::from_slice(&std::fs::read(&out_a).unwrap()).unwrap();
    let b: Vec<Square> = serde_json::from_slice(&std::fs::read(&out_b).unwrap()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a[7], Square { n: 7, square: 49 });

    // The key went out in headers only: not in outputs, logs or journals.
    for text in [log_a, log_b] {
        assert!(!text.contains(KEY));
    }
    for f in [
        cache_a.join("journal.jsonl"),
        cache_b.join("journal.jsonl"),
        out_a,
        out_b,
    ] {
        assert!(
            !std::fs::read_to_string(&f).unwrap().contains(KEY),
            "{}",
            f.display()
        );
    }
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(
        sent.headers["authorization"].to_str().unwrap(),
        format!("Bearer {KEY}")
    );
}
