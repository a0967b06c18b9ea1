//! RS303 `same-answer-same-source`: two cases give the same answer from the same passages.

use std::collections::HashMap;

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

/// The passages ([`Label::passage`]) of a case with an answer, in order.
fn passages(case: &Case) -> Option<Vec<String>> {
    if case.answer.is_none() || case.relevant.is_empty() {
        return None;
    }
    Some(case.relevant.iter().map(Label::passage).collect())
}

/// What two cases must share to be one: the answer and the passages.
fn key(case: &Case, passages: Vec<String>) -> Option<(String, Vec<String>)> {
    let answer = crate::wording::duplicates::answer_key(case.answer.as_deref()?);
    (!answer.is_empty()).then_some((answer, passages))
}

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    // The answer's key detects its language, which costs more than the rest of the audit's
    // reading of a short answer; only cases whose passages another case has are read for it.
    let mut shared: HashMap<Vec<String>, usize> = HashMap::new();
    for p in input.set.cases.iter().filter_map(passages) {
        *shared.entry(p).or_default() += 1;
    }
    repeats(
        input,
        |case| {
            let p = passages(case).filter(|p| shared.get(p).is_some_and(|&n| n > 1))?;
            key(case, p)
        },
        "same answer from the same passages as",
    )
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
