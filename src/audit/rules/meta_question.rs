//! RS206 `meta-question`: asks about the text itself rather than about the subject.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS206",
    name: "meta-question",
    summary: "The question asks what a section or document is about, its main idea or a summary",
    doc: "\
**What it flags**: \"what is this/the section/document/... about\", \"the main idea / point /
topic / purpose of this/the section/document/...\", \"summarize / summarise ...\".

**Why it matters**: there is no single passage that answers \"what is this about\" in a
corpus, and no fair reference answer; the question tests the generator's summary, not
retrieval.

**Example**: \"What is the main idea of this section?\"",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let q = &input.case.question;
    let m = crate::wording::meta_question_in(q, input.language)?;
    Some(Hit {
        message: format!("asks about the text itself (\"{}\")", &q[m.clone()]),
        highlight: Some(m),
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_a_question_about_the_text_and_not_one_about_the_subject() {
        let hit = on_case(check, &case("What is the main idea of this section?")).unwrap();
        assert!(
            hit.message.contains("main idea of this section"),
            "{}",
            hit.message
        );
        assert!(on_case(check, &case("What is the main limit of the free plan?")).is_none());
    }
}
