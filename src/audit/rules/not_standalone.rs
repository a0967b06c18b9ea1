//! RS209 `not-standalone`: a question that only makes sense after an earlier turn.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS209",
    name: "not-standalone",
    summary: "The question leans on an earlier turn, a pronoun it never explains, or a thing of the text it never names",
    doc: "\
**What it flags**: a question whose subject is a pronoun with nothing in the question it could
stand for (\"What is its purpose?\", \"What advice is given to them?\"), or that points back at an
earlier turn or passage (\"the previous answer\", \"as mentioned earlier\", \"what about ...\",
\"in this situation\"), or that names a thing of the text by a description no name resolves (English): \"the function\", \"the
example\", \"this option\", \"the code\", \"the file\", \"the calling code\", \"the given struct\",
\"the following\" — not \"the
`parse` function\", \"the function read_to_string\", \"the main function\" or \"the function of
the archive tier\". In a case with no `conversation`; `generate` turns the same away as
`not_standalone`. A case that carries the earlier turns (Giskard's conversational
questions, imported with their `conversation_history`) is left alone.

**Why it matters**: a retriever gets the question alone. \"its\" matches nothing in the corpus,
so the case measures luck, and a generator that wrote it lost the subject of its passage.

**Example**: \"What is its purpose?\" generated from a passage about the Tidepool archive tier;
a user would ask \"What is the Tidepool archive tier for?\".",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let case = input.case;
    if case.conversation_turns() > 0 {
        return None;
    }
    let at = crate::wording::standalone::not_standalone(&case.question, input.language)?;
    Some(Hit {
        message: format!(
            "\"{}\" refers to something the question does not say; it cannot stand alone",
            &case.question[at.clone()]
        ),
        highlight: Some(at),
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, flags, passes};
    use super::*;

    #[test]
    fn flags_a_dangling_pronoun_and_not_a_case_with_its_conversation() {
        assert!(flags(check, &case("What is its purpose?")).starts_with("\"its\" refers"));
        passes(check, &case("What is the purpose of the Glacier Vault tier?"));
        assert!(flags(check, &case("What does the function return?")).starts_with("\"the function\" refers"));
        passes(check, &case("What does the `read_to_string` function return?"));
        let mut turn = case("What advice is given to them?");
        assert!(flags(check, &turn).contains("\"them\""));
        turn.extra.insert(
            "conversation".into(),
            serde_json::json!([{"role": "user", "content": "I run a small clinic."}]),
        );
        passes(check, &turn);
    }
}
