//! HTML to plain text. Labels index into the converted text, so the conversion must be
//! deterministic; block elements become line breaks and entities are decoded. Preformatted
//! blocks (`<pre>`) come out fenced with ```, as Markdown writes code: read as prose, a listing's
//! lines became facts (`let answer = &hello[0];` asked as "what is the first character of the
//! string?") and a program's console output a question ("what does the panic message mean").

use html2text::render::RichAnnotation;

/// Converts an HTML page to readable text (no wrapping, so offsets are stable).
pub fn to_text(html: &str) -> String {
    let lines = html2text::config::rich()
        .lines_from_read(html.as_bytes(), usize::MAX / 4)
        .unwrap_or_default();
    let mut out = String::with_capacity(html.len() / 2);
    let mut in_code = false;
    for line in lines {
        let code = line
            .tagged_strings()
            .any(|s| s.tag.iter().any(|a| matches!(a, RichAnnotation::Preformat(_))));
        let text: String = line.tagged_strings().map(|s| s.s.as_str()).collect();
        if code != in_code {
            out.push_str("```\n");
            in_code = code;
        }
        // html2text pads lines to the wrap width in some layouts; trailing blanks carry nothing.
        out.push_str(text.trim_end());
        out.push('\n');
    }
    if in_code {
        out.push_str("```\n");
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

    #[test]
    fn preformatted_blocks_are_fenced_as_code_and_prose_is_not() {
        let t = super::to_text(
            "<p>Consider this invalid code:</p>\
             <pre><code>let hello = \"Здравствуйте\";\nlet answer = &amp;hello[0];</code></pre>\
             <p>You already know that <code>answer</code> will not be З.</p>",
        );
        assert_eq!(
            t,
            "Consider this invalid code:\n\n```\nlet hello = \"Здравствуйте\";\nlet answer = &hello[0];\n```\n\nYou already know that answer will not be З.\n",
        );
    }
}
