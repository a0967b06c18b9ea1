//! The end-of-run account: what was planned, attempted, accepted and rejected (with reasons,
//! summed over the rounds), how each round went and why the rounds stopped, what the LLM cost,
//! and how long it took. `render::generate` shows it as a table for people or as JSON.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::candidate::Kind;
use super::checks::Check;
use super::kinds::KINDS;
use super::plan::Plan;
use super::restyle::Restyled;
use crate::judge::calibration::Calibration;
use crate::llm::Llm;
use crate::style::Target;
use crate::testset::{Split, TestSet};

/// LLM figures of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LlmFigures {
    /// Model id.
    pub model: String,
    /// Requests answered (from the server or the journal).
    pub calls: u64,
    /// Of those, answered from the journal without a request.
    pub cache_hits: u64,
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Retried requests.
    pub retries: u64,
    /// Cost in US dollars, when the price is known.
    pub cost_usd: Option<f64>,
}

/// Per kind of question.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KindFigures {
    /// Tasks planned.
    pub planned: usize,
    /// Candidates that reached a verdict (accepted + rejected).
    pub attempted: usize,
    /// Written to the test set.
    pub accepted: usize,
    /// Dropped, by the check that turned each away (its code in JSON).
    pub rejected: BTreeMap<Check, usize>,
    /// LLM calls made for this kind (generation and judging).
    pub llm_calls: u64,
    /// `llm_calls / accepted` (none when nothing was accepted).
    pub calls_per_accepted: Option<f64>,
    /// Verified candidates beyond the planned count (a call of two lookups can overshoot by
    /// one), not written.
    #[serde(skip_serializing_if = "is_zero")]
    pub surplus: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One round: the plan's pass (round 1) or a top-up.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RoundFigures {
    /// 1 for the planned pass, then 2, 3, ...
    pub round: u32,
    /// Requests of the round's tasks (a lookup task asks for two questions).
    pub tasks: usize,
    /// Questions asked for (candidates).
    pub candidates: usize,
    /// Of those, accepted.
    pub accepted: usize,
    /// LLM calls made (generation and judging).
    pub llm_calls: u64,
}

/// Why no further round ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// Every kind reached its planned count.
    Complete,
    /// `--max-rounds` rounds ran.
    MaxRounds,
    /// A round accepted nothing and every replacement would re-ask a chunk already tried.
    NoProgress,
    /// No replacement could be planned (e.g. every multi-hop pair was asked).
    NothingLeft,
}

impl Stop {
    /// Name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Complete => "complete",
            Stop::MaxRounds => "max_rounds",
            Stop::NoProgress => "no_progress",
            Stop::NothingLeft => "nothing_left",
        }
    }
}

/// The whole account.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GenerateSummary {
    /// The test set written (or that would be written).
    pub output: String,
    /// True for `--dry-run`: nothing was called or written.
    pub dry_run: bool,
    /// Chunks considered, and those left out by reason.
    pub chunks: usize,
    /// Low-content chunks left out, by reason.
    pub skipped_chunks: BTreeMap<String, usize>,
    /// By kind (`lookup`, `multi_hop`, `unanswerable`).
    pub by_type: BTreeMap<String, KindFigures>,
    /// Totals.
    pub attempted: usize,
    /// Accepted cases.
    pub accepted: usize,
    /// Rejected candidates.
    pub rejected: usize,
    /// Rejections by check, all kinds (codes in JSON).
    pub rejections: BTreeMap<Check, usize>,
    /// New cases marked held out.
    pub heldout: usize,
    /// Cases the file held before.
    pub existing_cases: usize,
    /// LLM usage (estimates for a dry run).
    pub llm: LlmFigures,
    /// Wall time in seconds.
    pub wall_seconds: f64,
    /// Notes from planning.
    pub notes: Vec<String>,
    /// Rounds allowed (`--max-rounds`).
    pub max_rounds: u32,
    /// Rounds run.
    pub rounds_run: u32,
    /// Each round run.
    pub rounds: Vec<RoundFigures>,
    /// Why no further round ran (none for a dry run).
    pub stopped: Option<Stop>,
    /// LLM requests at most, over all rounds (every candidate rejected, every check run).
    pub worst_case_calls: u64,
    /// The style and difficulty the new questions aim at.
    pub target: Option<Target>,
    /// How the new questions compare with it, as written and as chosen (none for a dry run).
    pub restyled: Option<Restyled>,
    /// The labels added for other passages that answer the accepted questions (none for a dry
    /// run).
    pub answered_by: Option<super::answered_by::Broadened>,
    /// How many accepted cases a reviewer should expect to fix, from the model's measured share
    /// of right cases; none when the model was never measured (or nothing was accepted).
    pub to_fix: Option<crate::generate::measured::ToFix>,
    /// Each judge generation may ask, with whether it ran with this model and why.
    pub judges: Vec<Calibration>,
}

impl GenerateSummary {
    /// Starts an account with every kind present.
    pub fn new(output: String) -> GenerateSummary {
        let by_type = KINDS
            .iter()
            .map(|k| (k.kind.as_str().to_string(), KindFigures::default()))
            .collect();
        GenerateSummary {
            output,
            by_type,
            ..GenerateSummary::default()
        }
    }

    /// The figures of a kind.
    pub fn kind(&mut self, kind: Kind) -> &mut KindFigures {
        self.by_type.entry(kind.as_str().to_string()).or_default()
    }

    /// Computes the totals and ratios from the per-kind figures.
    pub fn finish(&mut self) {
        self.rounds_run = self.rounds.len() as u32;
        self.rejections.clear();
        self.attempted = 0;
        self.accepted = 0;
        self.rejected = 0;
        for f in self.by_type.values_mut() {
            let rejected: usize = f.rejected.values().sum();
            f.attempted = f.accepted + rejected;
            f.calls_per_accepted = (f.accepted > 0).then(|| f.llm_calls as f64 / f.accepted as f64);
            self.attempted += f.attempted;
            self.accepted += f.accepted;
            self.rejected += rejected;
            for (r, n) in &f.rejected {
                *self.rejections.entry(*r).or_default() += n;
            }
        }
        self.to_fix = crate::generate::measured::of(&self.llm.model)
            .filter(|_| !self.dry_run && self.accepted > 0)
            .map(|m| m.to_fix(self.accepted));
    }

    /// An account of `plan`, before anything ran: planned counts per kind, the chunks left
    /// out and the planner's notes, and the most the rounds may call.
    pub fn planned(output: &Path, existing_cases: usize, plan: &Plan, max_rounds: u32) -> GenerateSummary {
        let mut s = GenerateSummary::new(output.display().to_string());
        s.existing_cases = existing_cases;
        s.chunks = plan.chunks;
        s.skipped_chunks = plan.skipped.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        s.notes = plan.notes.clone();
        for k in KINDS {
            s.kind(k.kind).planned = plan.count(k.kind);
        }
        s.max_rounds = max_rounds;
        s.worst_case_calls = plan.worst_case_calls(max_rounds);
        s
    }

    /// Counts the new cases `ids` of `set` that went to the held-out split.
    pub fn count_heldout(&mut self, set: &TestSet, ids: &[String]) {
        self.heldout = ids
            .iter()
            .filter(|id| set.case(id).is_some_and(|c| c.split() == Split::Heldout))
            .count();
    }
}

impl LlmFigures {
    /// The usage of `llm` so far, in total.
    pub fn of(llm: &Llm) -> LlmFigures {
        let u = llm.usage().total;
        LlmFigures {
            model: llm.id(),
            calls: u.calls,
            cache_hits: u.cache_hits,
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            retries: u.retries,
            cost_usd: u.cost_usd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up() {
        let mut s = GenerateSummary::new("out.yaml".into());
        let k = s.kind(Kind::Lookup);
        k.planned = 4;
        k.accepted = 2;
        k.llm_calls = 4;
        k.rejected.insert(Check::QuoteNotFound, 2);
        let u = s.kind(Kind::Unanswerable);
        u.planned = 1;
        u.rejected.insert(Check::CorpusAnswers, 1);
        s.max_rounds = 3;
        s.rounds = vec![
            RoundFigures {
                round: 1,
                tasks: 3,
                candidates: 3,
                accepted: 1,
                llm_calls: 3,
            },
            RoundFigures {
                round: 2,
                tasks: 2,
                candidates: 2,
                accepted: 1,
                llm_calls: 2,
            },
        ];
        s.stopped = Some(Stop::NoProgress);
        s.finish();
        assert_eq!(s.rounds_run, 2);
        assert_eq!((s.attempted, s.accepted, s.rejected), (5, 2, 3));
        assert_eq!(s.by_type["lookup"].calls_per_accepted, Some(2.0));
        assert_eq!(s.by_type["unanswerable"].calls_per_accepted, None);
        assert_eq!(s.rejections[&Check::QuoteNotFound], 2);
    }
}
