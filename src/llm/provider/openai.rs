//! OpenAI chat completions, also spoken by vLLM, Ollama, llama.cpp's server and LM Studio.
//! Structured output goes in `response_format: {type: json_schema}`; llama-server turns the
//! schema into a grammar, so even a tiny model answers with valid JSON.

use serde_json::{Value, json};

use super::{Completion, HttpRequest, Prompt, wire_schema};

pub(crate) fn build(base_url: &str, p: &Prompt<'_>, completion_tokens_field: bool) -> HttpRequest {
    let mut messages = vec![json!({"role": "system", "content": p.system})];
    messages.extend(
        p.messages
            .iter()
            .map(|m| json!({"role": m.role.as_str(), "content": m.content})),
    );
    let (schema, strict) = wire_schema(p.schema);
    let mut body = json!({
        "model": p.model,
        "messages": messages,
        "temperature": p.temperature,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "answer", "strict": strict, "schema": schema},
        },
    });
    let tokens_field = if completion_tokens_field {
        "max_completion_tokens"
    } else {
        "max_tokens"
    };
    body[tokens_field] = json!(p.max_tokens);
    if let Some(seed) = p.seed {
        body["seed"] = json!(seed);
    }
    HttpRequest {
        url: super::join(base_url, "chat/completions"),
        headers: vec![("content-type", "application/json".to_string())],
        body,
    }
}

pub(crate) fn parse(body: &[u8]) -> Result<Completion, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("response body is not JSON: {e}"))?;
    let choice = v.pointer("/choices/0").ok_or("response has no choices[0]")?;
    let message = choice.get("message").ok_or("choices[0] has no message")?;
    let text = match message.get("content").and_then(Value::as_str) {
        Some(t) => t.to_string(),
        None => {
            let refusal = message
                .get("refusal")
                .and_then(Value::as_str)
                .unwrap_or("no content");
            return Err(format!("model gave no answer: {refusal}"));
        }
    };
    let usage = |k: &str| {
        v.pointer(&format!("/usage/{k}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(Completion {
        text,
        truncated: choice.get("finish_reason").and_then(Value::as_str) == Some("length"),
        prompt_tokens: usage("prompt_tokens"),
        completion_tokens: usage("completion_tokens"),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Message, Role};
    use super::*;

    fn prompt<'a>(messages: &'a [Message], schema: &'a Value) -> Prompt<'a> {
        Prompt {
            model: "gpt-4o-mini",
            system: "sys",
            messages,
            schema,
            max_tokens: 100,
            temperature: 0.0,
            seed: Some(7),
        }
    }

    #[test]
    fn request_carries_schema_limits_and_conversation() {
        let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
        let msgs = [
            Message {
                role: Role::User,
                content: "ask".into(),
            },
            Message {
                role: Role::Assistant,
                content: "{bad".into(),
            },
            Message {
                role: Role::User,
                content: "fix it".into(),
            },
        ];
        let r = build("http://h/v1/", &prompt(&msgs, &schema), false);
        assert_eq!(r.url, "http://h/v1/chat/completions");
        assert_eq!(r.body["max_tokens"], 100);
        assert_eq!(r.body["seed"], 7);
        assert_eq!(r.body["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(r.body["messages"][2]["role"], "assistant");
        assert_eq!(r.body["messages"].as_array().unwrap().len(), 4);
        let rf = &r.body["response_format"];
        assert_eq!(rf["type"], "json_schema");
        assert_eq!(rf["json_schema"]["strict"], false);
        assert!(rf["json_schema"]["schema"].get("$schema").is_none());
        let r = build("http://h/v1", &prompt(&msgs, &schema), true);
        assert_eq!(r.body["max_completion_tokens"], 100);
        assert!(r.body.get("max_tokens").is_none());
        assert!(r.headers.iter().all(|(k, _)| *k != "authorization"));
    }

    #[test]
    fn parses_answer_usage_and_truncation() {
        let body = br#"{"choices":[{"finish_reason":"stop","message":{"role":"assistant","content":"{\"q\":\"x\"}"}}],"usage":{"prompt_tokens":12,"completion_tokens":5}}"#;
        let c = parse(body).unwrap();
        assert_eq!(
            (c.text.as_str(), c.truncated, c.prompt_tokens, c.completion_tokens),
            ("{\"q\":\"x\"}", false, 12, 5)
        );
        let cut = br#"{"choices":[{"finish_reason":"length","message":{"content":"{\"q\":"}}]}"#;
        assert!(parse(cut).unwrap().truncated);
        assert!(
            parse(b"{\"choices\":[{\"message\":{\"content\":")
                .unwrap_err()
                .contains("not JSON")
        );
        assert!(parse(br#"{"choices":[]}"#).is_err());
        assert!(
            parse(br#"{"choices":[{"message":{"content":null,"refusal":"no"}}]}"#)
                .unwrap_err()
                .contains("no")
        );
    }
}
