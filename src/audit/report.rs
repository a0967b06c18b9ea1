//! What an audit produces: the findings, worst first, and a summary (counts, coverage, the
//! synthetic-vs-real comparison, what was not checked). `crate::render::audit` renders it.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Deref, Range};

use serde::{Serialize, Serializer};

use super::{CaseFigures, Comparison, Severity};
use crate::judge::calibration::Calibration;
use crate::lang::Language;
use crate::llm::Usage;

/// One thing a rule found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Rule code, e.g. `RS101`.
    pub code: &'static str,
    /// Rule name, e.g. `copied-phrase`.
    pub name: &'static str,
    /// The rule's severity.
    pub severity: Severity,
    /// Case id; absent for findings about the whole set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// Line of the case in the test-set file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Byte range of the question to highlight (e.g. the copied phrase).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Range<usize>>,
    /// The highlighted text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phrase: Option<String>,
}

/// Cases per (type, topic, source).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoverageRow {
    /// `tags.type` (`-` when absent).
    #[serde(rename = "type")]
    pub kind: String,
    /// `tags.topic` (`-` when absent).
    pub topic: String,
    /// `real` or `synthetic`.
    pub source: String,
    /// Number of cases.
    pub cases: usize,
}

/// What the set covers.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Coverage {
    /// Cases by type × topic × source.
    pub table: Vec<CoverageRow>,
    /// Documents of the corpus no label points at.
    pub uncovered_documents: Vec<String>,
    /// Share of synthetic cases.
    pub synthetic_share: f32,
}

/// Counts and comparisons over the whole run.
#[derive(Debug, Clone, Serialize)]
pub struct AuditSummary {
    /// Cases audited.
    pub cases: usize,
    /// Of which real (tagged real or untagged).
    pub real: usize,
    /// Of which synthetic.
    pub synthetic: usize,
    /// Documents in the corpus (0 without one).
    pub documents: usize,
    /// Chunks indexed.
    pub chunks: usize,
    /// Rules that ran.
    pub rules: Vec<&'static str>,
    /// Findings per severity.
    pub by_severity: BTreeMap<Severity, usize>,
    /// Findings per rule code.
    pub by_rule: BTreeMap<&'static str, usize>,
    /// What was not checked and why.
    pub notes: Vec<AuditNote>,
    /// Coverage.
    pub coverage: Coverage,
    /// Synthetic vs real, when the set holds both with labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
    /// What the LLM checks did and cost, when `--llm` ran them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmFigures>,
}

/// The result of an audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditReport {
    /// Schema version ([`super::REPORT_VERSION`]).
    pub version: u32,
    /// Findings, worst first (severity, then rule code, then case order).
    pub findings: Vec<Finding>,
    /// Summary.
    pub summary: AuditSummary,
    /// Figures per case, in case order (not part of the JSON report; `--write` stores them).
    #[serde(skip)]
    pub figures: Vec<CaseFigures>,
}

impl AuditReport {
    /// The worst severity found, if any finding.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// Something the reader of a report should know about what was not checked: its kind, for
/// the code that adds or drops notes, and its sentence, which is what the reports show (and
/// what the note dereferences to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditNote {
    /// Which note.
    pub kind: AuditNoteKind,
    text: String,
}

/// The kinds of [`AuditNote`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditNoteKind {
    /// No corpus: the checks that read documents were skipped.
    NoCorpus,
    /// LLM rules were selected but `--llm` was not given.
    LlmSkipped,
    /// Judged checks whose answer stayed malformed after the re-asks.
    JudgeMalformed,
    /// A judge below the calibration bar (or never measured) with the model in use: its rules
    /// did not run.
    JudgeUncalibrated,
    /// The questions of one language, when the set is not all English: what they were read
    /// with, and which rules could not read them.
    Language,
}

impl AuditNote {
    /// No corpus: the checks that read documents were skipped.
    pub fn no_corpus() -> AuditNote {
        AuditNote {
            kind: AuditNoteKind::NoCorpus,
            text: "no corpus: overlap, rank, label-text and coverage checks were skipped (pass --corpus)"
                .into(),
        }
    }

    /// The LLM rules `codes` were selected but `--llm` was not given.
    pub fn llm_skipped(codes: &[&str]) -> AuditNote {
        AuditNote {
            kind: AuditNoteKind::LlmSkipped,
            text: format!(
                "LLM checks were skipped ({}): pass --llm to run them; RS502 and RS503 are their lexical and structural versions",
                codes.join(", ")
            ),
        }
    }

    /// `n` questions in `language`, which lacks `missing` (e.g. "no stemmer"); the rules
    /// `skipped` could not read them.
    pub fn language(language: Language, n: usize, missing: &[&str], skipped: &[&str]) -> AuditNote {
        let mut text = format!("{n} question(s) in {} ({language})", language.name());
        if !missing.is_empty() {
            text.push_str(&format!(": {}, words compared as written", missing.join(" and ")));
        }
        if !skipped.is_empty() {
            text.push_str(&format!(
                "; {} cannot read {} and did not run on them",
                skipped.join(", "),
                language.name()
            ));
        }
        AuditNote {
            kind: AuditNoteKind::Language,
            text,
        }
    }

    /// The judge `c` is uncalibrated: the rules `codes` that ask it did not run.
    pub fn judge_uncalibrated(c: &Calibration, codes: &[&str]) -> AuditNote {
        AuditNote {
            kind: AuditNoteKind::JudgeUncalibrated,
            text: format!("{} did not run ({} judge: {})", codes.join(", "), c.judge, c.why),
        }
    }

    /// `n` judged checks skipped because the judge's answer stayed malformed.
    pub fn judge_malformed(n: usize) -> AuditNote {
        AuditNote {
            kind: AuditNoteKind::JudgeMalformed,
            text: format!("{n} LLM check(s) skipped: the judge's answer stayed malformed after the re-asks"),
        }
    }
}

impl Deref for AuditNote {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for AuditNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for AuditNote {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// What the LLM checks did, for the report's summary.
#[derive(Debug, Clone, Serialize)]
pub struct LlmFigures {
    /// `provider:model`.
    pub model: String,
    /// Per rule code.
    pub checks: BTreeMap<&'static str, Judged>,
    /// Calls, cache hits, tokens and cost of the run.
    pub usage: Usage,
    /// Each judge the checks would ask, with its calibration: `calibrated: false` (below the
    /// bar or never measured) means its rules did not run.
    pub judges: Vec<Calibration>,
}

/// One LLM rule's count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Judged {
    /// Cases the rule applied to.
    pub cases: usize,
    /// Of which flagged.
    pub flagged: usize,
    /// Of which skipped because a judge's answer was lost.
    pub skipped: usize,
}
