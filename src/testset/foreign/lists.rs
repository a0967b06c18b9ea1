//! The contexts of a foreign case, as each tool writes them: a JSON list, a list written by
//! Python's `str()` (pandas' `to_csv` of a list column: `['<1-hop>\n\nfirst', "it's second"]`),
//! DeepEval's `|`-joined CSV cell, or Giskard's one string of `Document 12: … Document 17: …`
//! blocks. Every form becomes the list of passages it stands for, each located on its own.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

/// Why a field that must hold a list does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAList(pub String);

/// Parses a field that holds a list of passages: a JSON array of strings, or a string holding
/// a JSON or Python list. A string that is no list is an error (it would silently become one
/// huge "passage" otherwise).
pub fn list_field(value: &Value) -> Result<Vec<String>, NotAList> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(NotAList(format!(
                    "an item of the list is {}, not text",
                    kind(other)
                ))),
            })
            .collect(),
        Value::String(s) if s.trim().is_empty() => Ok(Vec::new()),
        Value::String(s) => parse_list(s),
        other => Err(NotAList(format!(
            "expected a list of passages, found {}",
            kind(other)
        ))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A list written as text: JSON first, then Python's literal syntax.
pub fn parse_list(text: &str) -> Result<Vec<String>, NotAList> {
    let t = text.trim();
    if !t.starts_with('[') {
        let head: String = t.chars().take(40).collect();
        return Err(NotAList(format!(
            "expected a list such as ['…', '…'], found text starting `{head}`"
        )));
    }
    if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(t) {
        return list_field(&Value::Array(items));
    }
    python_list(t)
}

/// Parses `['a', "b's", 'c\n']`: quoted strings with backslash escapes, comma-separated.
fn python_list(t: &str) -> Result<Vec<String>, NotAList> {
    let mut chars = t.chars().peekable();
    chars.next(); // '['
    let mut out = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ',') {
            chars.next();
        }
        let quote = match chars.next() {
            Some(']') => break,
            Some(q @ ('\'' | '"')) => q,
            Some(c) => {
                return Err(NotAList(format!(
                    "expected a quoted string in the list, found `{c}`"
                )));
            }
            None => return Err(NotAList("the list is not closed with `]`".into())),
        };
        let mut item = String::new();
        loop {
            match chars.next() {
                None => return Err(NotAList("a string in the list is not closed".into())),
                Some(c) if c == quote => break,
                Some('\\') => item.push_str(&escape(&mut chars)?),
                Some(c) => item.push(c),
            }
        }
        out.push(item);
    }
    if chars.any(|c| !c.is_whitespace()) {
        return Err(NotAList("text follows the closing `]` of the list".into()));
    }
    Ok(out)
}

/// One Python escape after its backslash.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<String, NotAList> {
    let hex = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, n: usize| {
        let digits: String = chars.take(n).collect();
        u32::from_str_radix(&digits, 16)
            .ok()
            .and_then(char::from_u32)
            .map(String::from)
            .ok_or_else(|| NotAList(format!("bad escape `{digits}` in the list")))
    };
    Ok(match chars.next() {
        Some('n') => "\n".into(),
        Some('t') => "\t".into(),
        Some('r') => "\r".into(),
        Some('x') => hex(chars, 2)?,
        Some('u') => hex(chars, 4)?,
        Some('U') => hex(chars, 8)?,
        Some(c) => c.to_string(), // \\ \' \" and anything else stand for themselves
        None => return Err(NotAList("the list ends in a backslash".into())),
    })
}

/// Drops Ragas' `<1-hop>` marker that prefixes each passage of a multi-hop case.
pub fn strip_hop(passage: &str) -> &str {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"^\s*<\d+-hop>\s*").expect("valid regex"));
    match re.find(passage) {
        Some(m) => &passage[m.end()..],
        None => passage,
    }
}

/// Splits Giskard's `reference_context` into its `Document N: …` blocks, with their numbers.
/// Text with no such block is one passage without a number.
pub fn giskard_documents(text: &str) -> Vec<(Option<u64>, String)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"(?m)^Document (\d+): ").expect("valid regex"));
    let starts: Vec<(usize, usize, u64)> = re
        .captures_iter(text)
        .filter_map(|c| {
            let m = c.get(0)?;
            Some((m.start(), m.end(), c[1].parse().ok()?))
        })
        .collect();
    if starts.is_empty() {
        return vec![(None, text.trim().to_string())];
    }
    let mut out = Vec::new();
    let head = text[..starts[0].0].trim();
    if !head.is_empty() {
        out.push((None, head.to_string()));
    }
    for (i, &(_, body, n)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(text.len(), |s| s.0);
        out.push((Some(n), text[body..end].trim().to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_lists_as_pandas_writes_them() {
        let t = r#"['<1-hop>\n\nIt\'s the first', "second with 'quotes'", 'caf\xe9 \u2014 ok']"#;
        let items = parse_list(t).unwrap();
        assert_eq!(items[0], "<1-hop>\n\nIt's the first");
        assert_eq!(strip_hop(&items[0]), "It's the first");
        assert_eq!(items[1], "second with 'quotes'");
        assert_eq!(items[2], "café — ok");
        assert_eq!(parse_list(r#"["a", "b"]"#).unwrap(), ["a", "b"]);
        assert_eq!(parse_list("[]").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn what_is_not_a_list_says_so() {
        assert!(
            parse_list("just a passage")
                .unwrap_err()
                .0
                .contains("expected a list")
        );
        assert!(parse_list("['open").unwrap_err().0.contains("not closed"));
        assert!(parse_list("['a'] trailing").is_err());
        assert!(
            list_field(&serde_json::json!(42))
                .unwrap_err()
                .0
                .contains("a number")
        );
        assert!(list_field(&serde_json::json!(["a", 1])).is_err());
    }

    #[test]
    fn giskard_blocks_are_split_with_their_numbers() {
        let t = "Document 12: First block\nwith two lines.\n\nDocument 17: Second block.";
        assert_eq!(
            giskard_documents(t),
            [
                (Some(12), "First block\nwith two lines.".to_string()),
                (Some(17), "Second block.".to_string())
            ]
        );
        assert_eq!(giskard_documents("plain"), [(None, "plain".to_string())]);
    }
}
