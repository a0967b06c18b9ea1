//! ragsynth seeds and audits the test sets used to evaluate retrieval-augmented generation.
//!
//! Data flows one way: [`corpus`] → [`chunk`] → plan → LLM → cases → audit → report. Every
//! command reads and writes the same [`testset`] file; the binary (`src/main.rs`) only parses
//! arguments and dispatches to these modules.

pub mod audit;
pub mod chunk;
pub mod config;
pub mod corpus;
pub mod error;
pub mod eval;
pub mod fsutil;
pub mod generate;
pub mod html;
pub mod import;
pub mod index;
pub mod judge;
pub mod limits;
pub mod llm;
pub mod locate;
pub mod pii;
pub mod redact;
pub mod remap;
pub mod render;
pub mod review;
pub mod severity;
pub mod terminal;
pub mod testset;
pub mod text;
pub mod wording;
pub mod workspace;

pub use error::{Error, Result};
