//! An evaluation of answers in each format: [`text`] tables for a terminal, [`json`] for
//! machines (the report is also the baseline file), [`html`] a page to share; [`write()`]
//! picks one.

pub mod calibration;
pub mod html;
pub mod json;
pub mod text;

use std::io::{self, Write};

use crate::eval::answers::AnswerReport;
use crate::eval::answers::baseline::AnswerComparison;

/// The formats of the answers report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tables for people.
    Text,
    /// One JSON document.
    Json,
    /// One self-contained page (the comparison, if any, is left to the text and JSON forms).
    Html,
}

/// Writes `report` in `format`, with the baseline comparison when there is one.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    report: &AnswerReport,
    comparison: Option<&AnswerComparison>,
) -> io::Result<()> {
    match format {
        Format::Text => {
            write!(out, "{}", text::report(report))?;
            if let Some(c) = comparison {
                write!(out, "\n{}", text::comparison(c))?;
            }
            Ok(())
        }
        Format::Json => {
            let c = comparison.map(json::comparison);
            json::report(report, out, c.as_ref())
        }
        Format::Html => out.write_all(html::page(report, "ragsynth: answers").as_bytes()),
    }
}
