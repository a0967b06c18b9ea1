//! The LLM judges of answers (`eval --answers --llm`): `correct` (does the answer agree with
//! the reference?), `refused` (does it decline?) and `grounded` (is everything it states in
//! the contexts it was given?). Every request goes out at once, up to [`Llm::concurrency`] in
//! flight, through the LLM layer (journal, retries, accounting), so a rerun is answered from
//! the journal and costs nothing.
//!
//! Who is asked what: every case with a non-empty answer gets `refused`; an answerable case with a reference
//! and a non-empty answer gets `correct` (a refusal is then a miss whatever the verdict); a
//! case whose line gives non-empty `contexts` gets `grounded` unless it is a lexical refusal
//! (a refusal claims nothing). A reply still malformed after the re-asks leaves
//! that verdict missing (counted as lost); `refused` then falls back to the lexical detector.
//! A request that fails after its retries stops the evaluation with an error; what was
//! answered is journaled. A judge runs only where it is calibrated for the model in use
//! (`judge::calibration`); the report says which ran and why the others did not (`refused`
//! then leaves the verdict to the lexical detector).

use std::collections::BTreeMap;

use futures::{StreamExt, TryStreamExt, stream};
use rustc_hash::FxHashMap;

use super::report::JudgeFigures;
use super::{AnswerReport, Answers, references};
use crate::judge::calibration::Known;
use crate::judge::{self, CorrectReply, GroundedReply, Passage, RefusedReply};
use crate::llm::{ChatRequest, Llm, LlmError};
use crate::prompts::Prompts;
use crate::testset::{Case, TestSet};

/// The three judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Agrees with the reference.
    Correct,
    /// Declines to answer.
    Refused,
    /// Backed by the contexts.
    Grounded,
}

impl Verdict {
    /// The judge's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Refused => "refused",
            Verdict::Grounded => "grounded",
        }
    }
}

/// Builds the request of judge `verdict` for one answer.
pub fn request(
    prompts: &Prompts,
    context_tokens: usize,
    verdict: Verdict,
    case: &Case,
    answer: &str,
    contexts: &[String],
) -> crate::Result<ChatRequest> {
    match verdict {
        Verdict::Correct => judge::correct_request(prompts, &case.question, &references(case), answer),
        Verdict::Refused => judge::refused_request(prompts, &case.question, answer),
        Verdict::Grounded => {
            let passages: Vec<Passage<'_>> = contexts.iter().map(|t| Passage { doc: "", text: t }).collect();
            judge::grounded_request(prompts, context_tokens, &case.question, answer, &passages)
        }
    }
}

/// The refusal judge's verdict: the reply declines when the judge copied no answer from it,
/// or when what it copied only declines (read by the lexical detector).
pub fn refused(reply: &RefusedReply) -> bool {
    super::refusal::refused(&reply.answer_text)
}

/// A judge's verdict and its reason.
pub type Judged = (bool, String);

/// Sends one judge request: `Some((verdict, reason))`, `None` when the reply stayed malformed,
/// `Err` when the evaluation must stop.
pub async fn ask(llm: &Llm, req: &ChatRequest, verdict: Verdict) -> Result<Option<Judged>, LlmError> {
    let reply = match verdict {
        Verdict::Correct => llm
            .structured::<CorrectReply>(req)
            .await
            .map(|r| (r.value.correct, r.value.reason)),
        Verdict::Refused => llm
            .structured::<RefusedReply>(req)
            .await
            .map(|r| (refused(&r.value), r.value.reason())),
        Verdict::Grounded => llm
            .structured::<GroundedReply>(req)
            .await
            .map(|r| (r.value.grounded, r.value.reason)),
    };
    match reply {
        Ok(v) => Ok(Some(v)),
        Err(LlmError::Rejected { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Runs the judges over the answered cases of `report` and recomputes its figures.
pub async fn judge(
    report: &mut AnswerReport,
    set: &TestSet,
    answers: &Answers,
    llm: &Llm,
    prompts: &Prompts,
    known: &Known,
) -> Result<(), LlmError> {
    let all = [Verdict::Correct, Verdict::Refused, Verdict::Grounded];
    let standing: Vec<_> = all.iter().map(|v| known.judge(v.name(), llm, prompts)).collect();
    let runs = |v: Verdict| standing.iter().any(|c| c.judge == v.name() && c.calibrated);
    let cases: FxHashMap<&str, &Case> = set.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let context = llm.context_tokens().unwrap_or(judge::DEFAULT_CONTEXT);
    let mut jobs: Vec<(usize, Verdict, ChatRequest)> = Vec::new();
    for (i, q) in report.questions.iter().enumerate() {
        let (Some(answer), Some(case)) = (answers.by_id.get(&q.id), cases.get(q.id.as_str())) else {
            continue;
        };
        let lexical = q.refused_lexical == Some(true);
        let contexts = answer.contexts.as_deref().unwrap_or_default();
        // An empty answer is a refusal by definition: no judge needed.
        if answer.answer.trim().is_empty() {
            continue;
        }
        let mut wanted = vec![Verdict::Refused];
        // Asked even of a lexical refusal: the refusal judge may overrule the detector, and
        // then the case still needs a `correct` verdict.
        if !q.unanswerable && !answer.answer.trim().is_empty() && !references(case).is_empty() {
            wanted.push(Verdict::Correct);
        }
        if !lexical && contexts.iter().any(|c| !c.trim().is_empty()) {
            wanted.push(Verdict::Grounded);
        }
        for v in wanted.into_iter().filter(|v| runs(*v)) {
            let req = request(prompts, context, v, case, &answer.answer, contexts)
                .map_err(|e| LlmError::Config(e.to_string()))?;
            jobs.push((i, v, req));
        }
    }
    let mut asked: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (_, v, _) in &jobs {
        *asked.entry(v.name()).or_default() += 1;
    }
    let replies: Vec<(usize, Verdict, Option<Judged>)> = stream::iter(jobs)
        .map(|(i, v, req)| async move { Ok::<_, LlmError>((i, v, ask(llm, &req, v).await?)) })
        .buffer_unordered(llm.concurrency().max(1))
        .try_collect()
        .await
        .map_err(|e| match e {
            LlmError::Exhausted { .. } => LlmError::Fatal {
                provider: llm.id(),
                message: format!(
                    "{e}; the answer judges did not finish (answers received so far are journaled: a rerun asks only for the rest)"
                ),
            },
            e => e,
        })?;
    let mut lost: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (i, v, reply) in replies {
        let q = &mut report.questions[i];
        let Some((value, reason)) = reply else {
            *lost.entry(v.name()).or_default() += 1;
            continue;
        };
        match v {
            Verdict::Correct => q.correct = Some(value),
            Verdict::Refused => q.refused = Some(value),
            Verdict::Grounded => q.grounded = Some(value),
        }
        q.reasons.insert(v.name(), reason);
    }
    // A refusal of an answerable question is a miss, whoever saw it; so is no answer at all.
    // Without the correct judge the figure stays empty.
    let correct_ran = runs(Verdict::Correct);
    for q in report
        .questions
        .iter_mut()
        .filter(|q| !q.unanswerable && correct_ran)
    {
        if q.refused == Some(true) || !q.answered {
            q.correct = Some(false);
        }
    }
    report.judges = Some(JudgeFigures {
        model: llm.id(),
        prompts: all
            .into_iter()
            .map(|v| (v.name(), prompts.id(&format!("judge_{}", v.name()))))
            .collect(),
        asked,
        lost,
        usage: llm.usage(),
        standing,
    });
    report.refigure();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_nothing_copied_or_a_copied_refusal() {
        let r = |t: &str| {
            refused(&RefusedReply {
                answer_text: t.into(),
            })
        };
        assert!(r(""));
        assert!(r("I cannot answer that from the documents."));
        assert!(!r("1050s"));
        assert!(!r("Seljuk Turks"));
    }
}
