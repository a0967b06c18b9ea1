//! `ragsynth check --json`: one object per case and line, `{"id", "type", "codes", "findings"}`.

use crate::generate::check_set::CheckReport;

/// The report as JSON Lines, one case a line, in set order.
pub fn json(report: &CheckReport) -> String {
    report
        .cases
        .iter()
        .map(|c| serde_json::to_string(c).expect("a verdict serializes") + "\n")
        .collect()
}
