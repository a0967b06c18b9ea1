//! `ragsynth check`: generate's checks on the cases of any set — hand-written, another tool's,
//! ours — saying per case which codes would turn it away. Each case is read as generate reads
//! the candidate it is about to write: its kind from its `type` tag, its labels' text from the
//! corpus, its language from its passage, and the cases before it as the run's earlier ones.
//! Unlike generate, which stops at the first check that fails, every check is run, so each can
//! be measured on its own (issue 67's people-written and corrupted cases).

use futures::{StreamExt, TryStreamExt, stream};
use serde::Serialize;

use super::candidate::{Accepted, Kind, Shape};
use super::checks::{self, Check, Screen, Skip, Stage};
use super::context::GenerateContext;
use super::verify::Dedup;
use crate::corpus::Corpus;
use crate::testset::{Case, Label, Source, TestSet};
use crate::workspace::ChunkedCorpus;

/// Which cases to check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Which {
    /// Every case.
    #[default]
    All,
    /// Real cases only.
    Real,
    /// Synthetic cases only.
    Synthetic,
}

/// What `ragsynth check` does.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Checks left out.
    pub skip: Skip,
    /// The cases checked.
    pub which: Which,
}

/// One check's hit on a case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The check (its code in JSON).
    pub code: Check,
    /// Its name.
    pub name: &'static str,
    /// What it found.
    pub detail: String,
}

/// What `ragsynth check` says of one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseVerdict {
    /// The case's id.
    pub id: String,
    /// Its `type` tag.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The codes that would turn it away, in the registry's order; empty when generate would
    /// accept it.
    pub codes: Vec<Check>,
    /// Each code with what it found.
    pub findings: Vec<Finding>,
    /// Review hints: checks that found something and turn nothing away (what generate writes
    /// into the case's `hints`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<Finding>,
    /// The type it was read as when it has no `type` tag (`lookup` with labels, `unanswerable`
    /// without).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_as: Option<&'static str>,
    /// Why the case could not be checked (a label outside the corpus, a real question waiting
    /// for its label), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<String>,
}

/// The whole report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckReport {
    /// One verdict per case checked, in set order.
    pub cases: Vec<CaseVerdict>,
    /// Checks that read what a finished case does not keep (construction, outcomes), or a judge
    /// not run, and so were not applied.
    pub not_run: Vec<Check>,
}

impl CheckReport {
    /// Cases generate would accept.
    pub fn accepted(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| c.codes.is_empty() && c.unchecked.is_none())
            .count()
    }

    /// Cases turned away by each check, in the registry's order.
    pub fn by_check(&self) -> Vec<(Check, usize)> {
        Check::ALL
            .iter()
            .map(|&c| (c, self.cases.iter().filter(|v| v.codes.contains(&c)).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// Runs every check that reads a case on the cases of `set`, with `ctx` built over its corpus.
/// The LLM judges run after, with a model ([`judge`]).
pub fn check_set(set: &TestSet, ctx: &GenerateContext<'_>, options: &CheckOptions) -> CheckReport {
    let mut seen = Dedup::default();
    let mut earlier: Vec<Accepted> = Vec::new();
    let mut cases = Vec::new();
    for case in set.cases.iter().filter(|c| wanted(c, options.which)) {
        let read_as = read_as(case);
        let verdict = match draft(case, ctx.corpus, ctx.chunks) {
            Err(why) => CaseVerdict {
                id: case.id.clone(),
                kind: case.tags.kind.clone(),
                codes: Vec::new(),
                findings: Vec::new(),
                hints: Vec::new(),
                read_as,
                unchecked: Some(why),
            },
            Ok(a) => {
                let mut found: Vec<(Check, String)> = checks::case_hits(&a, ctx, &options.skip).collect();
                let screen = Screen::new(a.kind, a.language, &options.skip);
                if let Err(c) = seen.check(&a.question, &screen) {
                    found.push((c, "an earlier case asks it".into()));
                }
                if let Some(c) = checks::against_accepted(&a, &earlier, &options.skip) {
                    found.push((c, "an earlier case asks it".into()));
                }
                seen.add(&a.question);
                found.sort_by_key(|(c, _)| *c);
                found.dedup_by_key(|(c, _)| *c);
                let hints = checks::case_hints(&a, ctx, &options.skip)
                    .map(|(code, detail)| Finding {
                        code,
                        name: code.name(),
                        detail,
                    })
                    .collect();
                earlier.push(a);
                CaseVerdict {
                    id: case.id.clone(),
                    kind: case.tags.kind.clone(),
                    codes: found.iter().map(|(c, _)| *c).collect(),
                    findings: found
                        .into_iter()
                        .map(|(code, detail)| Finding {
                            code,
                            name: code.name(),
                            detail,
                        })
                        .collect(),
                    hints,
                    read_as,
                    unchecked: None,
                }
            }
        };
        cases.push(verdict);
    }
    let not_run = Check::ALL
        .iter()
        .copied()
        .filter(|c| !options.skip.skips(*c))
        .filter(|c| matches!(c.info().stage, Stage::Construction | Stage::Judge))
        .collect();
    CheckReport { cases, not_run }
}

/// Runs the LLM judges on the cases no other check turned away, where the judge is calibrated
/// for `llm` (as generate runs them): the answers judge on lookups and identifiers
/// ([`Check::AnswersAnotherQuestion`]), the answerability judge over the keyword-search top
/// chunks on unanswerables ([`Check::CorpusAnswers`]). A judge that runs leaves `not_run`.
pub async fn judge(
    report: &mut CheckReport,
    set: &TestSet,
    ctx: &GenerateContext<'_>,
    llm: &crate::llm::Llm,
    options: &CheckOptions,
) -> Result<(), crate::llm::LlmError> {
    use super::ask;
    let answers = !options.skip.skips(Check::AnswersAnotherQuestion) && ask::calibrated(llm, ctx, "answers");
    let answerable = !options.skip.skips(Check::CorpusAnswers) && ask::calibrated(llm, ctx, "answerable");
    report.not_run.retain(|c| {
        !(answers && *c == Check::AnswersAnotherQuestion || answerable && *c == Check::CorpusAnswers)
    });
    let by_id: std::collections::HashMap<&str, &Case> =
        set.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    // The cases no other check turned away, asked as generate asks them: as many at once as the
    // model serves; the first fatal error stops the rest.
    let asked: Vec<(usize, Accepted)> = report
        .cases
        .iter()
        .enumerate()
        .filter(|(_, v)| v.codes.is_empty() && v.unchecked.is_none())
        .filter_map(|(i, v)| {
            let c = by_id.get(v.id.as_str())?;
            draft(c, ctx.corpus, ctx.chunks).ok().map(|a| (i, a))
        })
        .collect();
    let verdicts: Vec<(usize, Option<(Check, &str)>)> = stream::iter(asked)
        .map(|(i, a)| async move {
            let mut tally = super::candidate::Tally::default();
            let hit = match (a.kind, a.answer.as_deref()) {
                (Kind::Lookup | Kind::Identifier, Some(answer)) if answers && !a.relevant.is_empty() => {
                    let fact = super::verify::labels_text(&a.relevant);
                    ask::answers(llm, ctx, &a.question, answer, &fact, &mut tally)
                        .await
                        .map(|agreed| {
                            (agreed == Ok(false))
                                .then_some((Check::AnswersAnotherQuestion, "the judge answers otherwise"))
                        })
                }
                (Kind::Unanswerable, _) if answerable => {
                    let hits = ctx.index.search(&a.question, ctx.options.judge_top_k);
                    let passages: Vec<&crate::chunk::Chunk> =
                        hits.iter().map(|h| &ctx.chunks[h.doc]).collect();
                    ask::answerable(llm, ctx, &a.question, &passages, &mut tally)
                        .await
                        .map(|found| {
                            (found == Ok(true))
                                .then_some((Check::CorpusAnswers, "the judge finds an answer in the corpus"))
                        })
                }
                _ => Ok(None),
            };
            hit.map(|h| (i, h))
        })
        .buffer_unordered(llm.concurrency().max(1))
        .try_collect()
        .await?;
    for (i, hit) in verdicts {
        let Some((code, detail)) = hit else { continue };
        let verdict = &mut report.cases[i];
        verdict.codes.push(code);
        verdict.findings.push(Finding {
            code,
            name: code.name(),
            detail: detail.to_string(),
        });
    }
    Ok(())
}

/// Whether `case` is one `which` selects.
fn wanted(case: &Case, which: Which) -> bool {
    match which {
        Which::All => true,
        Which::Real => case.tags.source == Some(Source::Real),
        Which::Synthetic => case.tags.source == Some(Source::Synthetic),
    }
}

/// The type a case without a `type` tag is read as: a lookup when it has labels, unanswerable
/// when it has none; `None` for a case with its tag (or one that cannot be checked).
fn read_as(case: &Case) -> Option<&'static str> {
    let kind = if case.relevant.is_empty() {
        "unanswerable"
    } else {
        "lookup"
    };
    (case.question_type().is_none() && case.tags.kind.is_none()).then_some(kind)
}

/// `case` as generate holds the candidate it is about to write: its labels' quotes are the text
/// their spans cover in the corpus (generate's labels are so), its shape from its `identifier`,
/// `sides` or `hops` and `bridge`, its language its first label's chunk's (the corpus's main
/// language for a case with none). An error says why the case cannot be read so.
pub fn draft(case: &Case, corpus: &Corpus, chunks: &ChunkedCorpus) -> Result<Accepted, String> {
    if case.review == Some(crate::testset::Review::NeedsLabel) {
        return Err("a real question waiting for its label (review: needs_label)".into());
    }
    let kind = match (case.question_type(), &case.tags.kind) {
        (Some(kind), _) => kind,
        (None, Some(k)) => return Err(format!("unknown type `{k}`")),
        (None, None) if case.relevant.is_empty() => Kind::Unanswerable,
        (None, None) => Kind::Lookup,
    };
    let relevant = case
        .relevant
        .iter()
        .map(|l| spanned(l, corpus))
        .collect::<Result<Vec<Label>, String>>()?;
    let shape = match kind {
        Kind::Identifier => Shape::Identifier(case.identifier.clone().unwrap_or_default()),
        Kind::Comparison => Shape::Comparison(case.sides.clone().unwrap_or_default()),
        Kind::MultiHop => match (&case.hops, &case.bridge) {
            (Some(hops), Some(bridge)) => Shape::Bridge {
                hops: hops.clone(),
                bridge: bridge.clone(),
            },
            _ => Shape::Plain,
        },
        Kind::Lookup | Kind::Unanswerable => Shape::Plain,
    };
    let language = relevant
        .iter()
        .find_map(|l| chunks.overlapping(&l.doc, l.start, l.end).first().copied())
        .map(|i| chunks.language_of(i))
        .unwrap_or_else(|| {
            if chunks.is_empty() {
                crate::lang::detect_question(&case.question, case.answer.as_deref(), None)
            } else {
                chunks.language()
            }
        });
    Ok(Accepted {
        kind,
        question: case.question.clone(),
        phrasings: Vec::new(),
        answer: case.answer.clone().filter(|a| !a.trim().is_empty()),
        relevant,
        topic: case.tags.topic.clone(),
        prompt: String::new(),
        from: vec![case.id.clone()],
        created: None,
        shape,
        language,
        difficulty: None,
        hints: Vec::new(),
    })
}

/// `label` with the text its span covers as its quote, or why it covers none.
fn spanned(label: &Label, corpus: &Corpus) -> Result<Label, String> {
    let doc = corpus
        .doc(&label.doc)
        .ok_or_else(|| format!("its label names {}, which is not in the corpus", label.doc))?;
    let text: String = doc
        .text
        .chars()
        .skip(label.start)
        .take(label.end.saturating_sub(label.start))
        .collect();
    if text.is_empty() || label.end > label.start + text.chars().count() {
        return Err(format!(
            "its label's span {}..{} is outside {}",
            label.start, label.end, label.doc
        ));
    }
    Ok(Label {
        quote: text,
        ..label.clone()
    })
}
