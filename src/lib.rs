//! ragsynth seeds and audits the test sets used to evaluate retrieval-augmented generation.
//!
//! Data flows one way: [`corpus`] → [`chunk`] → plan → LLM → cases → audit → report. Every
//! command reads and writes the same [`testset`] file, opened with its corpus and chunks by
//! [`workspace`]; reports become bytes in [`render`]. The binary (`src/main.rs`, `cli/`,
//! `cmd/`) only parses arguments, calls these modules and prints. `ARCHITECTURE.md` maps the
//! modules and what each may import.

pub mod audit;
pub mod calibrate;
pub mod chunk;
pub mod config;
pub mod corpus;
pub mod error;
pub mod eval;
pub mod export;
pub mod fsutil;
pub mod generate;
pub mod html;
pub mod http;
pub mod import;
pub mod index;
pub mod judge;
pub mod lang;
pub mod limits;
pub mod llm;
pub mod locate;
pub mod pii;
pub mod prompts;
pub mod redact;
pub mod remap;
pub mod render;
pub mod review;
pub mod run;
pub mod severity;
pub mod style;
pub mod terminal;
pub mod testset;
pub mod text;
pub mod wording;
pub mod workspace;

pub use error::{Error, Result};
