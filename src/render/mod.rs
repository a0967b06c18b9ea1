//! Every report in every format, one place: `render::<report>` holds one file per output
//! format (text for people, JSON for scripts, HTML for sharing), like lychee's formatters.
//!
//! Renderers only turn a finished report into bytes; they compute nothing and print nothing
//! (the command decides where the bytes go). Text from a test set or corpus goes through
//! [`crate::terminal`] so it cannot steer the terminal. The review page's HTML lives with the
//! server in [`crate::review`]; [`audit::html`] reuses its static form.

pub mod answers;
pub mod audit;
pub mod calibrate;
pub mod check;
pub mod chunk;
pub mod config;
pub mod eval;
pub mod generate;
pub mod import;
pub mod remap;

/// The anchor GitHub-style Markdown gives a `### CODE name` heading of a generated reference
/// page (`docs/rules.md`, `docs/checks.md`).
pub fn heading_anchor(code: &str, name: &str) -> String {
    format!("{code} {name}")
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}
