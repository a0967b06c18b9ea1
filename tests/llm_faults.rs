//! Faults a real server will not produce on demand, played by a stub HTTP server: rate limits,
//! 5xx, hangs, malformed and truncated bodies, a refused key, and a long run with 30% transient
//! failures. Each test also checks that the test key appears nowhere in what it left behind.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ragsynth::config::ConfigFile;
use ragsynth::llm::{ChatRequest, Llm, LlmError, LlmSettings};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const KEY: &str = "sk-ragsynth-test-KEY-5f2c9a";

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Answer {
    n: u64,
    word: String,
}

fn completion(content: &str, finish: &str) -> Value {
    json!({
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5},
    })
}

fn answer(n: u64) -> ResponseTemplate {
    let content = json!({"n": n, "word": format!("w{n}")}).to_string();
    ResponseTemplate::new(200).set_body_json(completion(&content, "stop"))
}

fn settings(dir: &Path) -> LlmSettings {
    LlmSettings {
        cache_dir: Some(dir.to_path_buf()),
        api_key: Some(KEY.into()),
        timeout: Some(Duration::from_millis(500)),
        backoff_base: Some(Duration::from_millis(10)),
        max_retries: Some(5),
        ..LlmSettings::default()
    }
}

async fn connect(server: &MockServer, dir: &Path) -> Llm {
    Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        settings(dir),
    )
    .await
    .unwrap()
}

fn ask(i: u64) -> ChatRequest {
    ChatRequest::new("test", "Answer with JSON.", format!("item {i}"))
}

/// The item number a request asks about (the last user message reads `item <n>`).
fn item_of(req: &Request) -> u64 {
    let body: Value = serde_json::from_slice(&req.body).unwrap();
    let user = body["messages"][1]["content"].as_str().unwrap();
    user.trim_start_matches("item ").parse().unwrap()
}

/// Fails if `KEY` occurs in any file under `dir` or in any of `texts`.
fn assert_no_key(dir: &Path, texts: &[String]) {
    for t in texts {
        assert!(!t.contains(KEY), "key leaked into: {t}");
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            let bytes = std::fs::read(&p).unwrap();
            assert!(
                !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
                "key leaked into {}",
                p.display()
            );
        }
    }
}

#[tokio::test]
async fn rate_limit_waits_out_retry_after() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(answer(1))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    let t = Instant::now();
    let r = llm.structured::<Answer>(&ask(1)).await.unwrap();
    assert!(
        t.elapsed() >= Duration::from_secs(1),
        "Retry-After not honoured: {:?}",
        t.elapsed()
    );
    assert_eq!(
        r.value,
        Answer {
            n: 1,
            word: "w1".into()
        }
    );
    assert_eq!((llm.usage().total.retries, llm.usage().total.calls), (1, 1));
    // The key was sent, and only in the header.
    let sent = &server.received_requests().await.unwrap()[0];
    assert_eq!(
        sent.headers["authorization"].to_str().unwrap(),
        format!("Bearer {KEY}")
    );
    assert_no_key(
        dir.path(),
        &[format!("{llm:?}"), format!("{:?}", settings(dir.path()))],
    );
}

#[tokio::test]
async fn server_errors_are_retried() {
    let server = MockServer::start().await;
    for status in [500, 502, 503] {
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(status))
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("POST"))
        .respond_with(answer(2))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    let r = llm.structured::<Answer>(&ask(2)).await.unwrap();
    assert_eq!(r.value.n, 2);
    assert_eq!(llm.usage().total.retries, 3);
    assert_eq!(server.received_requests().await.unwrap().len(), 4);
}

#[tokio::test]
async fn exhausted_retries_are_reported_not_fatal() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        LlmSettings {
            max_retries: Some(2),
            ..settings(dir.path())
        },
    )
    .await
    .unwrap();
    let e = llm.structured::<Answer>(&ask(3)).await.unwrap_err();
    assert!(
        matches!(e, LlmError::Exhausted { attempts: 3, .. }) && !e.is_fatal(),
        "{e:?}"
    );
    assert!(e.to_string().contains("503"), "{e}");
}

#[tokio::test]
async fn a_hung_request_times_out_and_is_retried() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(answer(4).set_delay(Duration::from_secs(30)))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(answer(4))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    let t = Instant::now();
    let r = llm.structured::<Answer>(&ask(4)).await.unwrap();
    assert_eq!(r.value.n, 4);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "timeout not applied: {:?}",
        t.elapsed()
    );
    assert_eq!(llm.usage().total.retries, 1);
}

#[tokio::test]
async fn malformed_bodies_are_reasked_then_rejected() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200).set_body_string(r#"{"choices":[{"message":{"content":"{\"n\":"#),
        )
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    let e = llm.structured::<Answer>(&ask(5)).await.unwrap_err();
    assert!(
        matches!(&e, LlmError::Rejected { reason } if reason.contains("not JSON")),
        "{e:?}"
    );
    assert!(!e.is_fatal());
    // One ask and two re-asks (the default), then the candidate is given up.
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    assert_eq!(llm.usage().total.rejected, 1);
    // The verdict is journaled: asking again replays the rejection without a request.
    let journal = std::fs::read_to_string(dir.path().join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1);
    assert!(journal.contains(r#""rejected":"#), "{journal}");
    let again = llm.structured::<Answer>(&ask(5)).await.unwrap_err();
    assert_eq!(again.to_string(), e.to_string());
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    assert_eq!(llm.usage().total.cache_hits, 1);
}

#[tokio::test]
async fn truncated_and_invalid_answers_are_reasked_with_the_error() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(r#"{"n": 6, "wo"#, "length")))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(r#"{"n": "six"}"#, "stop")))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(answer(6))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    let r = llm.structured::<Answer>(&ask(6)).await.unwrap();
    assert_eq!(r.value.n, 6);
    let reqs = server.received_requests().await.unwrap();
    assert_eq!(reqs.len(), 3);
    // The third ask shows the model its invalid answer and says what was wrong.
    let body: Value = serde_json::from_slice(&reqs[2].body).unwrap();
    assert_eq!(body["messages"][2]["content"], r#"{"n": "six"}"#);
    assert!(
        body["messages"][3]["content"]
            .as_str()
            .unwrap()
            .contains("does not match the schema")
    );
    assert_eq!(body["max_tokens"], 512);
    let u = llm.usage().total;
    assert_eq!((u.calls, u.rejected, u.prompt_tokens), (3, 0, 30));
}

#[tokio::test]
async fn a_refused_key_stops_at_once_naming_the_provider_not_the_key() {
    let server = MockServer::start().await;
    let echo = json!({"error": {"message": format!("Incorrect API key provided: {KEY}")}});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_json(echo.clone()))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    let e = llm.structured::<Answer>(&ask(7)).await.unwrap_err();
    assert!(e.is_fatal(), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("openai-compatible") && msg.contains("401"), "{msg}");
    assert_eq!(server.received_requests().await.unwrap().len(), 1);

    // Anthropic, through the same executor.
    let anthropic = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(401).set_body_json(echo))
        .mount(&anthropic)
        .await;
    let config = ConfigFile::parse(
        &format!("[llm]\nbase_url = \"{}/v1\"\n", anthropic.uri()),
        Path::new("ragsynth.toml"),
    )
    .unwrap();
    let llm2 = Llm::connect(
        Some("anthropic:claude-haiku-4-5"),
        LlmSettings {
            config,
            ..settings(dir.path())
        },
    )
    .await
    .unwrap();
    let e2 = llm2.structured::<Answer>(&ask(7)).await.unwrap_err();
    assert!(e2.is_fatal() && e2.to_string().starts_with("anthropic:"), "{e2}");
    assert!(e2.to_string().contains("ANTHROPIC_API_KEY"), "{e2}");
    assert_eq!(
        anthropic.received_requests().await.unwrap()[0].headers["x-api-key"],
        KEY
    );
    assert_no_key(
        dir.path(),
        &[msg, format!("{e:?}"), e2.to_string(), format!("{e2:?}")],
    );
}

#[tokio::test]
async fn anthropic_answers_through_the_forced_tool_and_are_priced() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "content": [{"type": "tool_use", "id": "t1", "name": "answer", "input": {"n": 8, "word": "w8"}}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 1000, "output_tokens": 200},
        })))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let config = ConfigFile::parse(
        &format!("[llm]\nbase_url = \"{}/v1\"\n[prices]\n\"anthropic:claude-haiku-4-5\" = {{input = 2.0, output = 10.0}}\n", server.uri()),
        Path::new("ragsynth.toml"),
    )
    .unwrap();
    let llm = Llm::connect(
        Some("anthropic:claude-haiku-4-5"),
        LlmSettings {
            config,
            ..settings(dir.path())
        },
    )
    .await
    .unwrap();
    assert_eq!(llm.id(), "anthropic:claude-haiku-4-5");
    let r = llm.structured::<Answer>(&ask(8)).await.unwrap();
    assert_eq!(
        r.value,
        Answer {
            n: 8,
            word: "w8".into()
        }
    );
    let body: Value = serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    assert_eq!(body["tool_choice"]["name"], "answer");
    let u = llm.usage();
    // 1000 * 2.0 / 1e6 + 200 * 10.0 / 1e6
    assert!((u.total.cost_usd.unwrap() - 0.004).abs() < 1e-12, "{u:?}");
    assert_eq!(u.by_tag["test"].prompt_tokens, 1000);
    assert_no_key(dir.path(), &[serde_json::to_string(&u).unwrap()]);
}

#[tokio::test]
async fn journaled_answers_are_replayed_unless_no_cache() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(answer(9))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = connect(&server, dir.path()).await;
    assert!(!llm.structured::<Answer>(&ask(9)).await.unwrap().cached);
    // A new handle (a rerun) replays from disk.
    let again = connect(&server, dir.path()).await;
    let r = again.structured::<Answer>(&ask(9)).await.unwrap();
    // Asked first in this run: a replay, not a repeat.
    assert!(r.cached && !r.repeat && r.value.n == 9);
    assert_eq!(again.usage().total.cache_hits, 1);
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
    let uncached = Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        LlmSettings {
            no_cache: true,
            ..settings(dir.path())
        },
    )
    .await
    .unwrap();
    assert!(!uncached.structured::<Answer>(&ask(9)).await.unwrap().cached);
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

/// Fails about 30% of requests with a transient fault (500, 502, 503, 429, a hang), decided by a
/// fixed pseudo-random sequence; answers the rest according to the item asked about.
struct Flaky {
    seen: AtomicUsize,
    failed: AtomicUsize,
}

impl Respond for Flaky {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let i = self.seen.fetch_add(1, Ordering::SeqCst) as u64;
        let roll = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) % 100;
        if roll < 30 {
            self.failed.fetch_add(1, Ordering::SeqCst);
            return match roll % 5 {
                0 => ResponseTemplate::new(500),
                1 => ResponseTemplate::new(502),
                2 => ResponseTemplate::new(503),
                3 => ResponseTemplate::new(429).insert_header("retry-after", "0"),
                _ => answer(item_of(req)).set_delay(Duration::from_secs(5)),
            };
        }
        answer(item_of(req))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_requests_with_thirty_percent_failures_each_answered_once() {
    let server = MockServer::start().await;
    let flaky = Flaky {
        seen: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
    };
    Mock::given(method("POST"))
        .respond_with(flaky)
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let llm = Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        LlmSettings {
            concurrency: Some(16),
            max_retries: Some(10),
            ..settings(dir.path())
        },
    )
    .await
    .unwrap();
    let tasks: Vec<_> = (0..200u64)
        .map(|i| {
            let llm = llm.clone();
            tokio::spawn(async move { (i, llm.structured::<Answer>(&ask(i)).await) })
        })
        .collect();
    for t in tasks {
        let (i, r) = t.await.unwrap();
        assert_eq!(
            r.unwrap().value,
            Answer {
                n: i,
                word: format!("w{i}")
            }
        );
    }
    let received = server.received_requests().await.unwrap().len();
    let u = llm.usage().total;
    assert_eq!(u.calls, 200);
    assert_eq!(u.retries as usize, received - 200, "every failure retried once");
    assert!(u.retries >= 40, "the stub should have failed ~30%: {}", u.retries);

    let journal = std::fs::read_to_string(dir.path().join("journal.jsonl")).unwrap();
    let mut keys = std::collections::HashSet::new();
    let mut items = std::collections::BTreeSet::new();
    for line in journal.lines() {
        let e: Value = serde_json::from_str(line).unwrap();
        assert!(
            keys.insert(e["key"].as_str().unwrap().to_string()),
            "duplicate journal key"
        );
        items.insert(e["value"]["n"].as_u64().unwrap());
    }
    assert_eq!(keys.len(), 200);
    assert_eq!(items, (0..200).collect());
    assert_no_key(dir.path(), &[serde_json::to_string(&u).unwrap()]);
    // wiremock checks its mocks when the server is dropped, blocking on a tokio lock. Dropped at
    // the end of this task's poll, after 200 awaits spent tokio's cooperative budget, the lock
    // answers "not yet" and wakes the blocked thread forever (the test spun once in CI). On a
    // blocking thread there is no budget to run out of.
    tokio::task::spawn_blocking(move || drop(server)).await.unwrap();
}
