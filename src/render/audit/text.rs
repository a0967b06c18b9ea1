//! An audit report for a terminal: the synthetic cases waiting for review first, then the
//! rest, each part grouped by rule, worst first, the copied phrase
//! highlighted, then the summary. Text from the test set is shown with its control characters
//! escaped, so a question cannot carry escape sequences to the terminal.

use std::collections::HashSet;
use std::fmt::Write;

use crate::audit::{AuditReport, Finding, Severity, rules};
use crate::review::review_rank;
use crate::terminal::data;
use crate::testset::TestSet;

/// How the terminal report looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextOptions {
    /// ANSI colours and highlighting (only on a terminal).
    pub color: bool,
    /// Findings shown per rule (0: all).
    pub max_per_rule: usize,
}

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";
const HIGHLIGHT: &str = "\x1b[1;33m";

fn paint(s: &str, code: &str, color: bool) -> String {
    if color {
        format!("{code}{s}{RESET}")
    } else {
        s.to_string()
    }
}

fn severity_color(s: Severity) -> &'static str {
    match s {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[33m",
        Severity::Info => "\x1b[36m",
    }
}

/// The question with `range` marked: bold yellow on a terminal, `[[...]]` otherwise.
fn marked(question: &str, range: &std::ops::Range<usize>, color: bool) -> String {
    let (Some(a), Some(b), Some(c)) = (
        question.get(..range.start),
        question.get(range.clone()),
        question.get(range.end..),
    ) else {
        return data(question).into_owned();
    };
    let (a, b, c) = (data(a), data(b), data(c));
    if color {
        format!("{a}{HIGHLIGHT}{b}{RESET}{c}")
    } else {
        format!("{a}[[{b}]]{c}")
    }
}

/// Renders the report for a terminal: the findings on synthetic cases waiting for review
/// first (what a user came to look at), then those on real and reviewed cases and on the set.
pub fn text(report: &AuditReport, set: &TestSet, opts: TextOptions) -> String {
    let mut out = String::new();
    let waiting: HashSet<&str> = set
        .cases
        .iter()
        .filter(|c| review_rank(c) == 0)
        .map(|c| c.id.as_str())
        .collect();
    let (first, rest): (Vec<&Finding>, Vec<&Finding>) = report
        .findings
        .iter()
        .partition(|f| f.case.as_deref().is_some_and(|id| waiting.contains(id)));
    if waiting.is_empty() {
        groups(&mut out, &rest, set, opts);
    } else {
        let head = format!(
            "Waiting for review: {} synthetic case(s) pending, {} finding(s) on them",
            waiting.len(),
            first.len()
        );
        let _ = writeln!(out, "{}\n", paint(&head, BOLD, opts.color));
        groups(&mut out, &first, set, opts);
        if !rest.is_empty() {
            let head = format!("Real and reviewed cases, and the set: {} finding(s)", rest.len());
            let _ = writeln!(out, "{}\n", paint(&head, BOLD, opts.color));
            groups(&mut out, &rest, set, opts);
        }
    }
    summary(&mut out, report, opts.color);
    out
}

/// The findings grouped by rule, in the report's order (worst first).
fn groups(out: &mut String, findings: &[&Finding], set: &TestSet, opts: TextOptions) {
    let c = opts.color;
    let mut groups: Vec<(&'static str, Vec<&Finding>)> = Vec::new();
    for &f in findings {
        match groups.last_mut() {
            Some((code, v)) if *code == f.code => v.push(f),
            _ => groups.push((f.code, vec![f])),
        }
    }
    for (code, items) in &groups {
        let rule = rules::explain(code).expect("findings come from registered rules");
        let head = format!(
            "{} {} [{}] {} finding(s): {}",
            rule.code,
            rule.name,
            paint(rule.severity.as_str(), severity_color(rule.severity), c),
            items.len(),
            rule.summary
        );
        let _ = writeln!(out, "{}", paint(&head, BOLD, c));
        let shown = if opts.max_per_rule == 0 {
            items.len()
        } else {
            opts.max_per_rule.min(items.len())
        };
        for f in &items[..shown] {
            let whose = match (&f.case, f.line) {
                (Some(id), Some(l)) => format!("{} (line {l})", data(id)),
                (Some(id), None) => data(id).into_owned(),
                (None, _) => "(set)".to_string(),
            };
            let _ = writeln!(out, "  {whose}: {}", data(&f.message));
            if let (Some(id), Some(r)) = (&f.case, &f.highlight)
                && let Some(case) = set.case(id)
            {
                let _ = writeln!(out, "      {}", marked(&case.question, r, c));
            }
        }
        if shown < items.len() {
            let _ = writeln!(
                out,
                "  … and {} more (--max-per-rule 0 or --format json shows all)",
                items.len() - shown
            );
        }
        out.push('\n');
    }
}

fn summary(out: &mut String, report: &AuditReport, color: bool) {
    let s = &report.summary;
    let _ = writeln!(out, "{}", paint("Summary", BOLD, color));
    let _ = writeln!(
        out,
        "  {} cases ({} real, {} synthetic) against {} documents / {} chunks; {} rules",
        s.cases,
        s.real,
        s.synthetic,
        s.documents,
        s.chunks,
        s.rules.len()
    );
    let counts: Vec<String> = [Severity::Error, Severity::Warning, Severity::Info]
        .iter()
        .map(|sev| format!("{} {sev}", s.by_severity.get(sev).copied().unwrap_or(0)))
        .collect();
    let _ = writeln!(out, "  findings: {}", counts.join(", "));
    if let Some(llm) = &s.llm {
        let u = &llm.usage.total;
        let cost = u
            .cost_usd
            .map_or("cost unknown".to_string(), |c| format!("${c:.4}"));
        let _ = writeln!(
            out,
            "  LLM {}: {} calls, {} cache hits, {} prompt + {} completion tokens, {cost}",
            data(&llm.model),
            u.calls,
            u.cache_hits,
            u.prompt_tokens,
            u.completion_tokens
        );
        for (code, j) in &llm.checks {
            let _ = writeln!(
                out,
                "    {code}: {} case(s) judged, {} flagged, {} skipped",
                j.cases, j.flagged, j.skipped
            );
        }
    }
    if let Some(cmp) = &s.comparison {
        let _ = writeln!(out, "  {}", data(&cmp.verdict));
        let _ = writeln!(
            out,
            "    {:<10} {:>6} {:>7} {:>12} {:>7} {:>8} {:>5} {:>7} {:>5} {:>9} {:>6} {:>6}",
            "",
            "cases",
            "words",
            "containment",
            "copied",
            "chunk@1",
            "MRR",
            "para@1",
            "MRR",
            "keywords",
            "no ?",
            "typos"
        );
        for (name, p) in [("real", &cmp.real), ("synthetic", &cmp.synthetic)] {
            let _ = writeln!(
                out,
                "    {name:<10} {:>6} {:>7.1} {:>12.2} {:>6.0}% {:>7.0}% {:>5.2} {:>6.0}% {:>5.2} {:>8.0}% {:>5.0}% {:>5.0}%",
                p.cases,
                p.words,
                p.containment,
                p.copied * 100.0,
                p.rank1 * 100.0,
                p.mrr,
                p.passage_rank1 * 100.0,
                p.passage_mrr,
                p.keywords * 100.0,
                p.no_question_mark * 100.0,
                p.misspelled * 100.0
            );
        }
    }
    if !s.coverage.table.is_empty() {
        let _ = writeln!(out, "  coverage (type × topic × source):");
        for r in &s.coverage.table {
            let _ = writeln!(
                out,
                "    {:<13} {:<20} {:<9} {:>6}",
                data(&r.kind),
                data(&r.topic),
                data(&r.source),
                r.cases
            );
        }
    }
    for n in &s.notes {
        let _ = writeln!(out, "  note: {}", data(n));
    }
}

/// What a rule flags, why it matters and an example, for `--explain`.
pub fn explain(rule: &rules::RuleInfo) -> String {
    format!(
        "{} {} ({})\n\n{}\n\n{}",
        rule.code, rule.name, rule.severity, rule.summary, rule.doc
    )
}
