//! Benchmarks of the LLM executor against a stub server with a fixed 200 ms latency, run by
//! `scripts/bench-llm.sh` (ignored in the normal test run). Figures are printed, with the ideal
//! and a bare-HTTP baseline measured in the same run.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use futures::StreamExt;
use ragsynth::llm::{ChatRequest, Llm, LlmSettings};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const LATENCY: Duration = Duration::from_millis(200);

#[derive(Debug, Deserialize, JsonSchema)]
struct Answer {
    #[allow(dead_code, reason = "parsed to measure the full path")]
    n: u64,
}

/// Answers every request after `LATENCY`, noting when each arrived.
struct Stub {
    arrivals: std::sync::Arc<Mutex<Vec<Instant>>>,
}

impl Respond for Stub {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        self.arrivals.lock().unwrap().push(Instant::now());
        ResponseTemplate::new(200)
            .set_body_json(json!({
                "choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": "{\"n\": 1}"}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 3},
            }))
            .set_delay(LATENCY)
    }
}

async fn stub() -> (MockServer, std::sync::Arc<Mutex<Vec<Instant>>>) {
    let server = MockServer::start().await;
    let arrivals = std::sync::Arc::new(Mutex::new(Vec::new()));
    Mock::given(method("POST"))
        .respond_with(Stub {
            arrivals: arrivals.clone(),
        })
        .mount(&server)
        .await;
    (server, arrivals)
}

async fn run(llm: &Llm, n: usize, in_flight: usize) -> Duration {
    let t = Instant::now();
    let answered = futures::stream::iter(0..n)
        .map(|i| {
            let llm = llm.clone();
            async move {
                let req = ChatRequest::new("bench", "Answer with JSON.", format!("item {i}"));
                llm.structured::<Answer>(&req).await.unwrap()
            }
        })
        .buffer_unordered(in_flight)
        .count()
        .await;
    assert_eq!(answered, n);
    t.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run scripts/bench-llm.sh"]
async fn bench_throughput_at_concurrency_16() {
    let (n, conc) = (400usize, 16usize);
    let (server, _) = stub().await;
    let url = format!("{}/v1/chat/completions", server.uri());

    // Baseline: bare reqwest, same concurrency, no retries/limits/journal/parsing.
    let http = reqwest::Client::new();
    let t = Instant::now();
    futures::stream::iter(0..n)
        .map(|_| {
            let (http, url) = (http.clone(), url.clone());
            async move {
                http.post(url)
                    .json(&json!({}))
                    .send()
                    .await
                    .unwrap()
                    .bytes()
                    .await
                    .unwrap()
            }
        })
        .buffer_unordered(conc)
        .count()
        .await;
    let bare = t.elapsed();

    let cache = tempfile::tempdir().unwrap();
    let llm = Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        LlmSettings {
            concurrency: Some(conc),
            cache_dir: Some(cache.path().to_path_buf()),
            ..LlmSettings::default()
        },
    )
    .await
    .unwrap();
    // Callers keep more in flight than the limit; the executor's semaphore holds it at 16.
    let took = run(&llm, n, 64).await;
    let ideal = LATENCY.as_secs_f64() * n as f64 / conc as f64;
    println!(
        "throughput: {n} requests, concurrency {conc}, 200 ms latency: {:.2} s; ideal {ideal:.2} s (ratio {:.3}); bare reqwest {:.2} s (ratio {:.3})",
        took.as_secs_f64(),
        took.as_secs_f64() / ideal,
        bare.as_secs_f64(),
        bare.as_secs_f64() / ideal
    );
    assert!(
        took.as_secs_f64() >= ideal * 0.99,
        "more than {conc} requests were in flight"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run scripts/bench-llm.sh"]
async fn bench_rpm_limit() {
    let (n, rpm) = (121usize, 1200u32);
    let (server, arrivals) = stub().await;
    let cache = tempfile::tempdir().unwrap();
    let llm = Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        LlmSettings {
            concurrency: Some(16),
            rpm: Some(rpm),
            cache_dir: Some(cache.path().to_path_buf()),
            ..LlmSettings::default()
        },
    )
    .await
    .unwrap();
    run(&llm, n, 64).await;
    let a = arrivals.lock().unwrap();
    let span = a.last().unwrap().duration_since(a[0]).as_secs_f64();
    let measured = (a.len() - 1) as f64 / span * 60.0;
    // Also the worst full minute-equivalent window: the busiest 20 consecutive arrivals.
    let w = 20;
    let worst = (0..a.len() - w)
        .map(|i| w as f64 / a[i + w].duration_since(a[i]).as_secs_f64() * 60.0)
        .fold(0.0, f64::max);
    println!(
        "rpm limit {rpm}: {n} requests at {measured:.0}/min ({:+.2}% of the limit); busiest {w}-request window {worst:.0}/min ({:+.2}%)",
        (measured / rpm as f64 - 1.0) * 100.0,
        (worst / rpm as f64 - 1.0) * 100.0
    );
    assert!((measured / rpm as f64 - 1.0).abs() < 0.05);
}
