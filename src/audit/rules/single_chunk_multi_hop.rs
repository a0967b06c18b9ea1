//! RS503 `single-chunk-multi-hop`: a multi-hop case one chunk answers.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::testset::QuestionType;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS503",
    name: "single-chunk-multi-hop",
    summary: "A multi-hop case with fewer than two labels, or whose labels all lie in one chunk",
    doc: "\
**What it flags**: a case tagged `multi_hop` with fewer than two labelled passages, or whose
labels all fall inside one chunk under the set's chunking.

**Why it matters**: a multi-hop question must need two or more passages; when one chunk holds
everything, the case is single-hop and the set overstates how well the system combines
evidence.

**Example**: a comparison of two plans labelled with two sentences of the same pricing
table chunk.",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let case = input.case;
    if case.question_type() != Some(QuestionType::MultiHop) {
        return None;
    }
    if case.relevant.len() < 2 {
        // Passages its generator gave but the corpus lacks are RS406's: they still count here.
        let given = case.relevant.len() + case.unlocated();
        return (given < 2)
            .then(|| Hit::new(format!("tagged multi_hop but has {given} labelled passage(s)")));
    }
    let per_label: Vec<Vec<usize>> = case
        .relevant
        .iter()
        .map(|l| input.cx.chunks_of(&l.doc, l.start, l.end))
        .collect();
    if per_label.iter().any(Vec::is_empty) {
        return None;
    }
    let common = per_label[0]
        .iter()
        .find(|c| per_label[1..].iter().all(|other| other.contains(c)))?;
    Some(Hit::new(format!(
        "tagged multi_hop but every label lies in chunk `{}`",
        input.cx.chunks[*common].id
    )))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{labelled, on_case};
    use super::*;

    use super::super::fixture::label;
    use crate::testset::QuestionType;

    #[test]
    fn flags_a_multi_hop_inside_one_chunk_and_not_one_across_documents() {
        let mut one = labelled(
            "What costs 8 euros and when are invoices sent?",
            "billing.md",
            "costs 8 euros",
        );
        one.tags.kind = Some(QuestionType::MultiHop.as_str().into());
        one.relevant.push(label("billing.md", "Invoices are sent"));
        let hit = on_case(check, &one).expect("one chunk");
        assert!(
            hit.message.contains("every label lies in chunk `billing.md#"),
            "{}",
            hit.message
        );
        let mut two = one.clone();
        two.relevant[1] = label("install.md", "open port 8750");
        assert!(on_case(check, &two).is_none());
        two.relevant.pop();
        assert!(
            on_case(check, &two)
                .unwrap()
                .message
                .contains("1 labelled passage")
        );
        // A second passage that was not found in the corpus is not a missing hop.
        two.extra.insert(
            "unlocated".into(),
            serde_json::json!([{"text": "a passage of another corpus"}]),
        );
        assert!(on_case(check, &two).is_none());
    }
}
