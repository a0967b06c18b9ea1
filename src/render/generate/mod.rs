//! A generation run's account in each format: [`text`] tables for a terminal (the summary, and
//! the per-document plan of a dry run), [`json`] for scripts; [`write()`] picks one.

pub mod json;
pub mod text;

use std::io::{self, Write};

use crate::generate::summary::GenerateSummary;

/// Writes `summary` as JSON (`json`) or as the table for people.
pub fn write(out: &mut dyn Write, summary: &GenerateSummary, json: bool) -> io::Result<()> {
    if json {
        json::summary(out, summary)
    } else {
        text::summary(out, summary)
    }
}
