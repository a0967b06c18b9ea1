//! RS402 `span-out-of-range`: a label's character span is reversed or runs past the end of its document.

validator_rule! {
    code: "RS402",
    name: "span-out-of-range",
    summary: "A label's character span is reversed or runs past the end of its document",
    flags: "a label's character span is reversed or runs past the end of its document",
    why: "a span whose start is after its end, or whose end is past the document's last character, points at no text; usually the document was shortened after labelling.",
    example: "`start: 5200, end: 5900` in a document of 4,000 characters.",
    severity: Error,
    issues: Span,
}

#[cfg(test)]
mod tests {
    use super::super::fixture::one_broken;
    use super::*;

    #[test]
    fn flags_a_span_past_the_end_or_reversed_and_not_a_good_one() {
        assert_eq!(one_broken(check, |l| l.end = 5_000).0, ["broken"]);
        let (flagged, message) = one_broken(check, |l| (l.start, l.end) = (40, 10));
        assert_eq!(flagged, ["broken"]);
        assert!(message.contains("after end"), "{message}");
    }
}
