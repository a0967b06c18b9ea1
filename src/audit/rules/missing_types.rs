//! RS603 `missing-types`: no unanswerable or no multi-hop cases.

use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;
use crate::testset::QuestionType;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS603",
    name: "missing-types",
    summary: "The set has no unanswerable or no multi-hop case",
    doc: "\
**What it flags**: a set without any unanswerable case (no relevant passage) or without any
case tagged `multi_hop`.

**Why it matters**: a RAG system must say \"I don't know\" when the corpus has no answer, and
must combine passages; a set without those cases never tests either, and generators skip them
unless asked.

**Example**: 200 lookup questions and nothing else.",
    severity: Severity::Warning,
    family: Family::Coverage,
    reads: super::Reads::Any,
    check: Check::Set(check),
};

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    let cases = &input.set.cases;
    if cases.is_empty() {
        return Vec::new();
    }
    let mut missing = Vec::new();
    if !cases.iter().any(|c| c.is_unanswerable()) {
        missing.push("unanswerable");
    }
    if !cases
        .iter()
        .any(|c| c.question_type() == Some(QuestionType::MultiHop))
    {
        missing.push("multi_hop");
    }
    if missing.is_empty() {
        return Vec::new();
    }
    vec![SetHit {
        case: None,
        message: format!("no {} case", missing.join(" and no ")),
    }]
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, label, on_set};
    use super::*;
    use crate::testset::{Case, Tags};

    #[test]
    fn flags_a_set_without_unanswerable_or_multi_hop_and_not_one_with_both() {
        let typed = |kind: QuestionType| Case {
            relevant: vec![label("billing.md", "costs 8 euros")],
            tags: Tags {
                kind: Some(kind.as_str().into()),
                ..Default::default()
            },
            ..case("What does the Team plan cost, and when is it billed?")
        };
        let lookups = vec![typed(QuestionType::Lookup)];
        assert_eq!(
            on_set(check, lookups)[0].message,
            "no unanswerable and no multi_hop case"
        );
        let unanswerable = case("Can snapshots go on tape?");
        assert!(on_set(check, vec![typed(QuestionType::MultiHop), unanswerable]).is_empty());
    }
}
