//! RS207 `answer-in-question`: the reference answer is already in the question.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS207",
    name: "answer-in-question",
    summary: "Every content word of a short reference answer already occurs in the question",
    doc: "\
**What it flags**: a case whose reference answer has 1 to 6 content words (stemmed
non-stopwords) and all of them occur in the question. Yes/no answers are not counted.

**Why it matters**: the question gives its answer away; a system can echo the question and
score.

**Example**: question \"Is the archive tier of Tidepool called Glacier Vault?\", answer
\"Glacier Vault\".",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let answer = input.case.answer.as_deref()?;
    crate::wording::restates_answer_in(&input.case.question, answer, input.language).then(|| {
        Hit::new(format!(
            "the answer \"{}\" is contained in the question",
            answer.trim()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_an_answer_given_away_and_not_one_the_question_lacks() {
        let mut given = case("Is the archive tier of Tidepool called Glacier Vault?");
        given.answer = Some("Glacier Vault".into());
        assert!(on_case(check, &given).is_some());
        let mut asked = case("What is the archive tier called?");
        asked.answer = Some("Glacier Vault".into());
        assert!(on_case(check, &asked).is_none());
    }
}
