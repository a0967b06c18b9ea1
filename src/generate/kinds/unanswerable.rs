//! Unanswerable questions, built so that they are unanswerable by design and checkably so: a
//! fact of the corpus names a specific thing (a product, platform, plan, error code, option);
//! the model lists things of the same kind (and, for a code, look-alikes are made: a part
//! swapped for its antonym, a number changed); the first the corpus never mentions is the
//! neighbour. The model writes the fact's own question about the thing, as a lookup (asked
//! first: most failures are there), and the neighbour takes the thing's place in it: "Why does
//! my script fail with TP-401?" becomes "Why does my script fail with TP-402?", a question on
//! the corpus's topic that it cannot answer.
//!
//! Checks: the thing is what the question asks about, not what it asks for (its answer does not
//! name it: swapped, "What encoding are strings in UTF-8?" would answer itself); the neighbour
//! is not the thing, occurs nowhere in the corpus, and the question names it (and not the
//! original); then, where the answerability judge is calibrated for the model, the judge shown
//! the passages keyword search finds for the question must find no answer there. Asked instead to "write a question the passage does not answer", or to
//! invent a neighbour and its question in one go, small models wrote questions the corpus
//! answers, vague ones, or "neighbours" made of the prompt's words; asked for the question of
//! the changed fact, the 1.5B model left the neighbour out half the time.

use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::lookup::{self, OneLookup};
use crate::chunk::Chunk;
use crate::generate::ask::{self, created_of, label_in, topic_of};
use crate::generate::bridges;
use crate::generate::candidate::{Accepted, Kind, Shape, Tally, Task};
use crate::generate::context::GenerateContext;
use crate::generate::facts::Fact;
use crate::generate::kind::Outcome;
use crate::generate::kind::{CallEstimate, KindInfo, Layout};
use crate::generate::names::{lower_case_words, one_thing, shape, swap, swappable, without_kind_after};
use crate::generate::pairs::Pairing;
use crate::generate::verify::{
    Check, Screen, check_answer, check_not_example, check_on_topic, check_query, check_question,
    copied_row_asked, is_only, says, without_heading_tail,
};
use crate::judge;
use crate::lang::lists::{english, english_pairs};
use crate::lang::{Language, List, Pairs};
use crate::llm::{ChatRequest, Llm};
use crate::prompts::Rendered;
use crate::testset::Label;
use crate::text::{bare, contains_folded, fold, spans};

/// Largest reply of the neighbour step: five names of a few words.
pub const MAX_TOKENS: u32 = 96;

/// The kind's row: three calls a question (the neighbours, the question, the judge).
pub const INFO: KindInfo = KindInfo {
    kind: Kind::Unanswerable,
    summary: "on the corpus's topics, but the corpus does not hold the answer",
    default_share: 0.2,
    per_call: 1,
    layout: Layout::Chunk {
        targets: naming_chunks,
    },
    // The fact's question, the neighbours (asked again where they are the thing alone) and
    // the answerable judge.
    calls_per_task: 4,
    attempt: |llm, ctx, task, tally| Box::pin(attempt(llm, ctx, task, tally)),
    estimate,
};

/// The chunks with a fact that names a specific thing as written — an identifier ("TP-401",
/// `storage.min_free_space`) or a name of several words — so that a task is not planned where
/// [`fact_of`] finds nothing to swap (it makes no call and costs the kind a slot of its round;
/// on attrs' docs a third of the attempts were such chunks while the whole chunk text was
/// read); all of them when none does. A name counts as [`one_thing`] has it (as
/// bridges do); the corpus's subject is left to [`fact_of`] (telling it costs a pass over every
/// document per name).
fn naming_chunks(chunks: &[Chunk], eligible: &[usize], _: &Pairing) -> Vec<usize> {
    let lower_words = lower_case_words(chunks);
    let names_one = |i: usize| {
        crate::generate::facts::of_chunk(chunks, i)
            .iter()
            .any(|f| things_named(&f.shown).iter().any(|n| one_thing(n, &lower_words)))
    };
    let naming: Vec<usize> = eligible.iter().copied().filter(|&i| names_one(i)).collect();
    if naming.is_empty() {
        eligible.to_vec()
    } else {
        naming
    }
}

/// The neighbours (twice: asked again where the first list is the thing alone), the fact's own
/// question about the thing (a one-fact lookup's prompt) and the judge over the top chunks
/// (estimated from the average chunk); none when no fact of the chunk names anything.
fn estimate(ctx: &GenerateContext<'_>, task: &Task) -> crate::Result<Vec<CallEstimate>> {
    let Some((fact, term)) = fact_of(ctx, task) else {
        return Ok(Vec::new());
    };
    let r = render(ctx, task, &fact, &term)?;
    let neighbours = CallEstimate::of(&r.system, &r.user, MAX_TOKENS);
    let one = Task {
        questions: 1,
        ..task.clone()
    };
    let (q, max) = lookup::render_about(ctx, &one, std::slice::from_ref(&fact), Some(&term))?;
    let question = CallEstimate::of(&q.system, &q.user, max);
    let judge_prompt = ctx.prompts.render(
        "judge_answerable",
        &serde_json::json!({"question": "", "passages": []}),
    )?;
    let avg = ctx
        .chunks
        .iter()
        .map(|c| crate::llm::Llm::estimate_tokens(&c.text) as u64)
        .sum::<u64>()
        / ctx.chunks.len().max(1) as u64;
    let judge = CallEstimate {
        prompt_tokens: CallEstimate::of(&judge_prompt.system, &judge_prompt.user, 0).prompt_tokens
            + 16
            + avg * ctx.options.judge_top_k as u64,
        max_tokens: judge::MAX_TOKENS,
    };
    Ok(vec![neighbours, neighbours, question, judge])
}

/// Things of the same kind as the fact's term.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Neighbours {
    /// Up to five of them: the first the corpus never names is kept, and a corpus names the
    /// obvious ones (the other plans, the other backends) more often than not.
    #[schemars(length(min = 1, max = 5))]
    pub others: Vec<Neighbour>,
}

/// One neighbour's name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Neighbour(#[schemars(length(max = 60))] pub String);

/// The thing of a fact a neighbour can stand in for: a name (capitalised words not opening the
/// sentence, "Amazon S3", "PyCharm") or else an identifier in code marks; the one the corpus uses
/// least, since a rare name is a specific one. `doc_freq` counts the chunks holding a term of
/// `language` (the fact's: the index stores each chunk's terms in its own language).
pub fn named_term(fact: &str, language: Language, doc_freq: impl Fn(&str) -> usize) -> Option<String> {
    let words = language.analyzer();
    let freq = |n: &String| -> usize {
        words
            .content_terms(n)
            .iter()
            .map(|t| doc_freq(t))
            .max()
            .unwrap_or(0)
    };
    names(fact).into_iter().min_by_key(|n| (freq(n), n.clone()))
}

/// The names of a fact (see [`named_term`]), or its code identifiers when it names nothing.
pub fn names(fact: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    // English words, read on any text: a fact's names are told by their capitals.
    let (not_names, parts) = (english(List::NotNames), english(List::PageParts));
    let words: Vec<&str> = spans(fact).collect();
    for (i, w) in words.iter().enumerate() {
        let bare = bare(w);
        // "Key:" and "Default:" label a table row's cells; they name nothing.
        let capital = bare.chars().next().is_some_and(char::is_uppercase)
            && bare.chars().count() >= 2
            && !w.ends_with(':')
            && !not_names.contains(&fold(bare).as_str());
        let opens = i == 0 || words[i - 1].ends_with(['.', ':', '!', '?', ';']);
        // A numbered part of the page ("Figure 4-4", "Listing 8-15", "Chapter 9") is the
        // page's, not a thing: "Diagram 4-4" was taken for a thing the book never names, and
        // its Figure 4-4 answers the question.
        let part = parts.contains(&fold(bare).as_str())
            && words
                .get(i + 1)
                .is_some_and(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit()));
        if capital && !opens && !w.starts_with('`') && part {
            current.clear();
        } else if capital && !opens && !w.starts_with('`') {
            current.push(unpossessed(bare));
            if w.ends_with([',', '.', ';', ':', ')']) {
                names.push(current.join(" "));
                current.clear();
            }
        } else if !current.is_empty() {
            names.push(current.join(" "));
            current.clear();
        }
    }
    if !current.is_empty() {
        names.push(current.join(" "));
    }
    if names.is_empty() {
        names = code_spans(fact)
            .into_iter()
            .filter(|c| (2..=40).contains(&c.chars().count()) && !c.contains([' ', '=', '"']))
            .map(|c| as_shown(&c).to_string())
            .collect();
    }
    names
}

/// The texts of `fact`'s code spans as a reader sees them. A cross-reference's target is where
/// a reader is sent, not a thing: swapped, attrs' "{doc}`how-does-it-work`" and Click's
/// ":doc:`/shell-completion`" made no question that named them (the first call spent for
/// nothing). A role's explicit target is shown as its title: "{meth}`__getstate__
/// <object.__getstate__>`" reads "__getstate__".
fn code_spans(fact: &str) -> Vec<String> {
    let targets = crate::text::cross_references(fact);
    // reStructuredText marks code with double backticks (``attr`` module).
    let single = fact.replace("``", "`");
    single
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !targets.contains(&t.trim()))
        .map(|t| match t.trim().split_once(" <") {
            Some((title, target)) if target.ends_with('>') => title.trim().to_string(),
            _ => t.to_string(),
        })
        .collect()
}

/// A name without its possessive ending and emphasis marks: "_Black_'s" is Black, "Click's"
/// is Click (taken whole, the corpus's subject was not told and the question, which says
/// "Black's", did not name the thing).
fn unpossessed(word: &str) -> &str {
    let bare = word
        .strip_suffix("'s")
        .or_else(|| word.strip_suffix("’s"))
        .unwrap_or(word);
    bare.trim_matches(['_', '*'])
}

/// A code span as a reader sees it: reStructuredText's `~a.b.c` shows only `c`, and so do the
/// questions about it ("What is the purpose of the `with_resource` method?" for
/// `~click.Context.with_resource`).
fn as_shown(code: &str) -> &str {
    match code.strip_prefix('~') {
        Some(path) => path.rsplit('.').next().unwrap_or(path),
        None => code,
    }
}

/// Every name of `fact` a neighbour could stand in for: its capitalised names, then its code
/// spans and identifiers ("With the S3 backend, `storage.min_free_space` applies ..." has both;
/// "S3" is too short to be one thing, the option is one).
fn things_named(fact: &str) -> Vec<String> {
    let mut all = names(fact);
    for t in code_spans(fact)
        .into_iter()
        .chain(crate::generate::names::identifiers(fact))
    {
        let t = as_shown(t.trim()).to_string();
        // A heading ("## Unreleased"), a checkbox ("[ ]") or quoted arguments ("'--check
        // --diff'") in code marks is no thing of its own; Black's docs gave all three.
        let thing = t.chars().any(char::is_alphabetic) && !t.starts_with("##") && !t.starts_with('\'');
        if (2..=40).contains(&t.chars().count()) && thing && !t.contains(['=', '"']) && !all.contains(&t) {
            all.push(t);
        }
    }
    all
}

/// The fact and term a task asks about: the first fact, from the attempt's on, that names a
/// specific thing as its subject, else the first that names one. A capitalised common word
/// ("Server", "Backup", "Storage" — the corpus writes it in lower case too) or the corpus's own
/// subject (named in most documents) is no thing a neighbour can stand in for: swapped, it made
/// questions about "the RAM" and "Microsoft".
pub fn fact_of(ctx: &GenerateContext<'_>, task: &Task) -> Option<(Fact, String)> {
    let all = ctx.facts(&ctx.chunks[task.chunks[0]]);
    let n = all.len();
    let language = ctx.language_of(task.chunks[0]);
    let specific = |name: &str| stands_in(ctx, name);
    let mut named = (0..n)
        .map(|i| &all[(task.attempt as usize + i) % n])
        .filter(|f| !f.hypothetical())
        .filter_map(|f| {
            let shown: String = f.shown.clone();
            let picked = named_term(&shown, language, |t| ctx.index.doc_freq(t))
                .filter(|t| specific(t))
                .or_else(|| {
                    let mut candidates: Vec<String> =
                        things_named(&shown).into_iter().filter(|t| specific(t)).collect();
                    candidates.sort_by_key(|t| ctx.chunk_frequency(t));
                    candidates.into_iter().next()
                });
            picked.map(|t| (f.clone(), t))
        });
    // A fact whose subject is the thing first: asked about a fact that names the thing in
    // passing, the 1.5B model asks about what the fact speaks of, and the neighbour has no
    // place (on the correctness runs: 12 of 18 questions named the thing when it was the
    // subject, 26 of 63 when it was not). Read lazily: telling a name costs a pass over the
    // chunks.
    let first = named.next()?;
    if bridges::as_subject(&first.0.shown, &first.1) {
        return Some(first);
    }
    named
        .find(|(f, t)| bridges::as_subject(&f.shown, t))
        .or(Some(first))
}

/// Whether `name` is a thing a neighbour can stand in for: one specific thing, and not the
/// page's own program (a function it defines, a file of its project, a placeholder), which has
/// no look-alike a user asks about.
fn stands_in(ctx: &GenerateContext<'_>, name: &str) -> bool {
    ctx.is_specific_name(name) && !ctx.defines_in_code(name) && !project_file(name) && !placeholder(name)
}

/// The thing the fact's own question asks about: `term` where the question names it, else
/// another thing of the fact the question names (the longest: "--extend-exclude", not the
/// "--exclude" inside it). The 1.5B model often asks about the fact's subject and leaves the
/// chosen thing out ("what does the --extend-exclude option do?" of a fact about that option
/// that names `--exclude` in passing); the question's own thing is as good a place for a
/// neighbour, and the call is not lost. `stands_in` tells a thing a neighbour can stand in
/// for.
fn asked_thing(fact: &str, question: &str, term: &str, stands_in: impl Fn(&str) -> bool) -> Option<String> {
    if swappable(question, term) {
        return Some(term.to_string());
    }
    things_named(fact)
        .into_iter()
        .filter(|t| swappable(question, t) && stands_in(t))
        .max_by_key(|t| (t.chars().count(), std::cmp::Reverse(t.clone())))
}

/// The checks of the question that do not depend on the neighbour, made before the
/// neighbours' call is spent on it: its form (a question, standing alone, no reference to the
/// page), no product of the prompt's example, and, where no look-alike of the thing can be
/// the neighbour, no name the thing is part of, no quotation it stands in and no kind it is
/// set among (see [`attempt`]). `chunks_saying` counts the chunks that hold a phrase.
fn fit_for_a_neighbour(
    own: &str,
    term: &str,
    fact: &str,
    screen: &Screen<'_>,
    chunks_saying: impl Fn(&str) -> usize,
) -> Result<(), Check> {
    check_question(own, screen)?;
    screen.when(check_not_example(own, fact).is_err(), Check::CopiesExample)?;
    let kind_only = lookalikes(term).is_empty() && wants_its_kind(own, term, fact, chunks_saying);
    screen.when(kind_only, Check::NotAboutNeighbour)
}

/// Whether only a thing of `term`'s own kind can take its place in `own`: it opens a compound
/// name, stands inside a quotation of the fact, or is set among others of a kind the question
/// names. A look-alike is of that kind; a model's neighbour need not be.
fn wants_its_kind(own: &str, term: &str, fact: &str, chunks_saying: impl Fn(&str) -> usize) -> bool {
    in_compound(own, term, chunks_saying) || quoted_within(fact, term) || says_its_kind(own)
}

/// The rendered prompt of a task.
pub fn render(ctx: &GenerateContext<'_>, task: &Task, fact: &Fact, term: &str) -> crate::Result<Rendered> {
    let chunk = &ctx.chunks[task.chunks[0]];
    ask::render(
        ctx,
        "unanswerable",
        MAX_TOKENS,
        &[],
        |_| json!({"topic": ctx.topic(chunk, fact), "fact": fact.shown, "term": term, "language": ctx.language_var(task.chunks[0])}),
    )
}

/// Asks for the fact's own question about the thing, then for neighbours, and checks the
/// question with the neighbour in the thing's place.
pub async fn attempt(llm: &Llm, ctx: &GenerateContext<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let chunk = &ctx.chunks[task.chunks[0]];
    let Some((fact, term)) = fact_of(ctx, task) else {
        return Ok(vec![Err(Check::NoFact.into())]);
    };
    // The fact's own question, asked about the thing as a lookup would be; the neighbour then
    // takes the thing's place in it. Asked instead for the question of the changed fact, the
    // 1.5B model left the neighbour out half the time. It is asked first: it does not depend on
    // the neighbour, and it fails more often than the neighbours do (the question leaves the
    // thing out), so the neighbours' call is spent only on a question that can take one.
    let ask_task = Task {
        questions: 1,
        ..task.clone()
    };
    let (rendered, max_tokens) =
        lookup::render_about(ctx, &ask_task, std::slice::from_ref(&fact), Some(&term))
            .map_err(ask::config_error)?;
    let req = ask::request(ctx, &ask_task, rendered, max_tokens);
    let reply = match ask::ask::<OneLookup>(llm, &req, tally).await? {
        Ok(r) => r,
        Err(r) => return Ok(vec![Err(r.into())]),
    };
    let created = created_of(&reply);
    let language = ctx.language_of(task.chunks[0]);
    let screen = ctx.screen(Kind::Unanswerable, language);
    let own = copied_row_asked(&reply.value.question_1, &term, language)
        .unwrap_or_else(|| reply.value.question_1.clone());
    // A question that names no thing of the fact has no place for a neighbour.
    let Some(term) = asked_thing(&fact.shown, &own, &term, |t| stands_in(ctx, t)) else {
        return Ok(vec![Err(Check::NotAboutNeighbour.into())]);
    };
    // "What encoding is used for strings in ISO-8859-1?": the thing is what the fact's question
    // asks for, not what it asks about; put in the neighbour, the question answers itself.
    if let Err(r) = screen.when(
        is_only(&reply.value.answer_1, &own, &term, language),
        Check::NotAboutNeighbour,
    ) {
        return Ok(vec![Err(r.into())]);
    }
    if let Err(r) = fit_for_a_neighbour(&own, &term, &fact.shown, &screen, |p| ctx.chunks_saying(p)) {
        return Ok(vec![Err(r.into())]);
    }
    // Its fact answers it, as a lookup's fact must: a question its fact does not answer, or
    // answers by saying it back ("What type of attack is common in the context of DDoS?" →
    // "common category of attacks"), is none a user of the corpus asks, and with a neighbour in
    // it none either.
    let label = match label_in(ctx, chunk, &fact.quote) {
        Ok(l) => l,
        Err(r) => return Ok(vec![Err(r.into())]),
    };
    if let Err(r) = fact_answers(&own, &reply.value.answer_1, &label, &screen) {
        return Ok(vec![Err(r.into())]);
    }
    // Nor one that places the thing in a heading of the fact's page ("what is the purpose of
    // sys.stderr in Windows Console Notes"), as no labelled case may: an unanswerable case has
    // no label for the pipeline to read its page by, so the heading is taken off here, before
    // the neighbours' call, as the pipeline takes it off a labelled case's question.
    let own = match ctx.heading_tail(&own, std::slice::from_ref(&label)) {
        None => own,
        Some(at) => {
            let kept = without_heading_tail(&own, at);
            if check_question(&kept, &screen).is_err() || !says(&kept, &term, language) {
                match screen.fail(Check::PlacesInPage) {
                    Err(r) => return Ok(vec![Err(r.into())]),
                    Ok(()) => own,
                }
            } else {
                kept
            }
        }
    };
    let rendered = render(ctx, task, &fact, &term).map_err(ask::config_error)?;
    let prompt = rendered.id.clone();
    let req = ask::request(ctx, task, rendered, MAX_TOKENS);
    let others = match ask::ask::<Neighbours>(llm, &req, tally).await? {
        Ok(r) => r.value.others,
        Err(r) => return Ok(vec![Err(r.into())]),
    };
    // The model's neighbours first; then look-alikes of a code-like term, which a small model
    // lists badly (the term itself five times, or its own substrings).
    let lookalikes = lookalikes(&term);
    let picked = |others: &[Neighbour]| {
        let candidates = others
            .iter()
            .map(|n| n.0.as_str())
            .chain(lookalikes.iter().map(String::as_str));
        pick(ctx, &term, candidates)
    };
    let mut neighbour = picked(&others);
    // A list of the thing alone ("temp_dir" five times, "The Diamond Necklace" for "Diamond
    // Necklace") comes back at any seed; asked once more, hotter, the default model named
    // others for 9 of 10 such lists. One call, where a new attempt costs two.
    if neighbour.is_err() && only_the_thing(&term, &others) {
        let hotter = ChatRequest {
            temperature: hotter(req.temperature),
            ..req
        };
        match ask::ask::<Neighbours>(llm, &hotter, tally).await? {
            Ok(r) => neighbour = picked(&r.value.others),
            Err(r) => return Ok(vec![Err(r.into())]),
        }
    }
    let neighbour = match neighbour {
        Ok(n) => n,
        Err(r) => return Ok(vec![Err(r.into())]),
    };
    // A look-alike is of the thing's kind; the model's neighbour may not be ("the Box<T>
    // enum"), so the kind word the question gave the thing is left out after it.
    let kin = lookalikes.contains(&neighbour);
    let swapped = |q: &str| {
        swap(q, &term, &neighbour).map(|s| {
            if kin {
                s
            } else {
                without_kind_after(&s, &neighbour, language)
            }
        })
    };
    let Some(asked) = swapped(&own) else {
        return Ok(vec![Err(Check::NotAboutNeighbour.into())]);
    };
    let kind_only = !kin && wants_its_kind(&own, &term, &fact.shown, |p| ctx.chunks_saying(p));
    if let Err(r) = screen.when(kind_only, Check::NotAboutNeighbour) {
        return Ok(vec![Err(r.into())]);
    }
    let question = match check(ctx, &asked, &term, &neighbour, &fact, &screen) {
        Ok(q) => q,
        Err(e) => return Ok(vec![Err(e.into())]),
    };
    let phrasings: Vec<String> = swapped(&reply.value.search_1)
        .and_then(|s| check_query(&s, &screen).ok())
        .filter(|s| names_neighbour(s, &term, &neighbour, language) && ctx.existing.check(s, &screen).is_ok())
        .into_iter()
        .collect();
    // The corpus must not answer it. The neighbour is in no document (checked above); the
    // judge reads the chunks keyword search finds only where it is calibrated for this model
    // ([`ask::calibrated`]): the default model's verdicts are near chance (κ 0.05 to 0.25),
    // and turned "What does `storage.max_free_space` do in the S3 backend?" away as answered
    // by the passage on min_free_space.
    if screen.runs(Check::CorpusAnswers) && ask::calibrated(llm, ctx, "answerable") {
        let hits = ctx.index.search(&question, ctx.options.judge_top_k);
        let mut passages: Vec<&Chunk> = hits.iter().map(|h| &ctx.chunks[h.doc]).collect();
        if passages.is_empty() {
            passages.push(chunk);
        }
        match ask::answerable(llm, ctx, &question, &passages, tally).await? {
            Ok(true) => return Ok(vec![Err(Check::CorpusAnswers.into())]),
            Ok(false) => {}
            Err(r) => return Ok(vec![Err(r.into())]),
        }
    }
    Ok(vec![Ok(Accepted {
        kind: Kind::Unanswerable,
        question,
        phrasings,
        answer: None,
        relevant: Vec::new(),
        topic: Some(topic_of(&chunk.doc)),
        prompt,
        from: vec![chunk.id.clone(), task.attempt.to_string()],
        created,
        shape: Shape::Plain,
        language,
        difficulty: None,
        hints: Vec::new(),
    })])
}

/// Whether `label` answers the fact's own question `own` with `answer` as a lookup's label must
/// (no answer given passes: the question is checked again with the neighbour in it).
fn fact_answers(own: &str, answer: &str, label: &Label, screen: &Screen<'_>) -> Result<(), Check> {
    // Read as the lookup it is: the answer checks run on lookups, not on unanswerables.
    let lookup = Screen::new(Kind::Lookup, screen.language, screen.skip);
    match answer.trim() {
        "" => Ok(()),
        answer => check_answer(own, answer, std::slice::from_ref(label), &lookup),
    }
}

/// Names like `term` that differ in one part: each part found in [`Pairs::Antonyms`] (English
/// words, as names in code are written whatever a page's language) swapped, and,
/// in a code with digits ("TP-412", "v2.4.0"), its last digit changed (SQuAD 2.0's entity
/// swap, for names a model cannot list). Empty for a plain name ("Amazon S3" keeps to the
/// model's neighbours).
fn lookalikes(term: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lower = fold(term);
    // The parts: runs of letters, with where they stand.
    let mut at = 0;
    for part in lower.split(|c: char| !c.is_alphabetic()) {
        let start = at;
        at += part.len() + 1;
        let swap = english_pairs(Pairs::Antonyms)
            .iter()
            .find_map(|&(a, b)| (part == a).then_some(b).or((part == b).then_some(a)));
        if let (Some(other), false) = (swap, part.is_empty()) {
            // Only where lower-casing kept byte offsets, as a name is written ASCII mostly.
            if lower.len() == term.len() {
                out.push(format!(
                    "{}{}{}",
                    &term[..start],
                    other,
                    &term[start + part.len()..]
                ));
            }
        }
    }
    if let Some((i, d)) = term.char_indices().rfind(|(_, c)| c.is_ascii_digit()) {
        // A number of the code ("412", a version's "2.4.0"), not a digit of a name ("S3").
        let before = term[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .count();
        if before >= 1 {
            let digit = d.to_digit(10).unwrap_or(0);
            for step in [3, 6] {
                let other = char::from_digit((digit + step) % 10, 10).unwrap_or('0');
                out.push(format!("{}{}{}", &term[..i], other, &term[i + 1..]));
            }
        }
    }
    out
}

/// The temperature of a second neighbours call: hotter than the run's, within every
/// provider's range (Anthropic's ends at 1).
fn hotter(temperature: f32) -> f32 {
    (temperature.max(0.3) + 0.6).min(1.0)
}

/// Whether every neighbour the model listed is the thing, inside it or around it: a list
/// that names nothing else.
fn only_the_thing(term: &str, others: &[Neighbour]) -> bool {
    others.iter().all(|n| is_the_thing(term, &n.0))
}

/// Whether a listed name is no name of its own: empty, the thing, inside it or around it
/// ("The Diamond Necklace" for "Diamond Necklace"), quotes and code marks aside.
fn is_the_thing(term: &str, other: &str) -> bool {
    let bare = |s: &str| fold(s.trim().trim_matches(['"', '`', '\'']).trim());
    let (t, n) = (bare(term), bare(other));
    n.is_empty() || n.contains(&t) || t.contains(&n)
}

/// The first neighbour that is a name of its own (not the term, not the prompt's words) and that
/// the corpus never mentions.
fn pick<'n>(
    ctx: &GenerateContext<'_>,
    term: &str,
    others: impl Iterator<Item = &'n str>,
) -> Result<String, Check> {
    let mut why = Check::NotAboutNeighbour;
    for other in others {
        let n = other.trim().trim_matches(['"', '`', '\'']).trim();
        let lower = fold(n);
        if is_the_thing(term, n) || generic(n) || same_thing(term, n) {
            continue;
        }
        // The corpus's subject in the term stays: "Introducing Black" (a guide's title in
        // Black's docs) → "Introducing Red" asks about nothing. Only capitalised words: "of"
        // in "Bank of America" is in every document too.
        let subject_kept = spans(term)
            .map(bare)
            .filter(|w| w.chars().count() >= 3 && w.starts_with(char::is_uppercase) && ctx.is_subject(w))
            .all(|w| lower.contains(&fold(w)));
        if !subject_kept || variant_of(term, n, |w| ctx.is_subject(w)) {
            continue;
        }
        // A code's neighbour is written like it: a flag for a flag, a generic type for a
        // generic type ("Vec<T>" → "String::from_utf8" asked how a function and a type differ).
        if shape(term).is_some() && shape(n) != shape(term) {
            continue;
        }
        if !same_head(term, n) {
            continue;
        }
        // A file of the project a page builds ("tests/test_factory.py") has no neighbour a
        // user asks about: a made-up file beside it ("tests/test_file.py") is in no project,
        // nor one in a folder the corpus shows ("/examples/tutorial/README.md"); nor does a
        // placeholder.
        let made_up_file = shape(n) == Some("file") && (project_file(n) || in_a_folder_shown(ctx, n));
        if placeholder(n) || made_up_file {
            continue;
        }
        // A name a letter or two from one of the corpus's is that name mistyped, and one the
        // corpus writes as words is half answered by it, unless the letters or words are a
        // look-alike's swapped word ("min_free_space" → "max_free_space").
        let mentioned = ctx.corpus_mentions(n)
            || (!has_antonym(n) && (ctx.misspells_a_name(n) || ctx.writes_in_words(n)));
        if mentioned && !ctx.options.skip.skips(Check::NeighbourInCorpus) {
            why = Check::NeighbourInCorpus;
            continue;
        }
        return Ok(n.to_string());
    }
    Err(why)
}

/// Whether `name` is a file of a project, named from its root: a relative path whose last part
/// has an extension (`tests/test_db.py`, `flaskr/static/style.css`).
fn project_file(name: &str) -> bool {
    let name = name.trim().trim_matches('`');
    let last = name.rsplit('/').next().unwrap_or("");
    let extension = last
        .rsplit_once('.')
        .map_or("", |(stem, ext)| if stem.is_empty() { "" } else { ext });
    !name.starts_with(['/', '~'])
        && !name.contains("://")
        && name.contains('/')
        && (1..=4).contains(&extension.len())
        && extension.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Whether `name` holds a placeholder: a lone capital letter after `_` in a lower-case name
/// (Flask's "a `get_X()` function" stands for any resource's, and its neighbours `set_X()`,
/// `get_Y()` name nothing; `HTTP_X_FORWARDED_FOR` is a name).
fn placeholder(name: &str) -> bool {
    static ONE_LETTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"_[A-Z](?:$|[_(])").expect("valid regex"));
    let name = name.trim().trim_matches('`');
    ONE_LETTER.is_match(name) && name.chars().filter(char::is_ascii_uppercase).count() == 1
}

/// Whether the folder `path` is in is one the corpus names.
fn in_a_folder_shown(ctx: &GenerateContext<'_>, path: &str) -> bool {
    let path = path.trim().trim_matches('`').trim_matches('/');
    path.rsplit_once('/')
        .is_some_and(|(folder, _)| folder.contains(char::is_alphabetic) && ctx.corpus_mentions(folder))
}

/// Whether a part of `name` is one of [`Pairs::Antonyms`].
fn has_antonym(name: &str) -> bool {
    fold(name).split(|c: char| !c.is_alphabetic()).any(|part| {
        english_pairs(Pairs::Antonyms)
            .iter()
            .any(|&(a, b)| part == a || part == b)
    })
}

/// Whether a class name's neighbour is a class of its kind: `ClickException`'s is another
/// exception (`UsageError`, `FileError`), not `ExceptionHandling`, which the model made up and
/// no one names. A name of one word in CamelCase ends in what it is; a neighbour of one that
/// ends in an error's or a warning's word must end in one of them too.
fn same_head(term: &str, neighbour: &str) -> bool {
    // The last words of classes of errors, in code whatever a page's language.
    const ERRORS: &[&str] = &["Exception", "Error", "Warning"];
    let head = |name: &str| -> Option<String> {
        let name = name.trim_matches('`');
        let camel = !name.contains(char::is_whitespace)
            && name.starts_with(char::is_uppercase)
            && name.chars().skip(1).any(char::is_uppercase)
            && name.chars().all(char::is_alphanumeric);
        let at = name.rfind(char::is_uppercase)?;
        camel.then(|| name[at..].to_string())
    };
    match head(term) {
        Some(h) if ERRORS.contains(&h.as_str()) => {
            head(neighbour).is_some_and(|n| ERRORS.contains(&n.as_str()))
        }
        _ => true,
    }
}

/// Whether `neighbour` is a variant of the plain name `term` rather than another thing: it holds
/// the name's first word (of four letters or more, not the corpus's subject, which a neighbour
/// keeps). "Jupyter Notebooks" → "JupyterLab": Black's hook for notebooks serves both, so the
/// corpus answers the question. A code's look-alike is a variant by design and is left alone.
fn variant_of(term: &str, neighbour: &str, is_subject: impl Fn(&str) -> bool) -> bool {
    if shape(term).is_some() {
        return false;
    }
    let Some(first) = term
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
    else {
        return false;
    };
    !is_subject(first) && contains_folded(neighbour, first)
}

/// Whether `question` uses `term` as the first word of a name the corpus writes as one ("a
/// Unicode scalar value": the rust book says "Unicode scalar value" again and again): another
/// thing put in its place makes a name no one uses ("an ISO-8859-1 scalar value").
/// `chunks_saying` counts the chunks that hold a phrase, any case.
fn in_compound(question: &str, term: &str, chunks_saying: impl Fn(&str) -> usize) -> bool {
    let lower = fold(question);
    let t = fold(term);
    // Offsets in the lower-cased text only: lower-casing can change byte lengths.
    let Some(at) = lower.find(&t) else {
        return false;
    };
    let rest = &lower[at + t.len()..];
    let next: String = rest
        .trim_start_matches(['`', ' '])
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    if next.chars().count() < 3 || Language::ENGLISH.analyzer().is_stopword(&next) {
        return false;
    }
    chunks_saying(&format!("{t} {next}")) >= 2
}

/// Whether `question` sets its thing among others of a kind it names ("what is the main
/// difference between Genshi and other template engines?"): the neighbour the model listed
/// need not be of that kind (Flask's question became "… between Pyramid and other template
/// engines?", a web framework), and the question's premise would be false. A look-alike is
/// of the thing's kind by design.
fn says_its_kind(question: &str) -> bool {
    static OTHERS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:other|similar)\s+(?:[a-z-]+\s+)?(?P<kind>[a-z-]{3,}s)\b").expect("valid regex")
    });
    // An English pattern and its words, read on any question (it matches English only).
    let verbs = english(List::PluralVerbs);
    OTHERS
        .captures_iter(question)
        .any(|c| !verbs.contains(&fold(&c["kind"]).as_str()))
}

/// Whether `term` stands inside a longer quotation of `fact` ("Sicherung" of "\"Sicherung
/// erfolgreich abgeschlossen\" in German"): a quotation is words as someone wrote them, and a
/// neighbour put in the middle of one makes words no one wrote.
fn quoted_within(fact: &str, term: &str) -> bool {
    static QUOTED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""([^"]{1,200})"|“([^”]{1,200})”"#).expect("valid regex"));
    QUOTED.captures_iter(fact).any(|c| {
        let inner = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
        inner.contains(term) && inner.trim() != term
    })
}

/// Whether `a` and `b` are one thing written with other type parameters ("Point<T>",
/// "Point<U>": the rust book's `x` method is on every `Point`, so the question stays answered),
/// or with its parts in another order or repeated (Flask's "{module}:{app}" as "{app}:{module}"
/// or "{module}:{app}:{module}", the model's neighbours: the page that explains the one answers
/// the other).
fn same_thing(a: &str, b: &str) -> bool {
    let bare = |s: &str| fold(s.split('<').next().unwrap_or(s).trim());
    let parts = |s: &str| -> std::collections::BTreeSet<String> {
        fold(s)
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let reordered = parts(a).len() >= 2 && parts(a) == parts(b);
    ((a.contains('<') || b.contains('<')) && bare(a) == bare(b)) || reordered
}

/// The checks of the question; returns it trimmed.
fn check(
    ctx: &GenerateContext<'_>,
    question: &str,
    term: &str,
    neighbour: &str,
    fact: &Fact,
    screen: &Screen<'_>,
) -> Result<String, Check> {
    let language = screen.language;
    let question = check_question(question, screen)?;
    let off = check_on_topic(&question, &[&fact.shown, neighbour], language).is_err();
    screen.when(off, Check::OffTopic)?;
    screen.when(
        check_not_example(&question, &fact.shown).is_err(),
        Check::CopiesExample,
    )?;
    screen.when(
        !names_neighbour(&question, term, neighbour, language),
        Check::NotAboutNeighbour,
    )?;
    screen.when(
        asks_only_what_it_is(&question, neighbour),
        Check::AsksOnlyWhatItIs,
    )?;
    ctx.existing.check(&question, screen)?;
    Ok(question)
}

/// Whether `question` asks only what `neighbour`, a plain capitalised name, is or does ("what
/// is Pyramid?" of Click's docs, "what does HTML5 do" of Flask's): nothing ties the other
/// product to the corpus, so no user of it asks (both marked wrong). A code name asked so is a
/// look-alike of the corpus's own ("what does the `Context.run` do", marked right), and a
/// name holding the corpus's ("Flask-Migrate") is tied to it.
fn asks_only_what_it_is(question: &str, neighbour: &str) -> bool {
    static BARE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\W*(?:what|who)\s+(?:is|are|does|do)\s+(?:an?\s+|the\s+)?(?P<name>\S+?)\s*(?:do|mean)?\s*\??\s*$")
            .expect("valid regex")
    });
    // Capitalised, letters and digits only, and no capital inside a word (`DecimalRange`).
    let plain = |n: &str| {
        n.starts_with(char::is_uppercase)
            && n.chars().all(char::is_alphanumeric)
            && !crate::wording::answer::has_inner_capital(n)
    };
    BARE.captures(question.trim())
        .is_some_and(|c| c["name"].trim_matches(['`', '"', '\'']) == neighbour && plain(neighbour))
}

/// Whether `question` names the neighbour (every content word of it) and not the thing it
/// replaced.
fn names_neighbour(question: &str, term: &str, neighbour: &str, language: Language) -> bool {
    let words = language.analyzer();
    let asked: Vec<String> = words.content_terms(question);
    let names_it = words.content_terms(neighbour).iter().all(|w| asked.contains(w));
    names_it && !contains_folded(question, term)
}

/// A "neighbour" that only repeats the prompt's words ("another product").
fn generic(neighbour: &str) -> bool {
    // The prompt is English, and so are its words the model repeats, whatever the corpus's
    // language.
    let words: Vec<String> = Language::ENGLISH.analyzer().content_terms(neighbour);
    let prompt: Vec<String> = english(List::NeighbourPromptWords)
        .iter()
        .map(|w| Language::ENGLISH.analyzer().stem(w))
        .collect();
    words.is_empty() || words.iter().all(|w| prompt.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A screen of this kind with every check on.
    fn sc(language: Language) -> Screen<'static> {
        Screen::new(
            Kind::Unanswerable,
            language,
            crate::generate::checks::Skip::none(),
        )
    }

    #[test]
    fn a_bare_question_of_what_another_product_is_ties_it_to_nothing() {
        assert!(asks_only_what_it_is("what is Pyramid?", "Pyramid"));
        assert!(asks_only_what_it_is("what does HTML5 do", "HTML5"));
        // A code name, a look-alike of the corpus's, or a name joined to the corpus's subject.
        assert!(!asks_only_what_it_is(
            "what does the `Context.run` do",
            "Context.run"
        ));
        assert!(!asks_only_what_it_is("what does xor mean", "xor"));
        assert!(!asks_only_what_it_is(
            "what does Flask-Migrate do",
            "Flask-Migrate"
        ));
        assert!(!asks_only_what_it_is(
            "what does the DecimalRange do",
            "DecimalRange"
        ));
        // A question that says more of the other thing is one a user asks.
        assert!(!asks_only_what_it_is(
            "can I deploy to Pyramid with Gunicorn?",
            "Pyramid"
        ));
    }

    #[test]
    fn the_facts_own_question_is_answered_by_its_fact() {
        let label = |quote: &str| Label::spanning("web-security.rst", 0, quote);
        // Flask: said back, the question was no one's, and with "DoS attack" in place of DDoS
        // it became "what type of attack is common in the context of DoS attack?".
        let dos = label("A common category of attacks is \"Denial of Service\" (DoS or DDoS).");
        let en = Language::ENGLISH;
        assert!(
            fact_answers(
                "What type of attack is common in the context of DDoS?",
                "common category of attacks",
                &dos,
                &sc(en)
            )
            .is_err()
        );
        assert!(
            fact_answers(
                "What is a common category of attacks?",
                "Denial of Service",
                &dos,
                &sc(en)
            )
            .is_ok()
        );
        assert!(fact_answers("What is DDoS?", "", &dos, &sc(en)).is_ok());
    }

    #[test]
    fn the_kind_word_after_a_neighbour_is_left_out() {
        assert_eq!(
            without_kind_after("what does the Box<T> enum do", "Box<T>", Language::ENGLISH),
            "what does the Box<T> do"
        );
        assert_eq!(
            without_kind_after(
                "what does the std::io::Read function in Rust return",
                "std::io::Read",
                Language::ENGLISH
            ),
            "what does the std::io::Read in Rust return"
        );
        assert_eq!(
            without_kind_after("What does the `--fast` flag do?", "--fast", Language::ENGLISH),
            "What does the `--fast` do?"
        );
        assert_eq!(
            without_kind_after("Is Box<T> faster?", "Box<T>", Language::ENGLISH),
            "Is Box<T> faster?"
        );
        // A kind word ending a "how" question is its verb.
        assert_eq!(
            without_kind_after(
                "How does the tide key passwd function?",
                "tide key passwd",
                Language::ENGLISH
            ),
            "How does the tide key passwd function?"
        );
        assert_eq!(
            without_kind_after("How does the `--fast` flag work?", "--fast", Language::ENGLISH),
            "How does the `--fast` work?"
        );
    }

    #[test]
    fn a_codes_neighbour_is_written_like_it() {
        assert_eq!(shape("Vec<T>"), shape("Box<T>"));
        assert_ne!(shape("Vec<T>"), shape("String::from_utf8"));
        assert_eq!(shape("--preview"), Some("flag"));
        assert_eq!(shape("storage.min_free_space"), Some("dotted"));
        assert_eq!(shape("Amazon S3"), None);
    }

    #[test]
    fn codes_get_lookalikes_and_plain_names_none() {
        assert_eq!(lookalikes("storage.min_free_space"), ["storage.max_free_space"]);
        assert_eq!(lookalikes("tide repo unlock"), ["tide repo lock"]);
        assert_eq!(lookalikes("TP-412"), ["TP-415", "TP-418"]);
        assert_eq!(lookalikes("--include-hidden"), ["--exclude-hidden"]);
        assert_eq!(lookalikes("v2.4.0"), ["v2.4.3", "v2.4.6"]);
        // A digit of a name is no number to change; a plain name has no look-alike.
        assert!(lookalikes("Amazon S3").is_empty());
        assert!(lookalikes("Glacier Vault").is_empty());
    }

    #[test]
    fn an_answer_that_is_the_thing_is_told_from_one_that_opens_with_it() {
        let en = Language::ENGLISH;
        let q = "What encoding is used for strings in ISO-8859-1?";
        assert!(is_only("ISO-8859-1", q, "ISO-8859-1", en));
        assert!(is_only("the ISO-8859-1 charset", q, "ISO-8859-1", en));
        // The rust book run: the answer restates its subject and goes on.
        let q = "What does the Option<T> enum in Rust represent?";
        let a = "Option<T> is a generic enum in Rust that can hold either a value of type T or nothing.";
        assert!(!is_only(a, q, "Option<T>", en));
        assert!(!is_only("a value or nothing", q, "Option<T>", en));
    }

    #[test]
    fn names_are_capitalised_words_inside_a_sentence_else_code() {
        assert_eq!(
            names("With the Amazon S3 backend, PyCharm users keep a cache."),
            ["Amazon S3", "PyCharm"]
        );
        assert_eq!(
            names("The agent reads `agent.toml` and `server.toml` at start."),
            ["agent.toml", "server.toml"]
        );
        assert!(names("It starts at boot and stops at shutdown.").is_empty());
        assert_eq!(
            names("As Figure 4-4 shows, and Listing 8-15 too, Ferris runs on Debian 12."),
            ["Ferris", "Debian"],
            "a numbered part of the page is no thing"
        );
    }

    /// The rarest name of a fact, counted in the fact's language: read with English stems, a
    /// Spanish name common in the corpus ("Universidad") matched no indexed term and looked
    /// rarest of all.
    #[test]
    fn the_rarest_name_is_counted_in_the_facts_language() {
        for (code, fact, corpus) in [
            (
                "es",
                "La Universidad guarda sus manuscritos en la Biblioteca Widener desde 1915.",
                [
                    "La Universidad abre todos los días.",
                    "La Universidad publica informes.",
                    "Los estudiantes de la Universidad reman.",
                ],
            ),
            (
                "de",
                "Die Universitäten bewahren ihre Handschriften in der Bibliothek Widener auf.",
                [
                    "Die Universitäten öffnen jeden Tag.",
                    "Die Universitäten veröffentlichen Berichte.",
                    "Studenten der Universitäten rudern.",
                ],
            ),
        ] {
            let language = Language::parse(code).unwrap();
            let words = language.analyzer();
            let index = crate::index::Bm25Index::from_terms(
                corpus.iter().chain([&fact]).map(|t| words.content_terms(t)),
                Default::default(),
            )
            .in_language(language);
            let term = named_term(fact, language, |t| index.doc_freq(t)).unwrap();
            assert!(term.contains("Widener"), "{code}: {term}");
        }
    }

    #[test]
    fn tasks_go_to_chunks_whose_facts_name_a_thing() {
        let chunk = |doc: &str, text: &str| Chunk {
            id: format!("{doc}#0"),
            doc: doc.into(),
            start: 0,
            end: text.len(),
            text: text.into(),
        };
        let chunks = [
            // Black's "Strings": its only code spans are quote marks, its only name the
            // subject, written in lower case in the next chunk.
            chunk(
                "style.md",
                "### Strings\n\nBlack prefers double quotes (`\"` and `'`) over single quotes. It \
                 will replace the latter with the former.\n",
            ),
            chunk(
                "usage.md",
                "Run black with the `--skip-magic-trailing-comma` flag to keep collapsed lists.\n",
            ),
            chunk(
                "integrations.md",
                "The plugin is shipped with the python-black package on Arch Linux for Vim users.\n",
            ),
        ];
        assert_eq!(naming_chunks(&chunks, &[0, 1, 2], &Pairing::default()), [1, 2]);
        // With nothing named anywhere, every chunk stays a target.
        assert_eq!(naming_chunks(&chunks[..1], &[0], &Pairing::default()), [0]);
    }

    #[test]
    fn rst_code_spans_are_things() {
        let named = things_named("the ``attr`` module has an ``__version_info__`` attribute");
        assert!(named.contains(&"__version_info__".to_string()), "{named:?}");
        assert!(!named.iter().any(|n| n.contains("module")), "{named:?}");
    }

    #[test]
    fn code_spans_and_identifiers_are_things_too() {
        let fact = "With the S3 backend, `storage.min_free_space` applies to TP-401 only.";
        let named = things_named(fact);
        assert_eq!(named[0], "S3");
        assert!(named.contains(&"storage.min_free_space".to_string()), "{named:?}");
        assert!(named.contains(&"TP-401".to_string()), "{named:?}");
    }

    #[test]
    fn a_heading_a_checkbox_or_quoted_arguments_in_code_marks_are_no_things() {
        // Black's docs: each was picked, and each question about it left it out or asked for it.
        let fact = "Add `## Unreleased`, tick `[ ]` and pass `'--check --diff'` with `--fast`.";
        let named = things_named(fact);
        for junk in ["## Unreleased", "[ ]", "'--check --diff'"] {
            assert!(!named.contains(&junk.to_string()), "{named:?}");
        }
        assert!(named.contains(&"--fast".to_string()), "{named:?}");
    }

    #[test]
    fn a_link_target_is_no_thing_and_a_role_is_named_by_its_title() {
        // attrs' and Click's docs: each target was picked, and no question named it.
        let fact = "Check out {doc}`how-does-it-work` and :doc:`/shell-completion`; classes must \
                    implement {meth}`__getstate__ <object.__getstate__>` for `pickle`.";
        let named = things_named(fact);
        for target in [
            "how-does-it-work",
            "/shell-completion",
            "__getstate__ <object.__getstate__>",
        ] {
            assert!(!named.contains(&target.to_string()), "{named:?}");
        }
        assert!(named.contains(&"__getstate__".to_string()), "{named:?}");
        assert!(named.contains(&"pickle".to_string()), "{named:?}");
    }

    #[test]
    fn the_neighbour_takes_the_things_place_in_the_question() {
        assert_eq!(
            swap(
                "Why does my script fail with tp-401 after TP-401 tokens expire?",
                "TP-401",
                "TP-402"
            )
            .as_deref(),
            Some("Why does my script fail with TP-402 after TP-402 tokens expire?")
        );
        assert_eq!(swap("Why does my script fail?", "TP-401", "TP-402"), None);
        // The rust book run: the term without its ">", the neighbour with it.
        assert_eq!(
            swap("What does the Option<T> enum represent?", "Option<T", "Result<T>").as_deref(),
            Some("What does the Result<T> enum represent?")
        );
        assert_eq!(
            swap("How do Vec<T> and String differ?", "Vec<T", "String::from_utf8").as_deref(),
            Some("How do String::from_utf8 and String differ?")
        );
        assert_eq!(
            swap("What does Option<T> hold?", "Option<T", "Result<T").as_deref(),
            Some("What does Result<T> hold?")
        );
    }

    #[test]
    fn a_question_naming_another_thing_of_its_fact_is_about_that_thing() {
        // Black's: `--exclude` was chosen (the rarer name), the question asked about the
        // option the fact is about, and the call was lost.
        let fact = "`--extend-exclude`: like `--exclude`, but adds additional files and \
                    directories on top of the excluded ones.";
        let any = |_: &str| true;
        let asked = |q: &str, term: &str| asked_thing(fact, q, term, any);
        assert_eq!(
            asked("what does the --extend-exclude option do?", "--exclude").as_deref(),
            Some("--extend-exclude"),
            "the longest thing named, not the one inside it"
        );
        assert_eq!(
            asked("how do I leave out files with --exclude?", "--exclude").as_deref(),
            Some("--exclude")
        );
        // A question naming no thing of its fact has no place for a neighbour, nor one naming
        // only a thing no neighbour stands in for.
        assert_eq!(asked("how do I skip more folders?", "--exclude"), None);
        assert_eq!(
            asked_thing(
                fact,
                "what does the --extend-exclude option do?",
                "--exclude",
                |t| { t != "--extend-exclude" }
            ),
            None
        );
    }

    #[test]
    fn what_the_neighbour_cannot_mend_is_found_before_its_call() {
        let fact = "Run `tide restore --overwrite` to replace files; the TP-409 error means a lock.";
        let none = |_: &str| 0;
        let en = Screen::new(
            Kind::Unanswerable,
            Language::ENGLISH,
            crate::generate::checks::Skip::none(),
        );
        let fit = |q: &str, term: &str| fit_for_a_neighbour(q, term, fact, &en, none);
        assert_eq!(
            fit(
                "What does the --overwrite flag of tide restore do?",
                "--overwrite"
            ),
            Ok(())
        );
        // Black's, turned away only after the neighbours' call: the prompt's example product.
        assert_eq!(
            fit(
                "What does the `--overwrite` flag do in Nimbus Drive?",
                "--overwrite"
            ),
            Err(Check::CopiesExample)
        );
        assert_eq!(fit("--overwrite", "--overwrite"), Err(Check::TooShort));
        // A plain name set among others of its kind: a model's neighbour need not be one, and
        // no look-alike of a plain name is made.
        let genshi = "Genshi and Mako are template engines.";
        assert_eq!(
            fit_for_a_neighbour(
                "what is the main difference between Genshi and other template engines?",
                "Genshi",
                genshi,
                &en,
                none
            ),
            Err(Check::NotAboutNeighbour)
        );
        // A code's look-alike is of its kind: the same question waits for the neighbour.
        assert_eq!(
            fit("How does TP-409 compare to other error codes?", "TP-409"),
            Ok(())
        );
    }

    #[test]
    fn a_term_opening_a_compound_name_is_not_swapped() {
        let saying = |p: &str| if p == "unicode scalar" { 4 } else { 0 };
        assert!(in_compound("What is a Unicode scalar value?", "Unicode", saying));
        assert!(!in_compound("Does Unicode cover emoji?", "Unicode", saying));
        assert!(!in_compound("What is a Unicode string?", "Unicode", saying));
        // A term whose lower case is longer in bytes ("İ" → "i̇") cuts no character.
        assert!(!in_compound("Was ist İstanbul Zeit?", "İstanbul", saying));
    }

    #[test]
    fn a_question_that_names_the_kind_takes_no_model_neighbour() {
        // Flask's, marked wrong once Pyramid took Genshi's place.
        assert!(says_its_kind(
            "what is the main difference between Genshi and other template engines?"
        ));
        assert!(says_its_kind("How does Mako compare to similar libraries?"));
        assert!(!says_its_kind("What does Genshi base its templates on?"));
        assert!(!says_its_kind("Which other option does --force override?"));
    }

    #[test]
    fn an_exception_is_swapped_for_an_exception() {
        // Click's, marked wrong: "… display an error message in a ExceptionHandling".
        assert!(!same_head("ClickException", "ExceptionHandling"));
        assert!(!same_head("ClickException", "error handling"));
        assert!(same_head("ClickException", "UsageError"));
        assert!(same_head("`ClickException`", "`FileWarning`"));
        // Other names keep to the other checks.
        assert!(same_head("StrictUndefined", "ChainableUndefined"));
        assert!(same_head("Amazon S3", "Backblaze B2"));
    }

    #[test]
    fn a_word_inside_a_quotation_is_not_swapped() {
        let fact = "Notifications read \"Sicherung erfolgreich abgeschlossen\" in German.";
        assert!(quoted_within(fact, "Sicherung"));
        assert!(!quoted_within(
            "The error \"TP-412\" means a wrong key.",
            "TP-412"
        ));
        assert!(!quoted_within("Sicherung is German.", "Sicherung"));
    }

    #[test]
    fn other_type_parameters_make_the_same_thing() {
        assert!(same_thing("Point<T", "Point<U>"));
        assert!(same_thing("Vec<T>", "vec<i32>"));
        assert!(!same_thing("Vec<T>", "Box<T>"));
        assert!(!same_thing("TP-409", "TP-412"));
        // Flask's app discovery: the same parts in another order.
        assert!(same_thing("{module}:{app}", "{app}:{module}"));
        assert!(same_thing("{module}:{app}", "{module}:{app}:{module}"));
        assert!(!same_thing("{module}:{app}", "{module}:{factory}"));
    }

    #[test]
    fn names_are_read_as_a_reader_sees_them() {
        assert_eq!(unpossessed("Black_'s"), "Black");
        assert_eq!(unpossessed("Rust’s"), "Rust");
        assert_eq!(unpossessed("PyCharm"), "PyCharm");
        assert_eq!(as_shown("~click.Context.with_resource"), "with_resource");
        assert_eq!(
            as_shown("click.Context.with_resource"),
            "click.Context.with_resource"
        );
        let fact = "Instead, use the context's :meth:`~click.Context.with_resource` method to enter the context manager.";
        assert!(
            things_named(fact).contains(&"with_resource".to_string()),
            "{:?}",
            things_named(fact)
        );
        let fact = "And yes, you can tweak certain parts of _Black_'s style, as Tidepool Cloud does.";
        assert_eq!(names(fact), vec!["Black", "Tidepool Cloud"]);
    }

    #[test]
    fn a_file_of_the_pages_project_is_told_from_other_paths() {
        assert!(project_file("tests/test_file.py"));
        assert!(project_file("`flaskr/static/style.css`"));
        assert!(!project_file("/etc/nginx/nginx.conf"));
        assert!(!project_file("application/json"));
        assert!(!project_file("examples/tutorial"));
        assert!(!project_file("https://example.com/a.html"));
        assert!(!project_file("docs/.gitignore"));
    }

    #[test]
    fn a_placeholder_names_nothing() {
        assert!(placeholder("get_X()"));
        assert!(placeholder("`teardown_X`"));
        assert!(!placeholder("get_db"));
        assert!(!placeholder("Vec<T>"));
        assert!(!placeholder("KEY_AB"));
        assert!(!placeholder("HTTP_X_FORWARDED_FOR"));
        assert!(!placeholder("X_FORWARDED"));
    }

    #[test]
    fn a_swapped_word_is_no_misspelling() {
        assert!(has_antonym("storage.max_free_space"));
        assert!(!has_antonym("catch_args"));
        // A part, not letters inside one: "maxim" holds no "max".
        assert!(!has_antonym("maxim_rate"));
    }

    #[test]
    fn a_neighbour_holding_the_names_first_word_is_a_variant() {
        let black = |w: &str| w == "Black";
        assert!(variant_of("Jupyter Notebooks", "JupyterLab", black));
        assert!(variant_of("Jupyter Notebooks", "jupyter console", black));
        assert!(!variant_of("Jupyter Notebooks", "Markdown", black));
        // The corpus's subject is kept on purpose; a code's look-alike is made alike.
        assert!(!variant_of("Black Playground", "Black Sandbox", black));
        assert!(!variant_of("TP-401", "TP-402", black));
        assert!(!variant_of("--color", "--colour", black));
    }

    #[test]
    fn a_list_of_the_thing_alone_is_asked_again_hotter() {
        let list = |names: &[&str]| names.iter().map(|n| Neighbour(n.to_string())).collect::<Vec<_>>();
        // What the default model listed for Click's and the TREC pool's things.
        assert!(only_the_thing(
            "temp_dir",
            &list(&["temp_dir", "`temp_dir`", "temp_dir"])
        ));
        assert!(only_the_thing(
            "Diamond Necklace",
            &list(&["The Diamond Necklace"])
        ));
        assert!(only_the_thing(
            "X-Tidepool-Signature",
            &list(&["X-Tidepool-Signature-2", "X-Tidepool-Signature-3"])
        ));
        assert!(only_the_thing(
            "imagepipe demo",
            &list(&["imagepipe", "imagepipe demo"])
        ));
        // One other name is enough to choose from.
        assert!(!only_the_thing(
            "click.argument",
            &list(&["click.option", "click.argument"])
        ));
        // Hotter than the run, never past 1.
        assert!((hotter(0.3) - 0.9).abs() < 1e-6);
        assert!((hotter(0.0) - 0.9).abs() < 1e-6);
        assert!((hotter(0.7) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_neighbour_made_of_prompt_words_is_generic() {
        assert!(generic("another product"));
        assert!(generic("Another competing platform"));
        assert!(!generic("Azure Blob Storage"));
    }
}
