//! A judged-answers workspace for `review --answers` and `eval --calibration`: the answers
//! fixture's test set copied into a folder of its own (the calibration record is written beside
//! it), its per-case file written by the real `ragsynth eval --answers --out` (lexical refusal
//! verdicts), then given `correct` and `grounded` verdicts as a judged run writes them, so that
//! every judge has something to mark.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::repo;

/// The `correct` and `grounded` verdicts added, by case id.
pub const ADDED: &[(&str, Option<bool>, Option<bool>)] = &[
    ("ret-prune", Some(true), Some(true)),
    ("plan-limit-error", Some(true), None),
    ("encrypt-and-price", Some(false), Some(true)),
];

/// Runs `ragsynth` with `args` (no LLM, whatever the environment names).
pub fn ragsynth(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .args(args)
        .env_remove("RAGSYNTH_LLM")
        .env_remove("RAGSYNTH_CONFIG")
        .output()
        .unwrap()
}

/// `(testset, per_question)` in `dir`.
pub fn judged_workspace(dir: &Path) -> (PathBuf, PathBuf) {
    let fixtures = repo().join("tests/fixtures/answers");
    let set = std::fs::read_to_string(fixtures.join("testset.yaml"))
        .unwrap()
        .replace(
            "root: ../../../corpora/docs",
            &format!("root: {}", repo().join("corpora/docs").display()),
        );
    let testset = dir.join("testset.yaml");
    std::fs::write(&testset, set).unwrap();
    let per_question = dir.join("per-question.jsonl");
    let out = ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--answers".as_ref(),
        fixtures.join("answers.jsonl").as_os_str(),
        "--out".as_ref(),
        per_question.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = std::fs::read_to_string(&per_question)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some((_, c, g)) = ADDED.iter().find(|(id, ..)| v["id"] == *id) {
                v["correct"] = (*c).into();
                v["grounded"] = (*g).into();
            }
            v.to_string()
        })
        .collect();
    std::fs::write(&per_question, lines.join("\n") + "\n").unwrap();
    (testset, per_question)
}

/// Accuracy and Cohen's kappa of `(verdict, label)` pairs, written out again here so the test
/// does not check the code with itself.
pub fn by_hand(pairs: &[(bool, bool)]) -> (f64, Option<f64>) {
    let n = pairs.len() as f64;
    let agree = pairs.iter().filter(|(v, l)| v == l).count() as f64 / n;
    let yes_v = pairs.iter().filter(|(v, _)| *v).count() as f64 / n;
    let yes_l = pairs.iter().filter(|(_, l)| *l).count() as f64 / n;
    let chance = yes_v * yes_l + (1.0 - yes_v) * (1.0 - yes_l);
    (agree, (chance < 1.0).then(|| (agree - chance) / (1.0 - chance)))
}
