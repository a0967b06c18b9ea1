//! The providers' batch APIs as a local server (real ones cost money): OpenAI's (`POST /v1/files`
//! multipart upload, `POST /v1/batches`, `GET /v1/batches/{id}`, `GET /v1/files/{id}/content`)
//! and Anthropic's Message Batches (`POST /v1/messages/batches`, `GET
//! /v1/messages/batches/{id}`, its `results_url`), as their documentation describes them. A
//! batch runs for `ready_after`, its counts growing, then ends with its results in reverse
//! order (out of order, as both APIs warn), answered as the online stub answers; the very
//! first request of the first batch expires instead (OpenAI: in the error file with
//! `batch_expired`; Anthropic: `expired`), once. Every request id submitted is recorded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Which API the stub speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    OpenAi,
    Anthropic,
}

#[derive(Default)]
struct State {
    files: HashMap<String, Vec<u8>>,
    /// id → (created, lines `{custom_id, body}`).
    batches: HashMap<String, (Instant, Vec<(String, Value)>)>,
    /// Every request id submitted, in order, with its batch.
    submitted: Vec<(String, String)>,
    expired: Option<String>,
    /// Keys seen in the auth headers.
    keys: Vec<String>,
}

pub struct BatchStub {
    pub server: MockServer,
    state: Arc<Mutex<State>>,
    flavor: Flavor,
}

struct Api {
    state: Arc<Mutex<State>>,
    ready_after: Duration,
    flavor: Flavor,
    uri: Arc<Mutex<String>>,
}

impl BatchStub {
    pub async fn start(flavor: Flavor, ready_after: Duration) -> BatchStub {
        let server = MockServer::start().await;
        let state = Arc::new(Mutex::new(State::default()));
        Mock::given(any())
            .respond_with(Api {
                state: state.clone(),
                ready_after,
                flavor,
                uri: Arc::new(Mutex::new(server.uri())),
            })
            .mount(&server)
            .await;
        BatchStub {
            server,
            state,
            flavor,
        }
    }

    /// The `--llm` value for an OpenAI-compatible server here.
    pub fn spec(&self) -> String {
        assert_eq!(self.flavor, Flavor::OpenAi);
        format!("openai-compatible:stub@{}/v1", self.server.uri())
    }

    /// Batches created so far.
    pub fn batches(&self) -> usize {
        self.state.lock().unwrap().batches.len()
    }

    /// Every request id submitted, in order.
    pub fn submitted(&self) -> Vec<String> {
        self.state
            .lock()
            .unwrap()
            .submitted
            .iter()
            .map(|(_, id)| id.clone())
            .collect()
    }

    /// The request that expired, once any did.
    pub fn expired(&self) -> Option<String> {
        self.state.lock().unwrap().expired.clone()
    }

    /// API keys the requests carried.
    pub fn keys(&self) -> Vec<String> {
        self.state.lock().unwrap().keys.clone()
    }

    /// HTTP requests of any kind received so far.
    pub async fn requests(&self) -> usize {
        self.server.received_requests().await.map_or(0, |r| r.len())
    }
}

fn json_reply(v: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(v)
}

/// The file part of a `multipart/form-data` body.
fn file_part(req: &Request) -> Vec<u8> {
    let ct = req
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let boundary = ct.split("boundary=").nth(1).unwrap_or("").trim_matches('"');
    let body = String::from_utf8_lossy(&req.body);
    for part in body.split(&format!("--{boundary}")) {
        if part.contains("name=\"file\"")
            && let Some((_, content)) = part.split_once("\r\n\r\n")
        {
            return content.trim_end_matches("\r\n").as_bytes().to_vec();
        }
    }
    Vec::new()
}

/// The online stub's answer to one request body, in the flavor's response shape.
fn answer(flavor: Flavor, body: &Value) -> Value {
    let user = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default();
    let schema = match flavor {
        Flavor::OpenAi => &body["response_format"]["json_schema"]["schema"],
        Flavor::Anthropic => &body["tools"][0]["input_schema"],
    };
    let props: Vec<&str> = schema["properties"]
        .as_object()
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let out = super::reply(&props, user);
    match flavor {
        Flavor::OpenAi => json!({
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": out.to_string()}}],
            "usage": {"prompt_tokens": user.len() / 4, "completion_tokens": 20},
        }),
        Flavor::Anthropic => json!({
            "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "answer", "input": out}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": user.len() / 4, "output_tokens": 20},
        }),
    }
}

impl Api {
    fn create(&self, lines: Vec<(String, Value)>) -> (String, usize) {
        let mut st = self.state.lock().unwrap();
        let id = match self.flavor {
            Flavor::OpenAi => format!("batch_{}", st.batches.len() + 1),
            Flavor::Anthropic => format!("msgbatch_{}", st.batches.len() + 1),
        };
        if st.expired.is_none() {
            st.expired = lines.first().map(|(cid, _)| cid.clone());
        }
        for (cid, _) in &lines {
            st.submitted.push((id.clone(), cid.clone()));
        }
        let n = lines.len();
        st.batches.insert(id.clone(), (Instant::now(), lines));
        (id, n)
    }

    /// (total, finished so far, ended) of batch `id`.
    fn progress(&self, id: &str) -> Option<(usize, usize, bool)> {
        let st = self.state.lock().unwrap();
        let (created, lines) = st.batches.get(id)?;
        let share = created.elapsed().as_secs_f64() / self.ready_after.as_secs_f64().max(1e-3);
        let ended = share >= 1.0;
        let done = if ended {
            lines.len()
        } else {
            (lines.len() as f64 * share * 0.9) as usize
        };
        Some((lines.len(), done, ended))
    }

    /// Results of ended batch `id`, reversed: (custom id, answer body or `None` if it expired).
    fn results(&self, id: &str) -> Vec<(String, Option<Value>)> {
        let st = self.state.lock().unwrap();
        let Some((_, lines)) = st.batches.get(id) else {
            return Vec::new();
        };
        let first_batch = id.ends_with("_1");
        lines
            .iter()
            .rev()
            .map(|(cid, body)| {
                let expired = first_batch && st.expired.as_deref() == Some(cid.as_str());
                (cid.clone(), (!expired).then(|| answer(self.flavor, body)))
            })
            .collect()
    }

    fn openai(&self, req: &Request, path: &str) -> ResponseTemplate {
        match (req.method.as_str(), path) {
            ("POST", "/v1/files") => {
                let bytes = file_part(req);
                let mut st = self.state.lock().unwrap();
                let id = format!("file-in-{}", st.files.len() + 1);
                st.files.insert(id.clone(), bytes);
                json_reply(json!({"id": id, "object": "file", "purpose": "batch"}))
            }
            ("POST", "/v1/batches") => {
                let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
                assert_eq!(body["endpoint"], "/v1/chat/completions");
                assert_eq!(body["completion_window"], "24h");
                let file = body["input_file_id"].as_str().unwrap_or("");
                let text = self
                    .state
                    .lock()
                    .unwrap()
                    .files
                    .get(file)
                    .cloned()
                    .unwrap_or_default();
                let lines: Vec<(String, Value)> = text
                    .split(|&b| b == b'\n')
                    .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
                    .map(|v| {
                        assert_eq!(v["method"], "POST");
                        (v["custom_id"].as_str().unwrap().to_string(), v["body"].clone())
                    })
                    .collect();
                let (id, n) = self.create(lines);
                json_reply(
                    json!({"id": id, "object": "batch", "status": "validating", "request_counts": {"total": n, "completed": 0, "failed": 0}}),
                )
            }
            ("GET", p) if p.starts_with("/v1/batches/") => {
                let id = &p["/v1/batches/".len()..];
                let Some((total, done, ended)) = self.progress(id) else {
                    return ResponseTemplate::new(404);
                };
                if !ended {
                    return json_reply(
                        json!({"id": id, "object": "batch", "status": "in_progress", "request_counts": {"total": total, "completed": done, "failed": 0}}),
                    );
                }
                let (mut out, mut err, mut failed) = (String::new(), String::new(), 0);
                for (cid, answer) in self.results(id) {
                    match answer {
                        Some(body) => out.push_str(&format!(
                            "{}\n",
                            json!({"id": format!("r-{cid}"), "custom_id": cid, "response": {"status_code": 200, "request_id": "x", "body": body}, "error": null})
                        )),
                        None => {
                            failed += 1;
                            err.push_str(&format!(
                                "{}\n",
                                json!({"id": format!("r-{cid}"), "custom_id": cid, "response": null, "error": {"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}})
                            ));
                        }
                    }
                }
                let mut st = self.state.lock().unwrap();
                let (o, e) = (format!("file-out-{id}"), format!("file-err-{id}"));
                st.files.insert(o.clone(), out.into_bytes());
                let mut reply = json!({"id": id, "object": "batch", "status": "completed", "output_file_id": o,
                    "request_counts": {"total": total, "completed": total - failed, "failed": failed}});
                if failed > 0 {
                    st.files.insert(e.clone(), err.into_bytes());
                    reply["error_file_id"] = json!(e);
                }
                json_reply(reply)
            }
            ("GET", p) if p.starts_with("/v1/files/") && p.ends_with("/content") => {
                let id = &p["/v1/files/".len()..p.len() - "/content".len()];
                match self.state.lock().unwrap().files.get(id) {
                    Some(bytes) => ResponseTemplate::new(200).set_body_bytes(bytes.clone()),
                    None => ResponseTemplate::new(404),
                }
            }
            _ => ResponseTemplate::new(404),
        }
    }

    fn anthropic(&self, req: &Request, path: &str) -> ResponseTemplate {
        let uri = self.uri.lock().unwrap().clone();
        assert!(
            req.headers.get("anthropic-version").is_some(),
            "{path}: no anthropic-version"
        );
        match (req.method.as_str(), path) {
            ("POST", "/v1/messages/batches") => {
                let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
                let lines: Vec<(String, Value)> = body["requests"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|r| (r["custom_id"].as_str().unwrap().to_string(), r["params"].clone()))
                    .collect();
                for (cid, _) in &lines {
                    assert!(
                        cid.len() <= 64
                            && cid
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    );
                }
                let (id, n) = self.create(lines);
                json_reply(
                    json!({"id": id, "type": "message_batch", "processing_status": "in_progress",
                    "request_counts": {"processing": n, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0},
                    "results_url": null}),
                )
            }
            ("GET", p) if p.starts_with("/v1/messages/batches/") && p.ends_with("/results") => {
                let id = &p["/v1/messages/batches/".len()..p.len() - "/results".len()];
                let mut out = String::new();
                for (cid, answer) in self.results(id) {
                    let result = match answer {
                        Some(message) => json!({"type": "succeeded", "message": message}),
                        None => json!({"type": "expired"}),
                    };
                    out.push_str(&format!("{}\n", json!({"custom_id": cid, "result": result})));
                }
                ResponseTemplate::new(200).set_body_bytes(out.into_bytes())
            }
            ("GET", p) if p.starts_with("/v1/messages/batches/") => {
                let id = &p["/v1/messages/batches/".len()..];
                let Some((total, done, ended)) = self.progress(id) else {
                    return ResponseTemplate::new(404);
                };
                let expired = if ended {
                    self.results(id).iter().filter(|(_, a)| a.is_none()).count()
                } else {
                    0
                };
                json_reply(json!({"id": id, "type": "message_batch",
                    "processing_status": if ended { "ended" } else { "in_progress" },
                    "request_counts": {"processing": total - done, "succeeded": done - expired, "errored": 0, "canceled": 0, "expired": expired},
                    "results_url": if ended { json!(format!("{uri}/v1/messages/batches/{id}/results")) } else { Value::Null }}))
            }
            _ => ResponseTemplate::new(404),
        }
    }
}

impl Respond for Api {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let key = req
            .headers
            .get("authorization")
            .or_else(|| req.headers.get("x-api-key"))
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim_start_matches("Bearer ").to_string());
        if let Some(k) = key {
            self.state.lock().unwrap().keys.push(k);
        }
        let path = req.url.path().to_string();
        match self.flavor {
            Flavor::OpenAi => self.openai(req, &path),
            Flavor::Anthropic => self.anthropic(req, &path),
        }
    }
}
