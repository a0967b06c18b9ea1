//! Measures the answer judges of `eval --answers --llm` (`correct`, `refused`, `grounded`)
//! against answers whose truth is known, built from SQuAD 2.0's "Normans" article
//! (`../shared/data/squad2`):
//!
//! - `correct`: each answerable question with its first reference answer (true) and with
//!   another question's answer from the same paragraph (false);
//! - `refused`: right answers and made-up answers (false), and refusals in varied wording
//!   (true), half of them phrasings the lexical detector does not list; the lexical detector is
//!   scored on the same items;
//! - `grounded`: right answers with their paragraph (true), and made-up answers to the
//!   unanswerable questions — an answer taken from another paragraph that this one does not
//!   contain — with the paragraph (false).
//!
//! Items alternate true and false, so `--limit N` (items per judge) stays balanced. Prints
//! accuracy and Cohen's kappa per judge; answers are journaled, so a rerun is free.
//!
//!   cargo run --release --example calibrate_answer_judges -- [--llm SPEC] [--cache-dir DIR] [--limit N]
//!       [--judges correct,refused,grounded] [--prompts DIR] [--offset N] [--show-misses]
//!
//! `--judges` measures only the judges named; `--prompts DIR` reads the judges' templates from
//! DIR where it has them (as `eval --prompts` does), to try a wording without a rebuild;
//! `--offset N` skips the first N items of each judge (keep it even), so a wording tuned on the
//! first items can be checked on others it was never tried on; `--show-misses` prints each
//! verdict that differs from the truth, with the judge's reason, on stderr.

#[path = "calibration/mod.rs"]
mod calibration;

use std::collections::BTreeMap;

use calibration::{agreement, connect, data_dir, flag};
use futures::{StreamExt, stream};
use ragsynth::eval::answers::judged::{Verdict, ask};
use ragsynth::eval::answers::refusal;
use ragsynth::judge::{self, Passage};
use ragsynth::prompts::Prompts;
use serde_json::Value;

/// One answer with its known verdict.
struct Item {
    verdict: Verdict,
    question: String,
    references: Vec<String>,
    answer: String,
    context: String,
    truth: bool,
}

/// Refusals as systems write them; the second half is not in the lexical detector's list.
const REFUSALS: &[&str] = &[
    "I don't know.",
    "The provided context does not mention this.",
    "I cannot answer that from the documents.",
    "There is not enough information to answer.",
    "Sorry, that isn't something these passages tell me.",
    "The sources are silent on this point.",
    "That detail is missing from what I was given.",
    "I have nothing in my documents about that.",
];

/// Items per judge, alternating true and false.
fn items() -> BTreeMap<Verdict, Vec<Item>> {
    let path = data_dir().join("squad2/squad2-normans.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let d: Value = serde_json::from_str(&text).expect("SQuAD JSON");
    let paragraphs: Vec<&Value> = d["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|a| a["paragraphs"].as_array().into_iter().flatten())
        .collect();
    let first_answers: Vec<Vec<String>> = paragraphs
        .iter()
        .map(|p| {
            p["qas"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|q| q["answers"][0]["text"].as_str().map(str::to_string))
                .collect()
        })
        .collect();
    let (mut yes, mut no): (BTreeMap<Verdict, Vec<Item>>, BTreeMap<Verdict, Vec<Item>>) = Default::default();
    let mut refusal_turn = 0usize;
    for (pi, p) in paragraphs.iter().enumerate() {
        let context = p["context"].as_str().unwrap_or_default().to_string();
        for q in p["qas"].as_array().into_iter().flatten() {
            let question = q["question"].as_str().unwrap_or_default().to_string();
            let golds: Vec<String> = q["answers"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|a| a["text"].as_str().map(str::to_string))
                .collect();
            let item = |verdict, answer: &str, truth| Item {
                verdict,
                question: question.clone(),
                references: golds.clone(),
                answer: answer.to_string(),
                context: context.clone(),
                truth,
            };
            let mut refusal = || {
                refusal_turn += 1;
                REFUSALS[refusal_turn % REFUSALS.len()]
            };
            if let Some(right) = golds.first() {
                let lower: Vec<String> = golds.iter().map(|g| g.to_lowercase()).collect();
                let wrong = first_answers[pi].iter().find(|o| {
                    let o = o.to_lowercase();
                    lower
                        .iter()
                        .all(|g| !o.contains(g.as_str()) && !g.contains(o.as_str()))
                });
                yes.entry(Verdict::Correct)
                    .or_default()
                    .push(item(Verdict::Correct, right, true));
                if let Some(wrong) = wrong {
                    no.entry(Verdict::Correct)
                        .or_default()
                        .push(item(Verdict::Correct, wrong, false));
                }
                no.entry(Verdict::Refused)
                    .or_default()
                    .push(item(Verdict::Refused, right, false));
                yes.entry(Verdict::Refused)
                    .or_default()
                    .push(item(Verdict::Refused, refusal(), true));
                yes.entry(Verdict::Grounded)
                    .or_default()
                    .push(item(Verdict::Grounded, right, true));
            } else {
                // Made up: an answer from another paragraph that this one does not contain.
                let made_up = (1..paragraphs.len())
                    .map(|k| &first_answers[(pi + k * 7) % paragraphs.len()])
                    .flat_map(|answers| answers.iter())
                    .find(|a| !context.to_lowercase().contains(&a.to_lowercase()));
                if let Some(made_up) = made_up {
                    no.entry(Verdict::Grounded)
                        .or_default()
                        .push(item(Verdict::Grounded, made_up, false));
                    no.entry(Verdict::Refused)
                        .or_default()
                        .push(item(Verdict::Refused, made_up, false));
                }
                yes.entry(Verdict::Refused)
                    .or_default()
                    .push(item(Verdict::Refused, refusal(), true));
            }
        }
    }
    let mut out = BTreeMap::new();
    for v in [Verdict::Correct, Verdict::Refused, Verdict::Grounded] {
        let (y, n) = (
            yes.remove(&v).unwrap_or_default(),
            no.remove(&v).unwrap_or_default(),
        );
        let mut list = Vec::new();
        let (mut y, mut n) = (y.into_iter(), n.into_iter());
        loop {
            match (y.next(), n.next()) {
                (None, None) => break,
                (a, b) => list.extend(a.into_iter().chain(b)),
            }
        }
        out.insert(v, list);
    }
    out
}

fn row(name: &str, pairs: &[(bool, bool)], lost: usize) {
    let (acc, kappa) = agreement(pairs);
    let yes = pairs.iter().filter(|(_, v)| *v).count();
    let truly = pairs.iter().filter(|(t, _)| *t).count();
    println!(
        "| {name} | {} | {acc:.2} | {kappa:.2} | {yes} | {truly} | {lost} |",
        pairs.len()
    );
}

fn main() {
    let limit: usize = flag("--limit").and_then(|l| l.parse().ok()).unwrap_or(usize::MAX);
    let show_misses = std::env::args().any(|a| a == "--show-misses");
    let offset: usize = flag("--offset").and_then(|l| l.parse().ok()).unwrap_or(0);
    let judges = flag("--judges").unwrap_or_else(|| "correct,refused,grounded".into());
    let kept: Vec<Item> = items()
        .into_values()
        .flat_map(|list| list.into_iter().skip(offset).take(limit))
        .filter(|it| judges.split(',').any(|j| j.trim() == it.verdict.name()))
        .collect();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let llm = connect().await;
        let dir = flag("--prompts").map(std::path::PathBuf::from);
        let prompts = Prompts::load(dir.as_deref()).expect("the judges' templates");
        let context = llm.context_tokens().unwrap_or(judge::DEFAULT_CONTEXT);
        let started = std::time::Instant::now();
        let verdicts: Vec<(usize, Option<(bool, String)>)> = stream::iter(kept.iter().enumerate())
            .map(|(i, it)| {
                let (llm, prompts) = (&llm, &prompts);
                async move {
                    let refs: Vec<&str> = it.references.iter().map(String::as_str).collect();
                    let req = match it.verdict {
                        Verdict::Correct => judge::correct_request(prompts, &it.question, &refs, &it.answer),
                        Verdict::Refused => judge::refused_request(prompts, &it.question, &it.answer),
                        Verdict::Grounded => {
                            let passage = Passage {
                                doc: "",
                                text: &it.context,
                            };
                            judge::grounded_request(prompts, context, &it.question, &it.answer, &[passage])
                        }
                    }
                    .expect("the built-in templates render");
                    (i, ask(llm, &req, it.verdict).await.ok().flatten())
                }
            })
            .buffer_unordered(llm.concurrency().max(1))
            .collect()
            .await;
        let mut by: BTreeMap<Verdict, (Vec<(bool, bool)>, usize)> = BTreeMap::new();
        for (i, v) in verdicts {
            let e = by.entry(kept[i].verdict).or_default();
            match v {
                Some((v, reason)) => {
                    e.0.push((kept[i].truth, v));
                    if show_misses && v != kept[i].truth {
                        let it = &kept[i];
                        eprintln!(
                            "miss {}: truth {} verdict {v}: Q {:?} A {:?} ({reason})",
                            it.verdict.name(),
                            it.truth,
                            it.question,
                            it.answer
                        );
                    }
                }
                None => e.1 += 1,
            }
        }
        println!(
            "answer judges of {} on SQuAD 2.0 ({:.0} s)\n",
            llm.id(),
            started.elapsed().as_secs_f64()
        );
        println!("| judge | n | accuracy | kappa | says yes | truly yes | lost |");
        println!("|---|---|---|---|---|---|---|");
        for (v, (pairs, lost)) in &by {
            row(v.name(), pairs, *lost);
        }
        let lexical: Vec<(bool, bool)> = kept
            .iter()
            .filter(|it| it.verdict == Verdict::Refused)
            .map(|it| (it.truth, refusal::refused(&it.answer)))
            .collect();
        row("refused (lexical, no LLM)", &lexical, 0);
        let u = llm.usage().total;
        println!(
            "\n{} calls ({} from the journal), {} prompt + {} completion tokens",
            u.calls, u.cache_hits, u.prompt_tokens, u.completion_tokens
        );
        llm.shutdown().await;
    });
}
