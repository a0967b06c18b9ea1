//! The options that name a question file's columns and the tool that wrote a file, shared by
//! `import` and `audit` (both read other tools' files through the same reader).

use clap::{Args, ValueEnum};
use ragsynth::testset::foreign::{Columns, Family};

/// `--question-col` and the other column names of a plain question file.
#[derive(Debug, Clone, Default, Args)]
pub struct ColumnArgs {
    /// Column holding the question [default: question or query]; naming it reads the file as
    /// a plain question file.
    #[arg(long)]
    pub question_col: Option<String>,
    /// Column holding the reference answer [default: answer, when present].
    #[arg(long)]
    pub answer_col: Option<String>,
    /// Column holding context passages: one passage, or a list [default: context, when present].
    #[arg(long)]
    pub context_col: Option<String>,
    /// Column naming the relevant document [default: doc, when present].
    #[arg(long)]
    pub doc_col: Option<String>,
    /// Column holding a supporting quote from that document [default: quote, when present].
    #[arg(long)]
    pub quote_col: Option<String>,
    /// Column holding the topic tag [default: topic, when present].
    #[arg(long)]
    pub topic_col: Option<String>,
    /// Column holding the question type tag [default: type, when present].
    #[arg(long)]
    pub type_col: Option<String>,
    /// Column holding the case id [default: id, when present].
    #[arg(long)]
    pub id_col: Option<String>,
}

impl ColumnArgs {
    /// The columns named on the command line (the rest found by their usual names).
    pub fn columns(&self) -> Columns {
        Columns {
            question: self.question_col.clone(),
            answer: self.answer_col.clone(),
            context: self.context_col.clone(),
            doc: self.doc_col.clone(),
            quote: self.quote_col.clone(),
            topic: self.topic_col.clone(),
            kind: self.type_col.clone(),
            id: self.id_col.clone(),
        }
    }
}

/// Which tool wrote a file (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FromFormat {
    /// Detect from the extension and the fields.
    Auto,
    /// ragsynth's own YAML / JSONL.
    Ragsynth,
    /// Ragas 0.1 (`question, contexts, ground_truth`) or ≥ 0.2 (`user_input, reference_contexts`).
    Ragas,
    /// DeepEval goldens: `input, expected_output, context, source_file`.
    Deepeval,
    /// Giskard RAGET: `question, reference_answer, reference_context, metadata`.
    Giskard,
    /// LlamaIndex: `LabelledRagDataset` or `EmbeddingQAFinetuneDataset` JSON.
    Llamaindex,
    /// promptfoo: a JSON list of tests with `vars` (+ `assert`, `metadata`).
    Promptfoo,
    /// CSV or JSONL with a question column (and context, answer, doc, quote ... columns).
    Csv,
}

impl FromFormat {
    /// The tool named, `None` for `auto` (and `ragsynth`, which is not another tool).
    pub fn family(self) -> Option<Family> {
        match self {
            FromFormat::Auto | FromFormat::Ragsynth => None,
            FromFormat::Ragas => Some(Family::Ragas),
            FromFormat::Deepeval => Some(Family::DeepEval),
            FromFormat::Giskard => Some(Family::Giskard),
            FromFormat::Llamaindex => Some(Family::LlamaIndex),
            FromFormat::Promptfoo => Some(Family::Promptfoo),
            FromFormat::Csv => Some(Family::Plain),
        }
    }
}
