//! Measures the answers-the-question judge (`judge::answers_request`: "by this sentence, is the
//! reference answer what the question asks for?") against labelled public data
//! (`scripts/calibrate-answers-judge.sh` runs it; docs/benchmarks.md quotes it).
//!
//! Items, built from crowd questions of XQuAD (English) and SQuAD 2.0's "Normans" article:
//! - right: a question, its own answer, and the sentence holding that answer;
//! - wrong: the same question with the answer of *another* question of the same paragraph, and
//!   the sentence holding that other answer — the same sentence when another question's answer
//!   stands in it (the neighbouring clause a generator picks: "How did Jonas pay for the Team
//!   plan?" → "by deleting the wrong folder"), else the other answer's own sentence;
//! - a few made by hand from cases generation wrote (`HAND`).
//!
//! Sets: `tune` — XQuAD articles 0–23, where the prompt was worded; `held-out` — XQuAD
//! articles 24–47 and the SQuAD 2.0 article, never looked at while wording it; `hand`.
//! Prints accuracy and Cohen's kappa per set and kind. Answers are journaled, so a rerun is
//! free.
//!
//!   cargo run --release --example calibrate_answers_judge -- [--llm SPEC] [--cache-dir DIR]
//!       [--set tune|held-out|hand|all] [--limit N (questions per source)] [--offset N (skip the
//!       first N)] [--prompts DIR] [--show]

#[path = "calibration/mod.rs"]
mod calibration;

use std::collections::BTreeMap;

use calibration::{agreement, connect, data_dir, flag};
use futures::{StreamExt, stream};
use ragsynth::judge::{self, AnswersReply};
use ragsynth::prompts::Prompts;
use serde_json::Value;
use unicode_segmentation::UnicodeSegmentation;

/// One labelled case for the judge.
struct Item {
    set: &'static str,
    kind: &'static str,
    question: String,
    answer: String,
    fact: String,
    truth: bool,
}

/// Cases generation wrote on the sample corpus and a public book, marked by hand.
const HAND: &[(&str, &str, &str, bool)] = &[
    (
        "How did Jonas Øvergaard pay for the Team plan?",
        "by deleting the wrong folder",
        "The Team plan paid for itself the first time someone deleted the wrong folder.",
        false,
    ),
    (
        "What happens when you concatenate two strings in Rust?",
        "The result is a new string that contains the contents of both original strings",
        "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.",
        false,
    ),
    (
        "What does `let s3 = s1 + &s2;` do with s1?",
        "It takes ownership of s1",
        "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.",
        true,
    ),
    (
        "What is an example of the bad state in error handling?",
        "user entering data in the wrong format",
        "We'll work through an example of what we mean in “Encoding States and Behavior as Types” in Chapter 18.",
        false,
    ),
    (
        "How long are snapshots kept on the Community plan?",
        "30 days",
        "On the Community plan, snapshots older than 30 days are forgotten at the next prune regardless of the policy.",
        true,
    ),
    (
        "Which plans have no age limit on snapshots?",
        "Team and Business",
        "Team and Business have no age limit.",
        true,
    ),
    (
        "How many agents did Jonas Øvergaard's company replace its backup scripts with?",
        "twelve agents",
        "We replaced three different backup scripts with one Tidepool server and twelve agents.",
        true,
    ),
    (
        "How many backup scripts did Tidepool replace at Fjordlys Arkitekter?",
        "twelve",
        "We replaced three different backup scripts with one Tidepool server and twelve agents.",
        false,
    ),
];

/// Byte ranges of the sentences of `text`.
fn sentences(text: &str) -> Vec<std::ops::Range<usize>> {
    text.split_sentence_bound_indices()
        .map(|(i, s)| i..i + s.len())
        .collect()
}

/// The sentences `start..end` touches, as one text.
fn sentence_of(text: &str, spans: &[std::ops::Range<usize>], start: usize, end: usize) -> String {
    let from = spans.iter().find(|s| s.contains(&start)).map_or(0, |s| s.start);
    let to = spans
        .iter()
        .find(|s| s.contains(&(end.max(start + 1) - 1)))
        .map_or(text.len(), |s| s.end);
    text[from..to].trim().to_string()
}

/// A SQuAD-format paragraph's answered questions: (question, answer, byte start).
fn answered(p: &Value, context: &str) -> Vec<(String, String, usize)> {
    p["qas"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|q| !q["is_impossible"].as_bool().unwrap_or(false))
        .filter_map(|q| {
            let a = &q["answers"][0];
            let text = a["text"].as_str()?.to_string();
            // SQuAD offsets count characters.
            let chars = a["answer_start"].as_u64()? as usize;
            let start = context.char_indices().nth(chars).map(|(b, _)| b)?;
            // An answer written twice in its paragraph may be labelled at the other place.
            (context[start..].starts_with(&text) && context.matches(text.as_str()).count() == 1)
                .then_some(())?;
            Some((q["question"].as_str()?.to_string(), text, start))
        })
        .collect()
}

/// One right and one wrong item per question of `paragraphs` (see the module doc).
fn items_of(set: &'static str, paragraphs: &[&Value], (offset, limit): (usize, usize), out: &mut Vec<Item>) {
    let mut n = 0;
    let mut seen = 0;
    for p in paragraphs {
        let context = p["context"].as_str().unwrap_or_default();
        let spans = sentences(context);
        let qas = answered(p, context);
        for (i, (q, a, start)) in qas.iter().enumerate() {
            if n >= limit {
                return;
            }
            let fact = sentence_of(context, &spans, *start, start + a.len());
            let distinct = |o: &String| {
                let (o, a) = (o.to_lowercase(), a.to_lowercase());
                !o.contains(&a) && !a.contains(&o)
            };
            let others: Vec<&(String, String, usize)> = qas
                .iter()
                .enumerate()
                .filter(|(j, (_, o, _))| *j != i && distinct(o))
                .map(|(_, x)| x)
                .collect();
            let same = others
                .iter()
                .find(|(_, o, s)| sentence_of(context, &spans, *s, s + o.len()) == fact);
            let Some((kind, (_, wrong, ws))) = same
                .map(|x| ("wrong, same sentence", *x))
                .or_else(|| others.first().map(|x| ("wrong, other sentence", *x)))
            else {
                continue;
            };
            seen += 1;
            if seen <= offset {
                continue;
            }
            n += 1;
            out.push(Item {
                set,
                kind: "right",
                question: q.clone(),
                answer: a.clone(),
                fact: fact.clone(),
                truth: true,
            });
            out.push(Item {
                set,
                kind,
                question: q.clone(),
                answer: wrong.clone(),
                fact: sentence_of(context, &spans, *ws, ws + wrong.len()),
                truth: false,
            });
        }
    }
}

fn paragraphs(v: &Value, articles: std::ops::Range<usize>) -> Vec<&Value> {
    v["data"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(i, _)| articles.contains(i))
        .flat_map(|(_, a)| a["paragraphs"].as_array().into_iter().flatten())
        .collect()
}

fn read_json(path: std::path::PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn build(which: &str, slice: (usize, usize)) -> Vec<Item> {
    let xquad = read_json(data_dir().join("xquad/xquad.en.json"));
    let squad = read_json(data_dir().join("squad2/squad2-normans.json"));
    let mut items = Vec::new();
    if matches!(which, "tune" | "all") {
        items_of("tune", &paragraphs(&xquad, 0..24), slice, &mut items);
    }
    if matches!(which, "held-out" | "all") {
        items_of("held-out", &paragraphs(&xquad, 24..48), slice, &mut items);
        items_of("held-out", &paragraphs(&squad, 0..usize::MAX), slice, &mut items);
    }
    if matches!(which, "hand" | "all") {
        for (q, a, f, truth) in HAND {
            items.push(Item {
                set: "hand",
                kind: if *truth { "right" } else { "wrong" },
                question: q.to_string(),
                answer: a.to_string(),
                fact: f.to_string(),
                truth: *truth,
            });
        }
    }
    items
}

fn main() {
    let which = flag("--set").unwrap_or_else(|| "all".into());
    let limit: usize = flag("--limit").and_then(|l| l.parse().ok()).unwrap_or(30);
    let offset: usize = flag("--offset").and_then(|l| l.parse().ok()).unwrap_or(0);
    let show = std::env::args().any(|a| a == "--show");
    let items = build(&which, (offset, limit));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let llm = connect().await;
        let prompts =
            Prompts::load(flag("--prompts").as_deref().map(std::path::Path::new)).expect("the templates");
        let context = llm.context_tokens().unwrap_or(judge::DEFAULT_CONTEXT);
        let started = std::time::Instant::now();
        let verdicts: Vec<(usize, Option<(bool, String)>)> = stream::iter(items.iter().enumerate())
            .map(|(i, it)| {
                let (llm, prompts) = (&llm, &prompts);
                async move {
                    let req = judge::answers_request(prompts, context, &it.question, &it.fact)
                        .expect("the template renders");
                    let v = llm.structured::<AnswersReply>(&req).await.ok();
                    (i, v.map(|r| (r.value.agrees(&it.answer), r.value.answer_text)))
                }
            })
            .buffer_unordered(llm.concurrency().max(1))
            .collect()
            .await;
        report(&items, &verdicts, show);
        println!(
            "\n{} ({:.0} s); prompt {}",
            llm.id(),
            started.elapsed().as_secs_f64(),
            prompts.id("judge_answers")
        );
        llm.shutdown().await;
    });
}

fn report(items: &[Item], verdicts: &[(usize, Option<(bool, String)>)], show: bool) {
    let mut by: BTreeMap<(&str, &str), Vec<(bool, bool)>> = BTreeMap::new();
    let mut lost = 0;
    for (i, v) in verdicts {
        let it = &items[*i];
        let Some((v, copy)) = v.clone() else {
            lost += 1;
            continue;
        };
        by.entry((it.set, "all")).or_default().push((it.truth, v));
        by.entry((it.set, it.kind)).or_default().push((it.truth, v));
        if show && v != it.truth {
            println!(
                "MISS [{}] {} | {} | copied {copy:?} | {}",
                it.kind, it.question, it.answer, it.fact
            );
        }
    }
    println!("| set | items | n | accuracy | kappa | says yes | truly yes |");
    println!("|---|---|---|---|---|---|---|");
    for ((set, kind), pairs) in &by {
        let (acc, kappa) = agreement(pairs);
        let yes = pairs.iter().filter(|(_, v)| *v).count();
        let truly = pairs.iter().filter(|(t, _)| *t).count();
        let kappa = if *kind == "all" {
            format!("{kappa:.2}")
        } else {
            "–".into()
        };
        println!(
            "| {set} | {kind} | {} | {acc:.2} | {kappa} | {yes} | {truly} |",
            pairs.len()
        );
    }
    println!("lost (no verdict): {lost}");
}
