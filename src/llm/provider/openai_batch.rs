//! The OpenAI Batch API (also served by OpenAI-compatible servers that implement it): the
//! requests go up as one JSON Lines file (`POST /files`, purpose `batch`; each line
//! `{custom_id, method, url, body}` with the chat-completions body the online path sends), a
//! batch is created over it (`POST /batches`, `completion_window: 24h`), polled
//! (`GET /batches/{id}`: `status`, `request_counts`), and once it has ended its output and error
//! files are read (`GET /files/{id}/content`): one line per request, `{custom_id, response:
//! {status_code, body}, error}`, in no particular order. Requests the window did not reach come
//! back in the error file with `batch_expired`.

use serde_json::{Value, json};

use super::{BatchLine, BatchState, BatchStatus, HttpRequest, LineOutcome, classify};

/// The endpoint every line of a batch goes to (a path, as the Batch API wants it).
const ENDPOINT: &str = "/v1/chat/completions";

/// The file to upload: one line per request.
pub(crate) fn input_file(lines: &[BatchLine]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        let line = json!({"custom_id": l.custom_id, "method": "POST", "url": ENDPOINT, "body": l.body});
        out.extend(serde_json::to_vec(&line).expect("a JSON value serializes"));
        out.push(b'\n');
    }
    out
}

/// `POST {base}/files`: the multipart form (`purpose=batch`, `file`) is the executor's to build.
pub(crate) fn upload_url(base_url: &str) -> String {
    format!("{}/files", base_url.trim_end_matches('/'))
}

/// The uploaded file's id.
pub(crate) fn parse_file(body: &[u8]) -> Result<String, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("file upload reply is not JSON: {e}"))?;
    v["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| "file upload reply has no id".into())
}

/// `POST {base}/batches` over the uploaded file.
pub(crate) fn create(base_url: &str, file_id: &str) -> HttpRequest {
    HttpRequest {
        url: format!("{}/batches", base_url.trim_end_matches('/')),
        headers: vec![("content-type", "application/json".to_string())],
        body: json!({
            "input_file_id": file_id,
            "endpoint": ENDPOINT,
            "completion_window": "24h",
            "metadata": {"created_by": "ragsynth"},
        }),
    }
}

/// `GET {base}/batches/{id}`.
pub(crate) fn retrieve_url(base_url: &str, id: &str) -> String {
    format!("{}/batches/{id}", base_url.trim_end_matches('/'))
}

/// A batch object (from create or retrieve).
pub(crate) fn parse_batch(base_url: &str, body: &[u8]) -> Result<BatchStatus, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("batch reply is not JSON: {e}"))?;
    let id = v["id"].as_str().ok_or("batch reply has no id")?.to_string();
    let count = |k: &str| v["request_counts"][k].as_u64().unwrap_or(0);
    let files: Vec<String> = ["output_file_id", "error_file_id"]
        .iter()
        .filter_map(|k| v[*k].as_str())
        .map(|f| format!("{}/files/{f}/content", base_url.trim_end_matches('/')))
        .collect();
    let state = match v["status"].as_str().unwrap_or("") {
        "validating" | "in_progress" | "finalizing" | "cancelling" => BatchState::Running,
        // An expired or cancelled batch still delivers what it finished; the rest goes again.
        "completed" | "expired" | "cancelled" => BatchState::Ended,
        "failed" => {
            let why: Vec<&str> = v["errors"]["data"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["message"].as_str())
                .collect();
            BatchState::Failed(if why.is_empty() {
                "the batch failed validation".into()
            } else {
                format!("the batch failed validation: {}", why.join("; "))
            })
        }
        other => return Err(format!("batch {id} has an unknown status `{other}`")),
    };
    Ok(BatchStatus {
        id,
        state,
        total: count("total"),
        done: count("completed"),
        failed: count("failed"),
        results: files,
    })
}

/// The lines of an output or error file.
pub(crate) fn parse_results(body: &[u8]) -> Vec<(String, LineOutcome)> {
    body.split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .filter_map(|v| {
            let id = v["custom_id"].as_str()?.to_string();
            let outcome = match (&v["response"], &v["error"]) {
                (r, _) if r["status_code"].as_u64() == Some(200) => {
                    LineOutcome::Body(serde_json::to_vec(&r["body"]).expect("a JSON value serializes"))
                }
                (r, _) if r.is_object() => {
                    let status = r["status_code"].as_u64().unwrap_or(500) as u16;
                    let body = serde_json::to_vec(&r["body"]).unwrap_or_default();
                    LineOutcome::Failed(classify(status, None, &body, None))
                }
                (_, e) => LineOutcome::Retry(format!(
                    "{}: {}",
                    e["code"].as_str().unwrap_or("error"),
                    e["message"].as_str().unwrap_or("no message")
                )),
            };
            Some((id, outcome))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::error::Failure;
    use super::*;

    #[test]
    fn the_input_file_has_a_line_per_request() {
        let lines = [
            BatchLine {
                custom_id: "a".into(),
                body: json!({"model": "m", "messages": []}),
            },
            BatchLine {
                custom_id: "b".into(),
                body: json!({"model": "m"}),
            },
        ];
        let text = String::from_utf8(input_file(&lines)).unwrap();
        let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(
            first,
            json!({"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m", "messages": []}})
        );
        assert_eq!(text.lines().count(), 2);
        let c = create("http://h/v1/", "file-1");
        assert_eq!(c.url, "http://h/v1/batches");
        assert_eq!(c.body["input_file_id"], "file-1");
        assert_eq!(c.body["completion_window"], "24h");
        assert_eq!(upload_url("http://h/v1"), "http://h/v1/files");
        assert_eq!(
            parse_file(br#"{"id": "file-1", "object": "file"}"#).unwrap(),
            "file-1"
        );
    }

    #[test]
    fn batch_states_and_result_files() {
        let running = parse_batch(
            "http://h/v1",
            br#"{"id": "batch_1", "status": "in_progress", "request_counts": {"total": 4, "completed": 1, "failed": 0}}"#,
        )
        .unwrap();
        assert_eq!(
            (running.state, running.total, running.done),
            (BatchState::Running, 4, 1)
        );
        let done = parse_batch(
            "http://h/v1",
            br#"{"id": "batch_1", "status": "expired", "output_file_id": "f-out", "error_file_id": "f-err", "request_counts": {"total": 4, "completed": 3, "failed": 1}}"#,
        )
        .unwrap();
        assert_eq!(done.state, BatchState::Ended);
        assert_eq!(
            done.results,
            [
                "http://h/v1/files/f-out/content",
                "http://h/v1/files/f-err/content"
            ]
        );
        let failed = parse_batch(
            "http://h/v1",
            br#"{"id": "b", "status": "failed", "errors": {"data": [{"message": "bad model"}]}}"#,
        )
        .unwrap();
        assert!(matches!(failed.state, BatchState::Failed(m) if m.contains("bad model")));
        assert!(parse_batch("http://h", br#"{"id": "b", "status": "weird"}"#).is_err());
    }

    #[test]
    fn result_lines_sort_into_answers_retries_and_failures() {
        let file = br#"{"id": "r1", "custom_id": "b", "response": {"status_code": 200, "body": {"choices": []}}, "error": null}
{"id": "r2", "custom_id": "a", "response": null, "error": {"code": "batch_expired", "message": "not reached"}}
{"id": "r3", "custom_id": "c", "response": {"status_code": 400, "body": {"error": {"message": "bad schema"}}}, "error": null}
{"id": "r4", "custom_id": "d", "response": {"status_code": 429, "body": {}}, "error": null}
not json
"#;
        let r = parse_results(file);
        assert_eq!(r.len(), 4);
        assert!(matches!(&r[0], (id, LineOutcome::Body(b)) if id == "b" && b == br#"{"choices":[]}"#));
        assert!(matches!(&r[1], (id, LineOutcome::Retry(m)) if id == "a" && m.contains("batch_expired")));
        assert!(matches!(&r[2], (_, LineOutcome::Failed(Failure::Fatal(m))) if m.contains("bad schema")));
        assert!(matches!(
            &r[3],
            (_, LineOutcome::Failed(Failure::Transient { .. }))
        ));
    }
}
