//! The test-set file (format v1): a header (corpus, chunking) and a list of cases.
//!
//! Every command reads and writes this one model. Three promises hold for every rewrite:
//! unknown fields survive (each struct keeps an `extra` map), key order survives (values are
//! laid back over the order they were read in), and a case nobody changed comes out
//! byte-for-byte as it went in (its source text is kept and written back verbatim). YAML and
//! JSON Lines are chosen by the file extension. Commands write through [`Tracked`], which
//! merges their changes onto whatever another writer saved meanwhile instead of dropping it.

mod bounded;
mod emit;
pub mod foreign;
mod io;
mod selection;
mod three_way;
mod tracked;
mod typed;
mod validate;
mod write;
mod yaml_error;
mod yaml_read;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::chunk::Chunking;

pub use crate::severity::Severity;
pub use emit::to_yaml_string;
pub use io::{load, load_str, save, to_string};
pub use selection::Selection;
pub use tracked::{Saved, Tracked, TrackedFile, version_of};
pub use typed::Format;
pub use validate::{Issue, IssueFamily, IssueKind, validate};

/// The format version this build reads and writes.
pub const FORMAT_VERSION: u64 = 1;

/// Which corpus the labels point into.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct CorpusRef {
    /// Corpus directory, relative to the test-set file's directory (or absolute).
    pub root: String,
    /// `sha256:` fingerprint of the corpus when the labels were last anchored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A question type (the `tags.type` values ragsynth writes and reports on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionType {
    /// A fact stated in one passage.
    Lookup,
    /// Asks for a name, code, number or identifier.
    Identifier,
    /// Compares two things.
    Comparison,
    /// Needs two or more passages.
    MultiHop,
    /// The corpus does not hold the answer.
    Unanswerable,
}

impl QuestionType {
    /// Every type, in report order.
    pub const ALL: [QuestionType; 5] = [
        QuestionType::Lookup,
        QuestionType::Identifier,
        QuestionType::Comparison,
        QuestionType::MultiHop,
        QuestionType::Unanswerable,
    ];

    /// The tag value.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionType::Lookup => "lookup",
            QuestionType::Identifier => "identifier",
            QuestionType::Comparison => "comparison",
            QuestionType::MultiHop => "multi_hop",
            QuestionType::Unanswerable => "unanswerable",
        }
    }

    /// Parses a tag value.
    pub fn parse(s: &str) -> Option<QuestionType> {
        QuestionType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl std::fmt::Display for QuestionType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a case came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Asked by a real user (logs, support tickets, hand-written by the team).
    Real,
    /// Written by an LLM.
    Synthetic,
}

impl Source {
    /// The tag value.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Real => "real",
            Source::Synthetic => "synthetic",
        }
    }
}

/// Review status of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Review {
    /// Not looked at yet.
    #[default]
    Pending,
    /// Accepted as is.
    Accepted,
    /// Rejected; kept in the file so it is not generated again.
    Rejected,
    /// Accepted after a person edited it.
    Edited,
    /// A real question still waiting for a person to confirm its label.
    NeedsLabel,
}

impl Review {
    /// The field value.
    pub fn as_str(self) -> &'static str {
        match self {
            Review::Pending => "pending",
            Review::Accepted => "accepted",
            Review::Rejected => "rejected",
            Review::Edited => "edited",
            Review::NeedsLabel => "needs_label",
        }
    }
}

/// Which part of the set a case belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Used while tuning.
    #[default]
    Dev,
    /// Kept out of sight while tuning; looked at only for the final figure.
    Heldout,
}

impl Split {
    /// The field value.
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Dev => "dev",
            Split::Heldout => "heldout",
        }
    }
}

/// A labelled passage: document, character span and a supporting quote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Label {
    /// Document path relative to the corpus root, `/`-separated.
    pub doc: String,
    /// Start of the span in Unicode scalar values.
    pub start: usize,
    /// End of the span (exclusive).
    pub end: usize,
    /// Text that supports the answer; a substring of the span.
    pub quote: String,
    /// Chunk id under the header's chunking (informative; derived from the span).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<String>,
    /// Graded relevance (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<u32>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The label field that marks a label `import` proposed and nobody confirmed:
/// `candidate: {rank, score}`.
pub const PROPOSED: &str = "candidate";

impl Label {
    /// Whether `import` proposed this label by keyword search and nobody has confirmed it.
    pub fn is_proposed(&self) -> bool {
        self.extra.contains_key(PROPOSED)
    }

    /// The label of `quote` standing at character `start` of `doc`: the span is the quote's,
    /// with no chunk id and the default grade.
    pub fn spanning(doc: &str, start: usize, quote: &str) -> Label {
        Label {
            doc: doc.into(),
            start,
            end: start + quote.chars().count(),
            quote: quote.into(),
            chunk: None,
            grade: None,
            extra: Default::default(),
        }
    }

    /// The passage as two cases are told apart by it: its quote's words, or its span where it
    /// has no quote. A page that says one sentence in two places gives one passage (Jinja's
    /// api.rst says what `pass_context` passes under filters and again under tests).
    pub fn passage(&self) -> String {
        let words: Vec<&str> = self.quote.split_whitespace().collect();
        if words.is_empty() {
            format!("{}:{}-{}", self.doc, self.start, self.end)
        } else {
            words.join(" ")
        }
    }
}

/// Tags metrics are broken down by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Tags {
    /// Question type (`lookup`, `identifier`, `comparison`, `multi_hop`, `unanswerable`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Topic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// `real` or `synthetic`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// How hard keyword search finds the case's source: `easy`, `medium` or `hard` (written
    /// by `generate` from the case's [`Difficulty`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One step of a multi-hop case: what it asks, what it finds, and which of the case's labels
/// hold it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hop {
    /// The step's own question; none in sets that record only what each hop finds (HotpotQA's
    /// bridges have no per-hop questions).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub question: String,
    /// What the step finds (for the first hop, the bridge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Indices into the case's `relevant`.
    #[serde(default)]
    pub relevant: Vec<usize>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One side of a comparison case: the thing compared, its value, and which labels hold them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// The thing (a plan, an option, a version, a command).
    pub name: String,
    /// Its value of the attribute compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Indices into the case's `relevant`.
    #[serde(default)]
    pub relevant: Vec<usize>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// How hard keyword search finds a case's source, measured when the case was written: the
/// BM25 rank among all chunks by which the question finds what it needs, and the share of the
/// question's content words found in its source. A question that needs every label (a
/// comparison, a multi-hop question) is found when the last of them is; any other when its
/// best one is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Difficulty {
    /// 1-based rank of the labelled chunk the question needs (the last found, for one that
    /// needs every label).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_rank: Option<usize>,
    /// 1-based rank of the labelled passage (a blank-line paragraph) the question needs among
    /// the corpus's passages, counted as `source_rank` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage_rank: Option<usize>,
    /// Content-word containment, 0 to 1 (f64, so two decimals read back as written: an f32
    /// 0.67 would be written 0.6700000166893005).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containment: Option<f64>,
    /// The typo `generate` put in the question to match the real part's share, as `word →
    /// typo`, so a reviewer can tell it was meant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typo: Option<String>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One test case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Stable, unique id.
    pub id: String,
    /// The question.
    pub question: String,
    /// Short reference answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Passages that answer it; empty for an unanswerable question.
    #[serde(default)]
    pub relevant: Vec<Label>,
    /// For a multi-hop case: its steps, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hops: Option<Vec<Hop>>,
    /// For a multi-hop case: the thing the first step finds and the second asks about, which
    /// the question describes without naming.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bridge: Option<String>,
    /// For a comparison case: the two things compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<Vec<Side>>,
    /// For an identifier case: the identifier asked about, as the question gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Tags,
    /// Review status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<Review>,
    /// `dev` or `heldout`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<Split>,
    /// Who wrote it with what (model, prompt, time); free-form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Value>,
    /// Figures and flags written by `audit --write`; free-form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit: Option<Value>,
    /// How hard keyword search finds the source, measured by `generate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<Difficulty>,
    /// Review hints: the codes of generate's checks that found something in the case without
    /// turning it away (docs/checks.md); `review` shows them and puts such cases first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
    /// Fields this version does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// How the case was read, to write it back unchanged.
    #[serde(skip)]
    pub(crate) origin: Kept<Origin>,
}

/// The case as it was read: its value (for key order) and its source text.
#[derive(Debug, Clone, Default)]
pub(crate) struct Origin {
    pub value: Value,
    pub raw: Option<String>,
    pub line: Option<usize>,
}

/// Bookkeeping carried beside the data (how a value was read) that takes no part in equality:
/// two cases with the same fields are equal whichever file, or none, they came from.
#[derive(Debug, Clone)]
pub(crate) struct Kept<T>(pub Option<T>);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept(None)
    }
}

impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> std::ops::Deref for Kept<T> {
    type Target = Option<T>;
    fn deref(&self) -> &Option<T> {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Kept<T> {
    fn deref_mut(&mut self) -> &mut Option<T> {
        &mut self.0
    }
}

impl Case {
    /// A new case with the given id and question and nothing else.
    pub fn new(id: impl Into<String>, question: impl Into<String>) -> Case {
        Case {
            id: id.into(),
            question: question.into(),
            answer: None,
            relevant: Vec::new(),
            hops: None,
            bridge: None,
            sides: None,
            identifier: None,
            tags: Tags::default(),
            review: None,
            split: None,
            provenance: None,
            audit: None,
            difficulty: None,
            hints: Vec::new(),
            extra: Map::new(),
            origin: Kept(None),
        }
    }

    /// The question type, if the tag holds a known one.
    pub fn question_type(&self) -> Option<QuestionType> {
        self.tags.kind.as_deref().and_then(QuestionType::parse)
    }

    /// True when tagged real, or untagged (a hand-written set without tags is real).
    pub fn is_real(&self) -> bool {
        self.tags.source != Some(Source::Synthetic)
    }

    /// True when tagged synthetic.
    pub fn is_synthetic(&self) -> bool {
        self.tags.source == Some(Source::Synthetic)
    }

    /// True when labelled only by `import`'s proposals. Keyword search chose those labels, so
    /// how keyword search ranks them says nothing of the question: they stand first by
    /// construction.
    pub fn labelled_by_keywords(&self) -> bool {
        !self.relevant.is_empty() && self.relevant.iter().all(Label::is_proposed)
    }

    /// True for a question with no relevant passage: typed unanswerable, or without labels and
    /// without passages its generator gave that were not found in the corpus (those make it
    /// answerable from a passage we could not place, not unanswerable).
    pub fn is_unanswerable(&self) -> bool {
        self.question_type() == Some(QuestionType::Unanswerable)
            || (self.relevant.is_empty() && self.unlocated() == 0)
    }

    /// Passages its generator gave that were not found in the corpus (the `unlocated` field an
    /// import of another tool's set writes).
    pub fn unlocated(&self) -> usize {
        self.extra
            .get(foreign::convert::UNLOCATED)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// Turns of the conversation the question follows (the `conversation` field), 0 for a
    /// question asked on its own.
    pub fn conversation_turns(&self) -> usize {
        self.extra
            .get(foreign::convert::CONVERSATION)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// The generator's own name for the kind of question (`provenance.question_type`).
    pub fn generator_question_type(&self) -> Option<&str> {
        self.provenance.as_ref()?.get("question_type")?.as_str()
    }

    /// The split (dev when absent).
    pub fn split(&self) -> Split {
        self.split.unwrap_or_default()
    }

    /// The case as built from a record of another tool's file that starts on `line`, so
    /// findings can name it. Such a case is only read, never written back.
    pub fn at_line(mut self, line: usize) -> Case {
        self.origin = Kept(Some(Origin {
            value: Value::Null,
            raw: None,
            line: Some(line),
        }));
        self
    }

    /// 1-based line the case starts on in the file it was read from.
    pub fn line(&self) -> Option<usize> {
        self.origin.as_ref().and_then(|o| o.line)
    }
}

/// A whole test set.
#[derive(Debug, Clone, PartialEq)]
pub struct TestSet {
    /// Format version (`ragsynth:` key).
    pub version: u64,
    /// The corpus labels point into.
    pub corpus: Option<CorpusRef>,
    /// The chunking chunk ids are derived under.
    pub chunking: Option<Chunking>,
    /// Top-level keys this version does not know, in order.
    pub extra: Map<String, Value>,
    /// The cases, in file order.
    pub cases: Vec<Case>,
    pub(crate) origin: Kept<typed::HeaderOrigin>,
}

impl Default for TestSet {
    fn default() -> Self {
        TestSet {
            version: FORMAT_VERSION,
            corpus: None,
            chunking: None,
            extra: Map::new(),
            cases: Vec::new(),
            origin: Kept(None),
        }
    }
}

impl TestSet {
    /// The case with this id.
    pub fn case(&self, id: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.id == id)
    }

    /// The case with this id, mutably.
    pub fn case_mut(&mut self, id: &str) -> Option<&mut Case> {
        self.cases.iter_mut().find(|c| c.id == id)
    }

    /// Resolves the corpus root against the directory of the test-set file.
    pub fn corpus_root(&self, testset_path: &std::path::Path) -> Option<std::path::PathBuf> {
        let root = &self.corpus.as_ref()?.root;
        let base = testset_path.parent().unwrap_or(std::path::Path::new(""));
        Some(base.join(root))
    }

    /// A fresh id not used by any case: `prefix-` followed by 8 hex digits of a hash of `seed`,
    /// lengthened until unique.
    pub fn fresh_id(&self, prefix: &str, seed: &str) -> String {
        use sha2::{Digest, Sha256};
        let hash = hex::encode(Sha256::digest(seed.as_bytes()));
        let taken: std::collections::HashSet<&str> = self.cases.iter().map(|c| c.id.as_str()).collect();
        for len in 8..=hash.len() {
            let id = format!("{prefix}-{}", &hash[..len]);
            if !taken.contains(id.as_str()) {
                return id;
            }
        }
        let mut n = 2;
        loop {
            let id = format!("{prefix}-{hash}-{n}");
            if !taken.contains(id.as_str()) {
                return id;
            }
            n += 1;
        }
    }
}
