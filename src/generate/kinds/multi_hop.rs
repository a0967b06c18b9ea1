//! Multi-hop questions: two chunks of different documents that share a rare term, one fact of
//! each that names it, and a question that needs both. A small model does not invent a bridge
//! between two passages when asked to, so the construction is laid out for it: what fact A says
//! about the term, the question that asks it; the same for fact B; then one question asking both
//! things at once.
//!
//! That construction can be checked without a judge: each part of the answer must be said by its
//! own fact and not by the other (otherwise one passage would do), and the joined question must
//! ask for something of each fact, not only the term they share.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::chunk::Chunk;
use crate::generate::ask::{self, created_of, label_in, topic_of};
use crate::generate::candidate::{Accepted, Kind, Outcome, Tally, Task};
use crate::generate::context::GenerateContext;
use crate::generate::facts::Fact;
use crate::generate::kind::{CallEstimate, KindInfo, Shape};
use crate::generate::pairs::find_pairs;
use crate::generate::verify::{Rejection, check_not_example, check_question, check_wording};
use crate::lang::Language;
use crate::llm::Llm;
use crate::prompts::Rendered;

/// Largest reply: two short answers, two questions and the joined question.
pub const MAX_TOKENS: u32 = 240;

/// The kind's row: one question a call, on two chunks of different documents that share a
/// rare term, checked without a judge.
pub const INFO: KindInfo = KindInfo {
    kind: Kind::MultiHop,
    summary: "needs two passages of different documents",
    default_share: 0.2,
    per_call: 1,
    shape: Shape::Pair {
        pairs: find_pairs,
        needs: "pair(s) of documents share a rare term",
    },
    calls_per_task: 1,
    attempt: |llm, ctx, task, tally| Box::pin(attempt(llm, ctx, task, tally)),
    estimate,
};

/// The one call of a task; none when the pair's facts say the same (rejected without a call).
fn estimate(ctx: &GenerateContext<'_>, task: &Task) -> crate::Result<Vec<CallEstimate>> {
    let Some(facts) = facts_of(ctx, task) else {
        return Ok(Vec::new());
    };
    let r = render(ctx, task, &facts)?;
    Ok(vec![CallEstimate::of(&r.system, &r.user, MAX_TOKENS)])
}

/// What the model writes for a multi-hop case: each fact's question and answer, then the
/// question that needs both.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MultiHopReply {
    /// The question fact A answers about the shared term.
    #[schemars(length(max = 200))]
    pub question_a: String,
    /// Its answer.
    #[schemars(length(max = 160))]
    pub answer_a: String,
    /// The question fact B answers about the shared term.
    #[schemars(length(max = 200))]
    pub question_b: String,
    /// Its answer.
    #[schemars(length(max = 160))]
    pub answer_b: String,
    /// One question needing both.
    #[schemars(length(max = 250))]
    pub question: String,
}

/// The facts of `chunk` naming the term, else all of them, best first.
fn naming(ctx: &GenerateContext<'_>, chunk: &Chunk, term: &str) -> Vec<Fact> {
    let all = ctx.facts(chunk);
    let lower = term.to_lowercase();
    let naming: Vec<Fact> = all
        .iter()
        .filter(|f| f.shown.to_lowercase().contains(&lower))
        .cloned()
        .collect();
    if naming.is_empty() { all } else { naming }
}

/// The two facts of a task: A's best fact naming the term (the next for a later attempt), and
/// of B's, the one that says most that A does not. Two facts saying the same thing (the same
/// setting documented on two pages) make no two-part question; none is returned for them.
pub fn facts_of(ctx: &GenerateContext<'_>, task: &Task) -> Option<(Fact, Fact)> {
    let term = task.term.as_deref().unwrap_or_default();
    let a_all = naming(ctx, &ctx.chunks[task.chunks[0]], term);
    let b_all = naming(ctx, &ctx.chunks[task.chunks[1]], term);
    let a = a_all.get(task.attempt as usize % a_all.len().max(1))?.clone();
    let words = ctx.language_of(task.chunks[0]).analyzer();
    let terms = |f: &Fact| {
        words
            .content_terms(&f.shown)
            .into_iter()
            .collect::<HashSet<String>>()
    };
    let ta = terms(&a);
    let b = b_all
        .iter()
        .map(|f| (terms(f).difference(&ta).count(), f))
        .max_by_key(|(new, _)| *new)?;
    let tb = terms(b.1);
    let shared = ta.intersection(&tb).count();
    (shared * 2 < ta.len().min(tb.len())).then(|| (a, b.1.clone()))
}

/// The rendered prompt of a task.
pub fn render(ctx: &GenerateContext<'_>, task: &Task, facts: &(Fact, Fact)) -> crate::Result<Rendered> {
    let (ca, cb) = (&ctx.chunks[task.chunks[0]], &ctx.chunks[task.chunks[1]]);
    let (fa, fb) = facts;
    ask::render(ctx, "multi_hop", MAX_TOKENS, &[], |_| {
        json!({
            "topic_a": ctx.topic(ca, fa), "fact_a": fa.shown,
            "topic_b": ctx.topic(cb, fb), "fact_b": fb.shown,
            "term": task.term.as_deref().unwrap_or_default(),
            "language": ctx.language_var(task.chunks[0]),
        })
    })
}

/// Asks for the task's question and checks it.
pub async fn attempt(llm: &Llm, ctx: &GenerateContext<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let Some(facts) = facts_of(ctx, task) else {
        return Ok(vec![Err(Rejection::SameFacts)]);
    };
    let rendered = render(ctx, task, &facts).map_err(ask::config_error)?;
    let prompt = rendered.id.clone();
    let req = ask::request(ctx, task, rendered, MAX_TOKENS);
    let reply = match ask::ask::<MultiHopReply>(llm, &req, tally).await? {
        Ok(r) => r,
        Err(r) => return Ok(vec![Err(r)]),
    };
    let created = created_of(&reply);
    let r = reply.value;
    let (fa, fb) = &facts;
    let (ca, cb) = (&ctx.chunks[task.chunks[0]], &ctx.chunks[task.chunks[1]]);
    let checked = (|| {
        let language = ctx.language_of(task.chunks[0]);
        let question = check_question(&r.question, language)?;
        check_wording(&question, &r.answer_a, &fa.shown, language)?;
        check_wording(&question, &r.answer_b, &fb.shown, language)?;
        check_parts(
            &question,
            &r.answer_a,
            &r.answer_b,
            &fa.shown,
            &fb.shown,
            language,
        )?;
        check_not_example(&question, &format!("{} {}", fa.shown, fb.shown))?;
        ctx.existing.check(&question)?;
        Ok(Accepted {
            kind: Kind::MultiHop,
            question,
            answer: Some(format!("{}; {}", r.answer_a.trim(), r.answer_b.trim())),
            relevant: vec![label_in(ctx, ca, &fa.quote)?, label_in(ctx, cb, &fb.quote)?],
            topic: Some(topic_of(&ca.doc)),
            prompt,
            from: vec![ca.id.clone(), cb.id.clone()],
            created,
        })
    })();
    Ok(vec![checked])
}

/// The checks of the construction: each part of the answer is said by its own fact (most of
/// its words are in it), neither is
/// said by the other fact alone, and the question asks for something of each fact beyond the
/// words the two share.
pub fn check_parts(
    question: &str,
    answer_a: &str,
    answer_b: &str,
    fact_a: &str,
    fact_b: &str,
    language: Language,
) -> Result<(), Rejection> {
    let words = language.analyzer();
    let set = |t: &str| words.content_terms(t).into_iter().collect::<HashSet<String>>();
    let (ta, tb, tq) = (set(fact_a), set(fact_b), set(question));
    let (aa, ab) = (set(answer_a), set(answer_b));
    let said = |part: &HashSet<String>, by: &HashSet<String>| {
        !part.is_empty() && part.iter().filter(|t| by.contains(*t)).count() * 2 > part.len()
    };
    // An answer of stop words only ("none", "yes") must stand in its fact as written.
    let in_text = |answer: &str, fact: &str| {
        fact.to_lowercase()
            .contains(answer.trim().to_lowercase().as_str())
    };
    let supported = |terms: &HashSet<String>, answer: &str, by: &HashSet<String>, fact: &str| {
        if terms.is_empty() {
            !answer.trim().is_empty() && in_text(answer, fact)
        } else {
            said(terms, by)
        }
    };
    if !supported(&aa, answer_a, &ta, fact_a) || !supported(&ab, answer_b, &tb, fact_b) {
        return Err(Rejection::UnsupportedAnswer);
    }
    // A part whose every word the other fact also says: that fact alone answers the question.
    if (!aa.is_empty() && aa.is_subset(&tb)) || (!ab.is_empty() && ab.is_subset(&ta)) {
        return Err(Rejection::SingleChunkAnswers);
    }
    let only = |x: &HashSet<String>, y: &HashSet<String>| x.difference(y).any(|t| tq.contains(t));
    if !only(&ta, &tb) || !only(&tb, &ta) {
        return Err(Rejection::AsksOnePart);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "When the limit is exceeded the server answers 429 with error code TP-429.";
    const B: &str = "The API counts requests per token per minute, 600 at most.";

    #[test]
    fn a_question_needing_both_facts_passes() {
        let q = "Which error code does the server return, and how many requests per minute may a token make?";
        assert_eq!(
            check_parts(q, "TP-429", "600 requests", A, B, Language::ENGLISH),
            Ok(())
        );
    }

    #[test]
    fn parts_must_come_from_their_own_fact_and_not_the_other() {
        let q = "Which error code does the server return, and how many requests per minute may a token make?";
        assert_eq!(
            check_parts(q, "TP-500", "600 requests", A, B, Language::ENGLISH),
            Err(Rejection::UnsupportedAnswer)
        );
        // B's part is said by A too: A alone answers.
        let b2 = "The server answers 429 when the limit is exceeded per token.";
        assert_eq!(
            check_parts(q, "TP-429", "limit exceeded", A, b2, Language::ENGLISH),
            Err(Rejection::SingleChunkAnswers)
        );
    }

    #[test]
    fn a_question_asking_only_one_fact_is_turned_away() {
        let q = "Which error code does the server return when the limit is exceeded?";
        assert_eq!(
            check_parts(q, "TP-429", "600 requests", A, B, Language::ENGLISH),
            Err(Rejection::AsksOnePart)
        );
    }
}
