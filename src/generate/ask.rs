//! Asking: the generation and judge requests of a task, and what their answers cost. A bad
//! answer costs its candidate (the inner error); only an error no candidate can survive stops
//! the run (the outer one).
//!
//! Requests are deterministic — the same prompt text, seed and parameters for the same task — so
//! the LLM journal answers a rerun without paying again.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use super::candidate::Tally;
use super::candidate::{Task, stable_hash};
use super::context::GenerateContext;
pub use super::kind::Outcome;
use super::verify::{Check, label_for};
use crate::chunk::Chunk;
use crate::judge::{self, Passage};
use crate::llm::{ChatRequest, Llm, LlmError, Reply};
use crate::prompts::Rendered;
use crate::testset::Label;

/// Sends a request. The inner error is a lost candidate (malformed answer, retries
/// exhausted); the outer one an error that must stop the run.
pub async fn ask<T: DeserializeOwned + JsonSchema>(
    llm: &Llm,
    req: &ChatRequest,
    tally: &mut Tally,
) -> Result<Result<Reply<T>, Check>, LlmError> {
    let result = llm.structured::<T>(req).await;
    // An answer this run already paid for is no new call.
    if !matches!(&result, Ok(reply) if reply.repeat) {
        tally.calls += 1;
    }
    match result {
        Ok(reply) => Ok(Ok(reply)),
        Err(e) if e.is_fatal() => Err(e),
        Err(LlmError::Rejected { .. }) => Ok(Err(Check::MalformedReply)),
        Err(e) => {
            // Retries exhausted: the candidate is lost, and a run of these means the
            // provider is down.
            tally.failure = Some(e.to_string());
            Ok(Err(Check::LlmFailed))
        }
    }
}

/// Asks whether `passages` answer `question`; the inner error when the judge's answer was lost.
pub async fn answerable(
    llm: &Llm,
    ctx: &GenerateContext<'_>,
    question: &str,
    passages: &[&Chunk],
    tally: &mut Tally,
) -> Result<Result<bool, Check>, LlmError> {
    let passages: Vec<Passage<'_>> = passages
        .iter()
        .map(|c| Passage {
            doc: &c.doc,
            text: &c.text,
        })
        .collect();
    let req = judge::answerable_request(ctx.prompts, ctx.context_tokens, question, &passages)
        .map_err(config_error)?;
    Ok(ask::<judge::AnswerableReply>(llm, &req, tally)
        .await?
        .map(|j| j.value.answerable))
}

/// The judges generation may ask, in the order its summary lists them.
pub const JUDGES: &[&str] = &["answers", "answerable"];

/// Whether `judge` runs with this model: κ ≥ 0.6 in the person's calibration file beside the
/// set or the built-in table (`judge::calibration`). A judge no one measured on this model, or
/// below the bar, turns no candidate away: the 135M plumbing model copies nothing, and a
/// verdict at chance is no check. The summary says which ran and why the others did not.
pub fn calibrated(llm: &Llm, ctx: &GenerateContext<'_>, judge: &str) -> bool {
    ctx.calibration.judge(judge, llm, ctx.prompts).calibrated
}

/// Asks the answers-the-question judge (RS509's, κ 0.73 held out with the default model) to copy
/// the words of `fact` that answer `question`; whether `answer` agrees with the copy. The inner
/// error when the judge's answer was lost.
pub async fn answers(
    llm: &Llm,
    ctx: &GenerateContext<'_>,
    question: &str,
    answer: &str,
    fact: &str,
    tally: &mut Tally,
) -> Result<Result<bool, Check>, LlmError> {
    Ok(copied(llm, ctx, question, fact, tally)
        .await?
        .map(|j| j.agrees(answer)))
}

/// The same judge's copy of the words of `fact` that answer `question` (empty when none do).
pub async fn copied(
    llm: &Llm,
    ctx: &GenerateContext<'_>,
    question: &str,
    fact: &str,
    tally: &mut Tally,
) -> Result<Result<judge::AnswersReply, Check>, LlmError> {
    let req =
        judge::answers_request(ctx.prompts, ctx.context_tokens, question, fact).map_err(config_error)?;
    Ok(ask::<judge::AnswersReply>(llm, &req, tally)
        .await?
        .map(|j| j.value))
}

/// Renders template `name` with its passage texts cut to fit the model's context.
pub fn render(
    ctx: &GenerateContext<'_>,
    name: &str,
    max_tokens: u32,
    texts: &[&str],
    vars: impl Fn(&[String]) -> Value,
) -> crate::Result<Rendered> {
    crate::prompts::fit(ctx.prompts, ctx.context_tokens, name, max_tokens, texts, vars)
}

/// The request of a task from its rendered prompt: the task's sampling seed and temperature.
pub fn request(ctx: &GenerateContext<'_>, task: &Task, rendered: Rendered, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        system: rendered.system,
        user: rendered.user,
        max_tokens,
        temperature: ctx.options.temperature,
        seed: Some(seed(ctx, task)),
        tag: task.kind.as_str().to_string(),
    }
}

/// The sampling seed of a task: fixed by the run's seed, the chunks and the attempt, so the
/// same plan sends the same requests.
fn seed(ctx: &GenerateContext<'_>, task: &Task) -> u64 {
    let mut parts: Vec<&str> = vec![task.kind.as_str()];
    parts.extend(task.chunks.iter().map(|&i| ctx.chunks[i].id.as_str()));
    let attempt = task.attempt.to_string();
    parts.push(&attempt);
    // Servers take seeds as signed 32-bit or unsigned 64-bit; keep it small enough for both.
    stable_hash(ctx.options.seed, &parts) % (1 << 31)
}

/// When the case was made: the time its generation answer was journaled, so a run resumed
/// from the journal stamps a case as the uninterrupted run would have.
pub fn created_of<T>(reply: &Reply<T>) -> Option<String> {
    reply.journaled.map(|t| t.to_string())
}

/// The label of `quote`, located in `chunk`'s document near the chunk.
pub fn label_in(ctx: &GenerateContext<'_>, chunk: &Chunk, quote: &str) -> Result<Label, Check> {
    let doc = ctx.corpus.doc(&chunk.doc).ok_or(Check::QuoteNotFound)?;
    let doc_chunks: Vec<&Chunk> = ctx.chunks.iter().filter(|c| c.doc == chunk.doc).collect();
    label_for(doc, quote, chunk.start, &doc_chunks)
}

/// The trimmed text, or none when it is empty.
pub fn non_empty(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// The topic tag of a document: its file name without extension.
pub fn topic_of(doc: &str) -> String {
    crate::text::file_stem(doc).to_string()
}

/// A template error is a configuration error: no candidate can be asked.
pub fn config_error(e: crate::Error) -> LlmError {
    LlmError::Config(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_is_the_file_stem() {
        assert_eq!(topic_of("guides/restore.md"), "restore");
        assert_eq!(topic_of("README"), "README");
    }
}
