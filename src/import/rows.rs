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
    /// What the row says of whether the corpus answers it, when a yes/no column
    /// (`unanswerable`, `is_impossible`, `answerable`) or an empty `relevant` list says it: the
    /// column's name and `true` for answerable.
    pub answerable: Option<(String, bool)>,
}

/// Yes/no columns that say whether the corpus answers a question, and whether "yes" means it
/// does not (`unanswerable`, SQuAD 2.0's `is_impossible`) or does (`answerable`).
const YES_NO_COLUMNS: [(&str, bool); 3] = [
    ("unanswerable", true),
    ("is_impossible", true),
    ("answerable", false),
];

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
                answerable: answerable(path, r)?,
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

/// What `r` says of whether the corpus answers its question: the first yes/no column with a
/// value, else an empty `relevant` list (`[]` in a CSV cell).
fn answerable(path: &Path, r: &Record) -> Result<Option<(String, bool)>> {
    for (name, yes_means_no) in YES_NO_COLUMNS {
        let value = match r.get(name) {
            None | Some(Value::Null) => continue,
            Some(Value::Bool(b)) => Some(*b),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(0) => Some(false),
                Some(1) => Some(true),
                _ => None,
            },
            Some(Value::String(s)) => match s.trim().to_lowercase().as_str() {
                "" => continue,
                "yes" | "y" | "true" | "t" | "1" | "x" => Some(true),
                "no" | "n" | "false" | "f" | "0" => Some(false),
                _ => None,
            },
            Some(_) => None,
        };
        let Some(yes) = value else {
            return Err(Error::Field {
                path: path.to_path_buf(),
                line: Some(r.line),
                case: None,
                field: name.to_string(),
                message: format!(
                    "expected yes or no (true/false, 1/0), found {}",
                    r.get(name).expect("read above")
                ),
            });
        };
        return Ok(Some((name.to_string(), yes != yes_means_no)));
    }
    let empty = match r.get("relevant") {
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::String(s)) => s.trim() == "[]",
        _ => false,
    };
    Ok(empty.then(|| ("relevant".to_string(), false)))
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
    fn yes_no_columns_and_an_empty_relevant_list_say_what_is_unanswerable() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("q.jsonl");
        std::fs::write(
            &p,
            concat!(
                "{\"question\": \"a\", \"is_impossible\": true}\n",
                "{\"question\": \"b\", \"answerable\": \"No\"}\n",
                "{\"question\": \"c\", \"unanswerable\": 0}\n",
                "{\"question\": \"d\", \"relevant\": []}\n",
                "{\"question\": \"e\", \"unanswerable\": \"\"}\n",
            ),
        )
        .unwrap();
        let rows = read(&p, &Columns::default()).unwrap();
        let said: Vec<_> = rows.iter().map(|r| r.answerable.clone()).collect();
        assert_eq!(
            said,
            [
                Some(("is_impossible".into(), false)),
                Some(("answerable".into(), false)),
                Some(("unanswerable".into(), true)),
                Some(("relevant".into(), false)),
                None,
            ]
        );
        std::fs::write(&p, "{\"question\": \"a\", \"unanswerable\": \"maybe\"}\n").unwrap();
        let err = read(&p, &Columns::default()).unwrap_err().to_string();
        assert!(
            err.contains("q.jsonl:1") && err.contains("unanswerable") && err.contains("maybe"),
            "{err}"
        );
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
