//! RS507 `answer-not-in-label`: the reference answer names what its labelled text does not say.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::{AnswerFault, names_in_fact};

pub const INFO: RuleInfo = RuleInfo {
    code: "RS507",
    name: "answer-not-in-label",
    summary: "The reference answer names a number, code or name its labels do not hold, or most of its words are elsewhere",
    doc: "\
**What it flags**: a case with a reference `answer` and labels, where a number, a code or option
(`api.token_ttl`, `--overwrite`, `TP-412`), a quoted string or a name of the answer is not in
the labels' text, or where more than half of a short answer's content words (two to eight,
words of the question aside) are not, or where a part of a one-sentence English answer
between commas brings words of its own that the labels lack: two or more in an answer of up to
twenty words, three or more in a longer one, and two in three of the part's own words either way (\"…, which
means the user is logged out or the session has expired\"). A leading \"Yes\" or \"No\" is set
apart; English number words count as their digits (\"thirty days\" holds \"30 days\"). Lexical:
no model. `generate` turns the same
answers away as `answer_not_in_label`.

**Real cases** (`source: real`, or untagged: a person's) are read otherwise, for two reasons
seen in people's sets. A person labels a question by pointing at the sentence they would cite,
not at every line their answer draws on (a spreadsheet's quote column, HotpotQA's supporting
sentences, TREC's judged passages are pointers of that size), so the answer is read against
the passage the labels lie in — the chunks holding them, the text a retriever returns for
them — not the quote alone. And a person answers in their own words (\"client-side\" for \"in
the agent, before data leaves the machine\", \"prune window\" for `retention.prune_window`), so
only what cannot be reworded is held to the passage: the answer's numbers, codes, options,
quoted strings and names. A real case is flagged when one of those is nowhere in its passage:
the label points at the wrong place, or the answer came from elsewhere. `import` warns at the
row's line when the quote alone lacks one, so a user who wants the label to hold the answer
(exports hand the labelled text to other tools as the reference context) widens the quote or
adds a row with a second quote. Known false alarm: a value the passage writes in another
notation (an answer's \"02:00\" for a cron line's `\"0 2 * * *\"`).

**Why it matters**: a reference answer its evidence does not hold was made up, or taken from
another passage: a system that answers from the labelled text is scored wrong, and the label
does not mark where the answer is.

**Example**: \"What is an example of the bad state in error handling?\" answered \"user entering
data in the wrong format\", labelled \"We'll work through an example of what we mean in
'Encoding States and Behavior as Types' in Chapter 18.\"",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let Some(AnswerFault::NotInFact { missing }) = super::answer_fault(input) else {
        return None;
    };
    if !input.case.is_real() {
        return Some(Hit::new(format!(
            "the answer says \"{missing}\", which its label does not"
        )));
    }
    // A person's label points at the passage, and their answer is in their own words: its
    // numbers, codes and names must stand in that passage.
    let case = input.case;
    let passage = input.cx.chunks.labelled_text(&case.relevant);
    let answer = case.answer.as_deref().unwrap_or_default();
    match names_in_fact(&case.question, answer, &passage, input.language) {
        Err(AnswerFault::NotInFact { missing }) => Some(Hit::new(format!(
            "the answer says \"{missing}\", which neither its label nor the passage around it does"
        ))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_an_answer_its_label_lacks_and_not_one_it_holds() {
        let quote = "Snapshots are kept for 30 days on the free plan.";
        let mut made_up = labelled("How long are snapshots kept?", "retention.md", quote);
        made_up.answer = Some("90 days".into());
        assert_eq!(
            flags(check, &made_up),
            "the answer says \"90\", which its label does not"
        );
        let mut right = made_up.clone();
        right.answer = Some("thirty days".into());
        passes(check, &right);
        right.answer = Some("No.".into());
        passes(check, &right);
    }

    #[test]
    fn a_real_case_is_read_against_the_passage_its_label_points_at() {
        // The person quoted the sentence's start; the port is further on in the same passage.
        let mut real = labelled("what port to open", "install.md", "Install the agent with apt");
        real.tags.source = Some(crate::testset::Source::Real);
        real.answer = Some("port 8750 on the server".into());
        passes(check, &real);
        let mut synthetic = real.clone();
        synthetic.tags.source = Some(crate::testset::Source::Synthetic);
        assert_eq!(
            flags(check, &synthetic),
            "the answer says \"8750\", which its label does not"
        );
        // A person's own words pass; a number the passage lacks does not.
        real.answer = Some("open port 8750 on the server box".into());
        passes(check, &real);
        real.answer = Some("port 9187 on the server".into());
        assert_eq!(
            flags(check, &real),
            "the answer says \"9187\", which neither its label nor the passage around it does"
        );
    }
}
