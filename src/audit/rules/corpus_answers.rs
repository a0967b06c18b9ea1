//! RS504 `corpus-answers` (LLM): an "unanswerable" question the judge finds answered by the
//! chunks keyword search returns for it.

use super::{Ask, Check, Family, Hit, JudgeInput, LlmCheck, RuleInfo, Shown};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS504",
    name: "corpus-answers",
    summary: "An unanswerable case that an LLM judge finds answered by its BM25 top chunks (--llm)",
    doc: "\
**What it flags**: a case with no relevant passage (type `unanswerable` or empty `relevant`)
where an LLM judge, shown the `judge_top_k` (default 3) chunks BM25 ranks highest for the
question, says they state the answer. Runs only with `--llm`; the prompt is
`judge_answerable.j2`, the one `generate` uses to reject such candidates. RS502 is the
lexical version that needs no model; this one also catches answers worded differently.

**Why it matters**: a system that answers correctly from the corpus is scored as
hallucinating, and one that says \"I don't know\" is rewarded.

**Example**: \"How long does Tidepool keep deleted files?\" marked unanswerable while the
retention chunk says \"removed files stay restorable for 30 days\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Any,
    check: Check::Llm(LlmCheck { asks, decide }),
};

fn asks(input: &JudgeInput<'_>) -> Vec<Ask> {
    let case = input.case;
    let unanswerable = case.is_unanswerable();
    if !unanswerable || input.config.judge_top_k == 0 {
        return Vec::new();
    }
    let passages: Vec<Shown> = (input.search)(&case.question, input.config.judge_top_k)
        .into_iter()
        .map(|i| {
            let c = &input.cx.chunks[i];
            Shown {
                name: c.id.clone(),
                doc: c.doc.clone(),
                text: c.text.clone(),
            }
        })
        .collect();
    if passages.is_empty() {
        return Vec::new();
    }
    vec![Ask {
        passages,
        answer: None,
        copy: false,
    }]
}

fn decide(asks: &[Ask], answerable: &[bool]) -> Option<Hit> {
    if !*answerable.first()? {
        return None;
    }
    let names: Vec<String> = asks[0].passages.iter().map(|p| format!("`{}`", p.name)).collect();
    Some(Hit::new(format!(
        "marked unanswerable, but the judge finds it answered by the BM25 top {}: {}",
        names.len(),
        names.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(names: &[&str]) -> Vec<Ask> {
        vec![Ask {
            passages: names
                .iter()
                .map(|n| Shown {
                    name: n.to_string(),
                    doc: "d.md".into(),
                    text: "t".into(),
                })
                .collect(),
            answer: None,
            copy: false,
        }]
    }

    #[test]
    fn asks_about_unanswerable_cases_only() {
        use super::super::fixture::{case, cx, labelled};
        let config = crate::audit::AuditConfig::default();
        let search = |q: &str, k: usize| -> Vec<usize> {
            cx().chunks
                .bm25()
                .search(q, k)
                .into_iter()
                .map(|h| h.doc)
                .collect()
        };
        let input = |case| JudgeInput {
            case,
            cx: cx(),
            config: &config,
            search: &search,
        };
        let open = case("What is the archive tier of Tidepool called?");
        let got = asks(&input(&open));
        assert_eq!(got.len(), 1);
        assert!(got[0].passages[0].name.starts_with("retention.md#"), "{got:?}");
        let answered = labelled(
            "What is the archive tier called?",
            "retention.md",
            "Glacier Vault",
        );
        assert!(asks(&input(&answered)).is_empty());
    }

    #[test]
    fn flags_only_when_judged_answerable() {
        let a = ask(&["d.md#0", "d.md#3"]);
        let hit = decide(&a, &[true]).unwrap();
        assert!(
            hit.message.contains("top 2: `d.md#0`, `d.md#3`"),
            "{}",
            hit.message
        );
        assert!(decide(&a, &[false]).is_none());
    }
}
