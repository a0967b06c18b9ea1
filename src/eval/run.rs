//! Reading a RAG system's run: what it retrieved for each question, in rank order.
//!
//! Two formats. A TREC run (`qid Q0 docid rank score tag`, white-space separated) is ordered
//! the way `trec_eval` orders it: score descending, ties broken by docid descending (byte
//! order); the rank column is ignored, as `trec_eval` ignores it. A JSONL run
//! (`{"id": ..., "retrieved": [...]}`) is ranked in list order; an item is a string (a chunk id
//! `doc#n` under the test set's chunking, a document path, or a qrels docid), `{"id", "score"}`,
//! `{"doc", "start", "end"}` or `{"text"}`, each object with an optional `score`.
//!
//! Runs can be large (the benchmark has ten million lines), so names are copied into one arena
//! and items refer to them by offset: no allocation and no hashing per line.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::Value;

use crate::{Error, Result, limits};

/// A name (docid, chunk id or document path) stored in the run's arena; see [`Run::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    start: u32,
    len: u32,
}

/// One retrieved item, before it is judged.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A docid, chunk id or document path, as written.
    Id(Name),
    /// A character span of a document.
    Span {
        /// Document path.
        doc: Name,
        /// Start, in Unicode scalar values.
        start: u32,
        /// End, exclusive.
        end: u32,
    },
    /// Retrieved text, to be located in the corpus (index into [`Run::texts`]).
    Text(u32),
}

/// A ranked item with its retrieval score, if the run gave one.
#[derive(Debug, Clone, PartialEq)]
pub struct Retrieved {
    /// What was retrieved.
    pub item: Item,
    /// The retrieval score; NaN when the run gave none (keeps the item at 32 bytes).
    score: f64,
}

impl Retrieved {
    /// The retrieval score, if the run gave one.
    pub fn score(&self) -> Option<f64> {
        (!self.score.is_nan()).then_some(self.score)
    }
}

/// Everything a run retrieved, per question, in rank order.
#[derive(Debug, Default)]
pub struct Run {
    /// Question ids in first-seen order, with their ranked items.
    pub queries: Vec<(String, Vec<Retrieved>)>,
    /// Texts of `{text}` items.
    pub texts: Vec<Box<str>>,
    arena: String,
    by_qid: FxHashMap<String, usize>,
}

/// The two run formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunFormat {
    /// `qid Q0 docid rank score tag`.
    Trec,
    /// `{"id": ..., "retrieved": [...]}` per line.
    Jsonl,
}

impl RunFormat {
    /// `.jsonl`/`.json` files, or files whose first non-blank byte is `{`, are JSONL.
    pub fn sniff(path: &Path, bytes: &[u8]) -> RunFormat {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if matches!(ext, "jsonl" | "json" | "ndjson") || first == Some(&b'{') {
            RunFormat::Jsonl
        } else {
            RunFormat::Trec
        }
    }
}

impl Run {
    /// Reads a run file, telling the format from its extension and first byte. A file with no
    /// result is an error: it would score 0 on every question, which reads as a result.
    pub fn load(path: &Path) -> Result<Run> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let run = match RunFormat::sniff(path, &bytes) {
            RunFormat::Trec => Run::parse_trec(&bytes, path)?,
            RunFormat::Jsonl => Run::parse_jsonl(&bytes, path)?,
        };
        if run.queries.is_empty() {
            return Err(parse_error(
                path,
                None,
                "the run holds no results (no line names a question)".into(),
            ));
        }
        Ok(run)
    }

    /// The text of a name.
    pub fn name(&self, name: Name) -> &str {
        &self.arena[name.start as usize..(name.start + name.len) as usize]
    }

    /// The text of a `{text}` item.
    pub fn text(&self, index: u32) -> &str {
        &self.texts[index as usize]
    }

    /// The ranked items of a question, if the run has it.
    pub fn get(&self, qid: &str) -> Option<&[Retrieved]> {
        self.by_qid.get(qid).map(|&i| self.queries[i].1.as_slice())
    }

    /// True when any item carries a score.
    pub fn has_scores(&self) -> bool {
        self.queries
            .iter()
            .any(|(_, items)| items.iter().any(|r| r.score().is_some()))
    }

    fn store(&mut self, name: &str) -> std::result::Result<Name, String> {
        let start = u32::try_from(self.arena.len()).ok();
        let len = u32::try_from(name.len()).ok();
        match (start, len) {
            (Some(start), Some(len)) if start.checked_add(len).is_some() => {
                self.arena.push_str(name);
                Ok(Name { start, len })
            }
            _ => Err("run too large: item names exceed 4 GiB".into()),
        }
    }

    fn query_slot(&mut self, qid: &str) -> usize {
        if let Some(&i) = self.by_qid.get(qid) {
            return i;
        }
        self.queries.push((qid.to_string(), Vec::new()));
        self.by_qid.insert(qid.to_string(), self.queries.len() - 1);
        self.queries.len() - 1
    }

    /// Parses a TREC run and orders each question's items as `trec_eval` does. The file is cut
    /// at line ends into one piece per thread; pieces are parsed in parallel and joined in order.
    pub fn parse_trec(bytes: &[u8], path: &Path) -> Result<Run> {
        let pieces = split_at_lines(bytes, rayon::current_num_threads());
        let parts: Vec<Result<Run>> = pieces
            .par_iter()
            .map(|&(offset, piece)| {
                Run::parse_trec_piece(piece).map_err(|(line, message)| {
                    // Line numbers are counted only when there is an error to report.
                    let before = memchr::memchr_iter(b'\n', &bytes[..offset]).count();
                    parse_error(path, line.map(|l| before + l), message)
                })
            })
            .collect();
        let mut run = Run::default();
        for part in parts {
            run.absorb(part?).map_err(|m| parse_error(path, None, m))?;
        }
        let Run { queries, arena, .. } = &mut run;
        let arena = arena.as_bytes();
        let bytes = |n: &Name| &arena[n.start as usize..(n.start + n.len) as usize];
        queries.par_iter_mut().for_each(|(_, items)| {
            items.sort_by(|a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then_with(|| match (&a.item, &b.item) {
                        (Item::Id(x), Item::Id(y)) => bytes(y).cmp(bytes(x)),
                        _ => std::cmp::Ordering::Equal,
                    })
            });
        });
        Ok(run)
    }

    /// Parses whole lines of a TREC run; errors carry the 1-based line within the piece.
    fn parse_trec_piece(bytes: &[u8]) -> std::result::Result<Run, (Option<usize>, String)> {
        let text = std::str::from_utf8(bytes).map_err(|e| (None, format!("not UTF-8: {e}")))?;
        let mut run = Run::default();
        // Runs list one question's lines together; remember the last slot to skip a lookup.
        let mut last: Option<(&str, usize)> = None;
        for (n, line) in text.lines().enumerate() {
            let mut fields = line.split_ascii_whitespace();
            let Some(qid) = fields.next() else { continue };
            let err = |message: String| (Some(n + 1), message);
            let (_q0, docid, _rank, score, _tag) = match (
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
                fields.next(),
            ) {
                (Some(a), Some(b), Some(c), Some(d), Some(e)) if fields.next().is_none() => (a, b, c, d, e),
                _ => return Err(err("expected 6 fields: qid Q0 docid rank score tag".into())),
            };
            let score: f64 = score
                .parse()
                .map_err(|_| err(format!("score `{score}` is not a number")))?;
            let slot = match last {
                Some((q, slot)) if q == qid => slot,
                _ => {
                    // A new question is usually as long as the previous one.
                    let hint = last.map_or(0, |(_, s)| run.queries[s].1.len());
                    let slot = run.query_slot(qid);
                    run.queries[slot].1.reserve(hint);
                    last = Some((qid, slot));
                    slot
                }
            };
            let name = run.store(docid).map_err(err)?;
            run.queries[slot].1.push(Retrieved {
                item: Item::Id(name),
                score,
            });
        }
        Ok(run)
    }

    /// Appends a run parsed from the text that follows this one.
    fn absorb(&mut self, other: Run) -> std::result::Result<(), String> {
        let shift = u32::try_from(self.arena.len())
            .ok()
            .filter(|s| {
                s.checked_add(u32::try_from(other.arena.len()).unwrap_or(u32::MAX))
                    .is_some()
            })
            .ok_or("run too large: item names exceed 4 GiB")?;
        self.arena.push_str(&other.arena);
        let texts = self.texts.len() as u32;
        self.texts.extend(other.texts);
        for (qid, mut items) in other.queries {
            for r in &mut items {
                match &mut r.item {
                    Item::Id(n) | Item::Span { doc: n, .. } => n.start += shift,
                    Item::Text(t) => *t += texts,
                }
            }
            let slot = self.query_slot(&qid);
            let list = &mut self.queries[slot].1;
            if list.is_empty() {
                *list = items;
            } else {
                list.extend(items);
            }
        }
        Ok(())
    }

    /// Parses a JSONL run; items keep list order.
    pub fn parse_jsonl(bytes: &[u8], path: &Path) -> Result<Run> {
        let text =
            std::str::from_utf8(bytes).map_err(|e| parse_error(path, None, format!("not UTF-8: {e}")))?;
        let mut run = Run::default();
        for (n, line) in text.lines().enumerate() {
            let line_no = n + 1;
            let Some(value) = limits::json_line(path, line_no, line)? else {
                continue;
            };
            let field_err = |field: &str, message: &str| Error::Field {
                path: path.to_path_buf(),
                line: Some(line_no),
                case: value.get("id").and_then(json_id),
                field: field.to_string(),
                message: message.to_string(),
            };
            let id = value
                .get("id")
                .and_then(json_id)
                .ok_or_else(|| field_err("id", "missing, or not a string or number"))?;
            let list = value
                .get("retrieved")
                .and_then(Value::as_array)
                .ok_or_else(|| field_err("retrieved", "missing, or not a list"))?;
            let mut items = Vec::with_capacity(list.len());
            for (i, v) in list.iter().enumerate() {
                let field = format!("retrieved[{i}]");
                let r = run.item(v).map_err(|m| field_err(&field, &m))?;
                items.push(r);
            }
            let slot = run.query_slot(&id);
            if !run.queries[slot].1.is_empty() {
                return Err(field_err("id", "question listed twice"));
            }
            run.queries[slot].1 = items;
        }
        Ok(run)
    }

    fn item(&mut self, v: &Value) -> std::result::Result<Retrieved, String> {
        if let Some(s) = v.as_str() {
            return Ok(Retrieved {
                item: Item::Id(self.store(s)?),
                score: f64::NAN,
            });
        }
        let Some(obj) = v.as_object() else {
            return Err("expected a string or an object".into());
        };
        let score = match obj.get("score") {
            None | Some(Value::Null) => f64::NAN,
            Some(s) => s.as_f64().ok_or("`score` is not a number")?,
        };
        let item = if let Some(text) = obj.get("text") {
            self.texts
                .push(text.as_str().ok_or("`text` is not a string")?.into());
            Item::Text((self.texts.len() - 1) as u32)
        } else if let Some(doc) = obj.get("doc") {
            let doc = doc.as_str().ok_or("`doc` is not a string")?;
            let offset = |key: &str| -> std::result::Result<u32, String> {
                obj.get(key)
                    .and_then(Value::as_u64)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or(format!("`{key}` missing or not a character offset"))
            };
            let (start, end) = (offset("start")?, offset("end")?);
            if end < start {
                return Err(format!("`end` {end} is before `start` {start}"));
            }
            Item::Span {
                doc: self.store(doc)?,
                start,
                end,
            }
        } else if let Some(id) = obj.get("id").and_then(json_id) {
            Item::Id(self.store(&id)?)
        } else {
            return Err("an item needs `id`, `doc`+`start`+`end`, or `text`".into());
        };
        Ok(Retrieved { item, score })
    }
}

/// Cuts `bytes` into about `n` pieces that end at line ends, with their offsets.
fn split_at_lines(bytes: &[u8], n: usize) -> Vec<(usize, &[u8])> {
    let mut pieces = Vec::with_capacity(n.max(1));
    let target = bytes.len() / n.max(1) + 1;
    let mut start = 0;
    while start < bytes.len() {
        let want = (start + target).min(bytes.len());
        let end = match memchr::memchr(b'\n', &bytes[want..]) {
            Some(i) => want + i + 1,
            None => bytes.len(),
        };
        pieces.push((start, &bytes[start..end]));
        start = end;
    }
    pieces
}

fn json_id(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn parse_error(path: &Path, line: Option<usize>, message: String) -> Error {
    Error::Parse {
        path: PathBuf::from(path),
        line,
        column: None,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(run: &Run, qid: &str) -> Vec<String> {
        run.get(qid)
            .unwrap()
            .iter()
            .map(|r| match &r.item {
                Item::Id(n) => run.name(*n).to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn trec_orders_by_score_then_docid_descending_ignoring_rank() {
        let text = "q1 Q0 a 1 1.0 x\nq1 Q0 c 2 2.0 x\nq1 Q0 b 3 1.0 x\n\nq2 Q0 z 1 0.5 x\nq1 Q0 d 9 3 x\n";
        let run = Run::parse_trec(text.as_bytes(), Path::new("r.txt")).unwrap();
        assert_eq!(ids(&run, "q1"), ["d", "c", "b", "a"]);
        assert_eq!(ids(&run, "q2"), ["z"]);
        assert!(run.has_scores());
    }

    #[test]
    fn pieces_end_at_lines_and_join_in_order() {
        let text: String = (0..1000)
            .map(|i| format!("q{} Q0 d{i} {i} {} x\n", i / 7, i % 3))
            .collect();
        let pieces = split_at_lines(text.as_bytes(), 3);
        assert!(pieces.len() >= 3);
        assert!(pieces.iter().all(|(_, p)| p.ends_with(b"\n")));
        let joined: Vec<u8> = pieces.iter().flat_map(|(_, p)| p.iter().copied()).collect();
        assert_eq!(joined, text.as_bytes());
        // Parsed in pieces, a question cut in two is whole again.
        let run = Run::parse_trec(text.as_bytes(), Path::new("r.txt")).unwrap();
        assert_eq!(run.queries.len(), 143);
        assert!(
            run.queries
                .iter()
                .all(|(_, items)| items.len() == 7 || items.len() == 1000 % 7)
        );
        let err =
            Run::parse_trec(format!("{text}q1 Q0 d1 1 x x\n").as_bytes(), Path::new("r.txt")).unwrap_err();
        assert_eq!(err.to_string(), "r.txt:1001: score `x` is not a number");
    }

    #[test]
    fn trec_errors_name_the_line() {
        let err = Run::parse_trec(b"q1 Q0 a 1 1.0 x\nq1 Q0 b 2 high x\n", Path::new("r.txt")).unwrap_err();
        assert_eq!(err.to_string(), "r.txt:2: score `high` is not a number");
        let err = Run::parse_trec(b"q1 Q0 a 1\n", Path::new("r.txt")).unwrap_err();
        assert!(err.to_string().starts_with("r.txt:1: expected 6 fields"), "{err}");
    }

    #[test]
    fn jsonl_items_of_every_kind_keep_list_order() {
        let text = r#"{"id": "c1", "retrieved": ["a.md#2", {"doc": "a.md", "start": 5, "end": 9, "score": 0.7}, {"text": "hello"}, {"id": "x", "score": 1}]}"#;
        let run = Run::parse_jsonl(text.as_bytes(), Path::new("r.jsonl")).unwrap();
        let items = run.get("c1").unwrap();
        assert_eq!(items.len(), 4);
        assert!(matches!(items[0].item, Item::Id(n) if run.name(n) == "a.md#2"));
        assert!(matches!(items[1].item, Item::Span { start: 5, end: 9, .. }));
        assert_eq!(items[1].score(), Some(0.7));
        assert!(matches!(&items[2].item, Item::Text(t) if run.text(*t) == "hello"));
        assert_eq!(items[3].score(), Some(1.0));
        assert_eq!(items[0].score(), None);
    }

    #[test]
    fn jsonl_errors_name_line_case_and_field() {
        let text = "{\"id\": \"c1\", \"retrieved\": []}\n{\"id\": \"c2\", \"retrieved\": [{\"doc\": \"a.md\", \"start\": 3}]}\n";
        let err = Run::parse_jsonl(text.as_bytes(), Path::new("r.jsonl")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "r.jsonl:2: case `c2`: field `retrieved[0]`: `end` missing or not a character offset"
        );
    }
}
