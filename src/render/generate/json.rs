//! A generation summary for scripts: one pretty-printed JSON document (the fields of
//! [`GenerateSummary`]), which `scripts/demo.sh` and the benches read.

use std::io::{self, Write};

use crate::generate::summary::GenerateSummary;

/// Writes the summary and a line break.
pub fn summary(out: &mut dyn Write, summary: &GenerateSummary) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, summary)?;
    writeln!(out)
}
