//! The answer checks against the hand marks of the correctness benchmark
//! (benches/correctness/, issue 26), on the one-label cases (lookup, identifier: their mark's
//! quote is the whole label): each fault of [`answer_in_fact`] turns a candidate away in
//! `generate` and is a finding in the audit, so an answer a reviewer marked right must not
//! get one. The word-share test (`NotInFact`) is a heuristic with three known misses among
//! right answers (listed when run with `-- --nocapture`); every other
//! fault has none. The faults found among the wrong answers are printed.

use std::collections::BTreeSet;
use std::path::Path;

use ragsynth::lang::Language;
use ragsynth::wording::answer::{AnswerFault, answer_in_fact};

/// Right answers the word-share test turns away, known: "by passing email and username to the
/// function" (its label is the code of the call), "format lines from specified ranges in a
/// file" (its label is the example command), and "use B950 check instead of Flake8's E501"
/// (a marks file keeps a label's first 200 characters, and this one is cut before "Flake8's";
/// generate read the whole label and accepted it).
const KNOWN_NOT_IN_FACT_MISSES: usize = 3;

/// One marked case: question, answer, the label's quote, and whether it was right.
struct Mark {
    question: String,
    answer: String,
    quote: String,
    right: bool,
}

/// Every marks file under `dir` but the held-out half's (`heldout/`: no check is written or
/// tested from it, benches/correctness/README.md), every case with an answer and a quote, each
/// once.
fn marks(dir: &Path) -> Vec<Mark> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "heldout") {
                    continue;
                }
                stack.push(path);
            } else if path.to_string_lossy().ends_with(".marks.jsonl") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for file in files {
        for (n, line) in std::fs::read_to_string(&file).unwrap().lines().enumerate() {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), n + 1));
            let text = |k: &str| v[k].as_str().unwrap_or("").to_string();
            let (question, answer, quote) = (text("question"), text("answer"), text("quote"));
            let one_label = matches!(text("type").as_str(), "lookup" | "identifier");
            if !one_label
                || answer.is_empty()
                || quote.is_empty()
                || !seen.insert((question.clone(), answer.clone()))
            {
                continue;
            }
            let right = v["right"]
                .as_bool()
                .unwrap_or_else(|| panic!("{}:{}: no `right`", file.display(), n + 1));
            out.push(Mark {
                question,
                answer,
                quote,
                right,
            });
        }
    }
    out
}

#[test]
fn no_answer_marked_right_is_faulted_and_the_wrong_ones_caught_are_shown() {
    let all = marks(&Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/correctness"));
    assert!(
        all.len() >= 40,
        "expected the benchmark's marks, found {}",
        all.len()
    );
    let mut caught = 0;
    let mut misses = 0;
    let wrong = all.iter().filter(|m| !m.right).count();
    for m in &all {
        let fault = answer_in_fact(&m.question, &m.answer, &m.quote, Language::ENGLISH);
        match (&fault, m.right) {
            (Err(f @ AnswerFault::NotInFact { .. }), true) => {
                misses += 1;
                println!("right, turned away: {:?} → {:?}: {f}", m.question, m.answer);
            }
            (Err(f), true) => panic!("marked right but faulted: {:?} → {:?}: {f}", m.question, m.answer),
            (Err(f), false) => {
                caught += 1;
                println!("caught: {:?} → {:?}: {f}", m.question, m.answer);
            }
            _ => {}
        }
    }
    println!(
        "{} marked answers: {} right ({misses} turned away by the word share); {caught} of {wrong} wrong ones faulted",
        all.len(),
        all.len() - wrong
    );
    assert!(
        misses <= KNOWN_NOT_IN_FACT_MISSES,
        "{misses} right answers turned away by the word share"
    );
}

/// Runs a generate-only check over `marks`: panics when it turns away an answer marked right,
/// prints the wrong ones it turns away and returns how many.
fn turned_away(marks: &[&Mark], check: impl Fn(&Mark) -> Result<(), String>) -> usize {
    let mut caught = 0;
    for m in marks {
        match check(m) {
            Err(why) if m.right => panic!(
                "marked right but turned away: {:?} → {:?}: {why}",
                m.question, m.answer
            ),
            Err(why) => {
                caught += 1;
                println!("caught: {:?} → {:?}: {why}", m.question, m.answer);
            }
            Ok(()) => {}
        }
    }
    caught
}

/// Why-questions need a label that gives their answer as the reason for what they ask
/// (`generate`'s `why_without_reason`): none marked right is turned away, and the wrong ones
/// are — the default model's why-questions were wrong every time they were marked.
#[test]
fn a_why_question_needs_its_reason_and_none_marked_right_is_turned_away() {
    use ragsynth::wording::answer::reason::{asks_why, gives_the_reason};
    let all = marks(&Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/correctness"));
    let why: Vec<&Mark> = all.iter().filter(|m| asks_why(&m.question)).collect();
    let asked = why.len();
    let caught = turned_away(&why, |m| {
        gives_the_reason(&m.question, &m.answer, &m.quote, Language::ENGLISH)
    });
    println!("{caught} of {asked} marked why-questions turned away");
    assert!(asked >= 8, "expected the marked why-questions, found {asked}");
    assert!(caught * 10 >= asked * 8, "only {caught} of {asked} turned away");
}

/// An answer its label gives only under a condition needs a question that states it
/// (`generate`'s `condition_dropped`): none marked right is turned away, and the wrong ones
/// caught are shown.
#[test]
fn a_condition_left_out_turns_away_no_answer_marked_right() {
    use ragsynth::wording::answer::condition::states_the_condition;
    let all = marks(&Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/correctness"));
    let caught = turned_away(&all.iter().collect::<Vec<_>>(), |m| {
        states_the_condition(&m.question, &m.answer, &m.quote, Language::ENGLISH, &[])
    });
    println!("{caught} wrong answers turned away");
    assert!(caught >= 4, "only {caught} turned away");
}

/// A broad question ("what does Click aim to do") answered by a few words of its label's
/// sentence ("quick and fun") is half an answer (`generate`'s `half_answer`): none marked
/// right is turned away, and the wrong ones caught are shown.
#[test]
fn half_an_answer_to_a_broad_question_turns_away_no_answer_marked_right() {
    use ragsynth::wording::answer::partial::answers_in_full;
    let all = marks(&Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/correctness"));
    let caught = turned_away(&all.iter().collect::<Vec<_>>(), |m| {
        answers_in_full(&m.question, &m.answer, &m.quote, Language::ENGLISH)
    });
    println!("{caught} wrong answers turned away");
    assert!(caught >= 3, "only {caught} turned away");
}

/// A question that names a thing of the page by a description nothing resolves ("the file
/// handling function") does not stand alone (`generate`'s `not_standalone`, the audit's RS209):
/// no question marked right, of any type, is flagged, and the wrong ones caught are shown.
#[test]
fn no_question_marked_right_fails_to_stand_alone() {
    use ragsynth::wording::standalone::not_standalone;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/correctness");
    let (mut right, mut caught) = (0, 0);
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".marks.jsonl") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let question = v["question"].as_str().unwrap_or("").to_string();
            if !seen.insert(question.clone()) {
                continue;
            }
            let Some(at) = not_standalone(&question, Language::ENGLISH) else {
                continue;
            };
            if v["right"].as_bool() == Some(true) {
                right += 1;
                println!("marked right, flagged: {question:?} at {:?}", &question[at]);
            } else {
                caught += 1;
                println!("caught: {question:?} at {:?}", &question[at]);
            }
        }
    }
    println!("{caught} wrong questions flagged");
    assert_eq!(right, 0, "questions marked right flagged as not standing alone");
    assert!(caught >= 3, "only {caught} flagged");
}

/// Each sentence of a generated answer is held to its label as a one-sentence answer is
/// (`generate`'s last check, [`ragsynth::generate::verify::check_against_label`]): no answer of
/// several sentences marked right is turned away, and the wrong ones caught are shown.
#[test]
fn an_answer_of_several_sentences_marked_right_holds_in_each() {
    use ragsynth::generate::verify::check_against_label;
    let all = marks(&Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/correctness"));
    let several: Vec<&Mark> = all
        .iter()
        .filter(|m| m.answer.trim_end().trim_end_matches('.').contains(". ") || m.answer.contains('\n'))
        .collect();
    let caught = turned_away(&several, |m| {
        check_against_label(&m.question, &m.answer, &m.quote, Language::ENGLISH, &[])
            .map_err(|r| format!("{r:?}"))
    });
    println!(
        "{caught} of {} answers of several sentences turned away",
        several.len()
    );
    assert!(caught >= 1, "none turned away");
}
