//! Chunks for people: a row per document (characters, chunks, and the smallest, mean and
//! largest chunk), then totals. Rows are gathered as documents stream in; column widths need
//! them all, so the table is written at the end.

use std::io::{self, Write};

use crate::chunk::Chunk;
use crate::corpus::Document;

/// The per-document table, filled as documents are chunked.
#[derive(Debug, Default)]
pub struct Table {
    rows: Vec<(String, String, usize, Vec<usize>)>,
    sizes: Vec<usize>,
    skipped: usize,
}

impl Table {
    /// An empty table; `skipped` files were left out before any was read.
    pub fn new(skipped: usize) -> Table {
        Table {
            skipped,
            ..Table::default()
        }
    }

    /// Adds a document's row; `language` as [`crate::lang::document_label`] shows it.
    pub fn add(&mut self, doc: &Document, language: String, chunks: &[Chunk]) {
        let lens: Vec<usize> = chunks.iter().map(Chunk::len).collect();
        self.sizes.extend(&lens);
        // A file name can hold escape sequences: show them, do not send them.
        self.rows.push((
            crate::terminal::data(&doc.path).into_owned(),
            language,
            doc.char_len(),
            lens,
        ));
    }

    /// Counts a file left out.
    pub fn skip(&mut self) {
        self.skipped += 1;
    }

    /// Writes the table and the totals.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let width = self.rows.iter().map(|r| r.0.len()).max().unwrap_or(8).max(8);
        writeln!(
            out,
            "{:<width$}  {:<5}  {:>9}  {:>6}  {:>6}  {:>6}  {:>6}",
            "document", "lang", "chars", "chunks", "min", "mean", "max"
        )?;
        for (path, lang, chars, lens) in &self.rows {
            let (min, mean, max) = stats(lens);
            writeln!(
                out,
                "{path:<width$}  {lang:<5}  {chars:>9}  {:>6}  {min:>6}  {mean:>6.0}  {max:>6}",
                lens.len()
            )?;
        }
        let mut languages: std::collections::BTreeMap<&str, usize> = Default::default();
        for (_, lang, _, _) in &self.rows {
            *languages.entry(lang.as_str()).or_default() += 1;
        }
        let mixed = languages.keys().any(|l| l.contains('+'));
        let languages: Vec<String> = languages.iter().map(|(l, n)| format!("{l} {n}")).collect();
        let (min, mean, max) = stats(&self.sizes);
        writeln!(
            out,
            "\n{} documents, {} chunks (chars per chunk: min {min}, mean {mean:.0}, max {max}), {} files skipped\nlanguages: {}{}",
            self.rows.len(),
            self.sizes.len(),
            self.skipped,
            languages.join(", "),
            if mixed {
                " (a document marked a+b mixes languages: it is read in the first, a chunk in another script in its own)"
            } else {
                ""
            }
        )
    }
}

fn stats(v: &[usize]) -> (usize, f64, usize) {
    if v.is_empty() {
        return (0, 0.0, 0);
    }
    let sum: usize = v.iter().sum();
    (
        *v.iter().min().unwrap_or(&0),
        sum as f64 / v.len() as f64,
        *v.iter().max().unwrap_or(&0),
    )
}
