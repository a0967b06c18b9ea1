//! RS210 `stutter`: the question says a run of words twice in a row.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS210",
    name: "stutter",
    summary: "The question says a run of two to four words twice in a row",
    doc: "\
**What it flags**: a question in which two, three or four words come twice in a row (\"…
designed for designed for\"). A single word said twice (\"that that\") is left alone. Of the
4,053 real questions in the project's reference data one does it, a city named with its state
(\"what county is new york new york in?\"). `generate` turns the same away as `repeats_itself`.

**Why it matters**: a generator that puts a description or a made-up name in the place of a
thing runs its last words into the words after it; the question reads as garbled to a user and
to a judge, and a person reviewing the set has to rewrite it.

**Example**: \"what was the type of rifle that the new trigger is designed for designed for\"
(TREC DL 2020 passages, a multi-hop question whose description of the AR-15 ran into hop 2's
words).",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Any,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    crate::wording::form::stutters(&input.case.question)
        .then(|| Hit::new("says a run of words twice in a row"))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_a_run_said_twice_and_not_a_word_said_twice() {
        let garbled = case("when did the international Alpine Hall of Fame of fame add new photos");
        assert_eq!(
            on_case(check, &garbled).unwrap().message,
            "says a run of words twice in a row"
        );
        assert!(on_case(check, &case("is it true that that flag is deprecated")).is_none());
    }
}
