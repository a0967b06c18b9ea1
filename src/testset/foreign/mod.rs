//! Test sets written by other tools — Ragas (0.1 and ≥ 0.2), DeepEval goldens, Giskard's
//! QATestset, LlamaIndex's datasets, promptfoo tests files — and plain question files, read into one shape so that
//! `import` (which converts them into a ragsynth set) and `audit` (which checks them as they
//! are) see exactly the same cases.
//!
//! Reading is in three steps: [`records`] reads the file (CSV, JSON, JSON Lines; each record
//! with its line), [`detect`] tells the format from the fields present, and [`formats`] /
//! [`llama`] turn each record into a [`ForeignCase`]: the question, the reference answer, every
//! context passage separately (lists written by Python, `<N-hop>` markers and Giskard's
//! `Document N:` blocks undone), the generator's own question type mapped to ours, and every
//! field we do not use, kept. [`convert`] then locates each passage in the corpus.

pub mod convert;
mod detect;
mod formats;
pub mod lists;
mod llama;
pub mod promptfoo;
pub mod records;

use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};

pub use convert::{ConvertOptions, Converted, LocateStats, convert};
pub use detect::{Family, detect, detect_input};

use super::{QuestionType, Source};
use crate::{Error, Result};

/// The format of a file, as detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// ragsynth's own test set.
    Ragsynth,
    /// Ragas ≥ 0.2: `user_input`, `reference_contexts`, `reference`, `synthesizer_name`.
    Ragas,
    /// Ragas 0.1: `question`, `contexts`, `ground_truth`, `evolution_type`.
    RagasLegacy,
    /// DeepEval goldens: `input`, `expected_output`, `context`, `source_file`.
    DeepEval,
    /// Giskard RAGET's QATestset: `question`, `reference_answer`, `reference_context`, `metadata`.
    Giskard,
    /// LlamaIndex `EmbeddingQAFinetuneDataset`: `queries`, `corpus`, `relevant_docs`.
    LlamaPairs,
    /// promptfoo tests: `vars` (the question), `assert` (the reference answer), `metadata`.
    Promptfoo,
    /// LlamaIndex `LabelledRagDataset`: `examples` of `query`, `reference_contexts`, `query_by`.
    LlamaLabelled,
    /// A question column, optionally answer / context / doc / quote / topic / type / id.
    Plain,
}

impl Format {
    /// The tool's short name, used in case ids (`ragas-12`) and in `provenance.generator`.
    pub fn tool(self) -> &'static str {
        match self {
            Format::Ragsynth => "ragsynth",
            Format::Ragas | Format::RagasLegacy => "ragas",
            Format::DeepEval => "deepeval",
            Format::Giskard => "giskard",
            Format::LlamaPairs | Format::LlamaLabelled => "llamaindex",
            Format::Promptfoo => "promptfoo",
            Format::Plain => "csv",
        }
    }

    /// Whether an LLM wrote the questions (so its cases are synthetic unless told otherwise).
    pub fn is_generator(self) -> bool {
        !matches!(self, Format::Ragsynth | Format::Plain)
    }

    /// What a file of this format must have, for the message that lists them all.
    pub fn needs(self) -> &'static str {
        match self {
            Format::Ragsynth => "a YAML file, or JSON Lines of `id` + `question` + `relevant`",
            Format::Ragas => "`user_input` (+ `reference_contexts`, `reference`, `synthesizer_name`)",
            Format::RagasLegacy => "`question` + `contexts` + `ground_truth` or `evolution_type`",
            Format::DeepEval => "`input` + `expected_output` or `context`",
            Format::Giskard => "`question` + `reference_context` or `reference_answer`",
            Format::LlamaPairs => "an object of `queries`, `corpus`, `relevant_docs`",
            Format::LlamaLabelled => "`examples` whose items have `query` + `reference_contexts`",
            Format::Promptfoo => "a list of tests with `vars` (+ `assert`, `metadata`)",
            Format::Plain => "a `question` (or `query`) column, or the one named by --question-col",
        }
    }

    /// The tool family, to read the file again as this format.
    pub fn family(self) -> Option<Family> {
        Some(match self {
            Format::Ragsynth => return None,
            Format::Ragas | Format::RagasLegacy => Family::Ragas,
            Format::DeepEval => Family::DeepEval,
            Format::Giskard => Family::Giskard,
            Format::LlamaPairs | Format::LlamaLabelled => Family::LlamaIndex,
            Format::Promptfoo => Family::Promptfoo,
            Format::Plain => Family::Plain,
        })
    }

    /// Every format a file can be read as, for messages.
    pub const ALL: [Format; 9] = [
        Format::Ragas,
        Format::RagasLegacy,
        Format::DeepEval,
        Format::Giskard,
        Format::LlamaLabelled,
        Format::LlamaPairs,
        Format::Promptfoo,
        Format::Plain,
        Format::Ragsynth,
    ];
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Ragsynth => "ragsynth",
            Format::Ragas => "Ragas (≥ 0.2)",
            Format::RagasLegacy => "Ragas 0.1",
            Format::DeepEval => "DeepEval goldens",
            Format::Giskard => "Giskard QATestset",
            Format::LlamaPairs => "LlamaIndex EmbeddingQAFinetuneDataset",
            Format::LlamaLabelled => "LlamaIndex LabelledRagDataset",
            Format::Promptfoo => "promptfoo tests",
            Format::Plain => "CSV/JSONL questions",
        })
    }
}

/// Which column (CSV) or key (JSON) holds each field of a plain question file. `None` means the
/// usual names, used when present; a name given explicitly must exist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Columns {
    /// The question (default `question` or `query`; required).
    pub question: Option<String>,
    /// The reference answer (default `answer`, `reference`, `ground_truth`).
    pub answer: Option<String>,
    /// Context passages: one passage, or a list (default `context`, `contexts`, `passage`).
    pub context: Option<String>,
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

/// One passage the generator says answers the question.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    /// The text, markers (`<1-hop>`, `Document 12:`) removed.
    pub text: String,
    /// What the tool called it, when it did (`Document 12`, a LlamaIndex node id).
    pub name: Option<String>,
}

/// One case of a foreign file, before its passages are located.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForeignCase {
    /// 1-based line the record starts on (for a LlamaIndex object: the line of the file, 1).
    pub line: usize,
    /// The tool's own id, when it writes one.
    pub id: Option<String>,
    /// The question.
    pub question: String,
    /// The reference answer.
    pub answer: Option<String>,
    /// The passages, in the tool's order.
    pub passages: Vec<Passage>,
    /// A document the passages come from, when the tool names one (DeepEval's `source_file`).
    pub doc: Option<String>,
    /// A supporting quote (plain files).
    pub quote: Option<String>,
    /// The topic.
    pub topic: Option<String>,
    /// The tool's name for the kind of question (`multi_hop_abstract_query_synthesizer`,
    /// `reasoning`, `distracting element`), as written.
    pub question_type: Option<String>,
    /// That kind mapped to ours.
    pub kind: Option<QuestionType>,
    /// Whether a person or a model wrote the question, when the file says.
    pub source: Option<Source>,
    /// The model that wrote it, when the file says.
    pub model: Option<String>,
    /// Earlier turns of a conversation the question belongs to (Giskard).
    pub conversation: Vec<Value>,
    /// Every field this reader does not use, as written.
    pub fields: Map<String, Value>,
}

/// A foreign file, read.
#[derive(Debug, Clone)]
pub struct ForeignSet {
    /// The format it was read as.
    pub format: Format,
    /// Its cases, in file order.
    pub cases: Vec<ForeignCase>,
}

/// How to read a foreign file.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The tool that wrote it; `None` detects it from the fields.
    pub family: Option<Family>,
    /// Column names for a plain file.
    pub columns: Columns,
}

/// Reads `path` as a foreign test set (never as a ragsynth set: that has its own reader).
pub fn read(path: &Path, options: &ReadOptions) -> Result<ForeignSet> {
    let input = records::read(path)?;
    let format = detect::resolve(path, &input, options)?;
    if format == Format::Plain {
        formats::check_columns(path, &input, &options.columns)?;
    }
    let cases = match format {
        Format::LlamaPairs => llama::pairs(path, &input)?,
        Format::LlamaLabelled => llama::labelled(path, &input)?,
        Format::Ragsynth => {
            return Err(Error::Config(format!(
                "{} is a ragsynth test set, not another tool's export",
                path.display()
            )));
        }
        Format::Promptfoo => input
            .records
            .iter()
            .map(|r| promptfoo::case(path, r))
            .collect::<Result<Vec<_>>>()?,
        other => input
            .records
            .iter()
            .map(|r| formats::case(path, other, r, &options.columns))
            .collect::<Result<Vec<_>>>()?,
    };
    Ok(ForeignSet { format, cases })
}

/// Maps a generator's name for a kind of question to ours: multi-hop kinds (Ragas'
/// `multi_hop_*`, 0.1's `multi_context`, DeepEval's `Multi-context`) to `multi_hop`,
/// comparisons to `comparison`, out-of-scope ones to `unanswerable`, every other known kind
/// (single-hop, simple, reasoning, conditional, complex, distracting, situational, double,
/// conversational) to `lookup`. One of our own type names (`lookup`, `multi_hop`, ...: an
/// export of a ragsynth set) is itself. An unknown name maps to nothing rather than a guess.
pub fn map_type(raw: &str) -> Option<QuestionType> {
    if let Some(ours) = QuestionType::parse(raw.trim()) {
        return Some(ours);
    }
    let r: String = raw
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    let has = |w: &str| r.contains(w);
    Some(
        if has("multi hop") || has("multihop") || has("multi context") || has("multicontext") {
            QuestionType::MultiHop
        } else if has("compar") {
            QuestionType::Comparison
        } else if has("out of scope") || has("unanswerable") || has("out of knowledge") {
            QuestionType::Unanswerable
        } else if [
            "single hop",
            "singlehop",
            "simple",
            "reasoning",
            "conditional",
            "complex",
            "distract",
            "situational",
            "double",
            "conversational",
            "specific",
            "abstract",
            "concretizing",
            "constrained",
            "in breadth",
            "hypothetical",
        ]
        .iter()
        .any(|w| has(w))
        {
            QuestionType::Lookup
        } else {
            return None;
        },
    )
}

/// Whether a generator's kind of question is one made deliberately misleading (Giskard's
/// "distracting element" questions add an irrelevant element on purpose, so another chunk
/// outscoring the labelled one is by design, not a wrong label).
pub fn is_distracting(question_type: &str) -> bool {
    question_type.to_lowercase().contains("distract")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_types_map_to_ours() {
        for (raw, want) in [
            ("single_hop_specifc_query_synthesizer", Some(QuestionType::Lookup)),
            (
                "multi_hop_abstract_query_synthesizer",
                Some(QuestionType::MultiHop),
            ),
            ("multi_context", Some(QuestionType::MultiHop)),
            ("reasoning", Some(QuestionType::Lookup)),
            ("Multi-context", Some(QuestionType::MultiHop)),
            ("Comparative", Some(QuestionType::Comparison)),
            ("distracting element", Some(QuestionType::Lookup)),
            ("out of scope", Some(QuestionType::Unanswerable)),
            ("persona_x", None),
            ("identifier", Some(QuestionType::Identifier)),
        ] {
            assert_eq!(map_type(raw), want, "{raw}");
        }
        assert!(is_distracting("distracting element"));
        assert!(!is_distracting("simple"));
    }
}
