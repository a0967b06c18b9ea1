//! Text from data files on its way to a terminal.
//!
//! A question, a file name or a server's error message can hold escape sequences; printed raw
//! they can recolour, rewrite or hide what the terminal shows (or a CI log viewer renders). So
//! data is shown with its control characters escaped (`\u{1b}`, `\n`), and every error or
//! warning line is also passed through [`crate::redact`].

use std::borrow::Cow;

/// True for characters that steer a terminal instead of showing: C0 and C1 controls, DEL, and
/// the bidirectional overrides that reorder what is displayed.
fn steers(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn escape_where(text: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escape(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A data value shown on one line: every control character escaped, line breaks included.
pub fn data(text: &str) -> Cow<'_, str> {
    escape_where(text, steers)
}

/// A message that may span lines: control characters escaped except line breaks and tabs.
pub fn message(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| steers(c) && c != '\n' && c != '\t')
}

/// An error or warning line as printed: secrets masked, control characters escaped.
pub fn safe(text: &str) -> String {
    message(&crate::redact::redact(text)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_steer_nothing_and_plain_text_is_borrowed() {
        assert_eq!(data("red \x1b[31mtext\x1b[0m"), "red \\u{1b}[31mtext\\u{1b}[0m");
        assert_eq!(data("two\nlines"), "two\\nlines");
        assert_eq!(message("two\nlines\x07"), "two\nlines\\u{7}");
        assert_eq!(data("abc\u{202E}txt.exe"), "abc\\u{202e}txt.exe");
        assert!(matches!(data("Café — fine?"), Cow::Borrowed(_)));
    }
}
