//! A RAG system's reply to one question: the answer, and what it retrieved — passages' text,
//! `{doc, start, end}` spans, or chunk ids — read from the fields the user names.

use serde_json::{Value, json};

/// Where the answer and the contexts are in a reply, and what a bare string context is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    /// The answer's field; dots reach into objects (`data.answer`).
    pub answer: String,
    /// The contexts' field (a list), dotted the same way.
    pub contexts: String,
    /// What a string in the contexts list is.
    pub strings: Strings,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            answer: "answer".into(),
            contexts: "contexts".into(),
            strings: Strings::Texts,
        }
    }
}

/// What a string in a reply's contexts list is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strings {
    /// A retrieved passage's text.
    #[default]
    Texts,
    /// A chunk id (`doc#n`) or document path.
    Ids,
}

/// One thing the system retrieved, in its rank.
#[derive(Debug, Clone, PartialEq)]
pub enum Retrieved {
    Text(String),
    Span { doc: String, start: u64, end: u64 },
    Id(String),
}

impl Retrieved {
    /// The item as a line of `eval --run`'s JSON Lines writes it.
    pub fn to_run_item(&self) -> Value {
        match self {
            Retrieved::Text(t) => json!({"text": t}),
            Retrieved::Span { doc, start, end } => json!({"doc": doc, "start": start, "end": end}),
            Retrieved::Id(id) => json!(id),
        }
    }
}

/// What the system answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub answer: String,
    pub contexts: Vec<Retrieved>,
}

/// Reads a reply, or says what is wrong with it.
pub fn parse(reply: &Value, fields: &Fields) -> Result<Reply, String> {
    let obj = reply.as_object().ok_or("the reply is not a JSON object")?;
    let answer = match lookup(reply, &fields.answer) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => {
            let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
            return Err(format!(
                "no `{}` field (the reply has: {}); name another with --answer-field",
                fields.answer,
                keys.join(", ")
            ));
        }
        Some(other) => return Err(format!("`{}` is {}, not a string", fields.answer, kind(other))),
    };
    let contexts = match lookup(reply, &fields.contexts) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| item(v, fields.strings).ok_or_else(|| bad_item(&fields.contexts, i, v)))
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(format!("`{}` is {}, not a list", fields.contexts, kind(other))),
    };
    Ok(Reply { answer, contexts })
}

fn item(v: &Value, strings: Strings) -> Option<Retrieved> {
    match v {
        Value::String(s) => Some(match strings {
            Strings::Texts => Retrieved::Text(s.clone()),
            Strings::Ids => Retrieved::Id(s.clone()),
        }),
        Value::Object(o) => {
            if let Some(Value::String(t)) = o.get("text").or_else(|| o.get("content")) {
                return Some(Retrieved::Text(t.clone()));
            }
            if let (Some(Value::String(doc)), Some(start), Some(end)) =
                (o.get("doc"), o.get("start"), o.get("end"))
            {
                return Some(Retrieved::Span {
                    doc: doc.clone(),
                    start: start.as_u64()?,
                    end: end.as_u64()?,
                });
            }
            match o.get("id") {
                Some(Value::String(id)) => Some(Retrieved::Id(id.clone())),
                _ => None,
            }
        }
        _ => None,
    }
}

fn bad_item(field: &str, i: usize, v: &Value) -> String {
    let mut shown = v.to_string();
    if shown.len() > 80 {
        let cut = (0..=80).rev().find(|&n| shown.is_char_boundary(n)).unwrap_or(0);
        shown.truncate(cut);
        shown.push('…');
    }
    format!(
        "`{field}[{i}]` is {shown}: expected a text, {{\"doc\", \"start\", \"end\"}}, {{\"text\"}} or {{\"id\"}}"
    )
}

/// How many contexts `reply` holds, read before any is copied (a reply may hold millions).
pub fn contexts_len(reply: &Value, fields: &Fields) -> usize {
    lookup(reply, &fields.contexts)
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// The value at a dotted path.
fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, key| v.get(key))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_spans_and_ids_are_read_in_rank_order() {
        let r = json!({"answer": "30 days", "contexts": ["a passage", {"doc": "a.md", "start": 3, "end": 9}, {"id": "a.md#2"}]});
        let got = parse(&r, &Fields::default()).unwrap();
        assert_eq!(got.answer, "30 days");
        assert_eq!(
            got.contexts,
            [
                Retrieved::Text("a passage".into()),
                Retrieved::Span {
                    doc: "a.md".into(),
                    start: 3,
                    end: 9
                },
                Retrieved::Id("a.md#2".into())
            ]
        );
        let ids = Fields {
            answer: "data.text".into(),
            contexts: "data.chunks".into(),
            strings: Strings::Ids,
        };
        let got = parse(&json!({"data": {"text": "x", "chunks": ["b.md#0"]}}), &ids).unwrap();
        assert_eq!(got.contexts, [Retrieved::Id("b.md#0".into())]);
        assert_eq!(got.contexts[0].to_run_item(), json!("b.md#0"));
    }

    #[test]
    fn a_malformed_reply_says_what_is_wrong() {
        let f = Fields::default();
        assert!(parse(&json!([1]), &f).unwrap_err().contains("not a JSON object"));
        let e = parse(&json!({"output": "x"}), &f).unwrap_err();
        assert!(
            e.contains("no `answer` field (the reply has: output)") && e.contains("--answer-field"),
            "{e}"
        );
        assert!(
            parse(&json!({"answer": 3}), &f)
                .unwrap_err()
                .contains("a number, not a string")
        );
        let e = parse(&json!({"answer": "x", "contexts": [1]}), &f).unwrap_err();
        assert!(e.starts_with("`contexts[0]` is 1: expected"), "{e}");
        assert_eq!(
            parse(&json!({"answer": "", "contexts": null}), &f)
                .unwrap()
                .contexts,
            []
        );
    }
}
