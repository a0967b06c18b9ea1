//! RS216 `asks-comparison`: a one-fact question asking how two things differ or compare.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::Kind;
use std::sync::LazyLock;

use regex::Regex;

use crate::lang::{Language, Reads};

pub const INFO: CheckInfo = CheckInfo {
    code: "RS216",
    name: "asks-comparison",
    summary: "A one-fact question asking how two things differ or compare",
    doc: "\
**What it catches**: \"what is the difference between A and B\", \"how does A compare to B\" in a
lookup or identifier case.

**Why such a case is not right for a test set**: one fact rarely says both sides; the answer
makes up the other (7 of 8 such hand-marked lookups were wrong). Comparisons are their own kind.

**Example**: \"What is the difference between a mutable string and a fixed-size string in Rust?\"
from one sentence

**Known false alarm**: a fact that does compare two things in one sentence.

**A review hint**: on people-written right cases it flagged 3 and caught no corrupted one
(`scripts/bench-checks.sh`, 2026-12-07). It puts the case first in review.",
    kinds: &[Kind::Lookup, Kind::Identifier],
    reads: Reads::English,
    stage: Stage::Question,
    audit: false,
    action: Action::Hint,
    question: Some(check),
    case: None,
};

/// [`asks_how_two_differ`].
fn check(question: &str, _: Language) -> Option<String> {
    asks_how_two_differ(question).then(|| "asks how two things differ".to_string())
}

/// Whether a question asks how two things differ or compare ("what is the difference between
/// frozen and unfrozen dict classes", "how does X compare to Y"). English.
pub fn asks_how_two_differ(question: &str) -> bool {
    static COMPARES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\bdiffer(ence|ences|ent from|s from|)\b.*\b(and|from|to|vs\.?|versus)\b|\bcompared?\b.*\b(to|with|and)\b|\bvs\.?\s|\bversus\b")
            .expect("valid regex")
    });
    COMPARES.is_match(question)
}
