//! How often a model's accepted cases are right, as the correctness benchmark measured it
//! (every accepted case of keyless `-n 20` draws read against its document by hand): what the
//! summary turns into "a reviewer should expect to fix about N of these". A model without a
//! row has no figure, and the summary says so rather than guess from another model's.

use serde::Serialize;

/// One model's measured share of right accepted cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RightShare {
    /// `provider:model`, as [`crate::llm::Llm::id`] names it.
    pub model: &'static str,
    /// Right of accepted, on documentation corpora the checks were tuned on.
    pub tuned: (usize, usize),
    /// Right of accepted, on documentation nobody tuned on.
    pub held_out: (usize, usize),
    /// Where the figures come from.
    pub source: &'static str,
}

/// What we measured. A new model, or the default after a change of its checks, is re-measured
/// with `scripts/bench-correctness.sh` and its row written here.
pub const MEASURED: &[RightShare] = &[RightShare {
    model: "llamacpp:Qwen2.5-Coder-1.5B-Instruct.Q4_K_M",
    tuned: (166, 229),
    held_out: (11, 18),
    source: "docs/benchmarks.md#correctness: Click, Flask and Jinja, seeds 0-4 (tuned); \
             a web server's docs nobody here had used (held out)",
}];

/// The measured row of `model`, if any.
pub fn of(model: &str) -> Option<&'static RightShare> {
    MEASURED.iter().find(|m| m.model == model)
}

/// What a reviewer should expect to fix of a run's accepted cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToFix {
    /// Accepted cases wrong at the tuned corpora's share (rounded).
    pub at_tuned: usize,
    /// Accepted cases wrong at the held-out share (rounded).
    pub at_held_out: usize,
    /// Share wrong on the tuned corpora.
    pub wrong_tuned: f64,
    /// Share wrong on held-out documentation.
    pub wrong_held_out: f64,
    /// Where the figures come from.
    pub source: &'static str,
}

impl RightShare {
    /// What to expect of `accepted` cases written by this model.
    pub fn to_fix(&self, accepted: usize) -> ToFix {
        let wrong = |(right, of): (usize, usize)| 1.0 - right as f64 / of.max(1) as f64;
        let (wrong_tuned, wrong_held_out) = (wrong(self.tuned), wrong(self.held_out));
        ToFix {
            at_tuned: (accepted as f64 * wrong_tuned).round() as usize,
            at_held_out: (accepted as f64 * wrong_held_out).round() as usize,
            wrong_tuned,
            wrong_held_out,
            source: self.source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_model_has_a_row_and_another_model_none() {
        let row = of("llamacpp:Qwen2.5-Coder-1.5B-Instruct.Q4_K_M").expect("the default model");
        let twelve = row.to_fix(12);
        assert_eq!((twelve.at_tuned, twelve.at_held_out), (3, 5));
        assert!((twelve.wrong_tuned - 63.0 / 229.0).abs() < 1e-9);
        assert!(of("openai:gpt-4o-mini").is_none());
    }
}
