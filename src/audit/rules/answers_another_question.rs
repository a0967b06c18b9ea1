//! RS509 `answers-another-question` (LLM): by its label, the reference answer is the answer to
//! another question than the case asks.

use super::{Ask, Check, Family, Hit, JudgeInput, LlmCheck, RuleInfo, Shown};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS509",
    name: "answers-another-question",
    summary: "An LLM judge answering the question from the label finds another answer than the reference (--llm)",
    doc: "\
**What it flags**: a case with a reference `answer` and labels where an LLM judge, asked to
answer the question by copying words of the labelled text (without seeing the reference), copies
words that do not name the reference answer, or nothing. Runs only with `--llm`; the prompt is
`judge_answers.j2`. On XQuAD and SQuAD 2.0 sentences with a right answer and with another
question's answer from the same paragraph, the default model agrees with the truth at κ 0.87 on
the items the prompt was worded on and 0.73 on held-out ones (docs/benchmarks.md).

**Why it matters**: a generator that takes its answer from the neighbouring clause of the right
sentence writes an answer whose every word is in the label, so no lexical check sees it, and a
system that answers the question correctly is scored as wrong.

**Example**: \"How did Jonas Øvergaard pay for the Team plan?\" answered \"by deleting the wrong
folder\", labelled \"The Team plan paid for itself the first time someone deleted the wrong
folder.\"",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Any,
    check: Check::Llm(LlmCheck { asks, decide }),
};

fn asks(input: &JudgeInput<'_>) -> Vec<Ask> {
    let case = input.case;
    let Some(answer) = case.answer.as_deref().map(str::trim).filter(|a| !a.is_empty()) else {
        return Vec::new();
    };
    if case.is_unanswerable() || case.relevant.is_empty() {
        return Vec::new();
    }
    let Some(first) = case.relevant.first() else {
        return Vec::new();
    };
    vec![Ask {
        passages: vec![Shown {
            name: format!("{}[{}..{}]", first.doc, first.start, first.end),
            doc: first.doc.clone(),
            text: super::labelled_fact(case, input.cx),
        }],
        answer: Some(answer.to_string()),
        copy: true,
    }]
}

fn decide(_asks: &[Ask], agrees: &[bool]) -> Option<Hit> {
    if *agrees.first()? {
        return None;
    }
    Some(Hit::new(
        "answering the question from its label, the judge finds another answer than the reference",
    ))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{cx, labelled};
    use super::*;

    #[test]
    fn asks_once_with_the_labelled_text_and_flags_a_disagreement() {
        let mut c = labelled(
            "How long are snapshots kept on the free plan?",
            "retention.md",
            "Snapshots are kept for 30 days on the free plan.",
        );
        let config = crate::audit::AuditConfig::default();
        let search = |_: &str, _: usize| Vec::new();
        let asks_of = |c: &crate::testset::Case| {
            asks(&JudgeInput {
                case: c,
                cx: cx(),
                config: &config,
                search: &search,
            })
        };
        assert!(asks_of(&c).is_empty(), "no answer, nothing to ask");
        c.answer = Some("30 days".into());
        let list = asks_of(&c);
        assert_eq!(list.len(), 1);
        assert!(list[0].copy);
        assert_eq!(
            list[0].passages[0].text,
            "Snapshots are kept for 30 days on the free plan."
        );
        assert!(decide(&list, &[true]).is_none());
        assert!(decide(&list, &[false]).is_some());
    }
}
