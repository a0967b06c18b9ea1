//! `ragsynth audit`: tells a team where its test set flatters them.
//!
//! One pass builds an [`AuditContext`] (corpus, chunks under the set's chunking, BM25 over
//! the chunks), computes each case's overlap figures in parallel, runs every selected rule of
//! [`rules::all`] and gathers [`Finding`]s into an [`AuditReport`] with a summary: counts,
//! coverage and, when the set holds both, a synthetic-vs-real comparison. The LLM-judged rules
//! run in [`judged`]; writing the figures back in [`write_back()`]. Rendering lives in
//! `crate::render::audit`, reading other tools' exports in `crate::testset::foreign`.

mod chance;
mod compare;
mod config;
mod context;
mod coverage;
pub mod judged;
mod report;
pub mod rules;
mod write_back;

use std::collections::BTreeMap;
use std::ops::Range;

use rayon::prelude::*;

pub use crate::severity::Severity;
pub use compare::{Comparison, Profile};
pub use config::AuditConfig;
pub use context::{AuditContext, CaseFigures, Nearest};
pub use report::{AuditNote, AuditNoteKind, AuditReport, AuditSummary, Coverage, CoverageRow, Finding};
pub use write_back::{WriteScope, write_back};

use crate::lang::Language;
use crate::testset::TestSet;
use crate::{Error, Result};
use rules::{CaseInput, Check, SetInput};

/// Version of the JSON report schema.
pub const REPORT_VERSION: u32 = 1;

/// Audits `set` against the corpus side `cx`, without the LLM checks ([`judged::judge`] adds
/// them).
pub fn audit(set: &TestSet, cx: &AuditContext, config: &AuditConfig) -> AuditReport {
    let selected: Vec<&rules::RuleInfo> = rules::all().iter().filter(|r| config.enabled(r.code)).collect();
    let languages: Vec<Language> = set.cases.par_iter().map(|c| cx.language_of(c)).collect();
    let figures: Vec<CaseFigures> = set
        .cases
        .par_iter()
        .zip(languages.par_iter())
        .map(|(c, &lang)| cx.figures(c, config, lang))
        .collect();
    let case_rules: Vec<_> = selected
        .iter()
        .filter_map(|r| match r.check {
            Check::Case(f) => Some((*r, f)),
            Check::Set(_) | Check::Llm(_) => None,
        })
        .collect();
    let mut findings = case_findings(set, cx, config, &case_rules, &languages, &figures);
    findings.extend(set_findings(set, cx, config, &selected));
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
    let summary = AuditSummary {
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
        notes: notes(cx, config, &case_rules, &languages),
        coverage: coverage::coverage(set, cx),
        comparison: compare::compare(set, &figures, &languages, config, &cx.chunks),
        llm: None,
    };
    AuditReport {
        version: REPORT_VERSION,
        findings,
        summary,
        figures,
    }
}

/// A case rule and its check.
type CaseRule<'a> = (&'a rules::RuleInfo, fn(&CaseInput<'_>) -> Option<rules::Hit>);

/// The per-case rules' findings, each with its case's position, in parallel over the cases.
fn case_findings(
    set: &TestSet,
    cx: &AuditContext,
    config: &AuditConfig,
    case_rules: &[CaseRule<'_>],
    languages: &[Language],
    figures: &[CaseFigures],
) -> Vec<(usize, Finding)> {
    let per_case: Vec<Vec<(usize, Finding)>> = set
        .cases
        .par_iter()
        .zip(figures.par_iter())
        .enumerate()
        .map(|(i, (case, f))| {
            let input = CaseInput {
                case,
                language: languages[i],
                figures: f,
                cx,
                config,
            };
            case_rules
                .iter()
                .filter(|(rule, _)| rule.reads.can_read(languages[i]))
                .filter_map(|(rule, check)| {
                    let hit = check(&input)?;
                    Some((i, finding(rule, set, Some(i), hit.message, hit.highlight)))
                })
                .collect()
        })
        .collect();
    per_case.into_iter().flatten().collect()
}

/// The set rules' findings (a finding about the whole set sorts after the cases).
fn set_findings(
    set: &TestSet,
    cx: &AuditContext,
    config: &AuditConfig,
    selected: &[&rules::RuleInfo],
) -> Vec<(usize, Finding)> {
    let needs_issues = selected.iter().any(|r| r.family == rules::Family::Labels);
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
    let mut out = Vec::new();
    for rule in selected {
        if let Check::Set(check) = rule.check {
            for hit in check(&input) {
                let order = hit.case.unwrap_or(usize::MAX);
                out.push((order, finding(rule, set, hit.case, hit.message, None)));
            }
        }
    }
    out
}

/// What the reader should know besides the findings: no corpus, the questions' languages and
/// the rules that could not read them, LLM rules left for `--llm`.
fn notes(
    cx: &AuditContext,
    config: &AuditConfig,
    case_rules: &[CaseRule<'_>],
    languages: &[Language],
) -> Vec<AuditNote> {
    let mut notes = Vec::new();
    if cx.corpus.is_none() {
        notes.push(AuditNote::no_corpus());
    }
    let mut by_language: BTreeMap<Language, usize> = BTreeMap::new();
    for &lang in languages {
        *by_language.entry(lang).or_insert(0) += 1;
    }
    if by_language.keys().any(|&l| l != Language::ENGLISH) {
        for (&lang, &n) in &by_language {
            let skipped: Vec<&'static str> = case_rules
                .iter()
                .filter(|(r, _)| !r.reads.can_read(lang))
                .map(|(r, _)| r.code)
                .collect();
            notes.push(AuditNote::language(lang, n, &lang.analyzer().missing(), &skipped));
        }
    }
    let llm_rules: Vec<&'static str> = judged::selected(config).iter().map(|r| r.code).collect();
    if !llm_rules.is_empty() {
        notes.push(AuditNote::llm_skipped(&llm_rules));
    }
    notes
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
