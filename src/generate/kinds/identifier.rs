//! Identifier questions: a question about one identifier — an error code, a setting, a flag, a
//! command, a file, a function — that a few chunks at most name, giving it verbatim as users
//! paste it ("TP-409 when restoring?"), labelled with the fact that explains it. These are the
//! questions where keyword search beats embeddings, which no other kind asks.
//!
//! One call asks about up to two identifiers of a chunk, each with the fact that names it.
//! Checked as a lookup is, and: the question gives the identifier as written (case aside) and
//! the labelled fact holds it.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::json;

use super::lookup::{self, MAX_TOKENS_PER_QUESTION, Written};
use crate::chunk::Chunk;
use crate::generate::ask::{self, label_in, non_empty, topic_of};
use crate::generate::candidate::{Accepted, Kind, Shape, Tally, Task};
use crate::generate::context::{GenerateContext, example_files, names_one_of};
use crate::generate::facts::{self, Fact};
use crate::generate::kind::Outcome;
use crate::generate::kind::{CallEstimate, KindInfo, Layout};
use crate::generate::names::{frequencies, identifiers, not_a_name, swap};
use crate::generate::pairs::Pairing;
use crate::generate::verify::{Check, check_on_topic, check_wording};
use crate::prompts::Rendered;
use crate::text::{bare, contains_folded, fold, spans};

/// The kind's row: two identifiers of a chunk a call.
pub const INFO: KindInfo = KindInfo {
    kind: Kind::Identifier,
    summary: "an error code, setting, flag, command or function given verbatim",
    default_share: 0.15,
    per_call: 2,
    layout: Layout::Chunk { targets: naming_rare },
    // The call, and the answers judge on each of its questions.
    calls_per_task: 3,
    attempt: |llm, ctx, task, tally| Box::pin(attempt(llm, ctx, task, tally)),
    estimate,
};

/// Most chunks an identifier may appear in: a question about one named everywhere has no
/// single source.
pub const MAX_CHUNKS: usize = 3;

/// The identifiers of `facts` (`chunk`'s, as [`GenerateContext::facts`] reads them) that at
/// most [`MAX_CHUNKS`] chunks name, each with the fact that explains it: those a fact is about
/// first (a table row keyed by it, a sentence opening with it — "`lock.timeout` sets how long
/// …"), then the rarest, then in the chunk's order. A fact that names an identifier in passing makes a question about something else.
pub fn named(chunk: &Chunk, facts: Vec<Fact>, counts: impl Fn(&str) -> usize) -> Vec<(String, Fact)> {
    let mut out: Vec<(bool, usize, usize, String, Fact)> = Vec::new();
    for fact in facts {
        for id in shown_identifiers(&fact, chunk) {
            let n = counts(&id);
            let passing = !is_about(&fact, &id);
            match out.iter_mut().find(|x| x.3 == id) {
                // A later fact about it explains it better than an earlier one in passing.
                Some(x) if x.0 && !passing => *x = (passing, n, x.2, id, fact.clone()),
                Some(_) => {}
                None if n == 0 || n > MAX_CHUNKS => {}
                None => {
                    let at = chunk.text.find(&id).unwrap_or(usize::MAX);
                    out.push((passing, n, at, id, fact.clone()));
                }
            }
        }
    }
    out.sort_by_key(|(passing, n, at, _, _)| (*passing, *n, *at));
    out.into_iter().map(|(_, _, _, id, f)| (id, f)).collect()
}

/// The identifiers of a fact's text that a reader sees: not a link's target
/// ("peps.python.org", "chars.html" behind "[stdio mode](…)") nor a cross-reference's
/// (Flask's ":ref:`security-csp`", a section's label the built page shows as its title), which
/// no question about the fact can name; none in a fact that is only names (a changelog's
/// "``TRAP_BAD_REQUEST_ERRORS``, ``TRAP_HTTP_EXCEPTIONS``, …" explains none of them), nor
/// web text read as a name ([`not_a_name`], read in the fact's `chunk`).
fn shown_identifiers(fact: &Fact, chunk: &Chunk) -> Vec<String> {
    if fact.row.is_none() && words_besides_names(&fact.shown) < MIN_WORDS_BESIDES {
        return Vec::new();
    }
    let targets = crate::text::cross_references(&fact.shown);
    identifiers(&fact.quote)
        .into_iter()
        .filter(|id| fact.shown.contains(id.as_str()))
        .filter(|id| !targets.iter().any(|t| t.contains(id.as_str())))
        .filter(|id| !only_an_example(&fact.shown, id))
        .filter(|id| !not_a_name(id, &chunk.text))
        .collect()
}

/// Whether every mention of `id` in `text` is an example of something else: after "like",
/// "such as", "e.g." or "for instance", alone or in a list ("data-only containers like
/// `namedtuple`s or `types.SimpleNamespace`", "an attribute on the extension, such as
/// ``self.post_model``"). The sentence is about what the example stands for; asked what the
/// example is, the model answered with the sentence (both marked wrong). English.
fn only_an_example(text: &str, id: &str) -> bool {
    static CUE: LazyLock<Regex> = LazyLock::new(|| {
        // The cue, then any earlier code items of a list ("`a`, `b` or"), up to the mention.
        // A means or a case after the cue is still the example's ("for example by using
        // ``gettext.find``", "for instance if ``--foo=bar`` or ``--foo bar`` are passed").
        Regex::new(r"(?i)\b(?:like|such as|e\.g\.,?|for instance,?|for example,?)\s+(?:(?:by\s+)?(?:using|calling|with|via)\s+|(?:if|when)\s+)?(?:\S*[`_.:/()\-]\S*,?\s+(?:(?:or|and)\s+)?){0,4}$")
            .expect("valid regex")
    });
    let mut mentions = text.match_indices(id).peekable();
    mentions.peek().is_some()
        && mentions.all(|(at, _)| {
            let before = text[..at].trim_end_matches(['`', '*', '_', ' ', ':']);
            let before = before
                .rsplit_once(':')
                .filter(|(_, r)| !r.contains(' '))
                .map_or(before, |(l, _)| l);
            CUE.is_match(&format!("{before} "))
        })
}

/// Fewest words a sentence must say besides the names and function words in it to explain
/// one ("``JSON_AS_ASCII``, ``JSON_SORT_KEYS`` … were removed" says one).
const MIN_WORDS_BESIDES: usize = 2;

/// The words of letters in `text` outside its code marks and identifiers, function words aside.
fn words_besides_names(text: &str) -> usize {
    let analyzer = crate::lang::Language::ENGLISH.analyzer();
    let ids = identifiers(text);
    let ids: Vec<&str> = ids.iter().map(|id| bare(id)).collect();
    spans(text)
        .filter(|w| !w.contains('`'))
        .map(bare)
        .filter(|w| w.chars().any(char::is_alphabetic) && !ids.contains(w) && !analyzer.is_stopword(&fold(w)))
        .count()
}

/// Whether `fact` is about `id`: a table row whose first cell names it, or a sentence naming it
/// among its first four words.
fn is_about(fact: &Fact, id: &str) -> bool {
    if let Some(row) = &fact.row {
        return row.cells.first().is_some_and(|c| c.contains(id));
    }
    let opening: String = spans(&fact.shown).take(4).collect::<Vec<_>>().join(" ");
    opening.contains(id)
}

/// The eligible chunks with at least one rare identifier in a fact.
fn naming_rare(chunks: &[Chunk], eligible: &[usize], _: &Pairing) -> Vec<usize> {
    // A chunk whose only rare identifiers are the page's example files has none to ask about
    // ([`asked`] leaves them out): planned, it would be a task without a question.
    let made_up = example_files(chunks);
    let found: Vec<Vec<String>> = eligible
        .iter()
        .map(|&i| {
            facts::of_chunk(chunks, i)
                .iter()
                .flat_map(|f| shown_identifiers(f, &chunks[i]))
                .filter(|id| !names_one_of(id, &made_up))
                .collect()
        })
        .collect();
    let mut all: Vec<String> = found.iter().flatten().cloned().collect();
    all.sort();
    all.dedup();
    let counts = frequencies(&all, chunks.iter().map(|c| c.text.as_str()));
    eligible
        .iter()
        .zip(&found)
        .filter(|(_, ids)| {
            ids.iter().any(|id| {
                let n = all.binary_search(id).map_or(0, |k| counts[k]);
                (1..=MAX_CHUNKS).contains(&n)
            })
        })
        .map(|(&i, _)| i)
        .collect()
}

/// The identifiers (and their facts) a task asks about: the chunk's rarest first, the next ones
/// for a later attempt.
pub fn asked(ctx: &GenerateContext<'_>, task: &Task) -> Vec<(String, Fact)> {
    let chunk = &ctx.chunks[task.chunks[0]];
    // A file the page makes up for its example is no identifier a user pastes.
    let all: Vec<(String, Fact)> = named(chunk, ctx.facts(chunk), |id| ctx.chunk_frequency(id))
        .into_iter()
        .filter(|(id, _)| !ctx.names_an_example_file(id))
        .collect();
    if all.is_empty() {
        return all;
    }
    let want = (task.questions.max(1) as usize).min(all.len());
    let first = task.attempt as usize * task.questions.max(1) as usize;
    (0..want).map(|i| all[(first + i) % all.len()].clone()).collect()
}

/// The rendered prompt of a task and its `max_tokens`.
pub fn render(
    ctx: &GenerateContext<'_>,
    task: &Task,
    asked: &[(String, Fact)],
) -> crate::Result<(Rendered, u32)> {
    let chunk = &ctx.chunks[task.chunks[0]];
    let topic = asked
        .first()
        .map_or_else(|| ctx.topic_at(chunk, 0), |(_, f)| ctx.topic(chunk, f));
    let max_tokens = MAX_TOKENS_PER_QUESTION * asked.len().max(1) as u32;
    let listed: Vec<serde_json::Value> = asked
        .iter()
        .map(|(id, f)| json!({"text": f.shown, "identifier": id}))
        .collect();
    let rendered = ask::render(
        ctx,
        "identifier",
        max_tokens,
        &[],
        |_| json!({"topic": topic, "facts": listed, "language": ctx.language_var(task.chunks[0])}),
    )?;
    Ok((rendered, max_tokens))
}

/// The one call of a task; none when the chunk names no rare identifier.
fn estimate(ctx: &GenerateContext<'_>, task: &Task) -> crate::Result<Vec<CallEstimate>> {
    let asked = asked(ctx, task);
    if asked.is_empty() {
        return Ok(Vec::new());
    }
    let (r, max) = render(ctx, task, &asked)?;
    let mut calls = vec![CallEstimate::of(&r.system, &r.user, max)];
    for (_, f) in &asked {
        calls.push(CallEstimate::answers_judge(ctx, &f.quote)?);
    }
    Ok(calls)
}

/// Asks for the task's questions and checks each.
pub async fn attempt(
    llm: &crate::llm::Llm,
    ctx: &GenerateContext<'_>,
    task: &Task,
    tally: &mut Tally,
) -> Outcome {
    let asked = asked(ctx, task);
    if asked.is_empty() {
        return Ok(vec![Err(Check::NoFact.into())]);
    }
    let (rendered, max_tokens) = render(ctx, task, &asked).map_err(ask::config_error)?;
    let prompt = rendered.id.clone();
    let req = ask::request(ctx, task, rendered, max_tokens);
    let (written, created) = match lookup::questions(llm, &req, asked.len(), tally).await? {
        Ok(x) => x,
        Err(r) => return Ok(vec![Err(r.into()); asked.len()]),
    };
    let ids: Vec<&str> = asked.iter().map(|(id, _)| id.as_str()).collect();
    let written = each_to_its_identifier(&ids, written);
    let chunk = &ctx.chunks[task.chunks[0]];
    let language = ctx.language_of(task.chunks[0]);
    let screen = ctx.screen(Kind::Identifier, language);
    let results = asked
        .iter()
        .zip(written)
        .map(|((id, fact), written)| {
            let w = &written;
            let draft = || {
                let label = label_in(ctx, chunk, &fact.quote).ok();
                let mut d = Accepted::draft(
                    Kind::Identifier,
                    &w.question,
                    Some(&w.answer),
                    label.into_iter().collect(),
                    language,
                );
                d.shape = Shape::Identifier(id.clone());
                d
            };
            let checked = || -> Result<Accepted, Check> {
                let checks = |q: &str| -> Result<(), Check> {
                    screen.when(!gives(q, id), Check::IdentifierMissing)?;
                    check_wording(q, &w.answer, &fact.shown, &screen)?;
                    screen.when(
                        check_on_topic(q, &[&fact.shown], language).is_err(),
                        Check::OffTopic,
                    )?;
                    ctx.existing.check(q, &screen)
                };
                // A question that lost its identifier is turned away, not repaired: put back in front
                // ("username_file_result: what does the function return"), it was most often the
                // question of another line of the passage.
                let (question, phrasings) = w.checked(&screen, ctx.options.keywords_alone, checks)?;
                let question = as_written(&question, id);
                let phrasings = phrasings.iter().map(|p| as_written(p, id)).collect();
                let label = label_in(ctx, chunk, &fact.quote)?;
                screen.when(!label.quote.contains(id.as_str()), Check::IdentifierMissing)?;
                w.answers_its_own_question(&label, &screen)?;
                Ok(Accepted {
                    kind: Kind::Identifier,
                    question,
                    phrasings,
                    answer: non_empty(&w.answer),
                    relevant: vec![label],
                    topic: Some(topic_of(&chunk.doc)),
                    prompt: prompt.clone(),
                    from: vec![chunk.id.clone(), id.clone()],
                    created: created.clone(),
                    shape: Shape::Identifier(id.clone()),
                    language,
                    difficulty: None,
                    hints: Vec::new(),
                })
            };
            checked().map_err(|c| c.of(draft()))
        })
        .collect();
    Ok(results)
}

/// The written questions in the order of `ids`: where the model wrote them in another order
/// (question 1 about identifier 2 and question 2 about identifier 1; the sample corpus's
/// `tide forget --dry-run` and TP-507), each goes with the identifier it gives, its search
/// words and answer with it. A question that gives neither, or both, keeps its place.
fn each_to_its_identifier(ids: &[&str], mut written: Vec<Written>) -> Vec<Written> {
    let gives_only = |w: &Written, i: usize| {
        gives(&w.question, ids[i])
            && ids
                .iter()
                .enumerate()
                .all(|(j, other)| j == i || !gives(&w.question, other))
    };
    for i in 0..written.len().min(ids.len()) {
        if gives(&written[i].question, ids[i]) {
            continue;
        }
        let other = (i + 1..written.len().min(ids.len()))
            .find(|&j| gives_only(&written[j], i) && gives_only(&written[i], j));
        if let Some(j) = other {
            written.swap(i, j);
        }
    }
    written
}

/// Whether `question` gives `identifier` as written, its case aside (users type `tp-409`) and
/// code marks around it dropped.
pub fn gives(question: &str, identifier: &str) -> bool {
    contains_folded(question, identifier)
}

/// `question` with `identifier` put back as written where the model changed its case ("how do
/// i click choose a tag" → "… click Choose a tag"): the case pastes the identifier verbatim,
/// as a user copies it and as the test set's check reads it, while the rest of the question
/// keeps its lower-case style. Left as it is where it does not name it, or where lower-casing
/// changes byte lengths ([`swap`]'s terms).
pub fn as_written(question: &str, identifier: &str) -> String {
    swap(question, identifier, identifier).unwrap_or_else(|| question.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identifier_named_only_as_an_example_is_not_asked_about() {
        // attrs' and Flask's docs: both asked about and marked wrong.
        let attrs = "It can be used for data-only containers like `namedtuple`s or `types.SimpleNamespace` but they're just a sub-genre of what *attrs* is good for.";
        assert!(only_an_example(attrs, "types.SimpleNamespace"));
        assert!(only_an_example(attrs, "namedtuple"));
        let flask = "Another technique could be to use an attribute on the extension, such as ``self.post_model`` from above.";
        assert!(only_an_example(flask, "self.post_model"));
        assert!(only_an_example(
            "Click provides helpers such as :func:`get_binary_stream`.",
            "get_binary_stream"
        ));
        // An example of how the subject does its work (Jinja's docs: asked "what does the
        // `gettext.find` function do", answered with what get_gettext_translations does).
        let jinja = "The ``get_gettext_translations`` function would return the translator for the current configuration, for example by using ``gettext.find``.";
        assert!(only_an_example(jinja, "gettext.find"));
        assert!(!only_an_example(jinja, "get_gettext_translations"));
        // A case the example sets (Click's docs; asked "what does --foo bar mean").
        let click =
            "So for instance if ``--foo=bar`` or ``--foo bar`` are passed they generally end up like that.";
        assert!(only_an_example(click, "--foo bar"));
        assert!(only_an_example(click, "--foo=bar"));
        // Examples that are the sentence's subject, or a later mention that is not an example.
        let ensure = "For example, if the extension provides a view function decorator add ``ensure_sync`` before calling the decorated function.";
        assert!(!only_an_example(ensure, "ensure_sync"));
        assert!(!only_an_example(
            "The largest_char function finds the largest char in a slice.",
            "largest_char"
        ));
        assert!(!only_an_example(
            "Like `X`, the `--env-file` option loads a file; `--env-file` wins.",
            "--env-file"
        ));
    }

    fn chunk(doc: &str, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#0"),
            doc: doc.into(),
            start: 0,
            end: 0,
            text: text.into(),
        }
    }

    /// The identifiers `named` finds in `c`, every one in one chunk.
    fn ids(c: &Chunk) -> Vec<String> {
        named(c, facts::facts(&c.text), |_| 1)
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    }

    #[test]
    fn a_links_target_is_no_identifier() {
        // Black: "[stdio mode](https://www.tldp.org/LDP/abs/html/special-chars.html)".
        let c = chunk(
            "usage.md",
            "Any tool can pipe code through Black using its [stdio mode](https://www.tldp.org/LDP/special-chars.html) \
                   and the `--stdin-filename` option for its file name.\n",
        );
        assert_eq!(ids(&c), ["--stdin-filename"]);
    }

    #[test]
    fn cross_references_and_lists_of_names_give_no_identifier() {
        // Flask's docs, as written in reST.
        let c = chunk(
            "web-security.rst",
            "To prevent this, set the :ref:`security-csp` response header and read ``X_FRAME_OPTIONS`` first.\n\n\
                   - ``TRAP_BAD_REQUEST_ERRORS``, ``TRAP_HTTP_EXCEPTIONS``,\n  ``APPLICATION_ROOT``, ``SESSION_COOKIE_DOMAIN``\n\n\
                   - ``JSON_AS_ASCII``, ``JSON_SORT_KEYS``, ``JSONIFY_MIMETYPE``, and\n    ``JSONIFY_PRETTYPRINT_REGULAR`` were removed.\n",
        );
        assert_eq!(ids(&c), ["X_FRAME_OPTIONS"]);
    }

    #[test]
    fn sentences_run_together_in_web_text_are_no_identifier() {
        // TREC DL 2020, a passage that lost the space and the capital after two full stops.
        let c = chunk(
            "8243793.txt",
            "Software-defined storage is managed by a policy layer in the storage.elated Terms \
                   of the SDS market grew in the year.he AR-15 rifle is a lighter version of the AR-10.\n",
        );
        assert_eq!(ids(&c), ["AR-15", "AR-10"]);
        // The same words in a page that marks its code are names.
        let c = chunk(
            "api.md",
            "Set `api.token` first; the storage.elated key is read after it.\n",
        );
        assert!(ids(&c).contains(&"storage.elated".to_string()), "{:?}", ids(&c));
        // Nor is an outline's section number a version.
        let c = chunk(
            "3080793.txt",
            "This text is a summary of a WHO report on diet. Section 5.6.3 Diet and dental disease, \
                   Influence of fluoride and the AR-15 rifle together.\n",
        );
        assert_eq!(ids(&c), ["AR-15"]);
    }

    #[test]
    fn rare_identifiers_come_with_the_fact_that_names_them_rarest_first() {
        let c = chunk(
            "troubleshooting.md",
            "## Locks\n\nA job that cannot take its lock within `lock.timeout` fails with TP-409 and \
                   `tide` exits with code 4. Raise `lock.timeout` when prunes of large repositories take longer than five minutes.\n",
        );
        let counts = |id: &str| match id {
            "TP-409" => 2,
            "lock.timeout" => 3,
            _ => 9,
        };
        let found = named(&c, facts::facts(&c.text), counts);
        let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
        // `lock.timeout` opens the second sentence, which is about it; TP-409 is named in
        // passing.
        assert_eq!(ids, ["lock.timeout", "TP-409"]);
        assert!(found[0].1.quote.starts_with("Raise"), "{:?}", found[0].1);
        assert!(found[1].1.quote.contains("TP-409"));
        assert!(gives("getting tp-409 on restore, why?", "TP-409"));
        assert!(!gives("why does my restore fail?", "TP-409"));
    }

    #[test]
    fn questions_written_in_the_other_order_go_to_their_identifiers() {
        let w = |q: &str, a: &str| Written {
            question: q.into(),
            search: fold(q),
            answer: a.into(),
        };
        let ids = ["tide forget --dry-run", "TP-507"];
        // The sample corpus's call: question 1 asked about fact 2's code and the other way round.
        let swapped = vec![
            w("What does TP-507 mean?", "backups fail"),
            w(
                "What is tide forget --dry-run used for?",
                "see what would be removed",
            ),
        ];
        let fixed = each_to_its_identifier(&ids, swapped);
        assert_eq!(fixed[0].question, "What is tide forget --dry-run used for?");
        assert_eq!(fixed[0].answer, "see what would be removed");
        assert_eq!(fixed[1].question, "What does TP-507 mean?");
        // In order already, or one question giving neither: unchanged.
        let one_lost = vec![w("What does TP-507 mean?", "a"), w("How do I prune?", "b")];
        let kept = each_to_its_identifier(&ids, one_lost);
        assert_eq!(kept[0].question, "What does TP-507 mean?");
        let in_order = vec![w("tide forget --dry-run?", "a"), w("TP-507?", "b")];
        assert_eq!(
            each_to_its_identifier(&ids, in_order)[0].question,
            "tide forget --dry-run?"
        );
    }

    #[test]
    fn an_identifier_is_put_back_as_written() {
        assert_eq!(
            as_written("getting tp-409 on restore, why?", "TP-409"),
            "getting TP-409 on restore, why?"
        );
        assert_eq!(
            as_written("what do i get when i click choose a tag", "Choose a tag"),
            "what do i get when i click Choose a tag"
        );
        // Already as written, or not there: unchanged.
        assert_eq!(as_written("TP-409 again?", "TP-409"), "TP-409 again?");
        assert_eq!(as_written("why does it fail?", "TP-409"), "why does it fail?");
    }
}
