//! RS302 `near-duplicate`: two questions that differ by a word or two.

use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;
use crate::wording::duplicates::near_duplicates;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS302",
    name: "near-duplicate",
    summary: "Two cases ask nearly the same question (word-bigram Jaccard ≥ `near_duplicate`)",
    doc: "\
**What it flags**: a case whose question shares at least `near_duplicate` (default 0.8) of
its stemmed word bigrams (Jaccard similarity) with an earlier case, synthetic or real, and is
not an exact duplicate (RS301). Candidates come from MinHash (32 hashes, 8 bands of 4), so
100,000 questions are compared in seconds; every candidate pair is verified exactly.

**Why it matters**: generators repeat themselves, especially on near-identical chunks; near
duplicates inflate the set's size without adding any test, and a synthetic paraphrase of a
real question leaks it.

**Example**: \"How long are snapshots retained?\" and \"How long are the snapshots retained?\"",
    severity: Severity::Warning,
    family: Family::Duplicates,
    reads: super::Reads::Any,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    let questions: Vec<&str> = input.set.cases.iter().map(|c| c.question.as_str()).collect();
    near_duplicates(&questions, input.config.near_duplicate)
        .into_iter()
        .map(|(i, j, sim)| {
            let (a, b) = (&input.set.cases[i], &input.set.cases[j]);
            SetHit {
                case: Some(i),
                message: format!(
                    "{:.0}% like `{}` ({} vs {})",
                    sim * 100.0,
                    b.id,
                    super::exact_duplicate::source_of(a),
                    super::exact_duplicate::source_of(b)
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{numbered, on_set};
    use super::*;

    #[test]
    fn flags_a_near_copy_and_not_a_different_question() {
        let asked = "How long are snapshots kept on the free plan of Tidepool";
        let cases = numbered(&[
            asked,
            &format!("{asked} today?"),
            "Which port does the agent use?",
        ]);
        let hits = on_set(check, cases);
        assert_eq!(hits.len(), 1, "one of the near copies, not the port question");
        assert!(hits[0].message.contains("% like `q"), "{}", hits[0].message);
    }
}
