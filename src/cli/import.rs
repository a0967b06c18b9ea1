//! Arguments of `ragsynth import`, and the import settings they describe.

use std::path::PathBuf;

use clap::Args;
use ragsynth::import::{Columns, ImportOptions};

/// `ragsynth import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Questions: CSV with a header row (`.csv`, `.tsv`) or JSON Lines (`.jsonl`, `.ndjson`).
    pub file: PathBuf,
    /// Test set to add to; created (with corpus and chunking header) when absent.
    #[arg(long)]
    pub into: PathBuf,
    /// Column holding the question [default: question].
    #[arg(long)]
    pub question_col: Option<String>,
    /// Column holding the reference answer [default: answer, when present].
    #[arg(long)]
    pub answer_col: Option<String>,
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
    /// Column holding the case id [default: id, when present; else `real-<hash>`].
    #[arg(long)]
    pub id_col: Option<String>,
    /// Keep personal data (e-mail, phone, card, IBAN, IP, URL with secrets, long ids) as is.
    #[arg(long)]
    pub no_scrub: bool,
    /// Corpus directory (default: the test set's corpus root).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Candidate labels proposed for a question without one.
    #[arg(long, default_value_t = 3)]
    pub candidates: usize,
    /// Similarity a quote needs to be matched fuzzily (0..1).
    #[arg(long, default_value_t = ragsynth::locate::DEFAULT_MIN_SIMILARITY)]
    pub min_similarity: f32,
    /// Print the summary only; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

impl ImportArgs {
    /// The columns named on the command line (the rest found by their usual names).
    pub fn columns(&self) -> Columns {
        Columns {
            question: self.question_col.clone(),
            answer: self.answer_col.clone(),
            doc: self.doc_col.clone(),
            quote: self.quote_col.clone(),
            topic: self.topic_col.clone(),
            kind: self.type_col.clone(),
            id: self.id_col.clone(),
        }
    }

    /// The import settings, checked.
    pub fn options(&self) -> anyhow::Result<ImportOptions> {
        super::check_similarity(self.min_similarity)?;
        Ok(ImportOptions {
            scrub: !self.no_scrub,
            candidates: self.candidates,
            min_similarity: self.min_similarity,
            source_name: self
                .file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        })
    }
}
