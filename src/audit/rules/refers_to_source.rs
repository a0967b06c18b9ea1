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
the information provided\" and the like; a numbered piece (\"Document 12\", \"chunk 3\"), as
generators that number their passages write; and the id a labelled document is filed under
(\"8243793\" of `8243793.txt`: a file name of digits only that its quote does not hold).
Neither the idiom \"in the context of\" nor a compound noun (\"the document type\", \"the
context window\") is one.

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
    if let Some(m) = crate::wording::meta_reference_in(q, input.language) {
        return Some(Hit {
            message: format!("refers to \"{}\", which a user has not seen", &q[m.clone()]),
            highlight: Some(m),
        });
    }
    let labels = input
        .case
        .relevant
        .iter()
        .map(|l| (l.doc.as_str(), l.quote.as_str()));
    let m = crate::wording::names_document_id(q, labels)?;
    Some(Hit {
        message: format!(
            "names \"{}\", the id its document is filed under, which a user has not seen",
            &q[m.clone()]
        ),
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

    fn labelled(question: &str, doc: &str, quote: &str) -> crate::testset::Case {
        let mut c = case(question);
        c.relevant.push(crate::testset::Label::spanning(doc, 0, quote));
        c
    }

    #[test]
    fn flags_the_id_a_document_is_filed_under() {
        let filed = labelled(
            "8243793 turbine height",
            "8243793.txt",
            "The turbine is 229 ft tall.",
        );
        let hit = on_case(check, &filed).unwrap();
        assert_eq!(hit.highlight, Some(0..7));
        assert!(hit.message.contains("\"8243793\""), "{}", hit.message);
        // A number the page itself says, a longer number holding the id's digits, and a named
        // file are no id.
        for (q, doc, quote) in [
            ("what happened in 2019", "2019.md", "In 2019 the plan changed."),
            (
                "part 82437931 height",
                "8243793.txt",
                "The turbine is 229 ft tall.",
            ),
            (
                "turbine height in turbines",
                "turbines.txt",
                "The turbine is 229 ft tall.",
            ),
        ] {
            assert!(on_case(check, &labelled(q, doc, quote)).is_none(), "{q}");
        }
    }
}
