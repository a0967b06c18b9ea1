//! HTML to plain text. Labels index into the converted text, so the conversion must be
//! deterministic; block elements become line breaks and entities are decoded.

/// Converts an HTML page to readable text (no wrapping, so offsets are stable).
pub fn to_text(html: &str) -> String {
    let text = html2text::config::plain_no_decorate()
        .string_from_read(html.as_bytes(), usize::MAX / 4)
        .unwrap_or_default();
    // html2text pads lines to the wrap width in some layouts; trailing blanks carry nothing.
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn strips_tags_and_decodes_entities() {
        let t = super::to_text(
            "<html><body><h1>Title</h1><p>Fish &amp; chips</p><script>x()</script></body></html>",
        );
        assert!(t.contains("Title"));
        assert!(t.contains("Fish & chips"));
        assert!(!t.contains("<p>"));
    }
}
