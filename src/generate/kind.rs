//! A kind of question as data: the row each kind has in the table of [`super::kinds`], which
//! planning, the mix, the estimate, the summary and top-up read instead of matching on the kind
//! by hand. Adding a kind touches its own file and its row.

use futures::future::BoxFuture;

use super::candidate::{Accepted, Kind, Tally, Task};
use super::checks::Rejected;
use super::context::GenerateContext;
use super::pairs::{Pair, Pairing};
use crate::chunk::Chunk;
use crate::llm::Llm;

/// Everything the run needs to know of a kind.
pub struct KindInfo {
    /// The question type it writes (its `type` tag, and its name in `--mix`).
    pub kind: Kind,
    /// One line: what its questions ask.
    pub summary: &'static str,
    /// Its share of the default mix (the shares of all kinds sum to 1).
    pub default_share: f64,
    /// Questions one task asks for in one call.
    pub per_call: u32,
    /// Which chunks a task is asked about.
    pub layout: Layout,
    /// LLM calls one task makes at most when every check runs (re-asks of malformed answers
    /// aside): the bound the estimate and the worst case count.
    pub calls_per_task: u64,
    /// Asks for a task's questions and checks each.
    pub attempt: Attempt,
    /// The calls a task would make, measured without making them (`--dry-run`).
    pub estimate: Estimate,
}

/// How a kind lays its tasks on the corpus.
pub enum Layout {
    /// One chunk a task: of the chunks worth asking about, those `targets` keeps, spread over
    /// documents in proportion to their text and evenly inside each.
    Chunk {
        /// The eligible chunks (indices into the chunk list) the kind can ask about.
        targets: fn(&[Chunk], &[usize], &Pairing) -> Vec<usize>,
    },
    /// Two chunks a task: the pairs `pairs` finds, best first, each chunk used once while
    /// fresh pairs last.
    Pair {
        /// Candidate pairs among the eligible chunks, in any order (planning ranks them).
        pairs: fn(&[Chunk], &[usize], &Pairing) -> Vec<Pair>,
        /// What a pair needs, for the note when too few are found.
        needs: &'static str,
        /// The second chunk's call is made from it and the pair's term alone (a multi-hop's
        /// second hop), so a pair that shares an asked pair's second chunk and term would only
        /// ask it again and get the same reply: top-up rounds skip it.
        second_alone: bool,
        /// Most times top-up asks one pair that wrote no case, each time with another sampling
        /// seed, once every new pair has been asked.
        attempts: u32,
    },
}

impl Layout {
    /// For a two-chunk kind, how top-up asks its pairs: `(second_alone, attempts)`.
    pub fn pair_asking(&self) -> Option<(bool, u32)> {
        match *self {
            Layout::Pair {
                second_alone,
                attempts,
                ..
            } => Some((second_alone, attempts)),
            Layout::Chunk { .. } => None,
        }
    }
}

/// A task's outcome: one result per question asked, or the error that stops the run.
pub type Outcome = Result<Vec<Result<Accepted, Rejected>>, crate::llm::LlmError>;

/// A kind's generation step: the candidates of one task, or the error that stops the run.
pub type Attempt =
    for<'a> fn(&'a Llm, &'a GenerateContext<'a>, &'a Task, &'a mut Tally) -> BoxFuture<'a, Outcome>;

/// A kind's estimate: the calls one task would make.
pub type Estimate = fn(&GenerateContext<'_>, &Task) -> crate::Result<Vec<CallEstimate>>;

/// One call of an estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallEstimate {
    /// Prompt tokens, as [`Llm::estimate_tokens`] counts them.
    pub prompt_tokens: u64,
    /// The completion's cap, counted in full (an upper bound).
    pub max_tokens: u32,
}

impl CallEstimate {
    /// The estimate of a rendered prompt with its cap.
    /// The answers-the-question judge's call on a case whose label quotes `fact` (the last
    /// check of lookups and identifiers).
    pub fn answers_judge(
        ctx: &crate::generate::context::GenerateContext<'_>,
        fact: &str,
    ) -> crate::Result<CallEstimate> {
        let r = ctx.prompts.render(
            "judge_answers",
            &serde_json::json!({"question": "", "fact": fact}),
        )?;
        Ok(CallEstimate::of(&r.system, &r.user, crate::judge::ANSWERS_MAX_TOKENS).with_question())
    }

    /// Adds a question's tokens (about 16) to the prompt.
    fn with_question(mut self) -> CallEstimate {
        self.prompt_tokens += 16;
        self
    }

    pub fn of(system: &str, user: &str, max_tokens: u32) -> CallEstimate {
        CallEstimate {
            prompt_tokens: (Llm::estimate_tokens(system) + Llm::estimate_tokens(user)) as u64,
            max_tokens,
        }
    }
}
