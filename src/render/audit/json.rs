//! An audit report as JSON for machines: `{"version":1,"findings":[...],"summary":{...}}`, a
//! stable schema ([`crate::audit::REPORT_VERSION`]).

use crate::audit::AuditReport;

/// Renders the report as pretty JSON.
pub fn json(report: &AuditReport) -> String {
    serde_json::to_string_pretty(report).expect("report serializes")
}
