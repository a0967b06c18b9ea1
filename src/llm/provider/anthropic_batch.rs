//! Anthropic Message Batches: the requests go inline in one `POST /messages/batches`
//! (`{requests: [{custom_id, params}]}`, `params` being the Messages body the online path
//! sends), the batch is polled (`GET /messages/batches/{id}`: `processing_status`,
//! `request_counts`), and once `ended` its `results_url` serves one JSON line per request,
//! `{custom_id, result: {type: succeeded | errored | canceled | expired, ...}}`, in no
//! particular order. A custom id is at most 64 letters, digits, `-` or `_`.

use serde_json::{Value, json};

use super::{BatchLine, BatchState, BatchStatus, HttpRequest, LineOutcome, classify};

/// `POST {base}/messages/batches` with every request inline.
pub(crate) fn create(base_url: &str, lines: &[BatchLine]) -> HttpRequest {
    let requests: Vec<Value> = lines
        .iter()
        .map(|l| json!({"custom_id": l.custom_id, "params": l.body}))
        .collect();
    HttpRequest {
        url: format!("{}/messages/batches", base_url.trim_end_matches('/')),
        headers: vec![
            ("content-type", "application/json".to_string()),
            ("anthropic-version", super::anthropic::VERSION.to_string()),
        ],
        body: json!({ "requests": requests }),
    }
}

/// `GET {base}/messages/batches/{id}`.
pub(crate) fn retrieve_url(base_url: &str, id: &str) -> String {
    format!("{}/messages/batches/{id}", base_url.trim_end_matches('/'))
}

/// A message batch object (from create or retrieve).
pub(crate) fn parse_batch(body: &[u8]) -> Result<BatchStatus, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("batch reply is not JSON: {e}"))?;
    let id = v["id"].as_str().ok_or("batch reply has no id")?.to_string();
    let count = |k: &str| v["request_counts"][k].as_u64().unwrap_or(0);
    let (succeeded, errored, canceled, expired) = (
        count("succeeded"),
        count("errored"),
        count("canceled"),
        count("expired"),
    );
    let state = match v["processing_status"].as_str().unwrap_or("") {
        "in_progress" | "canceling" => BatchState::Running,
        "ended" => BatchState::Ended,
        other => return Err(format!("batch {id} has an unknown processing_status `{other}`")),
    };
    Ok(BatchStatus {
        id,
        state,
        total: count("processing") + succeeded + errored + canceled + expired,
        done: succeeded,
        failed: errored + canceled + expired,
        results: v["results_url"]
            .as_str()
            .map(str::to_string)
            .into_iter()
            .collect(),
    })
}

/// The lines of the results file.
pub(crate) fn parse_results(body: &[u8]) -> Vec<(String, LineOutcome)> {
    body.split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .filter_map(|v| {
            let id = v["custom_id"].as_str()?.to_string();
            let r = &v["result"];
            let outcome = match r["type"].as_str().unwrap_or("") {
                "succeeded" => {
                    LineOutcome::Body(serde_json::to_vec(&r["message"]).expect("a JSON value serializes"))
                }
                "errored" => {
                    // An invalid request is the request's fault; anything else (overloaded,
                    // an API error) is worth another batch.
                    let kind = r["error"]["error"]["type"]
                        .as_str()
                        .or(r["error"]["type"].as_str())
                        .unwrap_or("");
                    let status = if kind == "invalid_request_error" { 400 } else { 500 };
                    let body = serde_json::to_vec(&r["error"]).unwrap_or_default();
                    LineOutcome::Failed(classify(status, None, &body, None))
                }
                other => LineOutcome::Retry(format!("the request was {other} before it ran")),
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
    fn requests_go_inline_with_the_version_header() {
        let lines = [BatchLine {
            custom_id: "a1".into(),
            body: json!({"model": "claude", "max_tokens": 16}),
        }];
        let r = create("https://h/v1", &lines);
        assert_eq!(r.url, "https://h/v1/messages/batches");
        assert_eq!(
            r.body,
            json!({"requests": [{"custom_id": "a1", "params": {"model": "claude", "max_tokens": 16}}]})
        );
        assert!(r.headers.iter().any(|(k, _)| *k == "anthropic-version"));
        assert_eq!(
            retrieve_url("https://h/v1/", "mb_1"),
            "https://h/v1/messages/batches/mb_1"
        );
    }

    #[test]
    fn states_counts_and_results() {
        let s = parse_batch(br#"{"id": "mb_1", "processing_status": "in_progress", "request_counts": {"processing": 3, "succeeded": 1, "errored": 0, "canceled": 0, "expired": 0}, "results_url": null}"#).unwrap();
        assert_eq!(
            (s.state, s.total, s.done, s.results.len()),
            (BatchState::Running, 4, 1, 0)
        );
        let s = parse_batch(br#"{"id": "mb_1", "processing_status": "ended", "request_counts": {"processing": 0, "succeeded": 3, "errored": 0, "canceled": 0, "expired": 1}, "results_url": "https://h/v1/messages/batches/mb_1/results"}"#).unwrap();
        assert_eq!((s.state, s.failed), (BatchState::Ended, 1));
        assert_eq!(s.results, ["https://h/v1/messages/batches/mb_1/results"]);
        let lines = br#"{"custom_id": "b", "result": {"type": "succeeded", "message": {"content": []}}}
{"custom_id": "a", "result": {"type": "expired"}}
{"custom_id": "c", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: too large"}}}}
{"custom_id": "d", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}}}
"#;
        let r = parse_results(lines);
        assert!(matches!(&r[0], (id, LineOutcome::Body(b)) if id == "b" && b == br#"{"content":[]}"#));
        assert!(matches!(&r[1], (id, LineOutcome::Retry(m)) if id == "a" && m.contains("expired")));
        assert!(matches!(&r[2], (_, LineOutcome::Failed(Failure::Fatal(m))) if m.contains("max_tokens")));
        assert!(matches!(
            &r[3],
            (_, LineOutcome::Failed(Failure::Transient { .. }))
        ));
    }
}
