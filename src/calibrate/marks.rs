//! The hand marks that ship with ragsynth as labelled items: cases generation wrote on public
//! documentation (Black, The Rust Programming Language, Flask, attrs, Click, Jinja), each marked
//! right or wrong by a person (`benches/correctness/*.marks.jsonl`, issue 26's benchmark; the
//! documents are each project's own, under their licences, and only the question, the answer and
//! the label's first 200 characters are kept).
//!
//! Only the cases a person marked right and that stand on one label (lookup, identifier) are
//! used: their question, answer and quote hold together, by the mark. A wrong mark says the case
//! fails *somewhere* (a vague question as often as a wrong answer), not which judge should catch
//! it, so it is no truth for any one judge. Each right case A is paired with another right case
//! B of the same corpus whose answer is not A's (neither holds the other) and does not stand in
//! A's quote; the items per judge, true then false:
//!
//! - `answers`: A's question, A's quote and answer; A's question, B's quote and answer;
//! - `supported`: A's question and answer with A's quote; A's question, B's answer, both quotes;
//! - `answerable`: A's question with A's quote; with the quote of the case of the same corpus that
//!   shares most words with the question (a look-alike passage, which holds no A answer);
//! - `correct`: A's answer against itself as reference; B's answer against A's;
//! - `refused`: a refusal ([`super::REFUSALS`], in turn); A's answer;
//! - `grounded`: A's answer with A's quote; B's answer with A's quote.
//!
//! Corpora are taken in turn, so a limit draws from all of them.

use super::{Item, REFUSALS, alternate, overlaps};

/// The marks files, by corpus.
const FILES: &[(&str, &str)] = &[
    (
        "black",
        include_str!("../../benches/correctness/black.marks.jsonl"),
    ),
    (
        "rustbook",
        include_str!("../../benches/correctness/rustbook.marks.jsonl"),
    ),
    (
        "flask",
        include_str!("../../benches/correctness/flask.marks.jsonl"),
    ),
    (
        "attrs",
        include_str!("../../benches/correctness/attrs.marks.jsonl"),
    ),
    (
        "click",
        include_str!("../../benches/correctness/click.marks.jsonl"),
    ),
    (
        "jinja",
        include_str!("../../benches/correctness/jinja.marks.jsonl"),
    ),
    (
        "black",
        include_str!("../../benches/correctness/answers-judge/black.marks.jsonl"),
    ),
    (
        "rustbook",
        include_str!("../../benches/correctness/answers-judge/rustbook.marks.jsonl"),
    ),
];

/// The source's name in reports.
pub const SOURCE: &str = "hand marks";

/// A right one-label case.
#[derive(Debug, Clone)]
struct Case {
    question: String,
    answer: String,
    quote: String,
}

/// The right one-label cases of each corpus, each (question, answer) once, in file order.
fn cases() -> Vec<Vec<Case>> {
    let mut corpora: Vec<(&str, Vec<Case>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (corpus, text) in FILES {
        for line in text.lines() {
            // The files are ours and checked by tests/correctness_marks.rs; a line that does not
            // parse is skipped rather than trusted.
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let text = |k: &str| v[k].as_str().unwrap_or("").trim().to_string();
            let case = Case {
                question: text("question"),
                answer: text("answer"),
                quote: text("quote"),
            };
            let one_label = matches!(v["type"].as_str(), Some("lookup" | "identifier"));
            if v["right"] != true
                || !one_label
                || case.answer.is_empty()
                || case.quote.is_empty()
                || !seen.insert((case.question.clone(), case.answer.clone()))
            {
                continue;
            }
            match corpora.iter_mut().find(|(c, _)| c == corpus) {
                Some((_, list)) => list.push(case),
                None => corpora.push((corpus, vec![case])),
            }
        }
    }
    corpora.into_iter().map(|(_, list)| list).collect()
}

/// Whether `b` can be the wrong partner of `a`: another answer, not standing in a's quote, and
/// a's answer not in b's quote.
fn partners(a: &Case, b: &Case) -> bool {
    !overlaps(&a.answer, &b.answer)
        && a.quote != b.quote
        && !a.quote.to_lowercase().contains(&b.answer.to_lowercase())
        && !b.quote.to_lowercase().contains(&a.answer.to_lowercase())
}

/// The words of `text` longer than three letters, lower-cased.
fn long_words(text: &str) -> std::collections::HashSet<String> {
    crate::text::words(text)
        .into_iter()
        .filter(|w| w.chars().count() > 3)
        .collect()
}

/// The items of every judge, corpora in turn (see the module doc).
pub fn items() -> Vec<Item> {
    let corpora = cases();
    // Per corpus, per judge: (true items, false items).
    let mut per: Vec<Vec<(Vec<Item>, Vec<Item>)>> = Vec::new();
    let mut refusal = 0usize;
    for list in &corpora {
        let mut judges: Vec<(Vec<Item>, Vec<Item>)> = vec![Default::default(); 6];
        for (i, a) in list.iter().enumerate() {
            let Some(b) = (1..list.len())
                .map(|k| &list[(i + k) % list.len()])
                .find(|b| partners(a, b))
            else {
                continue;
            };
            let words = long_words(&a.question);
            let lookalike = list
                .iter()
                .filter(|c| partners(a, c))
                .max_by_key(|c| long_words(&c.quote).intersection(&words).count())
                .unwrap_or(b);
            let item = |judge, answer: &str, passages: Vec<&str>, truth| Item {
                judge,
                source: SOURCE.to_string(),
                question: a.question.clone(),
                answer: answer.to_string(),
                references: vec![a.answer.clone()],
                passages: passages.into_iter().map(str::to_string).collect(),
                truth,
            };
            let pairs = [
                (
                    item("answerable", "", vec![&a.quote], true),
                    item("answerable", "", vec![&lookalike.quote], false),
                ),
                (
                    item("supported", &a.answer, vec![&a.quote], true),
                    item("supported", &b.answer, vec![&a.quote, &b.quote], false),
                ),
                (
                    item("answers", &a.answer, vec![&a.quote], true),
                    item("answers", &b.answer, vec![&b.quote], false),
                ),
                (
                    item("correct", &a.answer, vec![], true),
                    item("correct", &b.answer, vec![], false),
                ),
                (
                    item("refused", REFUSALS[refusal % REFUSALS.len()], vec![], true),
                    item("refused", &a.answer, vec![], false),
                ),
                (
                    item("grounded", &a.answer, vec![&a.quote], true),
                    item("grounded", &b.answer, vec![&a.quote], false),
                ),
            ];
            refusal += 1;
            for (j, (yes, no)) in pairs.into_iter().enumerate() {
                judges[j].0.push(yes);
                judges[j].1.push(no);
            }
        }
        per.push(judges);
    }
    // Each judge's items alternate true and false, corpora in turn.
    let mut out = Vec::new();
    for j in 0..6 {
        let lists: Vec<Vec<Item>> = per
            .iter_mut()
            .map(|judges| {
                let (yes, no) = std::mem::take(&mut judges[j]);
                alternate(yes, no)
            })
            .collect();
        out.extend(in_turn(lists, 2));
    }
    out
}

/// `step` items of each list in turn until all are used.
fn in_turn(lists: Vec<Vec<Item>>, step: usize) -> Vec<Item> {
    let mut iters: Vec<_> = lists.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        for it in &mut iters {
            out.extend(it.by_ref().take(step));
        }
        if out.len() == before {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_judge_gets_balanced_items_from_every_corpus() {
        let items = items();
        for judge in crate::judge::kinds::JUDGES {
            let mine: Vec<&Item> = items.iter().filter(|i| i.judge == judge.name).collect();
            assert!(mine.len() >= 200, "{}: {}", judge.name, mine.len());
            let first: Vec<bool> = mine.iter().take(8).map(|i| i.truth).collect();
            assert_eq!(first, [true, false, true, false, true, false, true, false]);
            let yes = mine.iter().filter(|i| i.truth).count();
            assert_eq!(yes * 2, mine.len(), "{}", judge.name);
        }
        // The first 60 of a judge draw on every corpus.
        let questions: Vec<&str> = items
            .iter()
            .filter(|i| i.judge == "answers")
            .take(60)
            .map(|i| i.question.as_str())
            .collect();
        let corpora = cases();
        assert_eq!(corpora.len(), 6);
        for list in &corpora {
            assert!(list.iter().any(|c| questions.contains(&c.question.as_str())));
        }
    }

    #[test]
    fn a_wrong_item_never_holds_the_right_answer() {
        for i in items().iter().filter(|i| !i.truth) {
            if matches!(i.judge, "answers" | "grounded" | "correct") {
                assert!(!overlaps(&i.answer, &i.references[0]), "{i:?}");
            }
            if i.judge == "answerable" {
                assert!(
                    !i.passages[0]
                        .to_lowercase()
                        .contains(&i.references[0].to_lowercase()),
                    "{i:?}"
                );
            }
        }
    }
}
