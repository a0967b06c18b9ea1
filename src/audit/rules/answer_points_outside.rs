//! RS510 `answer-points-outside`: a short reference answer points at something it does not name.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::AnswerFault;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS510",
    name: "answer-points-outside",
    summary: "A short reference answer says \"this …\" about something neither it nor the question names, or only names a cross-reference or the pages its label links to",
    doc: "\
**What it flags**: a case whose reference `answer` has at most eight content words and says
\"this\" or \"these\" (outside `code` and quotation) without the word after it being one the
question names (\"this plan\" after \"the free plan\" is fine; English only), or points at
\"the following\" block or at what is \"as follows\" where the question does not, or an answer that
is only the target of a cross-reference in its label (\"current_style\" from
\"{doc}`current_style`\"; any language), or only the texts of its label's links to other pages
with a word sending the reader there, or two of them (\"read Installation\", \"Retention
policies and Configuration\"; English), or only cross-reference targets and such words, or
that opens by sending the reader elsewhere (\"described in signals-sending and
request_tearing_down\", \"see …\"; English, unless the question asks where), or that holds a
cross-reference itself (\"read :ref:`setuptools-integration` chapter\"). `generate` turns the same answers away as
`answer_points_outside`.

**Why it matters**: the answer was cut from a sentence whose referent stands before it: read
alone it says nothing checkable, and a system that answers with the referent is scored wrong.

**Example**: \"What does the `--fast` flag do?\" answered \"turns off this check and the safe flag
explicitly enables it\" (which check? the AST safety check, named in the sentence before).",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    // One wording of the fault: its own.
    match super::answer_fault(input) {
        Some(fault @ AnswerFault::PointsOutside { .. }) => Some(Hit::new(fault.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_an_answer_that_points_before_itself_and_not_one_that_names_it() {
        let quote = "The archive tier of Tidepool is called Glacier Vault and keeps data for ten years.";
        let mut cut = labelled("How long does Glacier Vault keep data?", "retention.md", quote);
        cut.answer = Some("this tier keeps data for ten years".into());
        assert_eq!(
            flags(check, &cut),
            "the answer says \"this tier\" without saying what that is"
        );
        let mut named = cut.clone();
        named.answer = Some("ten years".into());
        passes(check, &named);
        // The question names what "this" points at.
        let mut asked = labelled("How long does the archive tier keep data?", "retention.md", quote);
        asked.answer = Some("this tier keeps data for ten years".into());
        passes(check, &asked);
        // "this" inside code is no pointer.
        let mut code = cut.clone();
        code.answer = Some("ten years (`tier = this`)".into());
        passes(check, &code);
        // Nor inside a quotation.
        let mut quoted = cut.clone();
        quoted.answer = Some("\"ten years in this tier\"".into());
        passes(check, &quoted);
    }
}
