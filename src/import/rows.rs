//! Reading question files: CSV (or TSV) with a header row, or JSON Lines. Every row keeps the
//! line it starts on, so each problem later on can name it.

use std::path::Path;

use serde_json::Value;

use crate::{Error, Result, limits};

/// Which column (CSV) or key (JSON Lines) holds each field. `None` means the default name, used
/// only when present; a name given explicitly must exist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Columns {
    /// The question (default `question`, required).
    pub question: Option<String>,
    /// The reference answer (default `answer`).
    pub answer: Option<String>,
    /// The relevant document's path under the corpus (default `doc`).
    pub doc: Option<String>,
    /// A supporting quote from that document (default `quote`).
    pub quote: Option<String>,
    /// The topic tag (default `topic`).
    pub topic: Option<String>,
    /// The question type tag (default `type`).
    pub kind: Option<String>,
    /// The case id (default `id`).
    pub id: Option<String>,
}

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

/// The seven fields in a fixed order, with their default names, so readers can loop over them.
fn fields(c: &Columns) -> [(&Option<String>, &'static str); 7] {
    [
        (&c.question, "question"),
        (&c.answer, "answer"),
        (&c.doc, "doc"),
        (&c.quote, "quote"),
        (&c.topic, "topic"),
        (&c.kind, "type"),
        (&c.id, "id"),
    ]
}

fn set_field(row: &mut Row, i: usize, value: Option<String>) {
    let value = value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
    match i {
        0 => row.question = value,
        1 => row.answer = value,
        2 => row.doc = value,
        3 => row.quote = value,
        4 => row.topic = value,
        5 => row.kind = value,
        _ => row.id = value,
    }
}

/// Reads the rows of `path`, CSV/TSV or JSON Lines by extension.
pub fn read(path: &Path, columns: &Columns) -> Result<Vec<Row>> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "csv" => read_csv(path, columns, b','),
        "tsv" => read_csv(path, columns, b'\t'),
        "jsonl" | "ndjson" => read_jsonl(path, columns),
        _ => Err(Error::UnknownFileType {
            path: path.to_path_buf(),
            what: "question",
            expected: ".csv, .tsv, .jsonl or .ndjson",
        }),
    }
}

fn parse_error(path: &Path, line: Option<usize>, message: String) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column: None,
        message,
    }
}

fn read_csv(path: &Path, columns: &Columns, delimiter: u8) -> Result<Vec<Row>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .from_reader(std::io::BufReader::new(file));
    let csv_error = |e: csv::Error| {
        let line = e.position().map(|p| p.line() as usize);
        match e.into_kind() {
            csv::ErrorKind::Io(io) => Error::io(path, io),
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => parse_error(
                path,
                line,
                format!("row has {len} fields, the header has {expected_len}"),
            ),
            other => parse_error(path, line, format!("{other:?}")),
        }
    };
    let header = reader.byte_headers().map_err(csv_error)?.clone();
    let mut names = Vec::with_capacity(header.len());
    for (i, field) in header.iter().enumerate() {
        let name = std::str::from_utf8(field)
            .map_err(|_| parse_error(path, Some(1), "header row is not valid UTF-8".into()))?;
        // Spreadsheet exports often begin with a UTF-8 byte-order mark.
        let name = if i == 0 {
            name.trim_start_matches('\u{feff}')
        } else {
            name
        };
        names.push(name.trim().to_string());
    }
    let mut positions = [None; 7];
    for (i, (given, default)) in fields(columns).into_iter().enumerate() {
        let wanted = given.as_deref().unwrap_or(default);
        positions[i] = names.iter().position(|n| n == wanted);
        if positions[i].is_none() && (given.is_some() || i == 0) {
            return Err(Error::Field {
                path: path.to_path_buf(),
                line: Some(1),
                case: None,
                field: wanted.to_string(),
                message: format!("no such column; the header has: {}", names.join(", ")),
            });
        }
    }
    let mut rows = Vec::new();
    for record in reader.byte_records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let mut row = Row {
            line,
            ..Row::default()
        };
        if record.as_slice().len() as u64 > limits::LINE_BYTES.get() {
            let text = String::from_utf8_lossy(record.as_slice());
            limits::check_line(path, line, &text)?;
        }
        for (col, bytes) in record.iter().enumerate() {
            let name = names.get(col).map(String::as_str).unwrap_or("?");
            let Ok(text) = std::str::from_utf8(bytes) else {
                return Err(parse_error(
                    path,
                    Some(line),
                    format!("row is not valid UTF-8 (column `{name}`); re-save the file as UTF-8"),
                ));
            };
            limits::check_field(path, Some(line), name, text)?;
        }
        for (i, pos) in positions.iter().enumerate() {
            let value = pos
                .and_then(|p| record.get(p))
                .map(|b| String::from_utf8_lossy(b).into_owned());
            set_field(&mut row, i, value);
        }
        rows.push(row);
    }
    Ok(rows)
}

fn read_jsonl(path: &Path, columns: &Columns) -> Result<Vec<Row>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    let mut rows = Vec::new();
    for (n, raw) in bytes.split(|b| *b == b'\n').enumerate() {
        let line = n + 1;
        let text = std::str::from_utf8(raw).map_err(|e| {
            parse_error(
                path,
                Some(line),
                format!(
                    "not valid UTF-8 at byte {} of the line; re-save the file as UTF-8",
                    e.valid_up_to()
                ),
            )
        })?;
        let Some(obj) = limits::json_object_line(path, line, text)? else {
            continue;
        };
        let mut row = Row {
            line,
            ..Row::default()
        };
        for (i, (given, default)) in fields(columns).into_iter().enumerate() {
            let key = given.as_deref().unwrap_or(default);
            let value = match obj.get(key) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                Some(other) => {
                    return Err(Error::Field {
                        path: path.to_path_buf(),
                        line: Some(line),
                        case: None,
                        field: key.to_string(),
                        message: format!("expected a string, found {other}"),
                    });
                }
            };
            set_field(&mut row, i, value);
        }
        rows.push(row);
    }
    Ok(rows)
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
