//! Reading the records of a question file or another tool's export — CSV/TSV, one JSON
//! document, or JSON Lines — each with the line it starts on, so every later problem can name
//! it. This is the one reader `import` and `audit` share: a file that one of them reads, the
//! other reads the same way. Field names are matched case-insensitively (`Question`,
//! `USER_INPUT`), since spreadsheets and pandas exports capitalise freely.

use std::path::Path;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::{Error, Result, limits};

/// How the file is laid out, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Comma- (or, for `.tsv`, tab-) separated values with a header row.
    Csv,
    /// One JSON document: a list of records, or an object holding one.
    Json,
    /// One JSON object per line.
    Jsonl,
}

/// One record of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// 1-based line the record starts on.
    pub line: usize,
    /// Its fields as written (CSV cells are strings).
    pub fields: Map<String, Value>,
}

impl Record {
    /// The field `name` (case-insensitive); a dotted name looks into objects (`metadata.topic`).
    pub fn get(&self, name: &str) -> Option<&Value> {
        let mut parts = name.split('.');
        let mut v = lookup(&self.fields, parts.next()?)?;
        for p in parts {
            v = lookup(v.as_object()?, p)?;
        }
        Some(v)
    }

    /// The first of `names` that holds a non-blank string (or a number), trimmed.
    pub fn text(&self, names: &[&str]) -> Option<String> {
        names.iter().find_map(|n| match self.get(n)? {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Value::Number(x) => Some(x.to_string()),
            _ => None,
        })
    }

    /// Whether the record has the field `name` (case-insensitive), blank or not.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

fn lookup<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).or_else(|| {
        map.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

/// What a file holds.
#[derive(Debug, Clone)]
pub struct Input {
    /// How it is laid out.
    pub layout: Layout,
    /// Its records, in file order.
    pub records: Vec<Record>,
    /// For a JSON document that is an object: the object (LlamaIndex writes its datasets as
    /// `{"queries": ..., "corpus": ..., "relevant_docs": ...}`), else `None`.
    pub document: Option<Map<String, Value>>,
    /// The CSV header, or the keys of the first record, as written.
    pub columns: Vec<String>,
}

/// The layout of `path` from its extension; `None` when it names none this reader knows.
pub fn layout_of(path: &Path) -> Option<Layout> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "csv" | "tsv" => Some(Layout::Csv),
        "json" => Some(Layout::Json),
        "jsonl" | "ndjson" => Some(Layout::Jsonl),
        _ => None,
    }
}

/// Keys under which a JSON document keeps its list of records.
pub const LIST_KEYS: [&str; 6] = ["examples", "samples", "goldens", "data", "testset", "test_cases"];

fn parse_error(path: &Path, line: Option<usize>, column: Option<usize>, message: String) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
}

/// Reads every record of `path`.
pub fn read(path: &Path) -> Result<Input> {
    let layout = layout_of(path).ok_or_else(|| Error::UnknownFileType {
        path: path.to_path_buf(),
        what: "test-set or question",
        expected: ".csv, .tsv, .json, .jsonl or .ndjson",
    })?;
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    let mut input = match layout {
        Layout::Csv => {
            let tab = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tsv"));
            read_csv(path, bytes, if tab { b'\t' } else { b',' })?
        }
        // Giskard's `QATestset.save` writes JSON Lines whatever the extension, and hand-made
        // `.jsonl` files are sometimes one JSON list: each is read as what it holds.
        Layout::Json => {
            let text = utf8(path, bytes)?;
            match read_json(path, text) {
                Err(e) if looks_like_lines(text) => read_jsonl(path, bytes).map_err(|_| e)?,
                other => other?,
            }
        }
        Layout::Jsonl if text_starts_with(bytes, b'[') => read_json(path, utf8(path, bytes)?)?,
        Layout::Jsonl => read_jsonl(path, bytes)?,
    };
    if input.columns.is_empty()
        && let Some(first) = input.records.first()
    {
        input.columns = first.fields.keys().cloned().collect();
    }
    Ok(input)
}

fn text_starts_with(bytes: &[u8], c: u8) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&c)
}

/// Two or more lines that each start an object: JSON Lines under another name.
fn looks_like_lines(text: &str) -> bool {
    text.trim_start().starts_with('{') && text.lines().filter(|l| l.trim_start().starts_with('{')).count() > 1
}

fn utf8<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() + 1;
        parse_error(
            path,
            Some(line),
            None,
            "not valid UTF-8; re-save the file as UTF-8".into(),
        )
    })
}

/// The line on which a quoted field opens and never closes, if one does: the `csv` crate reads
/// such a field to the end of the file without complaint, silently swallowing every row after.
fn unclosed_quote(bytes: &[u8], delimiter: u8) -> Option<usize> {
    let (mut line, mut opened, mut quoted, mut at_field_start) = (1, 0, false, true);
    for &b in bytes {
        let start = std::mem::replace(&mut at_field_start, false);
        match b {
            // A closing quote may be the first half of `""`, which reopens at once.
            b'"' if quoted => {
                quoted = false;
                at_field_start = true;
            }
            b'"' if start => {
                quoted = true;
                opened = line;
            }
            b'\n' => {
                line += 1;
                at_field_start = !quoted;
            }
            b if b == delimiter => at_field_start = !quoted,
            _ => {}
        }
    }
    quoted.then_some(opened)
}

fn read_csv(path: &Path, bytes: &[u8], delimiter: u8) -> Result<Input> {
    if let Some(line) = unclosed_quote(bytes, delimiter) {
        return Err(parse_error(
            path,
            Some(line),
            None,
            "a quoted field opens here and is never closed (a `\"` is missing)".into(),
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .from_reader(bytes);
    let csv_error = |e: csv::Error| {
        let line = e.position().map(|p| p.line() as usize);
        match e.into_kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => parse_error(
                path,
                line,
                None,
                format!("row has {len} fields, the header has {expected_len}"),
            ),
            other => parse_error(path, line, None, format!("{other:?}")),
        }
    };
    let header = reader.byte_headers().map_err(csv_error)?.clone();
    let mut columns = Vec::with_capacity(header.len());
    for field in &header {
        let name = std::str::from_utf8(field)
            .map_err(|_| parse_error(path, Some(1), None, "header row is not valid UTF-8".into()))?;
        columns.push(name.trim().to_string());
    }
    let mut records = Vec::new();
    for row in reader.byte_records() {
        let row = row.map_err(csv_error)?;
        let line = row.position().map_or(0, |p| p.line() as usize);
        if row.as_slice().len() as u64 > limits::LINE_BYTES.get() {
            limits::check_line(path, line, &String::from_utf8_lossy(row.as_slice()))?;
        }
        let mut fields = Map::new();
        for (name, cell) in columns.iter().zip(row.iter()) {
            let Ok(text) = std::str::from_utf8(cell) else {
                return Err(parse_error(
                    path,
                    Some(line),
                    None,
                    format!("row is not valid UTF-8 (column `{name}`); re-save the file as UTF-8"),
                ));
            };
            limits::check_field(path, Some(line), name, text)?;
            fields.insert(name.clone(), Value::String(text.to_string()));
        }
        records.push(Record { line, fields });
    }
    Ok(Input {
        layout: Layout::Csv,
        records,
        document: None,
        columns,
    })
}

fn read_jsonl(path: &Path, bytes: &[u8]) -> Result<Input> {
    let mut records = Vec::new();
    for (n, raw) in bytes.split(|b| *b == b'\n').enumerate() {
        let line = n + 1;
        let text = std::str::from_utf8(raw).map_err(|e| {
            parse_error(
                path,
                Some(line),
                None,
                format!(
                    "not valid UTF-8 at byte {} of the line; re-save the file as UTF-8",
                    e.valid_up_to()
                ),
            )
        })?;
        if let Some(fields) = limits::json_object_line(path, line, text)? {
            records.push(Record { line, fields });
        }
    }
    Ok(Input {
        layout: Layout::Jsonl,
        records,
        document: None,
        columns: Vec::new(),
    })
}

/// Line of the byte `at` of `text`.
fn line_at(text: &str, at: usize) -> usize {
    text.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1
}

fn read_json(path: &Path, text: &str) -> Result<Input> {
    let syntax = |e: serde_json::Error| parse_error(path, Some(e.line()), Some(e.column()), e.to_string());
    // Records are kept as raw text first, so each one's line is known (a `Value` forgets it).
    let top: &RawValue = serde_json::from_str(text).map_err(syntax)?;
    let offset = |raw: &RawValue| raw.get().as_ptr() as usize - text.as_ptr() as usize;
    let (items, document): (Vec<&RawValue>, Option<Map<String, Value>>) =
        match top.get().trim_start().as_bytes().first() {
            Some(b'[') => (serde_json::from_str(top.get()).map_err(syntax)?, None),
            Some(b'{') => {
                let value: Value = serde_json::from_str(top.get()).map_err(syntax)?;
                limits::check_strings(path, None, &value)?;
                let Value::Object(object) = value else {
                    unreachable!("starts with a brace")
                };
                // Borrowed raw values are slices of `text`, so their offsets give their lines.
                let parts: std::collections::BTreeMap<String, &RawValue> =
                    serde_json::from_str(top.get()).map_err(syntax)?;
                let list = LIST_KEYS.iter().find_map(|k| {
                    parts
                        .iter()
                        .find(|(name, v)| {
                            name.eq_ignore_ascii_case(k) && v.get().trim_start().starts_with('[')
                        })
                        .map(|(_, v)| *v)
                });
                let items = match list {
                    Some(raw) => serde_json::from_str::<Vec<&RawValue>>(raw.get()).map_err(syntax)?,
                    None => Vec::new(),
                };
                (items, Some(object))
            }
            _ => {
                return Err(parse_error(
                    path,
                    Some(1),
                    None,
                    "expected a list of records or an object holding one".into(),
                ));
            }
        };
    let mut records = Vec::with_capacity(items.len());
    for (i, raw) in items.into_iter().enumerate() {
        let line = line_at(text, offset(raw));
        match serde_json::from_str::<Value>(raw.get()).map_err(syntax)? {
            Value::Object(fields) => {
                limits::check_strings(path, Some(line), &Value::Object(fields.clone()))?;
                records.push(Record { line, fields });
            }
            _ => {
                return Err(parse_error(
                    path,
                    Some(line),
                    None,
                    format!("record #{} is not an object", i + 1),
                ));
            }
        }
    }
    Ok(Input {
        layout: Layout::Json,
        records,
        document,
        columns: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        (dir, p)
    }

    #[test]
    fn csv_with_bom_quotes_newlines_and_any_case() {
        let (_d, p) = write(
            "q.csv",
            "\u{feff}Question,ANSWER\n\"a, b?\",\"x\ny\"\nsecond,\n".as_bytes(),
        );
        let input = read(&p).unwrap();
        assert_eq!(input.columns, ["Question", "ANSWER"]);
        let r = &input.records;
        assert_eq!((r[0].line, r[1].line), (2, 4));
        assert_eq!(r[0].text(&["question"]).as_deref(), Some("a, b?"));
        assert_eq!(r[0].text(&["answer"]).as_deref(), Some("x\ny"));
        assert_eq!(r[1].text(&["answer"]), None);
    }

    #[test]
    fn an_unclosed_quote_names_its_line() {
        let (_d, p) = write("q.csv", b"question,context\nok,fine\n\"broken,here\nlast,row\n");
        let e = read(&p).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}:3:", p.display())), "{e}");
        assert!(e.contains("never closed"), "{e}");
        // Doubled quotes inside a quoted field are not an opening.
        let (_d, p) = write("ok.csv", b"q,c\n\"say \"\"hi\"\"\",x\n");
        assert_eq!(read(&p).unwrap().records.len(), 1);
    }

    #[test]
    fn json_records_know_their_line_and_objects_keep_their_list() {
        let (_d, p) = write(
            "s.json",
            b"{\n  \"examples\": [\n    {\"query\": \"a\"},\n\n    {\"query\": \"b\"}\n  ]\n}\n",
        );
        let input = read(&p).unwrap();
        assert_eq!(input.records.iter().map(|r| r.line).collect::<Vec<_>>(), [3, 5]);
        assert!(input.document.unwrap().contains_key("examples"));
        let (_d, p) = write("t.json", b"[{\"input\": \"x\"},\n {\"input\": \"y\"");
        let e = read(&p).unwrap_err().to_string();
        assert!(e.contains("t.json:2:"), "{e}");
    }

    #[test]
    fn json_lines_named_json_and_a_list_named_jsonl_are_read_as_what_they_hold() {
        let (_d, p) = write("t.json", b"{\"question\": \"a\"}\n{\"question\": \"b\"}\n");
        let input = read(&p).unwrap();
        assert_eq!((input.layout, input.records.len()), (Layout::Jsonl, 2));
        let (_d, p) = write(
            "t.jsonl",
            b"[\n{\"question\": \"a\"},\n{\"question\": \"b\"}\n]\n",
        );
        let input = read(&p).unwrap();
        assert_eq!(input.records.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn dotted_names_look_into_objects() {
        let (_d, p) = write("g.jsonl", b"{\"Metadata\": {\"Question_Type\": \"simple\"}}\n\n");
        let r = &read(&p).unwrap().records[0];
        assert_eq!(r.text(&["metadata.question_type"]).as_deref(), Some("simple"));
        assert_eq!(r.line, 1);
    }
}
