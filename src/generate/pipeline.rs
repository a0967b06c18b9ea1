//! The generation run: every planned task becomes one candidate — a generation call, then the
//! checks (some of which ask the LLM to judge) — run concurrently up to what the LLM serves at
//! once. A bad answer costs its candidate; only a fatal LLM error stops the run.
//!
//! Requests are deterministic (same prompt text, seed and parameters for the same plan), so the
//! LLM journal answers a rerun after an interruption without paying again, and results are
//! put back in plan order before the duplicate check so the output does not depend on which
//! answer arrived first.
//!
//! [`run`] works in rounds: the first asks the plan; each further round asks replacements
//! ([`super::topup`]) for the kinds still short of their planned count, until every kind is
//! full, `max_rounds` is reached, or a round accepted nothing and only re-asks of chunks already
//! tried are left. A provider that fails `stop_after_llm_failed` candidates in a row after all
//! retries stops the run: it is down, and waiting out every retry of every task helps no one.

use futures::{StreamExt, stream};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::merge::Accepted;
use super::plan::{Kind, Plan, Task, stable_hash};
use super::prompts::{Prompts, Rendered};
use super::summary::{LlmFigures, RoundFigures, Stop, Summary};
use super::topup;
use super::verify::{Dedup, Rejection, check_on_topic, check_question, label_for};
use crate::chunk::Chunk;
use crate::corpus::Corpus;
use crate::index::Bm25Index;
use crate::judge::{self, Passage};
use crate::llm::{ChatRequest, Llm, LlmError, Reply};
use crate::testset::TestSet;

/// Settings of a run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seed for planning and for the LLM's sampling.
    pub seed: u64,
    /// Sampling temperature for writing questions (judging uses 0).
    pub temperature: f32,
    /// Chunks the unanswerable check shows the judge.
    pub judge_top_k: usize,
    /// Real questions shown as style examples.
    pub examples: usize,
    /// Rounds at most (1 = the plan only, no replacements).
    pub max_rounds: u32,
    /// Candidates in a row ending `llm_failed` that stop the run (0 = never).
    pub stop_after_llm_failed: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            temperature: 0.3,
            judge_top_k: 3,
            examples: 3,
            max_rounds: super::DEFAULT_MAX_ROUNDS,
            stop_after_llm_failed: super::DEFAULT_STOP_AFTER_LLM_FAILED,
        }
    }
}

/// Largest answer, in tokens, per request kind: a small model otherwise writes until its
/// context is full.
/// Sized to the two-field replies: a ~40-token question and a ~60-token answer plus the JSON
/// around them, with room to spare so a finished reply is never cut off.
const MAX_TOKENS_SINGLE: u32 = 160;
const MAX_TOKENS_MULTI: u32 = 192;
const MAX_TOKENS_UNANSWERABLE: u32 = 64;
/// Context assumed when the model does not say.
const DEFAULT_CONTEXT: usize = 4096;

/// What the model writes for a single-hop case. The quote is not asked for: it is the key
/// sentence the prompt shows (see [`key_sentence`]). Asked to copy it, SmolLM2 wrote long
/// "quotes" of its own that ran past `max_tokens` or were nowhere in the source; a two-field
/// reply is short enough to finish and leaves the model only the part that needs it.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SingleHopReply {
    /// The question.
    pub question: String,
    /// A short reference answer.
    pub answer: String,
}

/// What the model writes for a multi-hop case; the quotes are the two key sentences shown.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MultiHopReply {
    /// The question.
    pub question: String,
    /// A short reference answer.
    pub answer: String,
}

/// What the model writes for an unanswerable case.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct UnanswerableReply {
    /// The question.
    pub question: String,
}

/// Everything a task needs, shared by all of them.
pub struct Context<'a> {
    /// The corpus.
    pub corpus: &'a Corpus,
    /// Its chunks, as planned.
    pub chunks: &'a [Chunk],
    /// The templates.
    pub prompts: &'a Prompts,
    /// Real questions given as style examples.
    pub examples: Vec<String>,
    /// Questions already in the test set.
    pub existing: Dedup,
    /// Lexical index over `chunks`, for the unanswerable check.
    pub index: Bm25Index,
    /// Settings.
    pub options: Options,
    /// Tokens a prompt may use (context minus answer and margin), per request.
    pub context_tokens: usize,
}

impl<'a> Context<'a> {
    /// Prepares the shared state for a run over `chunks` into `set`.
    pub fn new(
        corpus: &'a Corpus,
        chunks: &'a [Chunk],
        prompts: &'a Prompts,
        set: &TestSet,
        options: Options,
        context_tokens: Option<usize>,
    ) -> Context<'a> {
        let mut existing = Dedup::default();
        for c in &set.cases {
            existing.add(&c.question);
        }
        Context {
            corpus,
            chunks,
            prompts,
            examples: style_examples(set, options.examples, options.seed),
            existing,
            index: Bm25Index::new(chunks.iter().map(|c| c.text.as_str())),
            options,
            context_tokens: context_tokens.unwrap_or(DEFAULT_CONTEXT),
        }
    }
}

/// Up to `k` real questions of the set, chosen by the seed, in a stable order.
pub fn style_examples(set: &TestSet, k: usize, seed: u64) -> Vec<String> {
    let mut real: Vec<&str> = set
        .cases
        .iter()
        .filter(|c| c.is_real() && !c.question.trim().is_empty())
        .map(|c| c.question.trim())
        .collect();
    real.sort_by_key(|q| (stable_hash(seed, &["example", q]), *q));
    real.dedup();
    real.into_iter().take(k).map(str::to_string).collect()
}

/// The outcome of one task.
#[derive(Debug)]
pub struct Verdict {
    /// Which task.
    pub index: usize,
    /// Its kind.
    pub kind: Kind,
    /// Accepted candidate or why not.
    pub result: Result<Accepted, Rejection>,
    /// LLM calls it made.
    pub calls: u64,
    /// For `llm_failed`: the provider's last failure after all retries.
    pub failure: Option<String>,
}

/// What a run reports as it goes (progress bars).
pub trait Progress: Sync {
    /// A round starts with these tasks.
    fn round(&self, round: u32, tasks: &[Task]);
    /// A task reached its verdict.
    fn verdict(&self, verdict: &Verdict);
}

/// Why a run stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An error no candidate can survive (configuration, key, missing model).
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The provider failed candidate after candidate after all retries.
    #[error("{count} candidates in a row failed after all retries; last: {last}")]
    ProviderDown {
        /// Candidates in a row that ended `llm_failed`.
        count: usize,
        /// The last failure (names the provider).
        last: String,
    },
}

/// Runs the plan, then top-up rounds; `progress` hears of each round and verdict. Returns the
/// accepted candidates in the order asked (round by round, plan order within a round), with
/// repeats among them removed, and fills in the account.
pub async fn run(
    llm: &Llm,
    ctx: &Context<'_>,
    plan: &Plan,
    summary: &mut Summary,
    progress: &dyn Progress,
) -> Result<Vec<Accepted>, RunError> {
    let mut seen = Dedup::default();
    let mut accepted = Vec::new();
    let mut asked: Vec<Task> = Vec::new();
    let mut failed = FailedInARow::new(ctx.options.stop_after_llm_failed);
    let mut tasks = plan.tasks.clone();
    for round in 1.. {
        progress.round(round, &tasks);
        let verdicts = run_round(llm, ctx, &tasks, &mut failed, progress).await?;
        let figures = account(round, verdicts, &mut seen, &mut accepted, summary);
        let progressed = figures.accepted > 0;
        summary.rounds.push(figures);
        asked.append(&mut tasks);
        match next_round(ctx, plan, &asked, summary, round, progressed) {
            Ok(next) => tasks = next,
            Err(stop) => {
                summary.stopped = Some(stop);
                break;
            }
        }
    }
    Ok(accepted)
}

/// The replacement tasks of the round after `round`, or why there is none.
fn next_round(
    ctx: &Context<'_>,
    plan: &Plan,
    asked: &[Task],
    summary: &mut Summary,
    round: u32,
    progressed: bool,
) -> Result<Vec<Task>, Stop> {
    let short: Vec<(Kind, usize)> = Kind::ALL
        .iter()
        .map(|&k| (k, plan.count(k).saturating_sub(summary.kind(k).accepted)))
        .filter(|&(_, n)| n > 0)
        .collect();
    if short.is_empty() {
        return Err(Stop::Complete);
    }
    if round >= ctx.options.max_rounds.max(1) {
        return Err(Stop::MaxRounds);
    }
    let tasks = topup::replacements(ctx.chunks, &plan.eligible, asked, &short, ctx.options.seed);
    if tasks.is_empty() {
        return Err(Stop::NothingLeft);
    }
    if !progressed && !tasks.iter().any(topup::is_fresh) {
        return Err(Stop::NoProgress);
    }
    Ok(tasks)
}

/// Runs one round's tasks concurrently; the verdicts come back in task order.
async fn run_round(
    llm: &Llm,
    ctx: &Context<'_>,
    tasks: &[Task],
    failed: &mut FailedInARow,
    progress: &dyn Progress,
) -> Result<Vec<Verdict>, RunError> {
    let mut pending = stream::iter(tasks)
        .map(|t| attempt(llm, ctx, t))
        .buffer_unordered(llm.concurrency().max(1));
    let mut verdicts = Vec::with_capacity(tasks.len());
    while let Some(v) = pending.next().await {
        let v = v?;
        progress.verdict(&v);
        // Dropping `pending` on the error abandons the requests still in flight.
        failed.see(&v)?;
        verdicts.push(v);
    }
    verdicts.sort_by_key(|v| v.index);
    Ok(verdicts)
}

/// Counts a round's verdicts into the summary and keeps the accepted candidates that do not
/// repeat an earlier one (of this round or before).
fn account(
    round: u32,
    verdicts: Vec<Verdict>,
    seen: &mut Dedup,
    accepted: &mut Vec<Accepted>,
    summary: &mut Summary,
) -> RoundFigures {
    let mut figures = RoundFigures {
        round,
        tasks: verdicts.len(),
        ..RoundFigures::default()
    };
    for v in verdicts {
        let fig = summary.kind(v.kind);
        fig.llm_calls += v.calls;
        figures.llm_calls += v.calls;
        let result = v.result.and_then(|a| seen.check(&a.question).map(|()| a));
        match result {
            Ok(a) => {
                seen.add(&a.question);
                fig.accepted += 1;
                figures.accepted += 1;
                accepted.push(a);
            }
            Err(r) => *fig.rejected.entry(r.as_str().to_string()).or_default() += 1,
        }
    }
    figures
}

/// Counts candidates that end `llm_failed` in a row, in the order they finish; any other
/// verdict — a malformed reply included, since the provider did answer — ends the run of them.
struct FailedInARow {
    limit: usize,
    count: usize,
}

impl FailedInARow {
    fn new(limit: usize) -> FailedInARow {
        FailedInARow { limit, count: 0 }
    }

    fn see(&mut self, v: &Verdict) -> Result<(), RunError> {
        match &v.failure {
            None => self.count = 0,
            Some(last) => {
                self.count += 1;
                if self.limit > 0 && self.count >= self.limit {
                    return Err(RunError::ProviderDown {
                        count: self.count,
                        last: last.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// LLM calls a candidate made, and the provider's failure when it ended `llm_failed`.
#[derive(Debug, Default)]
struct Tally {
    calls: u64,
    failure: Option<String>,
}

/// One candidate from start to verdict. Errs only when the run must stop.
async fn attempt(llm: &Llm, ctx: &Context<'_>, task: &Task) -> Result<Verdict, LlmError> {
    let mut tally = Tally::default();
    let result = match task.kind {
        Kind::SingleHop => single_hop(llm, ctx, task, &mut tally).await?,
        Kind::MultiHop => multi_hop(llm, ctx, task, &mut tally).await?,
        Kind::Unanswerable => unanswerable(llm, ctx, task, &mut tally).await?,
    };
    Ok(Verdict {
        index: task.index,
        kind: task.kind,
        result,
        calls: tally.calls,
        failure: tally.failure,
    })
}

/// A candidate's result, or the error that stops the run.
type Outcome = Result<Result<Accepted, Rejection>, LlmError>;

async fn single_hop(llm: &Llm, ctx: &Context<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let chunk = &ctx.chunks[task.chunks[0]];
    let sentence = key_sentence(&chunk.text, None, task.attempt as usize);
    let req = generation_request(ctx, task, MAX_TOKENS_SINGLE)?;
    let reply = match ask::<SingleHopReply>(llm, &req.0, tally).await? {
        Ok(r) => r,
        Err(r) => return Ok(Err(r)),
    };
    let reply_time = created_of(&reply);
    let reply = reply.value;
    Ok((|| {
        let question = check_question(&reply.question)?;
        check_on_topic(&question, &[&sentence])?;
        ctx.existing.check(&question)?;
        let label = label_in(ctx, chunk, &sentence)?;
        Ok(Accepted {
            kind: Kind::SingleHop,
            question,
            answer: non_empty(&reply.answer),
            relevant: vec![label],
            topic: Some(topic_of(&chunk.doc)),
            prompt: req.1.clone(),
            from: vec![chunk.id.clone(), task.attempt.to_string()],
            created: reply_time.clone(),
        })
    })())
}

async fn multi_hop(llm: &Llm, ctx: &Context<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let (a, b) = (&ctx.chunks[task.chunks[0]], &ctx.chunks[task.chunks[1]]);
    let (sa, sb) = multi_hop_sentences(a, b, task);
    let req = generation_request(ctx, task, MAX_TOKENS_MULTI)?;
    let reply = match ask::<MultiHopReply>(llm, &req.0, tally).await? {
        Ok(r) => r,
        Err(r) => return Ok(Err(r)),
    };
    let created = created_of(&reply);
    let reply = reply.value;
    let checked = (|| {
        let question = check_question(&reply.question)?;
        check_on_topic(&question, &[&sa, &sb])?;
        ctx.existing.check(&question)?;
        let la = label_in(ctx, a, &sa)?;
        let lb = label_in(ctx, b, &sb)?;
        Ok((question, la, lb))
    })();
    let (question, la, lb) = match checked {
        Ok(x) => x,
        Err(r) => return Ok(Err(r)),
    };
    // Neither passage may answer it alone.
    for c in [a, b] {
        match judge(llm, ctx, &question, &[c], tally).await? {
            Ok(true) => return Ok(Err(Rejection::SingleChunkAnswers)),
            Ok(false) => {}
            Err(r) => return Ok(Err(r)),
        }
    }
    Ok(Ok(Accepted {
        kind: Kind::MultiHop,
        question,
        answer: non_empty(&reply.answer),
        relevant: vec![la, lb],
        topic: Some(topic_of(&a.doc)),
        prompt: req.1,
        from: vec![a.id.clone(), b.id.clone()],
        created,
    }))
}

async fn unanswerable(llm: &Llm, ctx: &Context<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let chunk = &ctx.chunks[task.chunks[0]];
    let sentence = key_sentence(&chunk.text, None, task.attempt as usize);
    let req = generation_request(ctx, task, MAX_TOKENS_UNANSWERABLE)?;
    let reply = match ask::<UnanswerableReply>(llm, &req.0, tally).await? {
        Ok(r) => r,
        Err(r) => return Ok(Err(r)),
    };
    let created = created_of(&reply);
    let reply = reply.value;
    let question = match check_question(&reply.question)
        .and_then(|q| check_on_topic(&q, &[&sentence, &chunk.text]).map(|()| q))
        .and_then(|q| ctx.existing.check(&q).map(|()| q))
    {
        Ok(q) => q,
        Err(r) => return Ok(Err(r)),
    };
    // The corpus must not answer it: ask the judge about the chunks keyword search finds.
    let hits = ctx.index.search(&question, ctx.options.judge_top_k);
    let mut passages: Vec<&Chunk> = hits.iter().map(|h| &ctx.chunks[h.doc]).collect();
    if passages.is_empty() {
        passages.push(chunk);
    }
    match judge(llm, ctx, &question, &passages, tally).await? {
        Ok(true) => return Ok(Err(Rejection::CorpusAnswers)),
        Ok(false) => {}
        Err(r) => return Ok(Err(r)),
    }
    Ok(Ok(Accepted {
        kind: Kind::Unanswerable,
        question,
        answer: None,
        relevant: Vec::new(),
        topic: Some(topic_of(&chunk.doc)),
        prompt: req.1,
        from: vec![chunk.id.clone(), task.attempt.to_string()],
        created,
    }))
}

/// Sends a request. The inner error is a lost candidate (malformed answer, retries
/// exhausted); the outer one an error that must stop the run.
async fn ask<T: DeserializeOwned + JsonSchema>(
    llm: &Llm,
    req: &ChatRequest,
    tally: &mut Tally,
) -> Result<Result<Reply<T>, Rejection>, LlmError> {
    tally.calls += 1;
    match llm.structured::<T>(req).await {
        Ok(reply) => Ok(Ok(reply)),
        Err(e) if e.is_fatal() => Err(e),
        Err(LlmError::Rejected { .. }) => Ok(Err(Rejection::MalformedReply)),
        Err(e) => {
            // Retries exhausted: the candidate is lost, and a run of these means the
            // provider is down.
            tally.failure = Some(e.to_string());
            Ok(Err(Rejection::LlmFailed))
        }
    }
}

/// Asks whether `passages` answer `question`; the inner error when the judge's answer was lost.
async fn judge(
    llm: &Llm,
    ctx: &Context<'_>,
    question: &str,
    passages: &[&Chunk],
    tally: &mut Tally,
) -> Result<Result<bool, Rejection>, LlmError> {
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

/// The generation request of a task and the id of its prompt.
fn generation_request(
    ctx: &Context<'_>,
    task: &Task,
    max_tokens: u32,
) -> Result<(ChatRequest, String), LlmError> {
    let rendered = render_generation(ctx, task, max_tokens).map_err(config_error)?;
    let id = rendered.id.clone();
    let seed = generation_seed(ctx, task);
    let tag = task.kind.as_str();
    Ok((
        request(rendered, max_tokens, ctx.options.temperature, Some(seed), tag),
        id,
    ))
}

/// The rendered generation prompt of a task, passages cut to fit the context.
pub fn render_generation(ctx: &Context<'_>, task: &Task, max_tokens: u32) -> crate::Result<Rendered> {
    let chunk = |i: usize| &ctx.chunks[task.chunks[i]];
    match task.kind {
        Kind::SingleHop | Kind::Unanswerable => {
            let name = if task.kind == Kind::SingleHop {
                "single_hop"
            } else {
                "unanswerable"
            };
            let sentence = key_sentence(&chunk(0).text, None, task.attempt as usize);
            fit(
                ctx,
                name,
                max_tokens,
                &[&chunk(0).text],
                |t| json!({"doc": chunk(0).doc, "text": t[0], "sentence": sentence, "examples": ctx.examples}),
            )
        }
        Kind::MultiHop => {
            let term = task.term.as_deref().unwrap_or_default();
            let (sa, sb) = multi_hop_sentences(chunk(0), chunk(1), task);
            fit(
                ctx,
                "multi_hop",
                max_tokens,
                &[&chunk(0).text, &chunk(1).text],
                |t| {
                    json!({
                        "doc_a": chunk(0).doc, "text_a": t[0], "sentence_a": sa,
                        "doc_b": chunk(1).doc, "text_b": t[1], "sentence_b": sb,
                        "term": term,
                    })
                },
            )
        }
    }
}

/// The sentence of a passage a question is anchored on: prose (not a heading, table or code),
/// 6 to 40 words, richest in content words; with `term`, one that mentions it when any does.
/// Block quotes (testimonials, cited text) count only when the passage has no other prose, and
/// the first line (often its heading) only when it has neither. `nth` picks the next best for
/// a repeated attempt. Small models asked to "quote a sentence" of a whole passage quote
/// anything; pointed at one, they copy it and ask about it.
pub fn key_sentence(text: &str, term: Option<&str>, nth: usize) -> String {
    let mut in_code = false;
    // (position, content words, sentence, from a block quote)
    let mut cands: Vec<(usize, usize, &str, bool)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_code = !in_code;
            continue;
        }
        if in_code || t.starts_with('#') || t.starts_with('|') {
            continue;
        }
        let quoted = t.starts_with('>');
        let t = t.trim_start_matches(['>', '-', '*', '+', ' ']);
        for s in t.split_inclusive(['.', '!', '?']) {
            let s = s.trim();
            let n = crate::text::words(s).len();
            if (6..=40).contains(&n) && !s.contains('`') {
                let terms = crate::text::content_terms(s).len();
                cands.push((cands.len(), terms, s, quoted));
            }
        }
    }
    if cands.iter().any(|c| !c.3) {
        cands.retain(|c| !c.3);
    }
    if let Some(term) = term.filter(|t| !t.is_empty()) {
        let lower = term.to_lowercase();
        if cands.iter().any(|c| c.2.to_lowercase().contains(&lower)) {
            cands.retain(|c| c.2.to_lowercase().contains(&lower));
        }
    }
    cands.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    match cands.len() {
        0 => text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_string(),
        n => cands[nth % n].2.to_string(),
    }
}

/// The key sentences of a multi-hop pair: in each passage, the best one naming the shared term.
fn multi_hop_sentences(a: &Chunk, b: &Chunk, task: &Task) -> (String, String) {
    let term = task.term.as_deref();
    (key_sentence(&a.text, term, 0), key_sentence(&b.text, term, 0))
}

/// When the case was made: the time its generation answer was journaled, so a run resumed
/// from the journal stamps a case as the uninterrupted run would have.
fn created_of<T>(reply: &Reply<T>) -> Option<String> {
    reply.journaled.map(|t| t.to_string())
}

/// Renders template `name` with its passages cut to fit the model's context.
fn fit(
    ctx: &Context<'_>,
    name: &str,
    max_tokens: u32,
    texts: &[&str],
    vars: impl Fn(&[String]) -> Value,
) -> crate::Result<Rendered> {
    super::prompts::fit(ctx.prompts, ctx.context_tokens, name, max_tokens, texts, vars)
}

fn request(r: Rendered, max_tokens: u32, temperature: f32, seed: Option<u64>, tag: &str) -> ChatRequest {
    ChatRequest {
        system: r.system,
        user: r.user,
        max_tokens,
        temperature,
        seed,
        tag: tag.to_string(),
    }
}

/// The sampling seed of a task: fixed by the run's seed, the chunks and the attempt, so the
/// same plan sends the same requests.
fn generation_seed(ctx: &Context<'_>, task: &Task) -> u64 {
    let mut parts: Vec<&str> = vec![task.kind.as_str()];
    parts.extend(task.chunks.iter().map(|&i| ctx.chunks[i].id.as_str()));
    let attempt = task.attempt.to_string();
    parts.push(&attempt);
    // Servers take seeds as signed 32-bit or unsigned 64-bit; keep it small enough for both.
    stable_hash(ctx.options.seed, &parts) % (1 << 31)
}

fn label_in(ctx: &Context<'_>, chunk: &Chunk, quote: &str) -> Result<crate::testset::Label, Rejection> {
    let doc = ctx.corpus.doc(&chunk.doc).ok_or(Rejection::QuoteNotFound)?;
    let doc_chunks: Vec<&Chunk> = ctx.chunks.iter().filter(|c| c.doc == chunk.doc).collect();
    label_for(doc, quote, chunk.start, &doc_chunks)
}

fn non_empty(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// The topic tag of a document: its file name without extension.
pub fn topic_of(doc: &str) -> String {
    let name = doc.rsplit('/').next().unwrap_or(doc);
    name.rsplit_once('.').map_or(name, |(stem, _)| stem).to_string()
}

fn config_error(e: crate::Error) -> LlmError {
    LlmError::Config(e.to_string())
}

/// Calls and tokens a plan would use, without calling anything: every generation prompt is
/// rendered and measured; judge prompts are estimated from their passages; completions are
/// counted at their `max_tokens` cap (an upper bound).
pub fn estimate(ctx: &Context<'_>, plan: &Plan) -> crate::Result<LlmFigures> {
    let mut f = LlmFigures::default();
    let judge_overhead = {
        let r = ctx
            .prompts
            .render("judge_answerable", &json!({"question": "", "passages": []}))?;
        Llm::estimate_tokens(&r.system) + Llm::estimate_tokens(&r.user) + 16
    };
    let tokens = |c: &Chunk| Llm::estimate_tokens(&c.text) as u64;
    for t in &plan.tasks {
        let max = match t.kind {
            Kind::SingleHop => MAX_TOKENS_SINGLE,
            Kind::MultiHop => MAX_TOKENS_MULTI,
            Kind::Unanswerable => MAX_TOKENS_UNANSWERABLE,
        };
        let r = render_generation(ctx, t, max)?;
        f.calls += 1;
        f.prompt_tokens += (Llm::estimate_tokens(&r.system) + Llm::estimate_tokens(&r.user)) as u64;
        f.completion_tokens += u64::from(max);
        let judged: Vec<u64> = match t.kind {
            Kind::SingleHop => vec![],
            Kind::MultiHop => t.chunks.iter().map(|&i| tokens(&ctx.chunks[i])).collect(),
            Kind::Unanswerable => {
                let avg = ctx.chunks.iter().map(tokens).sum::<u64>() / ctx.chunks.len().max(1) as u64;
                vec![avg * ctx.options.judge_top_k as u64]
            }
        };
        for passage_tokens in judged {
            f.calls += 1;
            f.prompt_tokens += judge_overhead as u64 + passage_tokens;
            f.completion_tokens += u64::from(judge::MAX_TOKENS);
        }
    }
    Ok(f)
}

/// LLM requests a run of `plan` makes at most over `max_rounds` rounds: every round asks at
/// most the planned number of tasks of each kind, each with every check, so the bound is
/// `max_rounds` times one pass (re-asks of malformed answers come on top).
pub fn worst_case_calls(plan: &Plan, max_rounds: u32) -> u64 {
    let one_pass: u64 = plan.tasks.iter().map(|t| calls_per_task(t.kind)).sum();
    one_pass * u64::from(max_rounds.max(1))
}

/// LLM calls one task of `kind` makes when every check runs: generation, plus one judge call
/// per passage for multi-hop and one for unanswerable.
pub fn calls_per_task(kind: Kind) -> u64 {
    match kind {
        Kind::SingleHop => 1,
        Kind::MultiHop => 3,
        Kind::Unanswerable => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_sentence_is_prose_rich_in_content_and_follows_the_term() {
        let text = "# Retention\n\nKeep it.\n\n```\ntide prune --keep-daily 7 --keep-weekly 4 now\n```\n\
                    Snapshots older than the policy allows are forgotten at the next prune run. \
                    The Kestrel agent uploads new snapshots to the primary repository every night.\n";
        assert!(key_sentence(text, None, 0).starts_with("The Kestrel agent"));
        assert_eq!(
            key_sentence(text, Some("prune"), 0),
            "Snapshots older than the policy allows are forgotten at the next prune run."
        );
        assert_ne!(key_sentence(text, None, 1), key_sentence(text, None, 0));
    }

    #[test]
    fn a_passage_of_block_quotes_is_anchored_on_a_quote_not_its_heading() {
        let text = "## What customers say\n\n> \"We replaced three backup scripts with one Tidepool server.\"\n\
                    > — Jonas, IT lead\n";
        let s = key_sentence(text, None, 0);
        assert_eq!(s, "\"We replaced three backup scripts with one Tidepool server.");
        assert!(text.contains(&s), "the quote is found verbatim in the passage");
        // Other prose wins over a quote.
        let mixed = format!("{text}\nThe Team plan covers twelve agents and one server.\n");
        assert_eq!(
            key_sentence(&mixed, None, 0),
            "The Team plan covers twelve agents and one server."
        );
    }

    #[test]
    fn topic_is_the_file_stem() {
        assert_eq!(topic_of("guides/restore.md"), "restore");
        assert_eq!(topic_of("README"), "README");
    }
}
