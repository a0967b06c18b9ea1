//! RS506 `unsupported-answer` (LLM): a reference answer the judge finds not supported by the
//! case's labelled passages.

use super::{Ask, Check, Family, Hit, JudgeInput, LlmCheck, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS506",
    name: "unsupported-answer",
    summary: "A reference answer that an LLM judge finds not supported by its labelled passages (--llm)",
    doc: "\
**What it flags**: a case with a reference `answer` and at least one label, where an LLM
judge shown the labelled chunks (a label outside every chunk is shown as its quote), the
question and the answer says the passages do not state what the answer says. Runs only with
`--llm`; the prompt is `judge_supported.j2`.

**Why it matters**: answer-correctness metrics compare a system's answer with the reference.
A reference the labelled evidence does not back punishes a system that answers from the
evidence, and hides a label that points at the wrong passage.

**Example**: \"How long are snapshots kept on the free plan?\" answered \"90 days\" while the
labelled retention chunk says \"the free plan keeps snapshots for 30 days\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Any,
    check: Check::Llm(LlmCheck { asks, decide }),
};

fn asks(input: &JudgeInput<'_>) -> Vec<Ask> {
    let Some(answer) = input
        .case
        .answer
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
    else {
        return Vec::new();
    };
    let passages = input.labelled();
    if passages.is_empty() {
        return Vec::new();
    }
    vec![Ask {
        passages,
        answer: Some(answer.to_string()),
        copy: false,
    }]
}

fn decide(asks: &[Ask], supported: &[bool]) -> Option<Hit> {
    if *supported.first()? {
        return None;
    }
    Some(Hit::new(format!(
        "the judge finds the reference answer not supported by its {} labelled passage(s)",
        asks[0].passages.len()
    )))
}

#[cfg(test)]
mod tests {
    use super::super::Shown;
    use super::*;

    #[test]
    fn flags_only_when_judged_unsupported() {
        let asks = [Ask {
            passages: vec![Shown {
                name: "a.md#0".into(),
                doc: "a.md".into(),
                text: "t".into(),
            }],
            answer: Some("90 days".into()),
            copy: false,
        }];
        assert!(decide(&asks, &[true]).is_none());
        assert!(
            decide(&asks, &[false])
                .unwrap()
                .message
                .contains("1 labelled passage")
        );
    }
}
