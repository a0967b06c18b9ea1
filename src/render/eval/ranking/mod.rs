//! The ranking check (`eval --run a --run b ...`) in each format: [`text`] for a terminal,
//! [`json`] for machines; [`write()`] picks one.

pub mod json;
pub mod text;

use std::io::{self, Write};

use super::Format;
use crate::eval::ranking::RankingReport;

/// Writes `report` in `format`, with the gate's verdict when `min_tau` was given.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    report: &RankingReport,
    min_tau: Option<f64>,
) -> io::Result<()> {
    match format {
        Format::Text => write!(out, "{}", text::report(report, min_tau)),
        Format::Json => json::report(report, out, min_tau),
    }
}
