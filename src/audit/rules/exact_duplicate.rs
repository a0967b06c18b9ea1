//! RS301 `exact-duplicate`: the same question twice (ignoring case and punctuation).

use std::collections::HashMap;

use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;
use crate::wording::duplicates::normalized;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS301",
    name: "exact-duplicate",
    summary: "Two cases ask the same question (same words, ignoring case and punctuation)",
    doc: "\
**What it flags**: every case whose question has the same lower-cased word sequence as an
earlier case, synthetic or real.

**Why it matters**: a duplicate counts twice in every metric; a synthetic copy of a real
question also leaks the real one into whatever the synthetic cases are used for.

**Example**: \"How do I restore a snapshot?\" and \"how do I restore a snapshot\".",
    severity: Severity::Error,
    family: Family::Duplicates,
    reads: super::Reads::Any,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    repeats(
        input,
        |case| Some(normalized(&case.question)).filter(|k| !k.is_empty()),
        "same question as",
    )
}

/// A finding on every case whose `key` an earlier case has: "`what` `id` (source vs source)".
/// Cases without a key are passed over.
pub(super) fn repeats<K: std::hash::Hash + Eq>(
    input: &SetInput<'_>,
    key: impl Fn(&crate::testset::Case) -> Option<K>,
    what: &str,
) -> Vec<SetHit> {
    let mut first: HashMap<K, usize> = HashMap::new();
    let mut hits = Vec::new();
    for (i, case) in input.set.cases.iter().enumerate() {
        let Some(k) = key(case) else { continue };
        match first.get(&k) {
            Some(&j) => {
                let other = &input.set.cases[j];
                hits.push(SetHit {
                    case: Some(i),
                    message: format!(
                        "{what} `{}` ({} vs {})",
                        other.id,
                        source_of(case),
                        source_of(other)
                    ),
                });
            }
            None => {
                first.insert(k, i);
            }
        }
    }
    hits
}

pub(super) fn source_of(case: &crate::testset::Case) -> &'static str {
    if case.is_synthetic() { "synthetic" } else { "real" }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flagged, numbered, on_set};
    use super::*;

    #[test]
    fn flags_the_repeat_and_not_a_different_question() {
        let cases = numbered(&["How do I restore?", "how do I restore", "How do I delete?"]);
        let hits = on_set(check, cases.clone());
        assert_eq!(flagged(&cases, &hits), ["q1"]);
        assert!(
            hits[0].message.contains("same question as `q0`"),
            "{}",
            hits[0].message
        );
    }
}
