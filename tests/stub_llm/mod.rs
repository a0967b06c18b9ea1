//! A stub OpenAI-compatible server for tests that run `generate` or `audit --llm` without a
//! model: it fills in whatever reply schema a request asks for — a question about each fact the
//! prompt shows, neighbours no corpus names, every question judged unanswerable, every answer
//! supported, the answers judge copying the whole sentence — and answers each request after a
//! fixed delay (so a command can be caught while it runs). The quality of the questions is not
//! the point here. `batch` serves the same answers through the providers' batch APIs.

#![allow(dead_code)]

pub mod batch;

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

/// The text after `label` and the first `: ` on the line of `user` that starts with `label`.
fn line<'a>(user: &'a str, label: &str) -> &'a str {
    user.lines()
        .find_map(|l| {
            l.strip_prefix(label)
                .and_then(|r| r.split_once(": "))
                .map(|(_, t)| t)
        })
        .unwrap_or("")
        .trim()
}

fn head(s: &str, n: usize) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The reply a schema with these properties asks for.
pub fn reply(props: &[&str], user: &str) -> Value {
    if props.contains(&"answer_text") {
        // The answers judge copies the sentence it is shown (the whole of it: the stub's
        // answers are whole facts); the refusal judge sees none and copies nothing.
        let sentence = user
            .split_once("<sentence>\n")
            .and_then(|(_, rest)| rest.split_once("\n</sentence>"))
            .map_or("", |(s, _)| s);
        return json!({"answer_text": sentence});
    }
    if props.contains(&"supported") {
        return json!({"supported": true});
    }
    if props.contains(&"answerable") {
        return json!({"answerable": false});
    }
    if props.contains(&"others") {
        return json!({"others": ["Zephyrvault Cloud", "Quillstore", "Embercache"]});
    }
    if props.contains(&"thing_a") {
        let (a, b) = (line(user, "Fact A"), line(user, "Fact B"));
        return json!({
            "thing_a": head(a, 2), "value_a": head(a, 4), "thing_b": head(b, 2), "value_b": head(b, 4),
            "question": format!("how do {} and {} differ?", head(a, 2), head(b, 2)),
            "answer": format!("{}; {}", head(a, 4), head(b, 4)),
        });
    }
    if props.contains(&"described") {
        let fact = line(user, "Fact");
        return json!({"question": format!("what is {}?", head(fact, 4)), "described": format!("the one in {}", head(fact, 3)), "described_again": format!("the one that {}", head(fact, 3))});
    }
    let mut out = serde_json::Map::new();
    for key in props.iter().filter(|k| k.starts_with("question_")) {
        let n = &key["question_".len()..];
        let fact = line(user, &format!("Fact {n}"));
        let about = user
            .lines()
            .find(|l| l.starts_with(&format!("Fact {n} (ask about ")))
            .and_then(|l| l.split_once("(ask about ")?.1.split_once(')'))
            .map(|(x, _)| x.to_string());
        // Three words of the fact at most: four are a copy generate turns away, as RS101 flags.
        let q = match about {
            Some(x) => format!("how is {x} used with {}?", head(fact, 3)),
            None => format!("which {} matters here?", head(fact, 3)),
        };
        out.insert(key.to_string(), json!(q));
        out.insert(format!("search_{n}"), json!(head(fact, 3)));
        out.insert(format!("answer_{n}"), json!(fact));
    }
    Value::Object(out)
}

impl Respond for Answers {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let user = body["messages"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default();
        let props: Vec<&str> = body["response_format"]["json_schema"]["schema"]["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let out = reply(&props, user);
        let completion = json!({
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": out.to_string()}}],
            "usage": {"prompt_tokens": user.len() / 4, "completion_tokens": 20},
        });
        ResponseTemplate::new(200)
            .set_body_json(completion)
            .set_delay(self.delay)
    }
}

/// Writes `judge-calibration.json` into `dir` saying `judges` of each of `models` agree with
/// people (κ 0.9): a set in `dir` then runs them (a judge nobody measured does not run).
pub fn trust(dir: &std::path::Path, models: &[&str], judges: &[&str]) {
    let prompts = ragsynth::prompts::Prompts::load(None).unwrap();
    let records: Vec<Value> = models
        .iter()
        .flat_map(|m| judges.iter().map(move |j| (m, j)))
        .map(|(model, judge)| {
            json!({"judge": judge, "model": model, "prompt": prompts.id(&format!("judge_{judge}")),
                "n": 60, "accuracy": 0.95, "kappa": 0.9, "measured": "2026-12-07T00:00:00Z", "marks": "test"})
        })
        .collect();
    std::fs::write(
        dir.join("judge-calibration.json"),
        json!({"ragsynth_calibration": 1, "records": records}).to_string(),
    )
    .unwrap();
}
