//! RS303 `same-answer-same-source`: two cases give the same answer from the same passages.

use std::collections::HashMap;

use super::exact_duplicate::source_of;
use super::{Check, Family, RuleInfo, SetHit, SetInput};
use crate::audit::Severity;
use crate::testset::{Case, Label};

pub const INFO: RuleInfo = RuleInfo {
    code: "RS303",
    name: "same-answer-same-source",
    summary: "Two cases give the same answer from the same passages, however their questions are worded",
    doc: "\
**What it flags**: every case whose reference answer (case and spacing ignored) and labelled
passages are an earlier case's. A passage is the same where its span is, or where its quote's
words are: a page that says the same sentence in two sections gives one fact.

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

/// A passage as this rule compares it: its quote's words, or its span when it has no quote.
fn passage(label: &Label) -> String {
    let words: Vec<&str> = label.quote.split_whitespace().collect();
    if words.is_empty() {
        format!("{}:{}-{}", label.doc, label.start, label.end)
    } else {
        words.join(" ")
    }
}

/// What two cases must share to be one: the answer and the passages, in order.
fn key(case: &Case) -> Option<(String, Vec<String>)> {
    let answer = case
        .answer
        .as_deref()?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    if answer.is_empty() || case.relevant.is_empty() {
        return None;
    }
    Some((answer, case.relevant.iter().map(passage).collect()))
}

fn check(input: &SetInput<'_>) -> Vec<SetHit> {
    let mut first: HashMap<(String, Vec<String>), usize> = HashMap::new();
    let mut hits = Vec::new();
    for (i, case) in input.set.cases.iter().enumerate() {
        let Some(k) = key(case) else { continue };
        match first.get(&k) {
            Some(&j) => {
                let other = &input.set.cases[j];
                hits.push(SetHit {
                    case: Some(i),
                    message: format!(
                        "same answer from the same passages as `{}` ({} vs {})",
                        other.id,
                        source_of(case),
                        source_of(other)
                    ),
                });
            }
            None => {
                first.insert(k, i);
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flagged, on_set};
    use super::*;

    fn answered(id: &str, question: &str, answer: &str, start: usize) -> Case {
        let mut c = super::super::fixture::case(question);
        c.id = id.into();
        c.answer = Some(answer.into());
        c.relevant = vec![Label {
            doc: "api.rst".into(),
            start,
            end: start + 40,
            quote: ":func:`pass_context` passes the current\n    Context.".into(),
            chunk: None,
            grade: None,
            extra: Default::default(),
        }];
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
        ];
        let hits = on_set(check, cases.clone());
        assert_eq!(flagged(&cases, &hits), ["b"]);
        assert!(hits[0].message.contains("as `a`"), "{}", hits[0].message);
    }
}
