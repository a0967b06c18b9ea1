//! The types every step of a generation run passes along — a task, its outcome, a verified
//! candidate, the account of its LLM calls, the reasons a run stops — in one leaf module that
//! imports nothing else of `generate`, so the steps form a line (plan → kinds → pipeline →
//! merge), not a circle.

use sha2::{Digest, Sha256};

use crate::lang::Language;
use crate::llm::LlmError;
use crate::testset::{Difficulty, Hop, Label, QuestionType, Side};

/// A kind of question `generate` writes: one of the design's question types (the `type` tag).
pub type Kind = QuestionType;

/// One call's worth of work: a kind asked about some chunks.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Task {
    /// Position in the run; results are merged in this order.
    pub index: usize,
    /// What to ask.
    pub kind: Kind,
    /// Chunks (indices into the chunk list): one, or two for the kinds that join passages.
    pub chunks: Vec<usize>,
    /// What links or anchors the chunks (the term two passages share, the identifier asked
    /// about), as its kind's target found it.
    pub term: Option<String>,
    /// How many earlier tasks use the same chunks for the same kind: picks other facts of the
    /// chunk and varies the LLM seed.
    pub attempt: u32,
    /// Questions asked for in the one call (a lookup asks for two facts of a chunk at once).
    pub questions: u32,
}

impl Task {
    /// A task on one chunk asking for `questions` questions; `index` is set when the tasks are
    /// numbered.
    pub fn on_chunk(kind: Kind, chunk: usize, attempt: u32, questions: u32) -> Task {
        Task {
            index: 0,
            kind,
            chunks: vec![chunk],
            term: None,
            attempt,
            questions,
        }
    }

    /// A task on two chunks linked by `term`, asked for the first time.
    pub fn on_pair(kind: Kind, a: usize, b: usize, term: &str) -> Task {
        Task {
            index: 0,
            kind,
            chunks: vec![a, b],
            term: Some(term.to_string()),
            attempt: 0,
            questions: 1,
        }
    }
}

/// A verified candidate, ready to become a case.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// Kind of question.
    pub kind: Kind,
    /// The question, as checked.
    pub question: String,
    /// Other wordings of the same question that passed the same checks (search keywords): the
    /// one that matches the set's style and difficulty is written.
    pub phrasings: Vec<String>,
    /// Reference answer (none for unanswerable questions).
    pub answer: Option<String>,
    /// Labels, located in the corpus (empty for unanswerable questions).
    pub relevant: Vec<Label>,
    /// Topic tag.
    pub topic: Option<String>,
    /// `name@hash` of the prompt that produced it.
    pub prompt: String,
    /// Chunk ids it was generated from (seeds the id).
    pub from: Vec<String>,
    /// RFC 3339 time its generation answer was journaled, when known.
    pub created: Option<String>,
    /// What its kind records beside the question (hops and bridge, sides, identifier).
    pub shape: Shape,
    /// The language it was written and checked in (its passage's).
    pub language: Language,
    /// How hard keyword search finds its source, once its wording is chosen.
    pub difficulty: Option<Difficulty>,
    /// The codes of the review hints it carries (checks that found something and turn nothing
    /// away).
    pub hints: Vec<&'static str>,
}

impl Accepted {
    /// A candidate as far as a kind built it before a check turned it away: what the run's
    /// verdicts file shows a person of it.
    pub fn draft(
        kind: Kind,
        question: &str,
        answer: Option<&str>,
        relevant: Vec<Label>,
        language: Language,
    ) -> Accepted {
        Accepted {
            kind,
            question: question.trim().to_string(),
            phrasings: Vec::new(),
            answer: answer
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_string),
            relevant,
            topic: None,
            prompt: String::new(),
            from: Vec::new(),
            created: None,
            shape: Shape::Plain,
            language,
            difficulty: None,
            hints: Vec::new(),
        }
    }
}

/// What a kind records of a case beyond its question, answer and labels.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Shape {
    /// Nothing more (lookups, unanswerable questions).
    #[default]
    Plain,
    /// The identifier asked about.
    Identifier(String),
    /// The two things compared.
    Comparison(Vec<Side>),
    /// The hops, in order, and the bridge between them.
    Bridge {
        /// One per hop.
        hops: Vec<Hop>,
        /// What the first hop finds and the second asks about.
        bridge: String,
    },
}

/// LLM calls a candidate made, and the provider's failure when it ended `llm_failed`.
#[derive(Debug, Default)]
pub struct Tally {
    /// Requests sent (or replayed).
    pub calls: u64,
    /// The provider's last failure after all retries.
    pub failure: Option<String>,
}

/// Why a run stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An error no candidate can survive (configuration, key, missing model).
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The provider failed candidate after candidate after all retries.
    #[error("{count} candidates in a row failed after all retries; last: {last}")]
    ProviderDown {
        /// Candidates in a row that ended `llm_failed`.
        count: usize,
        /// The last failure (names the provider).
        last: String,
    },
}

/// A stable 64-bit hash of the seed and some labels: every choice a run makes by chance is
/// made by it, so the same seed makes the same choices.
pub fn stable_hash(seed: u64, parts: &[&str]) -> u64 {
    let mut h = Sha256::new();
    h.update(seed.to_le_bytes());
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    let d = h.finalize();
    u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
}
