//! RS505 `multi-hop-one-passage` (LLM): a multi-hop case the judge finds answered by one of its
//! labelled chunks alone.

use super::{Ask, Check, Family, Hit, JudgeInput, LlmCheck, RuleInfo};
use crate::audit::Severity;
use crate::testset::QuestionType;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS505",
    name: "multi-hop-one-passage",
    summary: "A multi-hop case that an LLM judge finds answered by one labelled chunk alone (--llm)",
    doc: "\
**What it flags**: a case tagged `multi_hop` whose labels lie in two or more chunks, where an
LLM judge shown one of those chunks alone says it states the answer. Each labelled chunk is
judged separately (a label outside every chunk is shown as its quote); the first that answers
is named. Runs only with `--llm`, with the prompt `judge_answerable.j2` that `generate` uses to
reject such candidates. RS503 is the structural version (all labels in one chunk).

**Why it matters**: a multi-hop question must need two or more passages; when one answers it,
the case is single-hop and the set overstates how well the system combines evidence.

**Example**: \"Which plan keeps snapshots longest, and what does it cost?\" labelled with the
retention chunk and the pricing chunk, while the pricing chunk lists both retention and price.",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Any,
    check: Check::Llm(LlmCheck { asks, decide }),
};

fn asks(input: &JudgeInput<'_>) -> Vec<Ask> {
    if input.case.question_type() != Some(QuestionType::MultiHop) {
        return Vec::new();
    }
    let passages = input.labelled();
    if passages.len() < 2 {
        // Fewer than two passages is RS503's finding, not a question for the judge.
        return Vec::new();
    }
    passages
        .into_iter()
        .map(|p| Ask {
            passages: vec![p],
            answer: None,
            copy: false,
        })
        .collect()
}

fn decide(asks: &[Ask], answerable: &[bool]) -> Option<Hit> {
    let (ask, _) = asks.iter().zip(answerable).find(|(_, yes)| **yes)?;
    Some(Hit::new(format!(
        "tagged multi_hop, but the judge finds `{}` alone answers it",
        ask.passages[0].name
    )))
}

#[cfg(test)]
mod tests {
    use super::super::Shown;
    use super::*;

    fn one(name: &str) -> Ask {
        Ask {
            passages: vec![Shown {
                name: name.into(),
                doc: "d.md".into(),
                text: "t".into(),
            }],
            answer: None,
            copy: false,
        }
    }

    #[test]
    fn names_the_first_chunk_that_answers_alone() {
        let asks = [one("a.md#0"), one("b.md#2")];
        assert!(decide(&asks, &[false, false]).is_none());
        let hit = decide(&asks, &[false, true]).unwrap();
        assert!(hit.message.contains("`b.md#2` alone"), "{}", hit.message);
        assert!(decide(&asks, &[true, true]).unwrap().message.contains("`a.md#0`"));
    }
}
