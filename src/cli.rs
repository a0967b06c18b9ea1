//! Command-line arguments. Defaults that matter live in the library's config types, not here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The `--llm` options (model, limits, cache) for commands that call a model: flatten it with
/// `#[command(flatten)] llm: LlmArgs` and turn it into settings with `llm.settings(&config)`.
#[allow(unused_imports, reason = "flattened by the commands that call a model")]
pub use ragsynth::llm::LlmArgs;

/// Seed and audit the test sets used to evaluate retrieval-augmented generation systems.
#[derive(Debug, Parser)]
#[command(name = "ragsynth", version, about, propagate_version = true)]
pub struct Cli {
    /// Configuration file (default: ./ragsynth.toml when present).
    #[arg(long, global = true, env = "RAGSYNTH_CONFIG")]
    pub config: Option<PathBuf>,
    /// Read documents through symlinks that lead outside the corpus directory (skipped with a
    /// warning otherwise).
    #[arg(long, global = true)]
    pub follow_outside_links: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Flag weak cases (copied phrases, trivial wording, duplicates, broken labels), compare
    /// synthetic with real questions, exit 2 on findings for CI.
    Audit(AuditArgs),
    /// Show or export the chunks the other commands see.
    Chunk(ChunkArgs),
    /// Add real questions from a CSV or JSON Lines file (personal data scrubbed).
    Import(ImportArgs),
    /// Re-anchor labels after the corpus or the chunking changed.
    Remap(RemapArgs),
    /// Accept, reject or edit pending synthetic cases on a local web page.
    Review(ReviewArgs),
    /// Score a RAG system's retrieval run against the test set, with a baseline gate for CI.
    Eval(EvalArgs),
    /// Write synthetic test cases (single-hop, multi-hop, unanswerable) from a corpus into a test set.
    Generate(GenerateArgs),
}

/// How documents are read and cut into chunks.
#[derive(Debug, Clone, Args)]
pub struct ChunkingArgs {
    /// Largest chunk, in the unit below.
    #[arg(long, default_value_t = 1200)]
    pub size: usize,
    /// Smallest chunk the splitter aims for (default: --size).
    #[arg(long)]
    pub min_size: Option<usize>,
    /// Overlap between neighbouring chunks.
    #[arg(long, default_value_t = 120)]
    pub overlap: usize,
    /// `chars`, or `tokens:<encoding>` (cl100k_base, o200k_base, p50k_base, r50k_base).
    #[arg(long, default_value = "chars")]
    pub unit: String,
    /// `auto` (markdown splitter for .md files), `markdown` or `text`.
    #[arg(long, default_value = "auto")]
    pub splitter: String,
    /// Skip files larger than this many bytes.
    #[arg(long, default_value_t = ragsynth::corpus::DEFAULT_MAX_FILE_BYTES)]
    pub max_file_size: u64,
}

/// `ragsynth chunk`.
#[derive(Debug, Args)]
pub struct ChunkArgs {
    /// Corpus directory (or a single file).
    pub corpus: PathBuf,
    /// Chunking.
    #[command(flatten)]
    pub chunking: ChunkingArgs,
    /// `text`: per-document counts and size statistics; `jsonl`: one chunk a line.
    #[arg(long, value_enum, default_value_t = ChunkFormat::Text)]
    pub format: ChunkFormat,
}

/// `ragsynth review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The test-set file (YAML or JSONL); every decision is saved into it at once.
    pub testset: PathBuf,
    /// Corpus directory (default: the test set's `corpus.root`).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Port to listen on (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Address to listen on. Loopback by default; anything else exposes the page to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
}

/// Output of `ragsynth chunk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChunkFormat {
    /// A table for people.
    Text,
    /// `{id, doc, start, end, text}` per line.
    Jsonl,
}

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

/// `ragsynth remap`.
#[derive(Debug, Args)]
pub struct RemapArgs {
    /// Test set to re-anchor (YAML or JSON Lines).
    pub testset: PathBuf,
    /// Corpus directory as it is now (default: the test set's corpus root).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// New chunk size (default: the test set's chunking).
    #[arg(long)]
    pub size: Option<usize>,
    /// New smallest chunk size.
    #[arg(long)]
    pub min_size: Option<usize>,
    /// New overlap.
    #[arg(long)]
    pub overlap: Option<usize>,
    /// New unit: `chars` or `tokens:<encoding>`.
    #[arg(long)]
    pub unit: Option<String>,
    /// New splitter: `auto`, `markdown` or `text`.
    #[arg(long)]
    pub splitter: Option<String>,
    /// Similarity a reworded quote needs to be re-found (0..1).
    #[arg(long, default_value_t = ragsynth::locate::DEFAULT_MIN_SIMILARITY)]
    pub min_similarity: f32,
    /// Print the report only; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// `text` for people, `json` for scripts (JSON Lines: one line per label, then a summary).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// Output of reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Lines for people.
    Text,
    /// JSON Lines tagged by `type`.
    Json,
}

/// `ragsynth generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Corpus directory.
    pub corpus: PathBuf,
    /// Test set to merge the new cases into (created when absent) [default: output/testset.yaml].
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Cases to plan [default: 20].
    #[arg(short, long)]
    pub n: Option<usize>,
    /// Shares of question types [default: lookup=0.6,multi_hop=0.2,unanswerable=0.2].
    #[arg(long, value_name = "KIND=SHARE,...")]
    pub mix: Option<String>,
    /// Seed for planning and sampling; the same seed plans the same cases [default: 0].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Sampling temperature for writing questions; judging always uses 0 [default: 0.3].
    #[arg(long)]
    pub temperature: Option<f32>,
    /// Share of new cases marked `split: heldout` [default: 0.2].
    #[arg(long, value_name = "SHARE")]
    pub heldout: Option<f64>,
    /// Folder of prompt templates (`single_hop.j2`, ...) overriding the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<PathBuf>,
    /// Rounds at most: after the planned pass, kinds short of their planned count get
    /// replacement candidates; 1 = no replacements. Bounds the calls at R times one pass [default: 3].
    #[arg(long, value_name = "R")]
    pub max_rounds: Option<u32>,
    /// Show the plan and the estimated LLM calls and tokens; call nothing, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bars.
    #[arg(short, long)]
    pub quiet: bool,
    /// Chunking (a test set that already names one keeps its own).
    #[command(flatten)]
    pub chunking: ChunkingArgs,
    /// LLM.
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// `ragsynth eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Test set (`.yaml`/`.jsonl`), or TREC qrels (`qid iter docid grade`).
    pub testset: PathBuf,
    /// The run: TREC (`qid Q0 docid rank score tag`) or JSONL (`{"id", "retrieved": [...]}`).
    #[arg(long, required_unless_present = "export_qrels")]
    pub run: Option<PathBuf>,
    /// Cutoffs for P@k, recall@k, hit@k and nDCG@k.
    #[arg(short, long, value_delimiter = ',', default_value = "1,3,5,10")]
    pub k: Vec<usize>,
    /// Which questions to score.
    #[arg(long, value_enum, default_value_t = SplitArg::Dev)]
    pub split: SplitArg,
    /// Compare with this report (the JSON of `--format json` / `--save-baseline`); exit 2 when a
    /// headline metric fell by more than --tolerance.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Largest drop of a headline metric the gate accepts (absolute).
    #[arg(long, default_value_t = 0.02)]
    pub tolerance: f64,
    /// Write this run's report as a baseline for later runs.
    #[arg(long)]
    pub save_baseline: Option<PathBuf>,
    /// Write per-question results (JSON Lines).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// `text`: tables; `json`: the report (and the comparison under `baseline`).
    #[arg(long, value_enum, default_value_t = EvalFormat::Text)]
    pub format: EvalFormat,
    /// Corpus directory (default: the test set's `corpus.root`).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Share of a labelled span a retrieved span must cover to be relevant without the quote.
    #[arg(long, default_value_t = 0.5)]
    pub min_coverage: f64,
    /// Lowest grade that counts as relevant (trec_eval's -l); nDCG gains use every grade.
    #[arg(long, default_value_t = 1)]
    pub relevance_level: u32,
    /// Leave questions the run does not list out of the averages (trec_eval without -c)
    /// instead of scoring them 0.
    #[arg(long)]
    pub skip_missing: bool,
    /// Write the test set as TREC qrels to this file (`-` for stdout) and exit, so results can be
    /// cross-checked with trec_eval.
    #[arg(long)]
    pub export_qrels: Option<PathBuf>,
}

/// `--split`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SplitArg {
    /// Questions used while tuning.
    Dev,
    /// The held-out questions.
    Heldout,
    /// Every question.
    All,
}

/// Output of `ragsynth eval`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// Tables for people.
    Text,
    /// One JSON document.
    Json,
}

/// `ragsynth audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Test set (ragsynth YAML/JSONL, or an export of Ragas, DeepEval, Giskard, CSV).
    #[arg(required_unless_present = "explain")]
    pub testset: Option<PathBuf>,
    /// Corpus directory (default: the set's `corpus.root`, relative to the set's file).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Format of the test set: `auto` detects it from the extension and the fields.
    #[arg(long, value_enum, default_value_t = FromFormat::Auto)]
    pub from: FromFormat,
    /// Run only these rules (codes or prefixes, comma-separated: `RS1,RS301`).
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Skip these rules (codes or prefixes, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Print what a rule flags, why it matters and an example, then exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Exit 2 when a finding is at least this severe.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Store flags and figures in the `audit` field of each synthetic case (atomic rewrite).
    #[arg(long)]
    pub write: bool,
    /// With --write, also write into real cases (which then change).
    #[arg(long, requires = "write")]
    pub write_real: bool,
    /// Findings shown per rule in the text report (0: all).
    #[arg(long, default_value_t = 20)]
    pub max_per_rule: usize,
    /// Folder of judge templates (`judge_answerable.j2`, `judge_supported.j2`) replacing the
    /// built-in ones.
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<PathBuf>,
    /// The LLM for the judged checks (RS504-RS506); without `--llm` they are skipped.
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// Test-set formats `audit` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FromFormat {
    /// Detect from the extension and the fields.
    Auto,
    /// ragsynth's own YAML / JSONL.
    Ragsynth,
    /// Ragas: `user_input, reference_contexts, reference`.
    Ragas,
    /// DeepEval goldens: `input, expected_output, context`.
    Deepeval,
    /// Giskard RAGET: `question, reference_answer, reference_context, metadata.question_type`.
    Giskard,
    /// CSV or JSONL with a question column and a context column.
    Csv,
}

/// Output of `ragsynth audit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// Grouped by rule, worst first, for people.
    Text,
    /// `{"version":1,"findings":[...],"summary":{...}}`.
    Json,
    /// One self-contained HTML page (summary plots and every case with its flags), for sharing.
    Html,
}

/// Severity threshold of `--fail-on`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any finding fails.
    Info,
    /// Warnings and errors fail.
    Warning,
    /// Only errors fail.
    Error,
    /// Never fail on findings.
    Never,
}
