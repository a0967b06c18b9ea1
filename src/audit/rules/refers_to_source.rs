//! RS205 `refers-to-source`: the question points at "the passage" its writer was reading.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS205",
    name: "refers-to-source",
    summary: "The question refers to \"the passage\", \"the text\", \"this document\" and the like",
    doc: "\
**What it flags**: \"the / this / that / given / above / following / provided\" followed by
passage, text, document, article, paragraph, context, excerpt, section, snippet or chunk;
\"according to the table / study / report / document / authors / information ...\"; \"based on
the information provided\" and the like; and a numbered piece (\"Document 12\", \"chunk 3\"), as
generators that number their passages write. Neither the idiom \"in the context of\" nor a
compound noun (\"the document type\", \"the context window\") is one.

**Why it matters**: a user of a RAG system has not seen any passage. Such a question only
makes sense to the generator that was shown one, and it leaks that a single passage holds the
answer.

**Example**: \"According to the passage, how long are snapshots kept?\"",
    severity: Severity::Warning,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let q = &input.case.question;
    let m = crate::wording::meta_reference_in(q, input.language)?;
    Some(Hit {
        message: format!("refers to \"{}\", which a user has not seen", &q[m.clone()]),
        highlight: Some(m),
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_the_passage_and_not_the_idiom() {
        let hit = on_case(
            check,
            &case("According to the passage, how long are snapshots kept?"),
        )
        .unwrap();
        assert!(
            hit.message.contains("\"According to the passage\""),
            "{}",
            hit.message
        );
        assert!(on_case(check, &case("How is a lock used in the context of a prune?")).is_none());
        // The idiom at the start (two real Giskard sets) and in capitals is still the idiom.
        for idiom in [
            "In the context of competitive intelligence, what specific behavior is described?",
            "IN THE CONTEXT OF backups, what is a snapshot?",
            "What is a snapshot, in the Context of backups?",
        ] {
            assert!(on_case(check, &case(idiom)).is_none(), "{idiom}");
        }
        assert!(on_case(check, &case("In the context, what is a snapshot?")).is_some());
        assert!(on_case(check, &case("Within the context of the passage, what is kept?")).is_some());
        let numbered = on_case(check, &case("What does Document 61 say about snapshots?")).unwrap();
        assert_eq!(numbered.highlight.map(|r| r.start), Some(10));
        assert!(
            on_case(
                check,
                &case("Based on the information provided, what is the archive tier?")
            )
            .is_some()
        );
        assert!(on_case(check, &case("What is the document type of an invoice?")).is_none());
    }
}
