//! RS511 `joined-questions`: a multi-hop case that is two questions joined by "and".

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::testset::QuestionType;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS511",
    name: "joined-questions",
    summary: "A multi-hop case whose question is two questions joined by \"and\": a conjunction, not a bridge",
    doc: "\
**What it flags**: a case tagged `multi_hop` whose (English) question joins a second question to
the first with \"and\" and a question word that opens a clause of its own (\"… and how can I fix
it\", \"…, and what is the default output format?\"). It reads imported sets alike: Giskard's
\"double\" questions and Ragas' multi-context ones are often made this way. `generate` turns the
same multi-hop away as `joined_questions`.

**Why it matters**: each half is a lookup; a retriever that finds either passage scores half,
and nothing needs the second passage *because of* the first, which is what a multi-hop
(bridge) question tests. Report such cases as two lookups, or rewrite one as a bridge.

**Example**: \"What are the environment variables used to override settings, and what is the
default output format for the CLI?\" labelled with configuration.md and reference/cli.md.",
    severity: Severity::Info,
    family: Family::Answerability,
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    if input.case.question_type() != Some(QuestionType::MultiHop) {
        return None;
    }
    let at = crate::wording::form::joined_question(&input.case.question, input.language)?;
    Some(Hit::new(format!(
        "two questions joined at \"{}\": each half is a lookup",
        &input.case.question[at]
    )))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, label, labelled, passes};
    use super::*;

    fn multi_hop(q: &str) -> crate::testset::Case {
        let mut c = labelled(
            q,
            "retention.md",
            "Snapshots are kept for 30 days on the free plan.",
        );
        c.relevant.push(label(
            "billing.md",
            "The Team plan costs 8 euros per user and month.",
        ));
        c.tags.kind = Some(QuestionType::MultiHop.as_str().into());
        c
    }

    #[test]
    fn flags_two_lookups_joined_by_and_not_a_bridge_or_a_lookup() {
        let joined =
            multi_hop("How long are snapshots kept on the free plan, and what does the Team plan cost?");
        assert_eq!(
            flags(check, &joined),
            "two questions joined at \"and what does\": each half is a lookup"
        );
        passes(
            check,
            &multi_hop("How much does the plan that keeps snapshots for 30 days cost per user?"),
        );
        let mut lookup = joined.clone();
        lookup.tags.kind = Some(QuestionType::Lookup.as_str().into());
        passes(check, &lookup);
    }
}
