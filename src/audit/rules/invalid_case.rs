//! RS405 `invalid-case`: a case breaks the format: duplicate or empty id, empty question, unknown type, unanswerable with labels.

validator_rule! {
    code: "RS405",
    name: "invalid-case",
    summary: "A case breaks the format: duplicate or empty id, empty question, unknown type, unanswerable with labels",
    flags: "a case breaks the format: duplicate or empty id, empty question, unknown type, unanswerable with labels",
    why: "a case that breaks the file format's invariants (ids unique and non-empty, a question, a known `type`, no labels on an unanswerable case) is counted wrongly by every command.",
    example: "two cases with id `q-12`.",
    severity: Error,
    issues: Case,
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, flagged, labelled, on_set};
    use super::*;

    #[test]
    fn flags_broken_cases_and_not_label_problems() {
        let mut first = case("How long are snapshots kept?");
        first.id = "q-12".into();
        let mut again = case("Which port does the agent use?");
        again.id = "q-12".into();
        // A label problem is RS401's, not this rule's.
        let mut elsewhere = labelled("Where is the agent?", "install.md", "open port 8750");
        elsewhere.id = "elsewhere".into();
        elsewhere.relevant[0].doc = "gone.md".into();
        let cases = vec![first, again, elsewhere];
        let hits = on_set(check, cases.clone());
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].case, Some(1));
        assert!(hits[0].message.contains("duplicate id"), "{}", hits[0].message);
        assert_eq!(flagged(&cases, &hits), ["q-12"]);
    }
}
