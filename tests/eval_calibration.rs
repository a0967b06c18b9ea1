//! `ragsynth eval --calibration` and `review --answers` through the real binary, without a
//! browser: marks written as a person's page writes them give the agreement computed by hand,
//! the record is kept beside the test set and shown by the next report, and bad input (unknown
//! ids, malformed lines, no marks yet, another set's per-case file) is an error naming the file
//! and line, exit 1.

mod review_support;

use std::path::Path;

use review_support::judged::{by_hand, judged_workspace, ragsynth};
use review_support::repo;
use serde_json::Value;

fn calibrate(testset: &Path, per_question: &Path, format: &str) -> std::process::Output {
    ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--calibration".as_ref(),
        per_question.as_os_str(),
        "--format".as_ref(),
        format.as_ref(),
    ])
}

fn mark(id: &str, judge: &str, verdict: bool, right: bool) -> String {
    let word = if right { "right" } else { "wrong" };
    format!("{{\"id\":\"{id}\",\"judge\":\"{judge}\",\"verdict\":{verdict},\"mark\":\"{word}\"}}\n")
}

fn fails_with(out: &std::process::Output, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(want), "wanted {want:?} in: {err}");
}

#[test]
fn marks_give_the_kappa_by_hand_and_the_next_report_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let (testset, pq) = judged_workspace(dir.path());
    // Refusal verdicts (lexical): ret-prune no, plan-limit-error no, encrypt-and-price no,
    // no-tape yes. Marks: right, wrong, right, right -> labels no, yes, no, yes.
    let marks = [
        mark("ret-prune", "refused", false, true),
        mark("plan-limit-error", "refused", false, false),
        mark("encrypt-and-price", "refused", false, true),
        mark("no-tape", "refused", true, true),
        mark("ret-prune", "correct", true, true),
    ]
    .concat();
    std::fs::write(dir.path().join("per-question.marks.jsonl"), marks).unwrap();
    let out = calibrate(&testset, &pq, "json");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let refused = &r["judges"][1];
    let (accuracy, kappa) = by_hand(&[(false, false), (false, true), (false, false), (true, true)]);
    // p_o 3/4; p_e 1/4·2/4 + 3/4·2/4 = 1/2; kappa 1/2.
    assert_eq!(
        (refused["n"].as_u64(), refused["agree"].as_u64()),
        (Some(4), Some(3))
    );
    assert!((refused["accuracy"].as_f64().unwrap() - accuracy).abs() < 1e-12);
    assert!((refused["kappa"].as_f64().unwrap() - kappa.unwrap()).abs() < 1e-12);
    assert!((kappa.unwrap() - 0.5).abs() < 1e-12);
    // One pair, (yes, yes): chance agreement is 1, so kappa is undefined, not 0 or 1.
    let correct = &r["judges"][0];
    assert_eq!(correct["n"], 1);
    assert!(correct["kappa"].is_null(), "{correct}");
    assert_eq!(r["judges"][2]["n"], 0);

    let text = String::from_utf8_lossy(&calibrate(&testset, &pq, "text").stdout).into_owned();
    assert!(
        text.contains("refused       4      3    0.7500   0.5000  lexical"),
        "{text}"
    );

    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("judge-calibration.json")).unwrap())
            .unwrap();
    let recs = record["records"].as_array().unwrap();
    assert_eq!(
        recs.len(),
        1,
        "only the refusal detector names who judged: {record}"
    );
    assert_eq!(
        (recs[0]["judge"].as_str(), recs[0]["model"].as_str()),
        (Some("refused"), Some("lexical"))
    );

    let report = ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--answers".as_ref(),
        repo().join("tests/fixtures/answers/answers.jsonl").as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert!((report["calibration"]["refused"]["kappa"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert_eq!(report["calibration"]["refused"]["n"], 4);

    // Without a record the report says so.
    std::fs::remove_file(dir.path().join("judge-calibration.json")).unwrap();
    let text = ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--answers".as_ref(),
        repo().join("tests/fixtures/answers/answers.jsonl").as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("lexical refused judge: not calibrated"), "{text}");

    // A broken records file is a warning naming it, not a failed evaluation.
    std::fs::write(dir.path().join("judge-calibration.json"), "{\"records\": [1]}").unwrap();
    let out = ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--answers".as_ref(),
        repo().join("tests/fixtures/answers/answers.jsonl").as_os_str(),
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("judge-calibration.json:1:"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("lexical refused judge: not calibrated"));
}

#[test]
fn bad_marks_and_files_are_errors_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let (testset, pq) = judged_workspace(dir.path());
    let marks = dir.path().join("per-question.marks.jsonl");

    fails_with(
        &calibrate(&testset, &pq, "text"),
        "no marks yet; mark the verdicts first: ragsynth review --answers",
    );

    std::fs::write(
        &marks,
        mark("ret-prune", "refused", false, true) + &mark("nope", "refused", true, true),
    )
    .unwrap();
    fails_with(
        &calibrate(&testset, &pq, "text"),
        "per-question.marks.jsonl:2: case `nope`: field `id`: no case of the marked file has this id",
    );

    std::fs::write(
        &marks,
        mark("ret-prune", "refused", false, true) + "\n{\"id\": \"no-tape\",\n",
    )
    .unwrap();
    fails_with(&calibrate(&testset, &pq, "text"), "per-question.marks.jsonl:3:");

    std::fs::write(
        &marks,
        "{\"id\":\"no-tape\",\"judge\":\"refused\",\"verdict\":true,\"mark\":\"maybe\"}\n",
    )
    .unwrap();
    fails_with(
        &calibrate(&testset, &pq, "text"),
        "per-question.marks.jsonl:1: case `no-tape`: field `mark`",
    );

    // A server does not start on a marks file it cannot read either.
    let out = ragsynth(&["review".as_ref(), "--answers".as_ref(), pq.as_os_str()]);
    fails_with(&out, "per-question.marks.jsonl:1: case `no-tape`: field `mark`");

    // The per-case file of another test set.
    std::fs::write(&marks, "").unwrap();
    let other = dir.path().join("other.jsonl");
    std::fs::write(
        &other,
        "{\"id\":\"ret-prune\",\"refused\":false}\n{\"id\":\"elsewhere\",\"refused\":true}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("other.marks.jsonl"), "").unwrap();
    fails_with(
        &calibrate(&testset, &other, "text"),
        "other.jsonl:2: case `elsewhere`: no case of",
    );

    // A malformed per-case file, for both commands.
    std::fs::write(
        &other,
        "{\"id\":\"ret-prune\",\"refused\":false}\n{\"id\":\"no-tape\",\"refused\":\"yes\"}\n",
    )
    .unwrap();
    fails_with(
        &calibrate(&testset, &other, "text"),
        "other.jsonl:2: case `no-tape`: field `refused`: must be true, false or null",
    );
    let out = ragsynth(&["review".as_ref(), "--answers".as_ref(), other.as_os_str()]);
    fails_with(&out, "other.jsonl:2: case `no-tape`: field `refused`");
}
