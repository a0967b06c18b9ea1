//! A remap report for scripts: JSON Lines, one `{"type":"label",...}` per label, then one
//! `{"type":"summary",...}`.

use std::io::{self, Write};

use serde_json::{Map, Value, json};

use crate::remap::{RemapReport, Status};

/// Writes the report; `written` says whether the set was saved.
pub fn json(out: &mut dyn Write, report: &RemapReport, written: bool) -> io::Result<()> {
    for o in &report.labels {
        let mut v = serde_json::to_value(o)?;
        if let Some(m) = v.as_object_mut() {
            m.shift_insert(0, "type".into(), json!("label"));
        }
        writeln!(out, "{v}")?;
    }
    let counts: Map<String, Value> = Status::ALL
        .iter()
        .map(|s| (s.as_str().to_string(), json!(report.count(*s))))
        .collect();
    let summary = json!({
        "type": "summary",
        "labels": report.labels.len(),
        "counts": counts,
        "fingerprint_before": report.fingerprint_before,
        "fingerprint": report.fingerprint,
        "chunking_before": report.chunking_before,
        "chunking": report.chunking,
        "written": written,
    });
    writeln!(out, "{summary}")
}
