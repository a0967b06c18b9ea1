//! RS602 `synthetic-share`: the set is mostly synthetic.

use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS602",
    name: "synthetic-share",
    summary: "Synthetic cases make up more than `max_synthetic_share` of the set",
    doc: "\
**What it flags**: a set in which more than `max_synthetic_share` (default 0.8) of the cases
are tagged synthetic.

**Why it matters**: synthetic questions seed a set; they do not replace real ones. Written
beside the text, they favour keyword retrieval (on SQuAD BM25 beats a dense retriever, on real
queries the dense retriever wins by about 20 points), so a mostly synthetic set can pick the
wrong retriever.

**Example**: 450 synthetic and 24 real cases (95% synthetic).",
    severity: Severity::Warning,
    family: Family::Coverage,
    reads: super::Reads::Any,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    let n = input.set.cases.len();
    let syn = input.set.cases.iter().filter(|c| c.is_synthetic()).count();
    if n == 0 || (syn as f32 / n as f32) <= input.config.max_synthetic_share {
        return Vec::new();
    }
    vec![SetHit {
        case: None,
        message: format!(
            "{syn} of {n} cases are synthetic ({:.0}%); add real questions (`ragsynth import`)",
            100.0 * syn as f32 / n as f32
        ),
    }]
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_set};
    use super::*;

    use crate::testset::Source;

    #[test]
    fn flags_a_mostly_synthetic_set_and_not_one_with_real_questions() {
        let synthetic: Vec<_> = (0..5).map(|i| case(&format!("Question {i}?"))).collect();
        let hits = on_set(check, synthetic.clone());
        assert_eq!(hits.len(), 1);
        assert!(
            hits[0].message.starts_with("5 of 5 cases are synthetic"),
            "{}",
            hits[0].message
        );
        let mut mixed = synthetic;
        for c in mixed.iter_mut().take(2) {
            c.tags.source = Some(Source::Real);
        }
        assert!(on_set(check, mixed).is_empty());
    }
}
