//! Chunking: documents become chunks with stable ids and character spans.
//!
//! Splitting is `text-splitter`'s (Markdown-aware for markdown, plain otherwise). Every chunk
//! records `start..end` in Unicode scalar values, as Python would index the same text, so the
//! invariant `doc.text.chars()[start..end] == chunk.text` holds whatever the script. The
//! chunking itself (what a header stores) is in `config`; offsets convert in [`CharIndex`].
//! A line longer than some 32 chunks is cut into pieces first (`long_lines`), which keeps the
//! splitter linear in the length of the line.

mod char_index;
mod config;
mod long_lines;

use serde::Serialize;
use text_splitter::{Characters, ChunkConfig, ChunkSizer, MarkdownSplitter, TextSplitter};

pub use char_index::CharIndex;
pub use config::{Chunking, ChunkingError, ENCODINGS, Splitter, Unit};

use crate::corpus::{DocKind, Document, Skipped, Walk};
use crate::{Error, Result};

/// A piece of a document: the unit a retriever returns and a label points into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Chunk {
    /// `doc#n`, n counting from 0 within the document under this chunking.
    pub id: String,
    /// The document's label path.
    pub doc: String,
    /// Start, in Unicode scalar values.
    pub start: usize,
    /// End (exclusive), in Unicode scalar values.
    pub end: usize,
    /// The chunk's text.
    pub text: String,
}

impl Chunk {
    /// Number of characters.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// True for a zero-length chunk (never produced by the chunker).
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// One document's turn in [`Chunker::stream`].
pub enum Streamed<'a> {
    /// A document and its chunks.
    Chunked(&'a Document, Vec<Chunk>),
    /// A file left out, and why.
    Skipped(Skipped),
}

/// A ready-to-use chunker: the configuration with its tokenizer loaded once.
pub struct Chunker {
    config: Chunking,
    sizer: Sizer,
}

enum Sizer {
    Chars,
    Tokens(Box<tiktoken_rs::CoreBPE>),
}

impl Chunker {
    /// Builds a chunker, loading the tiktoken encoding if sizes are in tokens.
    pub fn new(config: Chunking) -> Result<Chunker> {
        config.validate()?;
        let sizer = match &config.unit {
            Unit::Chars => Sizer::Chars,
            Unit::Tokens(enc) => {
                let bpe = match enc.as_str() {
                    "cl100k_base" => tiktoken_rs::cl100k_base(),
                    "o200k_base" => tiktoken_rs::o200k_base(),
                    "p50k_base" => tiktoken_rs::p50k_base(),
                    "r50k_base" => tiktoken_rs::r50k_base(),
                    other => {
                        return Err(Error::UnknownValue {
                            what: "tiktoken encoding",
                            value: other.to_string(),
                            expected: "cl100k_base, o200k_base, p50k_base or r50k_base",
                        });
                    }
                }
                .map_err(|e| ChunkingError::Tokenizer {
                    encoding: enc.clone(),
                    message: e.to_string(),
                })?;
                Sizer::Tokens(Box::new(bpe))
            }
        };
        Ok(Chunker { config, sizer })
    }

    /// The configuration.
    pub fn config(&self) -> &Chunking {
        &self.config
    }

    /// Cuts one document into chunks.
    pub fn chunk(&self, doc: &Document) -> Vec<Chunk> {
        let markdown = match self.config.splitter {
            Splitter::Auto => doc.kind == DocKind::Markdown,
            Splitter::Markdown => true,
            Splitter::Text => false,
        };
        match &self.sizer {
            Sizer::Chars => self.split(doc, markdown, Characters),
            Sizer::Tokens(bpe) => self.split(doc, markdown, bpe.as_ref()),
        }
    }

    /// Cuts every document, in order. Documents are split in parallel (the Markdown splitter
    /// is the costly step of every command that reads a corpus).
    pub fn chunk_all<'a>(&self, docs: impl IntoIterator<Item = &'a Document>) -> Vec<Chunk> {
        self.chunk_each(&docs.into_iter().collect::<Vec<_>>())
            .into_iter()
            .flatten()
            .collect()
    }

    /// Cuts each document in parallel; the result keeps the documents' order.
    pub fn chunk_each(&self, docs: &[&Document]) -> Vec<Vec<Chunk>> {
        use rayon::prelude::*;
        docs.par_iter().map(|d| self.chunk(d)).collect()
    }

    /// Reads and cuts the documents of `walk` a few at a time, split in parallel, handing each
    /// to `each` in walk order (a file that cannot be read as it is met): memory is bounded by
    /// a few of the largest documents, never by the corpus. Stops at the first error `each`
    /// returns.
    pub fn stream<E>(
        &self,
        walk: &Walk,
        mut each: impl FnMut(Streamed<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let batch = rayon::current_num_threads() * 2;
        let mut docs = walk.documents().peekable();
        while docs.peek().is_some() {
            let mut read = Vec::with_capacity(batch);
            for doc in docs.by_ref().take(batch) {
                match doc {
                    Ok(d) => read.push(d),
                    Err(s) => each(Streamed::Skipped(s))?,
                }
            }
            let refs: Vec<_> = read.iter().collect();
            for (doc, chunks) in read.iter().zip(self.chunk_each(&refs)) {
                each(Streamed::Chunked(doc, chunks))?;
            }
        }
        Ok(())
    }

    fn split<S: ChunkSizer>(&self, doc: &Document, markdown: bool, sizer: S) -> Vec<Chunk> {
        let min = self.config.min_size.unwrap_or(self.config.size);
        let cfg = ChunkConfig::new(min..=self.config.size)
            .with_sizer(sizer)
            .with_overlap(self.config.overlap)
            .expect("overlap < size is checked in Chunking::validate");
        // A token is some four characters of English text.
        let chars_per_unit = if matches!(self.config.unit, Unit::Chars) {
            1
        } else {
            4
        };
        let piece_chars = self.config.size * chars_per_unit * long_lines::PIECE_CHUNKS;
        type Cut<'s> = Box<dyn for<'t> Fn(&'t str) -> Vec<(usize, &'t str)> + 's>;
        let cut: Cut<'_> = if markdown {
            let splitter = MarkdownSplitter::new(cfg);
            Box::new(move |t| {
                splitter
                    .chunk_char_indices(t)
                    .map(|c| (c.char_offset, c.chunk))
                    .collect()
            })
        } else {
            let splitter = TextSplitter::new(cfg);
            Box::new(move |t| {
                splitter
                    .chunk_char_indices(t)
                    .map(|c| (c.char_offset, c.chunk))
                    .collect()
            })
        };
        let mut pieces: Vec<(usize, &str)> = Vec::new();
        let (mut chars_before, mut counted_to) = (0, 0);
        for range in long_lines::pieces(&doc.text, piece_chars) {
            chars_before += doc.text[counted_to..range.start].chars().count();
            counted_to = range.start;
            let offset = chars_before;
            pieces.extend(cut(&doc.text[range]).into_iter().map(|(c, t)| (offset + c, t)));
        }
        pieces
            .into_iter()
            .enumerate()
            .map(|(n, (start, text))| Chunk {
                id: format!("{}#{n}", doc.path),
                doc: doc.path.clone(),
                start,
                end: start + text.chars().count(),
                text: text.to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, text: &str, kind: DocKind) -> Document {
        Document {
            path: path.into(),
            text: text.into(),
            kind,
            sha256: String::new(),
        }
    }

    fn assert_spans(d: &Document, chunks: &[Chunk]) {
        let chars: Vec<char> = d.text.chars().collect();
        for c in chunks {
            let s: String = chars[c.start..c.end].iter().collect();
            assert_eq!(s, c.text, "span of {}", c.id);
        }
    }

    #[test]
    fn spans_hold_for_multibyte_text() {
        let text = "# 見出し\n\n日本語の文章です。😀 Emoji and e\u{301}clair.\n\n## Zwei\n\nÄrger über Öl. "
            .repeat(40);
        let d = doc("ja/doc.md", &text, DocKind::Markdown);
        let chunker = Chunker::new(Chunking {
            size: 80,
            overlap: 10,
            ..Chunking::default()
        })
        .unwrap();
        let chunks = chunker.chunk(&d);
        assert!(chunks.len() > 10);
        assert_spans(&d, &chunks);
        assert_eq!(chunks[3].id, "ja/doc.md#3");
    }

    #[test]
    fn token_unit_chunks_by_tokens() {
        let text = "word ".repeat(2000);
        let d = doc("a.txt", &text, DocKind::Text);
        let chunker = Chunker::new(Chunking {
            unit: "tokens:cl100k_base".parse().unwrap(),
            size: 100,
            overlap: 0,
            ..Chunking::default()
        })
        .unwrap();
        let chunks = chunker.chunk(&d);
        assert!((18..=25).contains(&chunks.len()), "{} chunks", chunks.len());
        assert_spans(&d, &chunks);
    }

    #[test]
    fn bad_configs_are_refused() {
        assert!(
            Chunker::new(Chunking {
                size: 10,
                overlap: 10,
                ..Chunking::default()
            })
            .is_err()
        );
        assert!("tokens:nope".parse::<Unit>().is_err());
        assert_eq!(
            "tokens:o200k_base".parse::<Unit>().unwrap().to_string(),
            "tokens:o200k_base"
        );
    }

    /// Issue 66, defect 7: a one-line file chunked in quadratic time (200 KB 0.13 s, 1.6 MB
    /// 7.7 s, 13.9 MB never). Eight times the text must now take under sixteen times as long,
    /// both measured here (the best of three runs each); spans still hold.
    #[test]
    fn a_long_line_is_chunked_in_linear_time() {
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
        let line = |bytes: usize| {
            let mut s = String::with_capacity(bytes + 8);
            let mut i = 0;
            while s.len() < bytes {
                s.push_str(words[i % words.len()]);
                s.push(' ');
                i += 7;
            }
            s
        };
        let chunker = Chunker::new(Chunking::default()).unwrap();
        let time = |d: &Document| {
            (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    let n = chunker.chunk(d).len();
                    (t.elapsed(), n)
                })
                .min()
                .unwrap()
        };
        let small = doc("small.txt", &line(100_000), DocKind::Text);
        let large = doc("large.txt", &line(800_000), DocKind::Text);
        let ((t_small, _), (t_large, n)) = (time(&small), time(&large));
        let ratio = t_large.as_secs_f64() / t_small.as_secs_f64().max(1e-6);
        assert!(
            ratio < 16.0,
            "8x the text took {ratio:.1}x the time ({t_small:?} vs {t_large:?})"
        );
        let chunks = chunker.chunk(&large);
        assert_eq!(chunks.len(), n);
        assert_spans(&large, &chunks);
        assert!(chunks.iter().all(|c| c.len() <= 1200));
    }

    #[test]
    fn char_index_round_trips() {
        let text = "aé😀b".repeat(100);
        let idx = CharIndex::new(&text);
        assert_eq!(idx.char_len(), 400);
        for c in 0..=400 {
            let b = idx.byte_of(c).unwrap();
            assert_eq!(idx.char_of(b), c);
        }
        assert_eq!(idx.slice(1, 3), Some("é😀"));
        assert_eq!(idx.byte_of(401), None);
    }
}
