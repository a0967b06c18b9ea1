//! Question files as rows: the shared reader ([`crate::testset::foreign::records`]: CSV/TSV,
//! JSON, JSON Lines; any case of column name) with the usual column names, or those given with
//! `--question-col` and the like. Every row keeps the line it starts on, so each problem later
//! on can name it.

use std::path::Path;

use serde_json::Value;

pub use crate::testset::foreign::Columns;
use crate::testset::foreign::records::{self, Record};
use crate::{Error, Result};

/// The fields of one row, trimmed; empty cells are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    /// 1-based line the row starts on.
    pub line: usize,
    /// The question.
    pub question: Option<String>,
    /// Reference answer.
    pub answer: Option<String>,
    /// Document path.
    pub doc: Option<String>,
    /// Supporting quote.
    pub quote: Option<String>,
    /// Topic.
    pub topic: Option<String>,
    /// Question type.
    pub kind: Option<String>,
    /// Case id.
    pub id: Option<String>,
}

/// Reads the rows of `path`.
pub fn read(path: &Path, columns: &Columns) -> Result<Vec<Row>> {
    let input = records::read(path)?;
    let exists = |name: &str| {
        input.columns.iter().any(|c| c.eq_ignore_ascii_case(name))
            || input.records.iter().any(|r| r.has(name))
    };
    let missing = |name: &str| Error::Field {
        path: path.to_path_buf(),
        line: Some(1),
        case: None,
        field: name.to_string(),
        message: format!("no such column; the header has: {}", input.columns.join(", ")),
    };
    let question = match &columns.question {
        Some(q) => vec![q.clone()],
        None => vec!["question".to_string(), "query".to_string()],
    };
    if !question.iter().any(|q| exists(q)) && !input.records.is_empty() {
        return Err(missing(&question[0]));
    }
    let named = [
        &columns.answer,
        &columns.doc,
        &columns.quote,
        &columns.topic,
        &columns.kind,
        &columns.id,
    ];
    if let Some(name) = named.into_iter().flatten().find(|n| !exists(n)) {
        return Err(missing(name));
    }
    let pick =
        |given: &Option<String>, usual: &'static str| given.clone().unwrap_or_else(|| usual.to_string());
    let names = [
        pick(&columns.answer, "answer"),
        pick(&columns.doc, "doc"),
        pick(&columns.quote, "quote"),
        pick(&columns.topic, "topic"),
        pick(&columns.kind, "type"),
        pick(&columns.id, "id"),
    ];
    input
        .records
        .iter()
        .map(|r| {
            let cell = |name: &str| cell(path, r, name);
            let q = question.iter().map(|n| cell(n)).collect::<Result<Vec<_>>>()?;
            Ok(Row {
                line: r.line,
                question: q.into_iter().flatten().next(),
                answer: cell(&names[0])?,
                doc: cell(&names[1])?,
                quote: cell(&names[2])?,
                topic: cell(&names[3])?,
                kind: cell(&names[4])?,
                id: cell(&names[5])?,
            })
        })
        .collect()
}

/// Whether the question file at `path` has a context column (then it is read as a set whose
/// passages are located, not as questions with quotes).
pub fn has_context(path: &Path, columns: &Columns) -> Result<bool> {
    let input = records::read(path)?;
    let names: Vec<&str> = match &columns.context {
        Some(c) => vec![c.as_str()],
        None => vec!["context", "contexts", "passage", "passages", "reference_contexts"],
    };
    Ok(names.iter().any(|n| {
        input.columns.iter().any(|c| c.eq_ignore_ascii_case(n)) || input.records.iter().any(|r| r.has(n))
    }))
}

/// A cell as text: strings trimmed, numbers written out, blanks `None`; anything else is an
/// error naming the line and field.
fn cell(path: &Path, r: &Record, name: &str) -> Result<Option<String>> {
    Ok(match r.get(name) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(other) => {
            return Err(Error::Field {
                path: path.to_path_buf(),
                line: Some(r.line),
                case: None,
                field: name.to_string(),
                message: format!("expected a string, found {other}"),
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_bom_quotes_and_newlines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("q.csv");
        std::fs::write(&p, "\u{feff}question,answer\n\"a, b?\",\"x\ny\"\nsecond,\n").unwrap();
        let rows = read(&p, &Columns::default()).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].question.as_deref(), Some("a, b?"));
        assert_eq!(rows[0].answer.as_deref(), Some("x\ny"));
        assert_eq!((rows[0].line, rows[1].line), (2, 4));
        assert_eq!(rows[1].answer, None);
    }

    #[test]
    fn explicit_missing_column_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("q.csv");
        std::fs::write(&p, "q,a\nx,y\n").unwrap();
        let err = read(&p, &Columns::default()).unwrap_err().to_string();
        assert!(err.contains("question") && err.contains("q, a"), "{err}");
        let cols = Columns {
            question: Some("q".into()),
            answer: Some("nope".into()),
            ..Columns::default()
        };
        assert!(read(&p, &cols).unwrap_err().to_string().contains("nope"));
    }

    #[test]
    fn jsonl_non_utf8_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("q.jsonl");
        let mut bytes = b"{\"question\": \"ok\", \"id\": 7}\n\n".to_vec();
        bytes.extend_from_slice(b"{\"question\": \"caf\xe9\"}\n");
        std::fs::write(&p, bytes).unwrap();
        let err = read(&p, &Columns::default()).unwrap_err().to_string();
        assert!(err.contains("q.jsonl:3"), "{err}");
    }
}
