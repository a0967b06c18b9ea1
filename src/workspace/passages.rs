//! The corpus's passages: each document cut at its blank lines, the unit many RAG indexes
//! retrieve and the one a question must point to, not just its neighbourhood. A chunk of
//! 1,200 characters holds a page's section; a question that shares only the section's words
//! finds its chunk but not its paragraph. The sample corpus's real questions find their chunk
//! first about half the time, their paragraph one time in twenty, while the questions a model
//! writes beside the paragraph find both: measured at the chunk alone, the two parts look
//! alike when they are not.
//!
//! Only the spans are kept (read from the documents when the chunks are cut); a passage's text
//! is read back from the chunks that cover it when the index is first built, so a corpus is not
//! held twice.

use std::collections::HashMap;
use std::ops::Range;

use crate::chunk::Chunk;
use crate::testset::Label;

/// Every passage of a corpus, in corpus order, with each document's run of them.
#[derive(Debug, Clone, Default)]
pub struct Passages {
    /// Character spans, per document in order.
    spans: Vec<(usize, usize)>,
    /// Each document's passages (positions in `spans`).
    by_doc: HashMap<String, Range<usize>>,
}

impl Passages {
    /// Adds `doc`'s passages, read from its `text`.
    pub fn push_doc(&mut self, doc: &str, text: &str) {
        let first = self.spans.len();
        self.spans.extend(spans(text));
        self.by_doc.insert(doc.to_string(), first..self.spans.len());
    }

    /// Number of passages.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Positions of `doc`'s passages that overlap `start..end` (a point span counts the passage
    /// holding it).
    pub fn overlapping(&self, doc: &str, start: usize, end: usize) -> Vec<usize> {
        self.by_doc
            .get(doc)
            .cloned()
            .unwrap_or(0..0)
            .filter(|&i| {
                let (s, e) = self.spans[i];
                s < end.max(start + 1) && start < e
            })
            .collect()
    }

    /// Positions of the passages `labels` overlap, each once, in corpus order.
    pub fn labelled(&self, labels: &[Label]) -> Vec<usize> {
        let mut source: Vec<usize> = labels
            .iter()
            .flat_map(|l| self.overlapping(&l.doc, l.start, l.end))
            .collect();
        source.sort_unstable();
        source.dedup();
        source
    }

    /// Whether each chunk is one passage (its document's `n`th passage lies in its `n`th chunk,
    /// and there are as many): then the two grains are one and the chunks' index serves both.
    pub fn one_per_chunk(&self, chunks: &[Chunk], chunk_range: impl Fn(&str) -> Range<usize>) -> bool {
        self.by_doc.iter().all(|(doc, range)| {
            let doc_chunks = chunk_range(doc);
            range.len() == doc_chunks.len()
                && range.clone().zip(doc_chunks).all(|(p, c)| {
                    let (s, e) = self.spans[p];
                    chunks[c].start <= s && e <= chunks[c].end
                })
        })
    }

    /// Each passage's text, read from `chunks` (the same corpus's, in corpus order; a chunk's
    /// text is its document's characters `start..end`), and the position of the chunk its first
    /// character lies in. Whitespace between two chunks, which no chunk holds, is left out.
    pub fn texts(
        &self,
        chunks: &[Chunk],
        chunk_range: impl Fn(&str) -> Range<usize>,
    ) -> Vec<(String, usize)> {
        let mut out = vec![(String::new(), 0); self.spans.len()];
        for (doc, range) in &self.by_doc {
            let doc_chunks = chunk_range(doc);
            let mut first = doc_chunks.start;
            for i in range.clone() {
                let (s, e) = self.spans[i];
                while first < doc_chunks.end && chunks[first].end <= s {
                    first += 1;
                }
                let mut text = String::new();
                let mut covered = s;
                let mut home = first.min(doc_chunks.end.saturating_sub(1));
                for (k, c) in chunks[first.min(doc_chunks.end)..doc_chunks.end]
                    .iter()
                    .enumerate()
                {
                    if c.start >= e {
                        break;
                    }
                    let from = covered.max(c.start);
                    let to = e.min(c.end);
                    if from < to {
                        if text.is_empty() {
                            home = first + k;
                        } else if from > covered {
                            text.push(' ');
                        }
                        text.extend(c.text.chars().skip(from - c.start).take(to - from));
                        covered = to;
                    }
                }
                out[i] = (text, home);
            }
        }
        out
    }
}

/// The blank-line paragraphs of `text`: character spans, each trimmed of surrounding
/// whitespace, none empty.
pub fn spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Character position of the current paragraph's first non-blank character, and of the
    // character after its last one.
    let mut start: Option<usize> = None;
    let mut end = 0;
    // Whether the current line has held only spaces or tabs so far, and whether a line of that
    // kind has ended since the last non-blank character.
    let mut line_blank = true;
    let mut blank_line_seen = false;
    for (pos, ch) in text.chars().enumerate() {
        if ch == '\n' {
            if line_blank && start.is_some() && end > 0 {
                blank_line_seen = true;
            }
            line_blank = true;
            continue;
        }
        if ch.is_whitespace() {
            continue;
        }
        if blank_line_seen {
            if let Some(s) = start {
                out.push((s, end));
            }
            start = None;
            blank_line_seen = false;
        }
        line_blank = false;
        start.get_or_insert(pos);
        end = pos + 1;
    }
    if let Some(s) = start {
        out.push((s, end));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts_of(text: &str) -> Vec<String> {
        spans(text)
            .into_iter()
            .map(|(s, e)| text.chars().skip(s).take(e - s).collect())
            .collect()
    }

    #[test]
    fn blank_lines_cut_passages_and_single_newlines_do_not() {
        let text = "# Title\n\nFirst line\nsame paragraph.\n  \t\nSecond é.\n\n\n- item\n- item 2\n";
        assert_eq!(
            texts_of(text),
            [
                "# Title",
                "First line\nsame paragraph.",
                "Second é.",
                "- item\n- item 2"
            ]
        );
        assert!(spans("").is_empty());
        assert!(spans("\n\n  \n").is_empty());
        assert_eq!(texts_of("  one  "), ["one"]);
    }

    #[test]
    fn a_passage_is_read_back_from_the_chunks_that_cover_it() {
        let text = "alpha beta\n\ngamma delta epsilon\n\nzeta";
        let mut p = Passages::default();
        p.push_doc("d.md", text);
        let chunk = |start: usize, end: usize| Chunk {
            id: String::new(),
            doc: "d.md".into(),
            start,
            end,
            text: text.chars().skip(start).take(end - start).collect(),
        };
        // Two chunks that overlap in the middle passage.
        let chunks = [chunk(0, 20), chunk(12, 37)];
        let texts = p.texts(&chunks, |_| 0..2);
        assert_eq!(
            texts,
            [
                ("alpha beta".to_string(), 0),
                ("gamma delta epsilon".to_string(), 0),
                ("zeta".to_string(), 1)
            ]
        );
        assert_eq!(p.overlapping("d.md", 14, 15), vec![1]);
        assert_eq!(p.overlapping("d.md", 0, 40), vec![0, 1, 2]);
        assert!(p.overlapping("other.md", 0, 40).is_empty());
        assert!(
            !p.one_per_chunk(&chunks, |_| 0..2),
            "three passages in two chunks"
        );
        let by_paragraph = [chunk(0, 10), chunk(12, 31), chunk(33, 37)];
        assert!(p.one_per_chunk(&by_paragraph, |_| 0..3));
    }
}
