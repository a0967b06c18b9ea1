//! How bad a finding is, on one scale for every producer: the test-set validator's issues and
//! the audit's findings are both graded with [`Severity`], so `--fail-on` and the reports
//! compare them directly.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::{Error, Result};

/// How bad a finding is; `--fail-on` compares against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth a look; never fails a build by default.
    Info,
    /// Weakens the set; review it.
    Warning,
    /// The case or set is wrong.
    Error,
}

impl Severity {
    /// The lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Severity {
    type Err = Error;
    fn from_str(s: &str) -> Result<Severity> {
        match s {
            "info" => Ok(Severity::Info),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            _ => Err(Error::UnknownValue {
                what: "severity",
                value: s.to_string(),
                expected: "info, warning or error",
            }),
        }
    }
}
