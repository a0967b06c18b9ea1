//! RS401 `doc-missing`: a label names a document that is not in the corpus.

validator_rule! {
    code: "RS401",
    name: "doc-missing",
    summary: "A label names a document that is not in the corpus",
    flags: "a label names a document that is not in the corpus",
    why: "a label points at a document the corpus does not hold: its text cannot be read, so the case can never be retrieved correctly and every metric on it is zero.",
    example: "Label `doc: guides/restore.md` after the file was renamed to `guides/restoring.md`. `ragsynth remap` re-anchors it.",
    severity: Error,
    issues: Doc,
}

#[cfg(test)]
mod tests {
    use super::super::fixture::one_broken;
    use super::*;

    #[test]
    fn flags_a_label_outside_the_corpus_and_not_one_inside() {
        let (flagged, message) = one_broken(check, |l| l.doc = "guides/restore.md".into());
        assert_eq!(flagged, ["broken"]);
        assert!(message.contains("relevant[0].doc"), "{message}");
    }
}
