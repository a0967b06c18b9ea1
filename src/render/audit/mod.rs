//! The audit report in each format: [`text()`] for a terminal, [`json()`] for machines,
//! [`html()`] for sharing; [`render()`] picks one. [`rules_markdown()`] is the rule reference page.

mod html;
mod json;
mod reference;
mod text;

pub use html::html;
pub use json::json;
pub use reference::rules_markdown;
pub use text::{TextOptions, explain, text};

use crate::audit::AuditReport;
use crate::corpus::Corpus;
use crate::testset::TestSet;

/// The formats of the audit report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// For a terminal.
    Text(TextOptions),
    /// For machines.
    Json,
    /// A page titled so, for sharing.
    Html(String),
}

/// The report over `set` in `format`, ending with a newline.
pub fn render(format: &Format, report: &AuditReport, set: &TestSet, corpus: Option<&Corpus>) -> String {
    let mut out = match format {
        Format::Text(opts) => text(report, set, *opts),
        Format::Json => json(report),
        Format::Html(title) => html(report, set, corpus, title),
    };
    if !matches!(format, Format::Html(_)) && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
