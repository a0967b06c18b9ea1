//! `ragsynth audit`: tells a team where its test set flatters them.
//!
//! One pass builds a [`Context`] (corpus, chunks under the set's chunking, BM25 over the
//! chunks), computes each case's overlap figures in parallel, runs every selected rule of
//! [`rules::all`] and gathers [`Finding`]s into a [`Report`] with a summary: counts, coverage
//! and, when the set holds both, a synthetic-vs-real comparison. Rendering lives in
//! [`report`]; reading other tools' exports in [`foreign`]; writing the figures back in
//! [`write_back`].

mod compare;
mod config;
mod context;
pub mod duplicates;
pub mod foreign;
pub mod judged;
pub mod overlap;
pub mod report;
pub mod rules;

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;

pub use compare::{Comparison, Profile};
pub use config::AuditConfig;
pub use context::{CaseFigures, Context, Nearest};

use crate::testset::{QuestionType, TestSet};
use crate::{Error, Result};
use rules::{CaseInput, Check, SetInput};

/// Version of the JSON report schema.
pub const REPORT_VERSION: u32 = 1;

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
            _ => Err(Error::Config(format!(
                "unknown severity `{s}`: use info, warning or error"
            ))),
        }
    }
}

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
pub struct Summary {
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
    pub notes: Vec<String>,
    /// Coverage.
    pub coverage: Coverage,
    /// Synthetic vs real, when the set holds both with labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
    /// What the LLM checks did and cost, when `--llm` ran them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<judged::LlmFigures>,
}

/// The result of an audit.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Schema version ([`REPORT_VERSION`]).
    pub version: u32,
    /// Findings, worst first (severity, then rule code, then case order).
    pub findings: Vec<Finding>,
    /// Summary.
    pub summary: Summary,
    /// Figures per case, in case order (not part of the JSON report; `--write` stores them).
    #[serde(skip)]
    pub figures: Vec<CaseFigures>,
}

impl Report {
    /// The worst severity found, if any finding.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// Start of the note saying the LLM checks did not run.
const LLM_SKIPPED_NOTE: &str = "LLM checks were skipped";

/// Audits `set` against the corpus side `cx`, without the LLM checks ([`judged::judge`] adds
/// them).
pub fn audit(set: &TestSet, cx: &Context, config: &AuditConfig) -> Report {
    let selected: Vec<&rules::RuleInfo> = rules::all().iter().filter(|r| config.enabled(r.code)).collect();
    let figures: Vec<CaseFigures> = set.cases.par_iter().map(|c| cx.figures(c, config)).collect();

    let mut findings: Vec<(usize, Finding)> = Vec::new();
    let case_rules: Vec<_> = selected
        .iter()
        .filter_map(|r| match r.check {
            Check::Case(f) => Some((*r, f)),
            Check::Set(_) | Check::Llm(_) => None,
        })
        .collect();
    let per_case: Vec<Vec<(usize, Finding)>> = set
        .cases
        .par_iter()
        .zip(figures.par_iter())
        .enumerate()
        .map(|(i, (case, f))| {
            let input = CaseInput {
                case,
                figures: f,
                cx,
                config,
            };
            case_rules
                .iter()
                .filter_map(|(rule, check)| {
                    let hit = check(&input)?;
                    Some((i, finding(rule, set, Some(i), hit.message, hit.highlight)))
                })
                .collect()
        })
        .collect();
    findings.extend(per_case.into_iter().flatten());

    let needs_issues = selected.iter().any(|r| r.code.starts_with("RS4"));
    let issues = if needs_issues {
        crate::testset::validate(set, cx.corpus.as_ref())
    } else {
        Vec::new()
    };
    let input = SetInput {
        set,
        cx,
        config,
        issues: &issues,
    };
    for rule in &selected {
        if let Check::Set(check) = rule.check {
            for hit in check(&input) {
                let order = hit.case.unwrap_or(usize::MAX);
                findings.push((order, finding(rule, set, hit.case, hit.message, None)));
            }
        }
    }
    findings.sort_by(|(a, fa), (b, fb)| {
        fb.severity
            .cmp(&fa.severity)
            .then(fa.code.cmp(fb.code))
            .then(a.cmp(b))
    });
    let findings: Vec<Finding> = findings.into_iter().map(|(_, f)| f).collect();

    let mut by_severity = BTreeMap::new();
    let mut by_rule = BTreeMap::new();
    for f in &findings {
        *by_severity.entry(f.severity).or_insert(0) += 1;
        *by_rule.entry(f.code).or_insert(0) += 1;
    }
    let synthetic = set.cases.iter().filter(|c| c.is_synthetic()).count();
    let mut notes = Vec::new();
    if cx.corpus.is_none() {
        notes.push(
            "no corpus: overlap, rank, label-text and coverage checks were skipped (pass --corpus)"
                .to_string(),
        );
    }
    let llm_rules: Vec<&str> = judged::selected(config).iter().map(|r| r.code).collect();
    if !llm_rules.is_empty() {
        notes.push(format!(
            "{LLM_SKIPPED_NOTE} ({}): pass --llm to run them; RS502 and RS503 are their lexical and structural versions",
            llm_rules.join(", ")
        ));
    }
    let summary = Summary {
        cases: set.cases.len(),
        real: set.cases.len() - synthetic,
        synthetic,
        documents: cx.corpus.as_ref().map_or(0, |c| c.docs.len()),
        chunks: cx.chunks.len(),
        rules: selected
            .iter()
            .filter(|r| !matches!(r.check, Check::Llm(_)))
            .map(|r| r.code)
            .collect(),
        by_severity,
        by_rule,
        notes,
        coverage: coverage(set, cx),
        comparison: compare::compare(set, &figures, config),
        llm: None,
    };
    Report {
        version: REPORT_VERSION,
        findings,
        summary,
        figures,
    }
}

fn finding(
    rule: &rules::RuleInfo,
    set: &TestSet,
    case: Option<usize>,
    message: String,
    highlight: Option<Range<usize>>,
) -> Finding {
    let c = case.map(|i| &set.cases[i]);
    Finding {
        code: rule.code,
        name: rule.name,
        severity: rule.severity,
        case: c.map(|c| c.id.clone()),
        line: c.and_then(|c| c.line()),
        phrase: highlight
            .clone()
            .and_then(|r| c.and_then(|c| c.question.get(r)).map(str::to_string)),
        message,
        highlight,
    }
}

fn coverage(set: &TestSet, cx: &Context) -> Coverage {
    let mut table: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for c in &set.cases {
        let kind = c.tags.kind.clone().unwrap_or_else(|| {
            if c.relevant.is_empty() {
                QuestionType::Unanswerable.as_str().to_string()
            } else {
                "-".to_string()
            }
        });
        let topic = c.tags.topic.clone().unwrap_or_else(|| "-".into());
        let source = if c.is_synthetic() { "synthetic" } else { "real" };
        *table.entry((kind, topic, source.to_string())).or_insert(0) += 1;
    }
    let covered: std::collections::HashSet<&str> = set
        .cases
        .iter()
        .flat_map(|c| c.relevant.iter().map(|l| l.doc.as_str()))
        .collect();
    let synthetic = set.cases.iter().filter(|c| c.is_synthetic()).count();
    Coverage {
        table: table
            .into_iter()
            .map(|((kind, topic, source), cases)| CoverageRow {
                kind,
                topic,
                source,
                cases,
            })
            .collect(),
        uncovered_documents: cx
            .corpus
            .as_ref()
            .map(|c| {
                c.docs
                    .iter()
                    .filter(|d| !covered.contains(d.path.as_str()))
                    .map(|d| d.path.clone())
                    .collect()
            })
            .unwrap_or_default(),
        synthetic_share: if set.cases.is_empty() {
            0.0
        } else {
            synthetic as f32 / set.cases.len() as f32
        },
    }
}

/// Which cases `--write` touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteScope {
    /// Synthetic cases only: real cases stay byte-for-byte as they were.
    Synthetic,
    /// Every case, real ones included.
    All,
}

/// Stores each case's flags and figures in its `audit` field (`{flags, overlap, copied_run,
/// source_rank}`, the rank a string `">1000"` when more than [`crate::index::RANK_DEPTH`] chunks
/// outscore the source); returns how many cases changed. Cases outside `scope` are left alone.
pub fn write_back(set: &mut TestSet, report: &Report, scope: WriteScope) -> usize {
    let mut flags: std::collections::HashMap<&str, Vec<&'static str>> = Default::default();
    for f in &report.findings {
        if let Some(id) = &f.case {
            let v = flags.entry(id.as_str()).or_default();
            if !v.contains(&f.code) {
                v.push(f.code);
            }
        }
    }
    let mut changed = 0;
    for (case, fig) in set.cases.iter_mut().zip(&report.figures) {
        if scope == WriteScope::Synthetic && !case.is_synthetic() {
            continue;
        }
        let mut codes = flags.get(case.id.as_str()).cloned().unwrap_or_default();
        codes.sort_unstable();
        let mut v = json!({ "flags": codes });
        let round = |x: f32| (x as f64 * 1000.0).round() / 1000.0;
        if let Some(c) = fig.containment {
            v["overlap"] = json!(round(c));
        }
        if let Some(r) = fig.copied_run {
            v["copied_run"] = json!(r);
        }
        if let Some(r) = fig.source_rank {
            v["source_rank"] = if fig.rank_beyond_depth {
                json!(format!(">{}", crate::index::RANK_DEPTH))
            } else {
                json!(r)
            };
        }
        let v = Some(v);
        if case.audit != v {
            case.audit = v;
            changed += 1;
        }
    }
    changed
}

/// Refuses labels whose `doc` leaves the corpus (absolute, or with a `..` component): that is
/// bad input, not a finding, since no corpus could ever hold it.
pub fn check_label_paths(set: &TestSet, path: &std::path::Path) -> Result<()> {
    for case in &set.cases {
        for (j, label) in case.relevant.iter().enumerate() {
            let d = &label.doc;
            let outside = d.starts_with('/')
                || d.starts_with('\\')
                || d.get(1..2) == Some(":")
                || d.split(['/', '\\']).any(|part| part == "..");
            if outside {
                return Err(Error::Field {
                    path: path.to_path_buf(),
                    line: case.line(),
                    case: Some(case.id.clone()),
                    field: format!("relevant[{j}].doc"),
                    message: format!("`{d}` points outside the corpus; use a path relative to its root"),
                });
            }
        }
    }
    Ok(())
}
