//! The LLM checks of the audit (`--llm`): rules whose `Check::Llm` asks a judge about each
//! case. Every question of every case goes out at once, up to [`Llm::concurrency`] in flight,
//! through the same LLM layer as `generate` (journal, retries, cost accounting), so a rerun is
//! answered from the journal. Verdicts are put back in case order before the rules decide, so
//! the report does not depend on which answer arrived first.
//!
//! A rule asks its judge only where the judge is calibrated for the model in use
//! (`judge::calibration`: κ ≥ 0.6 in the person's records beside the set or the built-in table);
//! the rules of any other judge do not run, and the report says which and why.
//!
//! An answer still malformed after the re-asks skips that rule for that case and is counted
//! (the provider answered, the model could not). A request that still fails after its retries
//! means the provider is down or failing: the audit stops at once with an error naming the
//! checks that were not run, as it does for a fatal error (no key, bad configuration); the
//! answers received so far are journaled, so a rerun asks only for the rest.

use std::collections::BTreeMap;

use futures::{StreamExt, TryStreamExt, stream};

use super::report::{Judged, LlmFigures};
use super::rules::{self, Ask, Check, JudgeInput, LlmCheck, RuleInfo};
use super::{AuditConfig, AuditContext, AuditNote, AuditNoteKind, AuditReport, finding};
use crate::judge::calibration::{Calibration, Known};
use crate::judge::{self, AnswerableReply, AnswersReply, Passage, SupportedReply};
use crate::llm::{ChatRequest, Llm, LlmError};
use crate::prompts::Prompts;
use crate::testset::TestSet;

/// The LLM rules `config` selects, in code order.
pub fn selected(config: &AuditConfig) -> Vec<&'static RuleInfo> {
    rules::all()
        .iter()
        .filter(|r| matches!(r.check, Check::Llm(_)) && config.enabled(r.code))
        .collect()
}

/// One request: which rule, case and question of that case.
struct Job {
    rule: usize,
    case: usize,
    ask: usize,
    request: ChatRequest,
    /// What the reply holds, and the answer it is read against.
    reads: Reads,
}

/// How a judge's reply gives the verdict.
enum Reads {
    /// `{"answerable": ...}`.
    Answerable,
    /// `{"supported": ...}`.
    Supported,
    /// `{"answer_text": ...}`, held against this answer.
    Copy(String),
}

/// Runs the selected LLM rules over `set` and adds their findings and figures to `report`.
pub async fn judge(
    report: &mut AuditReport,
    set: &TestSet,
    cx: &AuditContext,
    config: &AuditConfig,
    llm: &Llm,
    prompts: &Prompts,
    known: &Known,
) -> Result<(), LlmError> {
    let rules = selected(config);
    let search = |q: &str, k: usize| -> Vec<usize> {
        cx.chunks.bm25().search(q, k).into_iter().map(|h| h.doc).collect()
    };
    let context = llm.context_tokens().unwrap_or(judge::DEFAULT_CONTEXT);

    // Questions per (rule, case), then one request per question.
    let mut asks: BTreeMap<(usize, usize), Vec<Ask>> = BTreeMap::new();
    let mut jobs = Vec::new();
    for (r, rule) in rules.iter().enumerate() {
        let Check::Llm(check) = rule.check else { continue };
        for (c, case) in set.cases.iter().enumerate() {
            let input = JudgeInput {
                case,
                cx,
                config,
                search: &search,
            };
            let list = (check.asks)(&input);
            if list.is_empty() {
                continue;
            }
            for (a, ask) in list.iter().enumerate() {
                jobs.push(Job {
                    rule: r,
                    case: c,
                    ask: a,
                    request: request(prompts, context, &case.question, ask)?,
                    reads: match (&ask.answer, ask.copy) {
                        (Some(a), true) => Reads::Copy(a.clone()),
                        (Some(_), false) => Reads::Supported,
                        (None, _) => Reads::Answerable,
                    },
                });
            }
            asks.insert((r, c), list);
        }
    }

    // The judges the rules would ask, and whether each runs with this model.
    let standings = standings(&asks, &rules, llm, prompts, known);
    let off: Vec<usize> = (0..rules.len())
        .filter(|r| {
            standings
                .iter()
                .any(|(c, codes)| !c.calibrated && codes.contains(&rules[*r].code))
        })
        .collect();
    jobs.retain(|j| !off.contains(&j.rule));
    asks.retain(|(r, _), _| !off.contains(r));

    let mut verdicts: Vec<((usize, usize, usize), Option<bool>)> = stream::iter(jobs)
        .map(|job| async move {
            let verdict = ask(llm, &job.request, &job.reads).await?;
            Ok::<_, LlmError>(((job.rule, job.case, job.ask), verdict))
        })
        .buffer_unordered(llm.concurrency().max(1))
        .try_collect()
        .await
        .map_err(|e| match e {
            LlmError::Exhausted { .. } => {
                let codes: Vec<&str> = rules.iter().map(|r| r.code).collect();
                LlmError::Fatal {
                    provider: llm.id(),
                    message: format!(
                        "{e}; the LLM checks {} were not run (answers received so far are journaled: a rerun asks only for the rest)",
                        codes.join(", ")
                    ),
                }
            }
            e => e,
        })?;
    verdicts.sort_by_key(|(k, _)| *k);

    let mut checks: BTreeMap<&'static str, Judged> = rules
        .iter()
        .enumerate()
        .filter(|(r, _)| !off.contains(r))
        .map(|(_, r)| (r.code, Judged::default()))
        .collect();
    let mut found = Vec::new();
    for ((r, c), list) in &asks {
        let rule = rules[*r];
        let Check::Llm(LlmCheck { decide, .. }) = rule.check else {
            continue;
        };
        let got: Vec<Option<bool>> = verdicts
            .iter()
            .filter(|((vr, vc, _), _)| vr == r && vc == c)
            .map(|(_, v)| *v)
            .collect();
        let counts = checks.get_mut(rule.code).expect("every selected rule is counted");
        counts.cases += 1;
        let Some(got) = got.into_iter().collect::<Option<Vec<bool>>>() else {
            counts.skipped += 1;
            continue;
        };
        if let Some(hit) = decide(list, &got) {
            counts.flagged += 1;
            found.push(finding(rule, set, Some(*c), hit.message, hit.highlight));
        }
    }

    let ran: Vec<&'static RuleInfo> = (0..rules.len())
        .filter(|r| !off.contains(r))
        .map(|r| rules[r])
        .collect();
    merge(report, found, &ran);
    let skipped: usize = checks.values().map(|j| j.skipped).sum();
    if skipped > 0 {
        report.summary.notes.push(AuditNote::judge_malformed(skipped));
    }
    report.summary.llm = Some(LlmFigures {
        model: llm.id(),
        checks,
        usage: llm.usage(),
        judges: standings.iter().map(|(c, _)| c.clone()).collect(),
    });
    for (c, codes) in standings.iter().filter(|(c, _)| !c.calibrated) {
        report.summary.notes.push(AuditNote::judge_uncalibrated(c, codes));
    }
    Ok(())
}

/// The judge an ask goes to.
fn judge_of(ask: &Ask) -> &'static str {
    match (&ask.answer, ask.copy) {
        (Some(_), true) => "answers",
        (Some(_), false) => "supported",
        (None, _) => "answerable",
    }
}

/// Each judge the rules would ask, with its standing for `llm` and the rules that ask it.
fn standings(
    asks: &BTreeMap<(usize, usize), Vec<Ask>>,
    rules: &[&'static RuleInfo],
    llm: &Llm,
    prompts: &Prompts,
    known: &Known,
) -> Vec<(Calibration, Vec<&'static str>)> {
    let mut used: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for ((r, _), list) in asks {
        for ask in list {
            let codes = used.entry(judge_of(ask)).or_default();
            if !codes.contains(&rules[*r].code) {
                codes.push(rules[*r].code);
            }
        }
    }
    used.into_iter()
        .map(|(judge, codes)| (known.judge(judge, llm, prompts), codes))
        .collect()
}

/// The request for one question.
fn request(prompts: &Prompts, context: usize, question: &str, ask: &Ask) -> Result<ChatRequest, LlmError> {
    let passages: Vec<Passage<'_>> = ask
        .passages
        .iter()
        .map(|p| Passage {
            doc: &p.doc,
            text: &p.text,
        })
        .collect();
    match &ask.answer {
        Some(_) if ask.copy => {
            let fact: Vec<&str> = passages.iter().map(|p| p.text).collect();
            judge::answers_request(prompts, context, question, &fact.join("\n"))
        }
        Some(answer) => judge::supported_request(prompts, context, question, answer, &passages),
        None => judge::answerable_request(prompts, context, question, &passages),
    }
    .map_err(|e| LlmError::Config(e.to_string()))
}

/// Sends one question: `Some(verdict)`, `None` when the answer stayed malformed, `Err` when
/// the audit must stop (a fatal error, or a request that failed after all its retries).
async fn ask(llm: &Llm, req: &ChatRequest, reads: &Reads) -> Result<Option<bool>, LlmError> {
    let verdict = match reads {
        Reads::Supported => llm
            .structured::<SupportedReply>(req)
            .await
            .map(|r| r.value.supported),
        Reads::Answerable => llm
            .structured::<AnswerableReply>(req)
            .await
            .map(|r| r.value.answerable),
        Reads::Copy(answer) => llm
            .structured::<AnswersReply>(req)
            .await
            .map(|r| r.value.agrees(answer)),
    };
    match verdict {
        Ok(v) => Ok(Some(v)),
        Err(LlmError::Rejected { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Adds `found` (in case order per rule) to the report, keeps it worst first, recounts, lists
/// the LLM rules as run and drops the note that they were skipped.
fn merge(report: &mut AuditReport, found: Vec<super::Finding>, ran: &[&'static RuleInfo]) {
    report.findings.extend(found);
    // Stable: findings of one rule keep their case order.
    report
        .findings
        .sort_by(|a, b| b.severity.cmp(&a.severity).then(a.code.cmp(b.code)));
    let s = &mut report.summary;
    s.by_severity.clear();
    s.by_rule.clear();
    for f in &report.findings {
        *s.by_severity.entry(f.severity).or_insert(0) += 1;
        *s.by_rule.entry(f.code).or_insert(0) += 1;
    }
    s.rules.extend(ran.iter().map(|r| r.code));
    s.rules.sort_unstable();
    s.rules.dedup();
    s.notes.retain(|n| n.kind != AuditNoteKind::LlmSkipped);
}
