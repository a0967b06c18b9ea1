//! A YAML syntax error as a person needs it: the parser's message once, without its own
//! "error: line L column C:" framing, at the place the fault is.
//!
//! The parser reports where it noticed the problem, which is not always where it is. An
//! unclosed `{` or `[` (a flow map or list, as ragsynth writes `tags: {type: lookup}`) is
//! noticed on the next line, where the map runs into a key it cannot take; a tab in the
//! indentation is reported at the end of the scalar before it. Both are found again here from
//! the text, so the error names the line to fix.

use serde_saphyr::{DefaultMessageFormatter, MessageFormatter};

/// The parser's message for `e`, without location or "error:" prefix.
pub(super) fn message(mut e: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error as E;
    while let E::WithSnippet { error, .. } | E::AliasError { error, .. } = e {
        e = error;
    }
    DefaultMessageFormatter.format_message(e).into_owned()
}

/// Where the fault the parser reported at `line`:`column` (1-based, characters) is, and what
/// to say about it.
pub(super) fn locate(text: &str, line: usize, column: usize, message: String) -> (usize, usize, String) {
    if message.contains("found a tab")
        && let Some((l, c)) = tab_in_indentation(text, line)
    {
        return (
            l,
            c,
            "a tab in the indentation (YAML indents with spaces only)".into(),
        );
    }
    match unclosed_opener(text, line, column) {
        Some((l, c, bracket)) if l < line => (l, c, format!("this `{bracket}` is never closed ({message})")),
        _ => (line, column, message),
    }
}

/// The first tab in the leading white space of a line at or after `from`.
fn tab_in_indentation(text: &str, from: usize) -> Option<(usize, usize)> {
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find_map(|(i, l)| {
            let indent = &l[..l.len() - l.trim_start().len()];
            indent.chars().position(|c| c == '\t').map(|c| (i + 1, c + 1))
        })
}

/// The innermost flow bracket still open at `line`:`column`: its line, column and character.
/// Quoted scalars and comments are skipped; a bracket or quote counts only where YAML lets a
/// value start (after `: `, `- `, `,`, another bracket, or at the start of a line), so the
/// brackets of a plain question such as `what does a[0] mean` are text.
fn unclosed_opener(text: &str, line: usize, column: usize) -> Option<(usize, usize, char)> {
    let mut open: Vec<(usize, usize, char)> = Vec::new();
    let mut quote: Option<char> = None;
    for (i, l) in text.lines().enumerate().take(line) {
        let chars: Vec<char> = l.chars().collect();
        let end = if i + 1 == line {
            column.saturating_sub(1).min(chars.len())
        } else {
            chars.len()
        };
        let mut prev = ' ';
        let mut last_token = None::<char>;
        let mut j = 0;
        while j < end {
            let c = chars[j];
            match quote {
                Some('"') if c == '\\' => j += 1,
                Some(q) if c == q => {
                    // `''` inside single quotes is an escaped quote.
                    if q == '\'' && chars.get(j + 1) == Some(&'\'') {
                        j += 1;
                    } else {
                        quote = None;
                    }
                }
                Some(_) => {}
                None if c == '#' && prev.is_whitespace() => break,
                None => {
                    let value_starts = matches!(last_token, None | Some('[' | '{' | ','))
                        || (matches!(last_token, Some(':' | '-')) && prev.is_whitespace());
                    match c {
                        '"' | '\'' if value_starts => quote = Some(c),
                        '[' | '{' if value_starts || !open.is_empty() => open.push((i + 1, j + 1, c)),
                        ']' | '}' if !open.is_empty() => {
                            open.pop();
                        }
                        _ => {}
                    }
                    if !c.is_whitespace() {
                        last_token = Some(c);
                    }
                }
            }
            prev = c;
            j += 1;
        }
    }
    open.pop()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> (usize, usize, String) {
        let e = serde_saphyr::from_str::<serde_json::Value>(text).unwrap_err();
        let loc = e.location().unwrap();
        locate(text, loc.line() as usize, loc.column() as usize, message(&e))
    }

    #[test]
    fn an_unclosed_flow_map_is_named_where_it_opens() {
        let text = "cases:\n  - id: a\n    tags: {type: lookup, source: real\n    review: accepted\n";
        let (line, column, message) = at(text);
        assert_eq!((line, column), (3, 11), "{message}");
        assert!(message.starts_with("this `{` is never closed ("), "{message}");
        assert!(!message.contains("line"), "{message}");
    }

    #[test]
    fn an_unclosed_list_and_a_tab_are_named_on_their_own_line() {
        let text =
            "cases:\n  - id: a\n    relevant:\n      - doc: a.md\n        start: [2750\n        end: 9\n";
        assert_eq!(at(text).0, 5);
        let text = "cases:\n  - id: a\n    question: q\n\tanswer: x\n";
        let (line, column, message) = at(text);
        assert_eq!((line, column), (4, 1), "{message}");
    }

    #[test]
    fn brackets_inside_quotes_plain_text_and_comments_are_text() {
        let text = "a: \"{x\"\nb: what does a[0 mean # {\nc: [1, 2]\nd: {e: 1\nf: 2\n";
        let (line, _, message) = at(text);
        assert_eq!(line, 4, "{message}");
    }

    #[test]
    fn other_errors_keep_the_parser_s_place_and_lose_its_framing() {
        let text = "cases:\n  - id: a\n    question: \"x\n";
        let (line, column, message) = at(text);
        assert_eq!((line, column), (3, 15));
        assert!(
            !message.starts_with("error") && !message.contains("line 3"),
            "{message}"
        );
    }
}
