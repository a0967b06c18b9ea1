//! An evaluation in each format: [`text`] tables for a terminal, [`json`] for machines (the
//! report is also the baseline file); [`write()`] picks one. [`ranking`] renders the comparison
//! of several runs.

pub mod json;
pub mod ranking;
pub mod text;

use std::io::{self, Write};

use crate::eval::EvalReport;
use crate::eval::baseline::Comparison;

/// The formats of the evaluation report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tables for people.
    Text,
    /// One JSON document.
    Json,
}

/// Writes `report` in `format`, with the baseline comparison when there is one (after the
/// tables, or under the `comparison` key).
pub fn write(
    out: &mut dyn Write,
    format: Format,
    report: &EvalReport,
    comparison: Option<&Comparison>,
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
            json::report(report, out, c.as_ref().map(|c| ("comparison", c)))
        }
    }
}
