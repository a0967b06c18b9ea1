//! The end-of-run account: what was planned, attempted, accepted and rejected (with reasons,
//! summed over the rounds), how each round went and why the rounds stopped, what the LLM cost,
//! and how long it took. Printed as a table for people or as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::plan::Kind;

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
    /// Dropped, by reason.
    pub rejected: BTreeMap<String, usize>,
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
pub struct Summary {
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
    /// Rejections by reason, all kinds.
    pub rejections: BTreeMap<String, usize>,
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
}

impl Summary {
    /// Starts an account with every kind present.
    pub fn new(output: String) -> Summary {
        let by_type = Kind::ALL
            .iter()
            .map(|k| (k.as_str().to_string(), KindFigures::default()))
            .collect();
        Summary {
            output,
            by_type,
            ..Summary::default()
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
                *self.rejections.entry(r.clone()).or_default() += n;
            }
        }
    }

    /// A table for people.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let verb = if self.dry_run { "plan for" } else { "wrote" };
        let _ = writeln!(
            s,
            "{verb} {}: {} new case(s) next to {} existing",
            self.output,
            if self.dry_run {
                self.by_type.values().map(|f| f.planned).sum()
            } else {
                self.accepted
            },
            self.existing_cases
        );
        let _ = writeln!(
            s,
            "\n{:<14} {:>7} {:>9} {:>8} {:>8} {:>9} {:>10}",
            "type", "planned", "attempted", "accepted", "rejected", "llm calls", "calls/case"
        );
        for (name, f) in &self.by_type {
            let per = f
                .calls_per_accepted
                .map_or("-".to_string(), |r| format!("{r:.2}"));
            let _ = writeln!(
                s,
                "{name:<14} {:>7} {:>9} {:>8} {:>8} {:>9} {per:>10}",
                f.planned,
                f.attempted,
                f.accepted,
                f.attempted - f.accepted,
                f.llm_calls
            );
        }
        let planned: usize = self.by_type.values().map(|f| f.planned).sum();
        let _ = writeln!(
            s,
            "{:<14} {planned:>7} {:>9} {:>8} {:>8} {:>9}",
            "total", self.attempted, self.accepted, self.rejected, self.llm.calls
        );
        if !self.rejections.is_empty() {
            let _ = writeln!(s, "\nrejections:");
            let mut by_count: Vec<_> = self.rejections.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (r, n) in by_count {
                let _ = writeln!(s, "  {r:<22} {n}");
            }
        }
        if !self.skipped_chunks.is_empty() {
            let list: Vec<String> = self
                .skipped_chunks
                .iter()
                .map(|(r, n)| format!("{r} {n}"))
                .collect();
            let _ = writeln!(
                s,
                "\nchunks: {} considered, skipped as low content: {}",
                self.chunks,
                list.join(", ")
            );
        }
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        if !self.rounds.is_empty() {
            let list: Vec<String> = self
                .rounds
                .iter()
                .map(|r| format!("{}/{} accepted", r.accepted, r.tasks))
                .collect();
            let stop = self.stopped.map_or("", Stop::as_str);
            let _ = writeln!(
                s,
                "\nrounds: {} of at most {} ({}); stopped: {stop}",
                self.rounds.len(),
                self.max_rounds,
                list.join(", ")
            );
        }
        let est = if self.dry_run { " (estimated)" } else { "" };
        let cost = self
            .llm
            .cost_usd
            .map_or("unknown".to_string(), |c| format!("${c:.4}"));
        let _ = writeln!(
            s,
            "\nllm {}{est}: {} calls ({} from cache), {} prompt + {} completion tokens, {} retries, cost {cost}",
            self.llm.model,
            self.llm.calls,
            self.llm.cache_hits,
            self.llm.prompt_tokens,
            self.llm.completion_tokens,
            self.llm.retries
        );
        if self.dry_run {
            let _ = writeln!(
                s,
                "worst case over {} round(s): {} calls (every candidate rejected and replaced)",
                self.max_rounds, self.worst_case_calls
            );
        } else {
            let _ = writeln!(s, "held out: {} of {} new case(s)", self.heldout, self.accepted);
        }
        let _ = writeln!(s, "wall time: {:.1}s", self.wall_seconds);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up() {
        let mut s = Summary::new("out.yaml".into());
        let k = s.kind(Kind::SingleHop);
        k.planned = 4;
        k.accepted = 2;
        k.llm_calls = 4;
        k.rejected.insert("quote_not_found".into(), 2);
        let u = s.kind(Kind::Unanswerable);
        u.planned = 1;
        u.rejected.insert("corpus_answers".into(), 1);
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
        let t = s.to_table();
        assert!(t.contains("quote_not_found        2"), "{t}");
        assert!(t.contains("total"), "{t}");
        assert!(
            t.contains("rounds: 2 of at most 3 (1/3 accepted, 1/2 accepted); stopped: no_progress"),
            "{t}"
        );
    }
}
