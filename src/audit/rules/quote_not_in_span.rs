//! RS403 `quote-not-in-span`: a label's quote is empty or is not inside its span.

validator_rule! {
    code: "RS403",
    name: "quote-not-in-span",
    summary: "A label's quote is empty or is not inside its span",
    flags: "a label's quote is empty or is not inside its span",
    why: "a label whose supporting quote is not found between its start and end: the span moved (the document was edited) or the quote was paraphrased; graders that show the quote show the wrong evidence.",
    example: "quote `kept for 30 days` while the span now reads `kept for 90 days`.",
    severity: Error,
    issues: Quote,
}

#[cfg(test)]
mod tests {
    use super::super::fixture::one_broken;
    use super::*;

    #[test]
    fn flags_a_quote_the_span_does_not_hold_and_not_one_it_does() {
        let (flagged, message) = one_broken(check, |l| l.quote = "kept for 90 days".into());
        assert_eq!(flagged, ["broken"]);
        assert!(message.contains("not inside span"), "{message}");
    }
}
