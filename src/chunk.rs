//! Chunking: documents become chunks with stable ids and character spans.
//!
//! Splitting is `text-splitter`'s (Markdown-aware for markdown, plain otherwise). Every chunk
//! records `start..end` in Unicode scalar values, as Python would index the same text, so the
//! invariant `doc.text.chars()[start..end] == chunk.text` holds whatever the script.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use text_splitter::{Characters, ChunkConfig, ChunkSizer, MarkdownSplitter, TextSplitter};

use crate::corpus::{DocKind, Document, Skipped, Walk};
use crate::{Error, Result};

/// Which splitter a document goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Splitter {
    /// Markdown splitter for `.md`/`.markdown`, text splitter for the rest.
    #[default]
    Auto,
    /// Markdown splitter for every document.
    Markdown,
    /// Plain text splitter for every document.
    Text,
}

impl Splitter {
    /// The name used on the command line and in the header.
    pub fn as_str(self) -> &'static str {
        match self {
            Splitter::Auto => "auto",
            Splitter::Markdown => "markdown",
            Splitter::Text => "text",
        }
    }
}

impl FromStr for Splitter {
    type Err = Error;
    fn from_str(s: &str) -> Result<Splitter> {
        [Splitter::Auto, Splitter::Markdown, Splitter::Text]
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| Error::UnknownValue {
                what: "splitter",
                value: s.to_string(),
                expected: "auto, markdown or text",
            })
    }
}

/// What chunk sizes are counted in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Unit {
    /// Unicode scalar values.
    #[default]
    Chars,
    /// Tokens of a tiktoken encoding (`cl100k_base`, `o200k_base`, `p50k_base`, `r50k_base`).
    Tokens(String),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Chars => f.write_str("chars"),
            Unit::Tokens(enc) => write!(f, "tokens:{enc}"),
        }
    }
}

impl FromStr for Unit {
    type Err = Error;
    fn from_str(s: &str) -> Result<Unit> {
        match s {
            "chars" => Ok(Unit::Chars),
            "tokens" => Ok(Unit::Tokens("cl100k_base".into())),
            _ => match s.strip_prefix("tokens:") {
                Some(enc) if ENCODINGS.contains(&enc) => Ok(Unit::Tokens(enc.to_string())),
                _ => Err(Error::UnknownValue {
                    what: "unit",
                    value: s.to_string(),
                    expected: "chars or tokens:<cl100k_base|o200k_base|p50k_base|r50k_base>",
                }),
            },
        }
    }
}

impl Serialize for Unit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Unit {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// tiktoken encodings ragsynth can count tokens with.
pub const ENCODINGS: &[&str] = &["cl100k_base", "o200k_base", "p50k_base", "r50k_base"];

/// How documents are cut into chunks. Stored in the test-set header, so every command sees the
/// same chunks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunking {
    /// Which splitter.
    #[serde(default)]
    pub splitter: Splitter,
    /// What `size` counts.
    #[serde(default)]
    pub unit: Unit,
    /// Largest chunk.
    pub size: usize,
    /// Smallest chunk the splitter aims for (it fills chunks up to `size` from here); default
    /// `size`, the splitter's own behaviour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_size: Option<usize>,
    /// Overlap between neighbouring chunks, in the same unit.
    #[serde(default)]
    pub overlap: usize,
}

impl Default for Chunking {
    fn default() -> Self {
        Chunking {
            splitter: Splitter::Auto,
            unit: Unit::Chars,
            size: 1200,
            min_size: None,
            overlap: 120,
        }
    }
}

impl Chunking {
    /// Checks the numbers fit together.
    pub fn validate(&self) -> Result<(), ChunkingError> {
        if self.size == 0 {
            return Err(ChunkingError::ZeroSize);
        }
        if self.overlap >= self.size {
            return Err(ChunkingError::OverlapTooLarge {
                overlap: self.overlap,
                size: self.size,
            });
        }
        if let Some(min) = self.min_size
            && min > self.size
        {
            return Err(ChunkingError::MinAboveSize { min, size: self.size });
        }
        Ok(())
    }
}

/// Why a chunking cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChunkingError {
    /// `size` is 0.
    #[error("chunk size must be positive")]
    ZeroSize,
    /// `overlap` is not below `size`.
    #[error("overlap ({overlap}) must be smaller than the chunk size ({size})")]
    OverlapTooLarge {
        /// The overlap.
        overlap: usize,
        /// The size.
        size: usize,
    },
    /// `min_size` is above `size`.
    #[error("min size ({min}) exceeds size ({size})")]
    MinAboveSize {
        /// The smallest size.
        min: usize,
        /// The size.
        size: usize,
    },
    /// The tiktoken encoding could not be loaded.
    #[error("loading tiktoken encoding `{encoding}`: {message}")]
    Tokenizer {
        /// The encoding.
        encoding: String,
        /// What tiktoken said.
        message: String,
    },
}

/// Changes to a chunking, each field replacing the one it names (`ragsynth remap --size ...`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkingOverrides {
    /// New largest chunk.
    pub size: Option<usize>,
    /// New smallest chunk.
    pub min_size: Option<usize>,
    /// New overlap.
    pub overlap: Option<usize>,
    /// New unit.
    pub unit: Option<Unit>,
    /// New splitter.
    pub splitter: Option<Splitter>,
}

impl ChunkingOverrides {
    /// `base` with these changes laid over it, checked.
    pub fn apply(&self, mut base: Chunking) -> Result<Chunking, ChunkingError> {
        base.size = self.size.unwrap_or(base.size);
        base.min_size = self.min_size.or(base.min_size);
        base.overlap = self.overlap.unwrap_or(base.overlap);
        if let Some(unit) = &self.unit {
            base.unit = unit.clone();
        }
        base.splitter = self.splitter.unwrap_or(base.splitter);
        base.validate()?;
        Ok(base)
    }
}

impl fmt::Display for Chunking {
    /// `markdown splitter, 1200 chars, overlap 120`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} splitter, {} {}, overlap {}",
            self.splitter.as_str(),
            self.size,
            self.unit,
            self.overlap
        )
    }
}

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
        let pieces: Vec<(usize, &str)> = if markdown {
            MarkdownSplitter::new(cfg)
                .chunk_char_indices(&doc.text)
                .map(|c| (c.char_offset, c.chunk))
                .collect()
        } else {
            TextSplitter::new(cfg)
                .chunk_char_indices(&doc.text)
                .map(|c| (c.char_offset, c.chunk))
                .collect()
        };
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

/// Maps character offsets of one text to byte offsets and back, in O(log n) per lookup after
/// one pass. Labels are in characters; Rust slices are in bytes.
pub struct CharIndex<'a> {
    text: &'a str,
    /// Byte offset of every 64th character, so memory is 1/64 of the char count.
    marks: Vec<usize>,
    chars: usize,
}

const MARK_EVERY: usize = 64;

impl<'a> CharIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut marks = Vec::with_capacity(text.len() / MARK_EVERY + 1);
        let mut chars = 0;
        for (i, (b, _)) in text.char_indices().enumerate() {
            if i % MARK_EVERY == 0 {
                marks.push(b);
            }
            chars = i + 1;
        }
        CharIndex { text, marks, chars }
    }

    /// Number of characters.
    pub fn char_len(&self) -> usize {
        self.chars
    }

    /// Byte offset of character `c` (`c == char_len()` gives the text length); `None` past it.
    pub fn byte_of(&self, c: usize) -> Option<usize> {
        if c > self.chars {
            return None;
        }
        if c == self.chars {
            return Some(self.text.len());
        }
        let mark = self.marks[c / MARK_EVERY];
        let rest = c % MARK_EVERY;
        self.text[mark..].char_indices().nth(rest).map(|(b, _)| mark + b)
    }

    /// Character offset of byte `b` (which must be a char boundary).
    pub fn char_of(&self, b: usize) -> usize {
        let m = self.marks.partition_point(|&x| x <= b).saturating_sub(1);
        m * MARK_EVERY
            + self.text[self.marks.get(m).copied().unwrap_or(0)..b]
                .chars()
                .count()
    }

    /// The text between two character offsets, `None` if out of range.
    pub fn slice(&self, start: usize, end: usize) -> Option<&'a str> {
        if start > end {
            return None;
        }
        Some(&self.text[self.byte_of(start)?..self.byte_of(end)?])
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
