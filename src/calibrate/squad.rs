//! Labelled public data in SQuAD's format (v2.0, or v1.1 as XQuAD ships it) as items: crowd
//! questions written beside a Wikipedia paragraph, with the answer's span, and in v2.0 questions
//! written to look answerable from a paragraph that does not answer them (`is_impossible`). The
//! user names the files (`calibrate --squad`); ragsynth carries none of them.
//!
//! Per judge, in the paragraphs' order (the constructions the built-in table was measured with):
//!
//! - `answerable`: every question with its own paragraph; true unless `is_impossible` (v2.0
//!   files only: in v1.1 every question is answerable, which measures nothing);
//! - `supported`: each answered question with its answer (true) and with the next answer of the
//!   same paragraph that neither holds nor is held by it (false), with the paragraph;
//! - `answers`: each answered question with its answer and the sentence holding it (true), and
//!   with another question's answer and that answer's sentence — the same sentence where another
//!   answer stands in it, the neighbouring clause a generator picks — (false);
//! - `correct`: each answered question's first answer against all its answers (true), another
//!   question's answer of the paragraph (false);
//! - `refused`: refusals in eight wordings (true), right answers and made-up ones (false);
//! - `grounded`: right answers with their paragraph (true), and for each unanswerable question an
//!   answer from another paragraph this one does not contain (false).
//!
//! A judge whose items in a file are all true (or all false) gets none from it.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_json::Value;
use unicode_segmentation::UnicodeSegmentation;

use super::{Item, REFUSALS, alternate, overlaps};
use crate::{Error, Result};

/// The files `paths` name: each file, and the `.json` files of each folder (sorted).
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Error::io(p, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json") && f.is_file())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(Error::Config(format!(
                    "{}: no .json file (give SQuAD-format files or a folder of them)",
                    p.display()
                )));
            }
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// One paragraph's questions.
struct Question {
    text: String,
    impossible: bool,
    /// Answer texts, the first being the one judged.
    answers: Vec<String>,
    /// Character offset of the first answer.
    start: Option<usize>,
}

struct Paragraph {
    context: String,
    questions: Vec<Question>,
}

/// The paragraphs of a SQuAD-format file, in order.
fn paragraphs(path: &Path) -> Result<Vec<Paragraph>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| Error::Parse {
        path: path.to_path_buf(),
        line: Some(e.line()),
        column: Some(e.column()),
        message: e.to_string(),
    })?;
    let not_squad = |what: &str| {
        Error::Config(format!(
            "{}: not SQuAD format: {what} (expected {{\"data\": [{{\"paragraphs\": [{{\"context\", \"qas\"}}]}}]}})",
            path.display()
        ))
    };
    let articles = v["data"].as_array().ok_or_else(|| not_squad("no `data` list"))?;
    let mut out = Vec::new();
    for article in articles {
        for p in article["paragraphs"].as_array().into_iter().flatten() {
            let context = p["context"]
                .as_str()
                .ok_or_else(|| not_squad("a paragraph without `context`"))?;
            let questions = p["qas"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|q| Question {
                    text: q["question"].as_str().unwrap_or_default().to_string(),
                    impossible: q["is_impossible"].as_bool().unwrap_or(false),
                    answers: q["answers"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|a| a["text"].as_str().map(str::to_string))
                        .collect(),
                    start: q["answers"][0]["answer_start"].as_u64().map(|s| s as usize),
                })
                .filter(|q| !q.text.is_empty())
                .collect();
            out.push(Paragraph {
                context: context.to_string(),
                questions,
            });
        }
    }
    Ok(out)
}

/// The items of every judge from the SQuAD-format file at `path`.
pub fn items(path: &Path) -> Result<Vec<Item>> {
    let source = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let paragraphs = paragraphs(path)?;
    let item = |judge, q: &Question, answer: &str, passages: Vec<String>, truth| Item {
        judge,
        source: source.clone(),
        question: q.text.clone(),
        answer: answer.to_string(),
        references: q.answers.clone(),
        passages,
        truth,
    };
    let mut per: Vec<Vec<Item>> = vec![Vec::new(); 6];
    // answerable, supported.
    for p in &paragraphs {
        for q in &p.questions {
            per[0].push(item("answerable", q, "", vec![p.context.clone()], !q.impossible));
        }
        let answered: Vec<&Question> = p
            .questions
            .iter()
            .filter(|q| !q.impossible && !q.answers.is_empty())
            .collect();
        for (i, q) in answered.iter().enumerate() {
            let a = &q.answers[0];
            per[1].push(item("supported", q, a, vec![p.context.clone()], true));
            let other = answered
                .iter()
                .cycle()
                .skip(i + 1)
                .take(answered.len() - 1)
                .map(|o| &o.answers[0])
                .find(|o| !overlaps(o, a));
            if let Some(wrong) = other {
                per[1].push(item("supported", q, wrong, vec![p.context.clone()], false));
            }
        }
    }
    per[2] = answers_items(&paragraphs, &item);
    let [correct, refused, grounded] = answer_judge_items(&paragraphs, &item);
    (per[3], per[4], per[5]) = (correct, refused, grounded);
    Ok(per
        .into_iter()
        .filter(|list| {
            let yes = list.iter().filter(|i| i.truth).count();
            yes > 0 && yes < list.len()
        })
        .flatten()
        .collect())
}

type MakeItem<'a> = dyn Fn(&'static str, &Question, &str, Vec<String>, bool) -> Item + 'a;

/// `answers`: right and wrong, question by question (see the module doc).
fn answers_items(paragraphs: &[Paragraph], item: &MakeItem<'_>) -> Vec<Item> {
    let mut out = Vec::new();
    for p in paragraphs {
        let context = p.context.as_str();
        let spans: Vec<Range<usize>> = context
            .split_sentence_bound_indices()
            .map(|(i, s)| i..i + s.len())
            .collect();
        // Answered questions whose answer stands once in the paragraph, at its offset: (question,
        // answer, byte start).
        let qas: Vec<(&Question, &str, usize)> = p
            .questions
            .iter()
            .filter(|q| !q.impossible)
            .filter_map(|q| {
                let text = q.answers.first()?;
                let start = context.char_indices().nth(q.start?).map(|(b, _)| b)?;
                (context[start..].starts_with(text.as_str()) && context.matches(text.as_str()).count() == 1)
                    .then_some((q, text.as_str(), start))
            })
            .collect();
        for (i, (q, a, start)) in qas.iter().enumerate() {
            let fact = sentence_of(context, &spans, *start, start + a.len());
            let others: Vec<&(&Question, &str, usize)> = qas
                .iter()
                .enumerate()
                .filter(|(j, (_, o, _))| *j != i && !overlaps(o, a))
                .map(|(_, x)| x)
                .collect();
            let same = others
                .iter()
                .find(|(_, o, s)| sentence_of(context, &spans, *s, s + o.len()) == fact);
            let Some((_, wrong, ws)) = same.or_else(|| others.first()).map(|x| **x) else {
                continue;
            };
            out.push(item("answers", q, a, vec![fact], true));
            let wrong_fact = sentence_of(context, &spans, ws, ws + wrong.len());
            out.push(item("answers", q, wrong, vec![wrong_fact], false));
        }
    }
    out
}

/// The sentences `start..end` (bytes) touches, as one text.
fn sentence_of(text: &str, spans: &[Range<usize>], start: usize, end: usize) -> String {
    let from = spans.iter().find(|s| s.contains(&start)).map_or(0, |s| s.start);
    let to = spans
        .iter()
        .find(|s| s.contains(&(end.max(start + 1) - 1)))
        .map_or(text.len(), |s| s.end);
    text[from..to].trim().to_string()
}

/// `correct`, `refused` and `grounded`, each alternating true and false (see the module doc).
fn answer_judge_items(paragraphs: &[Paragraph], item: &MakeItem<'_>) -> [Vec<Item>; 3] {
    let firsts: Vec<Vec<&str>> = paragraphs
        .iter()
        .map(|p| {
            p.questions
                .iter()
                .filter_map(|q| q.answers.first().map(String::as_str))
                .collect()
        })
        .collect();
    let (mut yes, mut no): ([Vec<Item>; 3], [Vec<Item>; 3]) = Default::default();
    let mut turn = 0usize;
    for (pi, p) in paragraphs.iter().enumerate() {
        let context = vec![p.context.clone()];
        for q in &p.questions {
            turn += 1;
            let refusal = REFUSALS[turn % REFUSALS.len()];
            if let Some(right) = q.answers.first() {
                let wrong = firsts[pi]
                    .iter()
                    .find(|o| q.answers.iter().all(|g| !overlaps(o, g)));
                yes[0].push(item("correct", q, right, vec![], true));
                if let Some(wrong) = wrong {
                    no[0].push(item("correct", q, wrong, vec![], false));
                }
                no[1].push(item("refused", q, right, vec![], false));
                yes[1].push(item("refused", q, refusal, vec![], true));
                yes[2].push(item("grounded", q, right, context.clone(), true));
            } else {
                // Made up: an answer from another paragraph that this one does not contain.
                let lower = p.context.to_lowercase();
                let made_up = (1..paragraphs.len())
                    .flat_map(|k| firsts[(pi + k * 7) % paragraphs.len()].iter())
                    .find(|a| !lower.contains(&a.to_lowercase()));
                if let Some(made_up) = made_up {
                    no[2].push(item("grounded", q, made_up, context.clone(), false));
                    no[1].push(item("refused", q, made_up, vec![], false));
                }
                yes[1].push(item("refused", q, refusal, vec![], true));
            }
        }
    }
    let [y0, y1, y2] = yes;
    let [n0, n1, n2] = no;
    [alternate(y0, n0), alternate(y1, n1), alternate(y2, n2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two paragraphs in SQuAD 2.0's format.
    const FILE: &str = r#"{"version": "v2.0", "data": [{"title": "T", "paragraphs": [
      {"context": "Rollo founded Normandy in 911. His son was William Longsword.",
       "qas": [
         {"question": "When was Normandy founded?", "is_impossible": false, "answers": [{"text": "911", "answer_start": 26}]},
         {"question": "Who was Rollo's son?", "is_impossible": false, "answers": [{"text": "William Longsword", "answer_start": 43}]},
         {"question": "When was Normandy lost?", "is_impossible": true, "answers": []}]},
      {"context": "The Seine flows through Rouen.",
       "qas": [{"question": "Which river flows through Rouen?", "is_impossible": false, "answers": [{"text": "The Seine", "answer_start": 0}]}]}
    ]}]}"#;

    #[test]
    fn each_judge_gets_its_construction() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mini.json");
        std::fs::write(&path, FILE).unwrap();
        let items = items(&path).unwrap();
        let of = |j: &str| -> Vec<(&str, &str, bool)> {
            items
                .iter()
                .filter(|i| i.judge == j)
                .map(|i| (i.question.as_str(), i.answer.as_str(), i.truth))
                .collect()
        };
        assert_eq!(
            of("answerable").iter().map(|x| x.2).collect::<Vec<_>>(),
            [true, true, false, true]
        );
        assert_eq!(
            of("supported")[..2],
            [
                ("When was Normandy founded?", "911", true),
                ("When was Normandy founded?", "William Longsword", false)
            ]
        );
        let answers: Vec<&Item> = items.iter().filter(|i| i.judge == "answers").collect();
        // The other answer stands in another sentence: that sentence is the wrong fact.
        assert_eq!(answers[0].passages, ["Rollo founded Normandy in 911."]);
        assert_eq!(answers[1].passages, ["His son was William Longsword."]);
        assert!(!answers[1].truth);
        let grounded = of("grounded");
        assert!(
            grounded.contains(&("When was Normandy lost?", "The Seine", false)),
            "{grounded:?}"
        );
        assert!(items.iter().all(|i| i.source == "mini.json"));
        // A v1.1 file (no unanswerable question) gives no answerability or groundedness items.
        std::fs::write(
            &path,
            FILE.replace(
                r#""is_impossible": true, "answers": []"#,
                r#""answers": [{"text": "911", "answer_start": 26}]"#,
            ),
        )
        .unwrap();
        let v1 = super::items(&path).unwrap();
        assert!(
            !v1.iter()
                .any(|i| i.judge == "answerable" || i.judge == "grounded")
        );
    }

    #[test]
    fn bad_files_name_themselves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        std::fs::write(&path, "{\"data\": 3}").unwrap();
        let e = items(&path).unwrap_err().to_string();
        assert!(e.contains("bad.json") && e.contains("not SQuAD format"), "{e}");
        std::fs::write(&path, "{\"data\": [").unwrap();
        assert!(items(&path).unwrap_err().to_string().contains("bad.json:1:"));
        let e = files(&[dir.path().join("missing")]).unwrap();
        assert!(items(&e[0]).unwrap_err().to_string().contains("missing"));
        let empty = tempfile::tempdir().unwrap();
        assert!(files(&[empty.path().to_path_buf()]).is_err());
    }
}
