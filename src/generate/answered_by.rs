//! Every passage that answers an accepted question, not only the one it was written from.
//!
//! A question written from one passage is labelled with that passage alone, while the corpus
//! often says the same thing elsewhere: real web queries in TREC DL 2020 have about twelve
//! judged relevant passages each. A set whose synthetic questions count only their source as
//! right rewards the retriever that finds the source's own words (keyword search, since the
//! question was written looking at them) and marks a dense retriever wrong for returning
//! another passage that answers just as well, so the synthetic part ranks systems unlike the
//! real part (issue 69: τ 0.14, the lexical winner, where real queries pick a dense one).
//!
//! So after a run, each accepted one-fact question (lookup, identifier) is labelled with the
//! other passages that answer it too. Candidates are pooled from the lexical index twice — by
//! the question's words and by the answer's — so a passage that states the answer in other
//! words than the question's is found as well; a candidate must have a statement holding at
//! least half of the answer's content words (a passage that answers states most of them), and
//! then the answers-the-question judge (the one that checks every case, κ 0.73 on held-out
//! marks with the default model) must copy from that statement words that agree with the
//! case's answer, as it did for the source. Only where that judge is calibrated for the model:
//! an unmeasured judge's word adds no label. Comparisons and multi-hop questions keep their
//! labels: each of their labels is one side or one hop, and a sibling would be neither.

use futures::{StreamExt, stream};

use super::ask;
use super::candidate::{Accepted, Kind, RunError, Tally};
use super::context::GenerateContext;
use crate::llm::Llm;
use crate::testset::Label;

/// Candidates taken from each of the two lexical searches.
const POOL: usize = 8;
/// Candidates judged per question at most (the ones sharing most of the answer's words): the
/// judge costs a call each, and a small local model writes a few tokens a second.
const JUDGED: usize = 4;

/// What the step added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Broadened {
    /// Questions that were looked at.
    pub questions: usize,
    /// Passages shown to the judge.
    pub judged: usize,
    /// Labels added.
    pub labels: usize,
    /// Questions that gained at least one label.
    pub gained: usize,
    /// LLM calls made (replayed answers included).
    pub calls: u64,
}

/// Whether a set's real questions are broad: its labelled real cases have two labelled
/// passages or more on average (TREC DL 2020's judged queries about twelve; a team's
/// hand-written set usually one). Only then are the synthetic ones broadened to match: each
/// judged passage costs a call, which a set of one-passage questions does not need.
pub fn wanted(set: &crate::testset::TestSet) -> bool {
    let labelled: Vec<usize> = set
        .cases
        .iter()
        .filter(|c| c.is_real() && !c.relevant.is_empty())
        .map(|c| c.relevant.len())
        .collect();
    !labelled.is_empty() && labelled.iter().sum::<usize>() >= 2 * labelled.len()
}

/// Labels each one-fact question of `accepted` with the other passages that answer it, where
/// the run broadens ([`wanted`]).
pub async fn label_all(
    llm: &Llm,
    ctx: &GenerateContext<'_>,
    accepted: &mut [Accepted],
) -> Result<Broadened, RunError> {
    let mut figures = Broadened::default();
    if !ctx.options.broaden || !ask::calibrated(llm, ctx, "answers") {
        return Ok(figures);
    }
    let found: Vec<_> = stream::iter(accepted.iter())
        .map(|a| also_answering(llm, ctx, a))
        .buffered(llm.concurrency().max(1))
        .collect()
        .await;
    for (a, result) in accepted.iter_mut().zip(found) {
        let Some((labels, judged, tally)) = result? else {
            continue;
        };
        figures.questions += 1;
        figures.judged += judged;
        figures.calls += tally.calls;
        figures.labels += labels.len();
        figures.gained += usize::from(!labels.is_empty());
        a.relevant.extend(labels);
    }
    Ok(figures)
}

/// The labels of the passages besides `a`'s own that answer it, how many were judged, and the
/// calls; `None` for a question this step leaves alone.
async fn also_answering(
    llm: &Llm,
    ctx: &GenerateContext<'_>,
    a: &Accepted,
) -> Result<Option<(Vec<Label>, usize, Tally)>, RunError> {
    let (Kind::Lookup | Kind::Identifier, Some(answer)) = (a.kind, a.answer.as_deref()) else {
        return Ok(None);
    };
    if a.relevant.is_empty() {
        return Ok(None);
    }
    let mut tally = Tally::default();
    let mut labels = Vec::new();
    let candidates = candidates(ctx, a, answer);
    let judged = candidates.len();
    for (chunk, statement) in candidates {
        let chunk = &ctx.chunks[chunk];
        // A lost verdict adds no label.
        let agrees = ask::answers(llm, ctx, &a.question, answer, &statement, &mut tally)
            .await?
            .unwrap_or(false);
        if agrees && let Ok(label) = ask::label_in(ctx, chunk, &statement) {
            labels.push(label);
        }
    }
    Ok(Some((labels, judged, tally)))
}

/// The passages worth judging for `a`: pooled from the index by the question and by the
/// answer, not already labelled, each with its statement that holds most of the answer's
/// content words (at least half of them); the best `JUDGED`, most answer words first, then
/// the order found.
fn candidates(ctx: &GenerateContext<'_>, a: &Accepted, answer: &str) -> Vec<(usize, String)> {
    let analyzer = a.language.analyzer();
    let mut wanted = analyzer.content_terms(answer);
    wanted.sort_unstable();
    wanted.dedup();
    if wanted.is_empty() {
        return Vec::new();
    }
    let own = ctx.chunks.labelled(&a.relevant);
    let mut pool: Vec<usize> = Vec::new();
    let by_question = ctx.index.search(&a.question, POOL);
    let by_answer = ctx.index.search(answer, POOL);
    // Interleaved, so neither search crowds the other out of the judged few.
    for i in 0..POOL {
        for hits in [&by_question, &by_answer] {
            if let Some(h) = hits.get(i)
                && !own.contains(&h.doc)
                && !pool.contains(&h.doc)
            {
                pool.push(h.doc);
            }
        }
    }
    let mut scored: Vec<(usize, usize, String)> = pool
        .into_iter()
        .filter_map(|i| {
            let (held, statement) = ctx
                .facts(&ctx.chunks[i])
                .into_iter()
                .map(|f| {
                    let terms = analyzer.content_terms(&f.quote);
                    (wanted.iter().filter(|w| terms.contains(w)).count(), f.quote)
                })
                .max_by_key(|(held, _)| *held)?;
            (2 * held >= wanted.len() && held > 0).then_some((i, held, statement))
        })
        .collect();
    scored.sort_by_key(|(_, held, _)| std::cmp::Reverse(*held)); // stable: ties keep pool order
    scored.truncate(JUDGED);
    scored.into_iter().map(|(i, _, s)| (i, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::generate::candidate::Shape;
    use crate::lang::Language;
    use crate::testset::{Label, TestSet};

    /// Pages in path order: the source, a page saying the same in other words, a page on the
    /// subject without the answer, and one with the answer's words on another subject.
    fn corpus() -> Corpus {
        let pages = [
            (
                "a-source.md",
                "# Storage\n\nQuail eggs keep for seven days before incubation starts.\n",
            ),
            (
                "b-sibling.md",
                "# Hatching\n\nStore the eggs no longer than seven days, cool, before you set them.\n",
            ),
            (
                "c-subject.md",
                "# Quail\n\nQuail eggs are speckled and small; incubation takes weeks.\n",
            ),
            (
                "d-other.md",
                "# Returns\n\nRefunds are paid within seven days of the request.\n",
            ),
        ];
        let mut corpus = Corpus::of_one_page(pages[0].0, pages[0].1);
        for (path, text) in &pages[1..] {
            let mut d = corpus.docs[0].clone();
            d.path = (*path).into();
            d.text = (*text).into();
            corpus.docs.push(d);
        }
        corpus
    }

    fn lookup(corpus: &Corpus, question: &str, answer: &str) -> Accepted {
        let fact = "Quail eggs keep for seven days before incubation starts.";
        let start = corpus.docs[0].text.find(fact).unwrap();
        Accepted {
            kind: Kind::Lookup,
            question: question.into(),
            phrasings: Vec::new(),
            answer: Some(answer.into()),
            relevant: vec![Label::spanning("a-source.md", start, fact)],
            topic: None,
            prompt: String::new(),
            from: Vec::new(),
            created: None,
            shape: Shape::Plain,
            language: Language::ENGLISH,
            difficulty: None,
            hints: Vec::new(),
        }
    }

    #[test]
    fn a_set_is_broadened_where_its_real_questions_have_several_passages() {
        let case = |n: usize| {
            let mut c = crate::testset::Case::new(format!("r{n}"), "q");
            c.tags.source = Some(crate::testset::Source::Real);
            c.relevant = (0..n).map(|i| Label::spanning("a.md", i, "x")).collect();
            c
        };
        let mut set = TestSet::default();
        assert!(!wanted(&set), "no real question");
        set.cases = vec![case(1), case(1), case(2)];
        assert!(!wanted(&set), "mostly one passage");
        set.cases = vec![case(1), case(12), case(3)];
        assert!(wanted(&set), "TREC DL 2020's kind");
    }

    #[test]
    fn candidates_state_the_answer_and_are_not_the_source() {
        let corpus = corpus();
        let chunks = crate::workspace::ChunkedCorpus::new(Some(&corpus), &Default::default()).unwrap();
        let prompts = crate::prompts::Prompts::load(None).unwrap();
        let set = TestSet::default();
        let ctx = GenerateContext::new(&corpus, &chunks, &prompts, &set, Default::default(), None);
        let a = lookup(
            &corpus,
            "how long can quail eggs be stored before incubation",
            "seven days",
        );
        let found = candidates(&ctx, &a, "seven days");
        let mut docs: Vec<&str> = found.iter().map(|(i, _)| chunks[*i].doc.as_str()).collect();
        docs.sort_unstable();
        // The source is labelled already; the page on quail without the answer has no statement
        // with the answer's words. The refund page has them and is left to the judge, which
        // copies nothing that answers a question about eggs from it.
        assert_eq!(docs, ["b-sibling.md", "d-other.md"]);
        let sibling = found
            .iter()
            .find(|(i, _)| chunks[*i].doc == "b-sibling.md")
            .unwrap();
        assert!(sibling.1.contains("no longer than seven days"), "{}", sibling.1);
        // An answer of function words only gives nothing to look for.
        assert!(candidates(&ctx, &a, "the").is_empty());
    }
}
