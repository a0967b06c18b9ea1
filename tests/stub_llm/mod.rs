//! A stub OpenAI-compatible server for tests that run `generate` or `audit --llm` without a
//! model: it asks a question about the key sentence each prompt shows, judges every question
//! unanswerable and every answer supported, and answers each request after a fixed delay (so a
//! command can be caught while it runs). The quality of the questions is not the point here.

#![allow(dead_code)]

use std::time::Duration;

use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub struct Stub {
    pub server: MockServer,
}

impl Stub {
    pub async fn start(delay: Duration) -> Stub {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(Answers { delay })
            .mount(&server)
            .await;
        Stub { server }
    }

    /// The `--llm` value that points at this stub.
    pub fn spec(&self) -> String {
        format!("openai-compatible:stub@{}/v1", self.server.uri())
    }

    /// Requests received so far.
    pub async fn requests(&self) -> usize {
        self.server.received_requests().await.map_or(0, |r| r.len())
    }

    /// Waits until at least `n` requests arrived (or `limit` passed).
    pub async fn wait_for(&self, n: usize, limit: Duration) {
        let started = std::time::Instant::now();
        while self.requests().await < n && started.elapsed() < limit {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

struct Answers {
    delay: Duration,
}

/// The text after `label: ` on its own line of `user`.
fn line<'a>(user: &'a str, label: &str) -> &'a str {
    user.lines()
        .find_map(|l| l.strip_prefix(label).and_then(|r| r.strip_prefix(": ")))
        .unwrap_or("")
        .trim()
}

fn head(s: &str, n: usize) -> String {
    s.split_whitespace()
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl Respond for Answers {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let user = body["messages"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default();
        let out = if user.contains("supported:") {
            json!({"supported": true})
        } else if user.contains("answerable:") {
            json!({"answerable": false})
        } else if user.contains("Sentence A:") {
            let (a, b) = (line(user, "Sentence A"), line(user, "Sentence B"));
            json!({"question": format!("how do {} and {} relate?", head(a, 4), head(b, 4)), "answer": a})
        } else if user.contains("does NOT answer") {
            json!({"question": format!("is there a limit on {} per region?", head(line(user, "Key sentence"), 5))})
        } else {
            let q = line(user, "Key sentence");
            json!({"question": format!("what about {}?", head(q, 7)), "answer": q})
        };
        let completion = json!({
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": out.to_string()}}],
            "usage": {"prompt_tokens": user.len() / 4, "completion_tokens": 20},
        });
        ResponseTemplate::new(200)
            .set_body_json(completion)
            .set_delay(self.delay)
    }
}
