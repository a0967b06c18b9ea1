//! RS103 `contained-long-question`: every content word of a long question is in its source.

use super::{CaseInput, Check, Family, Hit, RuleInfo, length_in_words, word_count};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS103",
    name: "contained-long-question",
    summary: "A long question whose every content word occurs in its source",
    doc: "\
**What it flags**: a question of at least `containment_min_words` words (default 10; outside
English every 5.5 letters count as a word when that makes more, so a Turkish or Russian
question of fewer, longer words is measured like its English original) whose content-word containment (share of
its distinct stemmed non-stopwords found in the source) is at least `containment` (default 1.0).
A multi-hop case with `hops` is read against its last hop's passage: it describes the first
hop's thing in that passage's words, by design.

**Why it matters**: containment alone does not tell real from synthetic questions (real
queries are short and all key terms: 0.72 vs 0.69 on public data), so this rule only fires
for long questions, where a user who has not read the text would bring words of their own.

**Example**: \"Which storage classes does Tidepool support for archive tiers and how are they
billed?\" when each of those words appears in the labelled chunk.",
    severity: Severity::Info,
    family: Family::Overlap,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let (.., c) = input.figures.answering()?;
    let words = word_count(input.case);
    (c >= input.config.containment * input.language.containment_scale()
        && length_in_words(input) >= input.config.containment_min_words)
        .then(|| {
            Hit::new(format!(
                "{:.0}% of the content words of this {words}-word question occur in its {}",
                c * 100.0,
                input.figures.answering_source()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_a_long_question_made_of_source_words_and_not_a_short_one() {
        let ask = |q| {
            labelled(
                q,
                "retention.md",
                "Snapshots are kept for 30 days on the free plan.",
            )
        };
        let long =
            "On the free plan, are the snapshots kept for all of the 30 days or only some of the days?";
        assert!(flags(check, &ask(long)).starts_with("100% of the content words"));
        passes(check, &ask("Snapshots kept 30 days on the free plan?"));
    }

    #[test]
    fn a_multi_hop_question_is_read_against_its_last_hop() {
        use super::super::fixture::price_then_port as case;
        // Every word is in one hop or the other: a description of hop 1, then hop 2's ask.
        passes(
            check,
            &case("which port should be open on the server for the agent the Team plan costs"),
        );
        assert!(
            flags(
                check,
                &case("which port should be open on the server where I install the agent with apt")
            )
            .contains("occur in its last hop's passage")
        );
    }
}
