//! What a plan would cost, without calling anything (`--dry-run`), and the most a run can ask.

use serde_json::json;

use super::context::GenerateContext;
use super::plan::{Kind, Plan, Task};
use super::summary::LlmFigures;
use super::{lookup, multi_hop, unanswerable};
use crate::chunk::Chunk;
use crate::judge;
use crate::llm::Llm;

/// Calls and tokens a plan would use: every generation prompt is rendered and measured; judge
/// prompts are estimated from their passages; completions are counted at their `max_tokens` cap
/// (an upper bound).
pub fn estimate(ctx: &GenerateContext<'_>, plan: &Plan) -> crate::Result<LlmFigures> {
    let mut f = LlmFigures::default();
    let judge_overhead = {
        let r = ctx
            .prompts
            .render("judge_answerable", &json!({"question": "", "passages": []}))?;
        Llm::estimate_tokens(&r.system) + Llm::estimate_tokens(&r.user) + 16
    };
    let tokens = |c: &Chunk| Llm::estimate_tokens(&c.text) as u64;
    for t in &plan.tasks {
        let Some((system, user, max)) = rendered(ctx, t)? else {
            continue;
        };
        f.calls += 1;
        f.prompt_tokens += (Llm::estimate_tokens(&system) + Llm::estimate_tokens(&user)) as u64;
        f.completion_tokens += u64::from(max);
        if let Some((fact, _)) = (t.kind == Kind::Unanswerable)
            .then(|| unanswerable::fact_of(ctx, t))
            .flatten()
        {
            // The question of the changed fact: about as long as a one-fact lookup.
            let (r, max) = lookup::render(
                ctx,
                &Task {
                    questions: 1,
                    ..t.clone()
                },
                &[fact],
            )?;
            f.calls += 1;
            f.prompt_tokens += (Llm::estimate_tokens(&r.system) + Llm::estimate_tokens(&r.user)) as u64;
            f.completion_tokens += u64::from(max);
        }
        if t.kind == Kind::Unanswerable {
            let avg = ctx.chunks.iter().map(tokens).sum::<u64>() / ctx.chunks.len().max(1) as u64;
            f.calls += 1;
            f.prompt_tokens += judge_overhead as u64 + avg * ctx.options.judge_top_k as u64;
            f.completion_tokens += u64::from(judge::MAX_TOKENS);
        }
    }
    Ok(f)
}

/// The generation prompt of a task and its `max_tokens`; none when the task has nothing to ask
/// about (it would be rejected without a call).
fn rendered(ctx: &GenerateContext<'_>, t: &Task) -> crate::Result<Option<(String, String, u32)>> {
    Ok(match t.kind {
        Kind::SingleHop => {
            let facts = lookup::facts_of(ctx, t);
            if facts.is_empty() {
                return Ok(None);
            }
            let (r, max) = lookup::render(ctx, t, &facts)?;
            Some((r.system, r.user, max))
        }
        Kind::MultiHop => match multi_hop::facts_of(ctx, t) {
            Some(facts) => {
                let r = multi_hop::render(ctx, t, &facts)?;
                Some((r.system, r.user, multi_hop::MAX_TOKENS))
            }
            None => None,
        },
        Kind::Unanswerable => match unanswerable::fact_of(ctx, t) {
            Some((fact, term)) => {
                let r = unanswerable::render(ctx, t, &fact, &term)?;
                Some((r.system, r.user, unanswerable::MAX_TOKENS))
            }
            None => None,
        },
    })
}

/// LLM requests a run of `plan` makes at most over `max_rounds` rounds: every round asks at
/// most the planned number of tasks of each kind, each with every check, so the bound is
/// `max_rounds` times one pass (re-asks of malformed answers come on top).
pub fn worst_case_calls(plan: &Plan, max_rounds: u32) -> u64 {
    let one_pass: u64 = plan.tasks.iter().map(|t| calls_per_task(t.kind)).sum();
    one_pass * u64::from(max_rounds.max(1))
}

/// LLM calls one task of `kind` makes when every check runs: one generation call for a lookup
/// or multi-hop question (multi-hop questions are checked without a judge: see [`multi_hop`]);
/// for an unanswerable one the neighbours, the question and the judge.
pub fn calls_per_task(kind: Kind) -> u64 {
    match kind {
        Kind::SingleHop | Kind::MultiHop => 1,
        Kind::Unanswerable => 3,
    }
}
