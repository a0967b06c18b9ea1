//! Anthropic Messages. Structured output is a single tool whose input schema is the answer's
//! schema, with `tool_choice` forcing the model to call it; the tool input is the answer.

use serde_json::{Value, json};

use super::{Completion, HttpRequest, Prompt, wire_schema};

/// The API version these functions speak.
pub(crate) const VERSION: &str = "2023-06-01";
const TOOL: &str = "answer";

pub(crate) fn build(base_url: &str, p: &Prompt<'_>) -> HttpRequest {
    let messages: Vec<Value> = p
        .messages
        .iter()
        .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
        .collect();
    let (schema, _) = wire_schema(p.schema);
    HttpRequest {
        url: super::join(base_url, "messages"),
        headers: vec![
            ("content-type", "application/json".to_string()),
            ("anthropic-version", VERSION.to_string()),
        ],
        body: json!({
            "model": p.model,
            "max_tokens": p.max_tokens,
            "temperature": p.temperature,
            "system": p.system,
            "messages": messages,
            "tools": [{"name": TOOL, "description": "Give the answer in this structure.", "input_schema": schema}],
            "tool_choice": {"type": "tool", "name": TOOL},
        }),
    }
}

pub(crate) fn parse(body: &[u8]) -> Result<Completion, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("response body is not JSON: {e}"))?;
    let content = v
        .get("content")
        .and_then(Value::as_array)
        .ok_or("response has no content")?;
    let input = content
        .iter()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .and_then(|b| b.get("input"))
        .ok_or("response has no tool_use block")?;
    let usage = |k: &str| {
        v.pointer(&format!("/usage/{k}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(Completion {
        text: input.to_string(),
        truncated: v.get("stop_reason").and_then(Value::as_str) == Some("max_tokens"),
        prompt_tokens: usage("input_tokens"),
        completion_tokens: usage("output_tokens"),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Message, Role};
    use super::*;

    #[test]
    fn request_forces_the_answer_tool() {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let msgs = [Message {
            role: Role::User,
            content: "ask".into(),
        }];
        let p = Prompt {
            model: "claude-haiku-4-5",
            system: "sys",
            messages: &msgs,
            schema: &schema,
            max_tokens: 64,
            temperature: 0.2,
            seed: Some(1),
        };
        let r = build("https://h/v1", &p);
        assert_eq!(r.url, "https://h/v1/messages");
        assert_eq!(r.body["system"], "sys");
        assert_eq!(r.body["max_tokens"], 64);
        assert_eq!(r.body["tool_choice"], json!({"type": "tool", "name": "answer"}));
        assert_eq!(r.body["tools"][0]["input_schema"], schema);
        assert_eq!(r.body["messages"], json!([{"role": "user", "content": "ask"}]));
        assert!(r.body.get("seed").is_none());
        assert!(r.headers.contains(&("anthropic-version", VERSION.to_string())));
    }

    #[test]
    fn parses_tool_input_usage_and_truncation() {
        let body = br#"{"content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t","name":"answer","input":{"q":"x"}}],"stop_reason":"tool_use","usage":{"input_tokens":20,"output_tokens":8}}"#;
        let c = parse(body).unwrap();
        assert_eq!(c.text, r#"{"q":"x"}"#);
        assert_eq!(
            (c.truncated, c.prompt_tokens, c.completion_tokens),
            (false, 20, 8)
        );
        let cut = br#"{"content":[{"type":"tool_use","input":{}}],"stop_reason":"max_tokens"}"#;
        assert!(parse(cut).unwrap().truncated);
        assert!(parse(br#"{"content":[{"type":"text","text":"no tool"}]}"#).is_err());
        assert!(parse(b"{\"content\":[").is_err());
    }
}
