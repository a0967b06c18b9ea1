//! How documents are cut: the [`Chunking`] a test-set header stores (splitter, unit, size,
//! overlap), and why one cannot be used ([`ChunkingError`], kept with the crate's errors).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::error::ChunkingError;
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
