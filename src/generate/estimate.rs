//! What a plan would cost, without calling anything (`--dry-run`), and the most a run can ask.

use super::context::GenerateContext;
use super::kinds;
use super::plan::Plan;
use super::summary::{GenerateSummary, LlmFigures};
use crate::llm::Price;

/// Fills in the estimate of a dry run: calls and tokens of the plan, as `model` (the `--llm`
/// given, else "default") would be asked, priced at `price` (per million tokens: the batch rate
/// for `--batch`; unknown when `None`), and the calls per kind.
pub fn dry_run(
    summary: &mut GenerateSummary,
    ctx: &GenerateContext<'_>,
    plan: &Plan,
    model: Option<&str>,
    price: Option<Price>,
) -> crate::Result<()> {
    summary.dry_run = true;
    summary.llm = estimate(ctx, plan)?;
    summary.llm.model = model.unwrap_or("default").to_string();
    summary.llm.cost_usd = price.map(|p| p.cost(summary.llm.prompt_tokens, summary.llm.completion_tokens));
    for (kind, calls) in plan.calls_by_kind() {
        summary.kind(kind).llm_calls = calls;
    }
    Ok(())
}

/// Calls and tokens a plan would use, as each kind's row estimates its tasks: generation
/// prompts are rendered and measured, judge prompts estimated from their passages, completions
/// counted at their `max_tokens` cap (an upper bound).
pub fn estimate(ctx: &GenerateContext<'_>, plan: &Plan) -> crate::Result<LlmFigures> {
    let mut f = LlmFigures::default();
    for t in &plan.tasks {
        for call in (kinds::info(t.kind).estimate)(ctx, t)? {
            f.calls += 1;
            f.prompt_tokens += call.prompt_tokens;
            f.completion_tokens += u64::from(call.max_tokens);
        }
    }
    Ok(f)
}
