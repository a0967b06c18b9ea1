//! Lookup questions: one call asks for a question on each of up to [`LOOKUPS_PER_CALL`] facts of a chunk. The prompt shows the
//! facts and where they stand ("Title > Section"), not the whole passage: a small model asked
//! about a passage writes about the passage; asked for the question a fact answers, it writes
//! that question, and the prompt is a third as long.
//!
//! The fact is the case's quote, located exactly in the document; the model's words are only the
//! question and the answer, and those are checked (form, no reference to what it was shown, the
//! answer not given away, not a copy of the fact, on topic, not a repeat).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::chunk::Chunk;
use crate::generate::ask::{self, created_of, label_in, non_empty, topic_of};
use crate::generate::candidate::{Accepted, Kind, Shape, Tally, Task};
use crate::generate::context::GenerateContext;
use crate::generate::facts::Fact;
use crate::generate::kind::Outcome;
use crate::generate::kind::{CallEstimate, KindInfo, Layout};
use crate::generate::pairs::Pairing;
use crate::generate::verify::{
    Check, Screen, check_not_example, check_on_topic, check_query, check_question, check_wording,
};
use crate::llm::{ChatRequest, Llm};
use crate::prompts::Rendered;
use crate::style;
use crate::workspace::Evidence;

/// The kind's row: two questions a call, on any chunk worth asking about.
pub const INFO: KindInfo = KindInfo {
    kind: Kind::Lookup,
    summary: "one fact of one passage, asked as a user would",
    default_share: 0.3,
    per_call: LOOKUPS_PER_CALL,
    layout: Layout::Chunk { targets: any_chunk },
    // The call, and the answers judge on each of its questions.
    calls_per_task: 1 + LOOKUPS_PER_CALL as u64,
    attempt: |llm, ctx, task, tally| Box::pin(attempt(llm, ctx, task, tally)),
    estimate,
};

/// Lookup questions asked in one call, each on another fact of the same chunk. A local model
/// spends most of a call reading the prompt; two questions per prompt halve that, and more
/// would spend the plan on fewer chunks.
pub const LOOKUPS_PER_CALL: u32 = 2;

/// Every chunk worth asking about has facts a lookup can ask.
fn any_chunk(_: &[Chunk], eligible: &[usize], _: &Pairing) -> Vec<usize> {
    eligible.to_vec()
}

/// The one call of a task; none when its chunk has no fact (it is rejected without a call).
fn estimate(ctx: &GenerateContext<'_>, task: &Task) -> crate::Result<Vec<CallEstimate>> {
    let facts = facts_of(ctx, task);
    if facts.is_empty() {
        return Ok(Vec::new());
    }
    let (r, max) = render(ctx, task, &facts)?;
    let mut calls = vec![CallEstimate::of(&r.system, &r.user, max)];
    for f in &facts {
        calls.push(CallEstimate::answers_judge(ctx, &f.quote)?);
    }
    Ok(calls)
}

/// Largest reply: per question a ~25-token answer, a ~30-token question and a ~15-token search
/// query, with the JSON around them and room to spare so a finished reply is never cut off.
pub const MAX_TOKENS_PER_QUESTION: u32 = 110;

/// The reply for one fact: its question as a user asks it, the same need as search keywords,
/// and the short answer.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct OneLookup {
    /// The question a user would ask that fact 1 answers.
    pub question_1: String,
    /// The same need as search-box keywords.
    pub search_1: String,
    /// Its short answer.
    pub answer_1: String,
}

/// The reply for two facts. Named fields, in order, keep each question with its fact: asked
/// for a list, a small model answered the facts out of order. The question comes before its
/// answer: asked for the answer first, the model picked the fact's subject as "the answer" and
/// asked a question containing it.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TwoLookups {
    /// The question for fact 1.
    pub question_1: String,
    /// Its search keywords.
    pub search_1: String,
    /// Its short answer.
    pub answer_1: String,
    /// The question for fact 2.
    pub question_2: String,
    /// Its search keywords.
    pub search_2: String,
    /// Its short answer.
    pub answer_2: String,
}

/// What the model wrote for one fact.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The question, as a user asks it.
    pub question: String,
    /// The same need as search keywords.
    pub search: String,
    /// The short answer.
    pub answer: String,
}

impl Written {
    /// The same with another question.
    pub fn with_question(&self, question: String) -> Written {
        Written {
            question,
            ..self.clone()
        }
    }

    /// Checks the answer against the question the model wrote it for, even when that question
    /// is not the one written (its keywords stand in for it after it copied its fact): "rust
    /// resource management" → "RAII" reads fine alone, but the model asked "… in Rust?" of a
    /// label that names the term for C++.
    pub fn answers_its_own_question(
        &self,
        label: &crate::testset::Label,
        screen: &Screen<'_>,
    ) -> Result<(), Check> {
        match non_empty(&self.answer) {
            Some(answer) => crate::generate::verify::check_answer(
                &self.question,
                &answer,
                std::slice::from_ref(label),
                screen,
            ),
            None => Ok(()),
        }
    }

    /// The wordings that pass: the question in question form, the search keywords in query
    /// form, each then through `checks`. The first that passes is the case's question, the
    /// other an alternative wording; when none passes, the question's reason, and when only
    /// the keywords pass, the question's reason too unless `keywords_alone`. A question that
    /// asks how two things differ turns both away: the keywords ask the same of one fact.
    pub fn checked(
        &self,
        screen: &Screen<'_>,
        keywords_alone: bool,
        checks: impl Fn(&str) -> Result<(), Check>,
    ) -> Result<(String, Vec<String>), Check> {
        let english = screen.language == crate::lang::Language::ENGLISH;
        let differ = crate::generate::checks::asks_comparison::asks_how_two_differ(&self.question);
        screen.when(english && differ, Check::AsksComparison)?;
        let question = check_question(&self.question, screen).and_then(|q| checks(&q).map(|()| q));
        let search = check_query(&self.search, screen)
            .and_then(|q| checks(&q).map(|()| q))
            .and_then(|q| {
                screen.when(!keeps_codes(&self.question, &q), Check::KeywordWording)?;
                Ok(q)
            });
        match (question, search) {
            (Ok(q), Ok(s)) if s != q => Ok((q, vec![s])),
            (Ok(q), _) => Ok((q, Vec::new())),
            (Err(_), Ok(s)) if keywords_alone => Ok((s, Vec::new())),
            (Err(e), _) => Err(e),
        }
    }
}

/// Whether `search` keeps every code and number `question` names ("rust s1 validity" drops the `s2` of
/// "What does Rust consider s1 to be after the line let s2 = s1;?"): a user pastes codes, and
/// the keywords without one ask something vaguer than the answer is to.
fn keeps_codes(question: &str, search: &str) -> bool {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(crate::text::fold_char)
            .collect()
    };
    let kept = squash(search);
    crate::text::spans(question)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '_'))
        .filter(|w| {
            crate::wording::answer::is_code(w)
                || w.chars().any(|c| c.is_ascii_digit())
                || crate::generate::names::identifiers(w).contains(&w.to_string())
        })
        .all(|w| kept.contains(&squash(w)))
}

/// The facts a task asks about: the chunk's best facts, the next ones for a later attempt.
pub fn facts_of(ctx: &GenerateContext<'_>, task: &Task) -> Vec<Fact> {
    let all = ctx.facts(&ctx.chunks[task.chunks[0]]);
    let want = (task.questions.max(1) as usize).min(all.len());
    let first = task.attempt as usize * task.questions.max(1) as usize;
    (0..want).map(|i| all[(first + i) % all.len()].clone()).collect()
}

/// Whether a wording asks for its fact rather than a topic: a question does; bare keywords
/// do when keyword search with them (`rank` gives their chunk's rank) finds their own chunk
/// within [`KEYWORDS_RANK`].
fn specific(wording: &str, language: crate::lang::Language, rank: impl Fn(&str) -> Option<usize>) -> bool {
    !style::is_keywords(wording, language)
        || rank(wording).is_some_and(|r| r <= crate::generate::checks::keyword_wording::KEYWORDS_RANK)
}

/// The rendered prompt of a task and its `max_tokens`.
pub fn render(ctx: &GenerateContext<'_>, task: &Task, facts: &[Fact]) -> crate::Result<(Rendered, u32)> {
    render_about(ctx, task, facts, None)
}

/// [`render`], with the thing the (one) question must ask about.
pub fn render_about(
    ctx: &GenerateContext<'_>,
    task: &Task,
    facts: &[Fact],
    about: Option<&str>,
) -> crate::Result<(Rendered, u32)> {
    let chunk = &ctx.chunks[task.chunks[0]];
    let topic = facts
        .first()
        .map_or_else(|| ctx.topic_at(chunk, 0), |f| ctx.topic(chunk, f));
    let max_tokens = MAX_TOKENS_PER_QUESTION * facts.len().max(1) as u32;
    let listed: Vec<serde_json::Value> = facts
        .iter()
        .map(|f| json!({"text": f.shown, "context": f.context, "about": about}))
        .collect();
    let rendered = ask::render(
        ctx,
        "lookup",
        max_tokens,
        &[],
        |_| json!({"topic": topic, "facts": listed, "examples": ctx.examples, "language": ctx.language_var(task.chunks[0])}),
    )?;
    Ok((rendered, max_tokens))
}

/// Asks for the task's questions and checks each.
pub async fn attempt(llm: &Llm, ctx: &GenerateContext<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let facts = facts_of(ctx, task);
    if facts.is_empty() {
        return Ok(vec![Err(Check::NoFact.into())]);
    }
    let (rendered, max_tokens) = render(ctx, task, &facts).map_err(ask::config_error)?;
    let prompt = rendered.id.clone();
    let req = ask::request(ctx, task, rendered, max_tokens);
    let (written, created) = match questions(llm, &req, facts.len(), tally).await? {
        Ok(x) => x,
        Err(r) => return Ok(vec![Err(r.into()); facts.len()]),
    };
    let chunk = &ctx.chunks[task.chunks[0]];
    let language = ctx.language_of(task.chunks[0]);
    let screen = ctx.screen(Kind::Lookup, language);
    let topic = ctx.topic(chunk, &facts[0]);
    let results = facts
        .iter()
        .zip(written)
        .map(|(fact, w)| {
            let draft = || {
                let label = label_in(ctx, chunk, &fact.quote).ok();
                Accepted::draft(
                    Kind::Lookup,
                    &w.question,
                    Some(&w.answer),
                    label.into_iter().collect(),
                    language,
                )
            };
            let written = || -> Result<Accepted, Check> {
                let sources = [fact.shown.as_str(), fact.context.as_deref().unwrap_or("")];
                let checks = |q: &str| -> Result<(), Check> {
                    check_wording(q, &w.answer, &fact.shown, &screen)?;
                    let example = check_not_example(q, &format!("{topic} {}", fact.shown)).is_err();
                    screen.when(example || ctx.names_an_example_file(q), Check::CopiesExample)?;
                    screen.when(check_on_topic(q, &sources, language).is_err(), Check::OffTopic)?;
                    ctx.existing.check(q, &screen)
                };
                let (question, phrasings) = w.checked(&screen, ctx.options.keywords_alone, checks)?;
                let label = label_in(ctx, chunk, &fact.quote)?;
                w.answers_its_own_question(&label, &screen)?;
                // Bare keywords are the page's own words, so they must find their own chunk among
                // the first few: "black formatter" (its chunk 24th), which restyle chose to make
                // the set harder, asks for a topic, not this fact. Harder must not mean vaguer.
                let rank = |q: &str| {
                    ctx.chunks
                        .difficulty(q, language, std::slice::from_ref(&label), Evidence::Any)
                        .map(|d| d.0)
                };
                let vague_too = !screen.runs(Check::KeywordWording);
                let mut wordings: Vec<String> = std::iter::once(question)
                    .chain(phrasings)
                    .filter(|q| vague_too || specific(q, language, rank))
                    .collect();
                if wordings.is_empty() {
                    return Err(Check::KeywordWording);
                }
                let question = wordings.remove(0);
                let phrasings = wordings;
                Ok(Accepted {
                    kind: Kind::Lookup,
                    question,
                    phrasings,
                    answer: non_empty(&w.answer),
                    relevant: vec![label],
                    topic: Some(topic_of(&chunk.doc)),
                    prompt: prompt.clone(),
                    from: vec![chunk.id.clone(), task.attempt.to_string(), fact.start.to_string()],
                    created: created.clone(),
                    shape: Shape::Plain,
                    language,
                    difficulty: None,
                    hints: Vec::new(),
                })
            };
            written().map_err(|c| c.of(draft()))
        })
        .collect();
    Ok(results)
}

/// What a reply for `n` facts wrote for each, and when it was journaled.
pub async fn questions(
    llm: &Llm,
    req: &ChatRequest,
    n: usize,
    tally: &mut Tally,
) -> Result<Result<(Vec<Written>, Option<String>), Check>, crate::llm::LlmError> {
    let written = |question: String, search: String, answer: String| Written {
        question,
        search,
        answer,
    };
    Ok(if n == 1 {
        ask::ask::<OneLookup>(llm, req, tally).await?.map(|r| {
            let created = created_of(&r);
            let v = r.value;
            (vec![written(v.question_1, v.search_1, v.answer_1)], created)
        })
    } else {
        ask::ask::<TwoLookups>(llm, req, tally).await?.map(|r| {
            let created = created_of(&r);
            let v = r.value;
            (
                vec![
                    written(v.question_1, v.search_1, v.answer_1),
                    written(v.question_2, v.search_2, v.answer_2),
                ],
                created,
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lookup's screen with every check on.
    fn screen(language: crate::lang::Language) -> Screen<'static> {
        Screen::new(Kind::Lookup, language, crate::generate::checks::Skip::none())
    }

    #[test]
    fn keywords_stand_alone_only_where_the_target_has_keyword_queries() {
        // Click's docs: the question names the section, the keywords are all that is left.
        let w = Written {
            question: "What does the quickstart section say about setuptools integration?".into(),
            search: "quickstart setuptools integration".into(),
            answer: "read the setuptools integration chapter first".into(),
        };
        let en = crate::lang::Language::ENGLISH;
        let meta = |q: &str| {
            if q.contains("section") {
                Err(Check::PlacesInPage)
            } else {
                Ok(())
            }
        };
        assert_eq!(
            w.checked(&screen(en), true, meta),
            Ok(("quickstart setuptools integration".to_string(), Vec::new()))
        );
        assert_eq!(w.checked(&screen(en), false, meta), Err(Check::PlacesInPage));
    }

    #[test]
    fn keywords_that_drop_a_code_of_the_question_are_no_wording_of_it() {
        let w = Written {
            question: "What does Rust consider s1 to be after the line let s2 = s1;?".into(),
            search: "rust s1 validity".into(),
            answer: "no longer valid".into(),
        };
        let (question, others) = w
            .checked(&screen(crate::lang::Language::ENGLISH), true, |_| Ok(()))
            .unwrap();
        assert_eq!(question, w.question);
        assert!(others.is_empty());
        assert!(keeps_codes("What does TP-409 mean?", "tp-409 meaning"));
        assert!(!keeps_codes(
            "How long does a nightly backup of 40 GB take?",
            "nightly backup duration"
        ));
        assert!(keeps_codes(
            "How long are snapshots kept on the free plan?",
            "free plan retention"
        ));
        assert!(!keeps_codes(
            "What does `storage.min_free_space` do?",
            "storage free space"
        ));
    }

    #[test]
    fn bare_keywords_that_rank_their_chunk_low_ask_for_a_topic() {
        let en = crate::lang::Language::ENGLISH;
        let ranks = |q: &str| match q {
            "black formatter" => Some(24),
            "blackd benefits" => Some(1),
            "what does the black formatter do with my editor?" => Some(24),
            _ => None,
        };
        assert!(!specific("black formatter", en, ranks));
        assert!(specific("blackd benefits", en, ranks));
        assert!(
            specific("what does the black formatter do with my editor?", en, ranks),
            "a question"
        );
        assert!(
            !specific("rust point x type", en, ranks),
            "no rank: no chunk of its own"
        );
    }

    #[test]
    fn the_answer_is_checked_against_the_question_it_was_written_for() {
        let quote = "Note: In C++, this pattern of deallocating resources at the end of an item’s lifetime is sometimes called Resource Acquisition Is Initialization (RAII).";
        let label = crate::testset::Label::spanning("ch04.html", 0, quote);
        let w = Written {
            question: "What is the term used to describe deallocating resources at the end of an item's lifetime in Rust?".into(),
            search: "rust resource management".into(),
            answer: "RAII".into(),
        };
        let en = crate::lang::Language::ENGLISH;
        assert_eq!(
            w.answers_its_own_question(&label, &screen(en)),
            Err(Check::AnswerOffQuestion)
        );
        let cpp =
            w.with_question("What does C++ call deallocating resources at the end of a lifetime?".into());
        assert_eq!(cpp.answers_its_own_question(&label, &screen(en)), Ok(()));
    }

    #[test]
    fn a_one_fact_question_asking_how_two_things_differ_carries_a_review_hint() {
        let en = crate::lang::Language::ENGLISH;
        // attrs and the rust book, as the model wrote them from one fact each.
        for question in [
            "what is the difference between frozen and unfrozen dict classes",
            "how does frozen dict classes compare to unfrozen slotted classes in terms of performance",
            "What is the difference between a mutable string and a fixed-size string in Rust?",
        ] {
            let w = Written {
                question: question.into(),
                search: "attrs frozen dict performance".into(),
                answer: "frozen classes barely impact performance".into(),
            };
            // Measured on people-written lookups, RS216 turned away more right cases than wrong
            // ones (real queries ask "difference between a hotel and motel"): a hint now.
            assert!(w.checked(&screen(en), true, |_| Ok(())).is_ok(), "{question}");
            let hint = Check::AsksComparison.info();
            assert_eq!(hint.action, crate::generate::checks::Action::Hint);
            assert!((hint.question.unwrap())(question, en).is_some(), "{question}");
        }
        let w = Written {
            question: "How much slower is creating a frozen class?".into(),
            search: "attrs frozen class speed".into(),
            answer: "barely".into(),
        };
        assert!(w.checked(&screen(en), true, |_| Ok(())).is_ok());
    }
}
