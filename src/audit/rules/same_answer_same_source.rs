//! RS303 `same-answer-same-source`: two cases give the same answer from the same passages.

use super::exact_duplicate::repeats;
use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;
use crate::testset::{Case, Label};

pub const INFO: RuleInfo = RuleInfo {
    code: "RS303",
    name: "same-answer-same-source",
    summary: "Two cases give the same answer from the same passages, however their questions are worded",
    doc: "\
**What it flags**: every case whose reference answer (its content words, stemmed: case,
spacing, function words and word endings ignored) and labelled passages are an earlier case's.
A passage is the same where its span is, or where its quote's words are: a page that says the
same sentence in two sections gives one fact.

**Why it matters**: RS301 and RS302 read the question only, and a generator that reaches one
fact twice words the second question otherwise (\"what is the difference between pass_context
and pass_environment\", \"how do pass_context and pass_environment differ\", from the two places
Jinja's API page says it). The fact is counted twice in every metric, and a reviewer deletes one.

**Example**: two comparisons of `pass_context` and `pass_environment`, one labelled in the
custom filters section and one in the custom tests section, with the same answer.",
    severity: Severity::Warning,
    family: Family::Duplicates,
    reads: super::Reads::Any,
    check: Check::Set(check),
};

/// What two cases must share to be one: the answer and the passages
/// ([`Label::passage`]), in order.
fn key(case: &Case) -> Option<(String, Vec<String>)> {
    let answer = crate::wording::duplicates::answer_key(case.answer.as_deref()?);
    if answer.is_empty() || case.relevant.is_empty() {
        return None;
    }
    Some((answer, case.relevant.iter().map(Label::passage).collect()))
}

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    repeats(input, key, "same answer from the same passages as")
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flagged, on_set};
    use super::*;

    fn answered(id: &str, question: &str, answer: &str, start: usize) -> Case {
        let mut c = super::super::fixture::case(question);
        c.id = id.into();
        c.answer = Some(answer.into());
        c.relevant = vec![Label::spanning(
            "api.rst",
            start,
            ":func:`pass_context` passes the current\n    Context.",
        )];
        c
    }

    #[test]
    fn flags_the_same_answer_from_the_same_words_and_not_another_answer() {
        let cases = vec![
            answered("a", "what does pass_context pass", "the current Context", 23359),
            answered(
                "b",
                "what is passed by pass_context",
                "The current  Context",
                25513,
            ),
            answered(
                "c",
                "what does pass_context do",
                "passes the current Context",
                23359,
            ),
            // The same words but for an article and an ending.
            answered("d", "pass_context passes what", "a current Contexts", 23359),
        ];
        let hits = on_set(check, cases.clone());
        assert_eq!(flagged(&cases, &hits), ["b", "d"]);
        assert!(hits[0].message.contains("as `a`"), "{}", hits[0].message);
    }
}
