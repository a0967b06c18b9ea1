//! The CI gate through the real binary: a run worse than the saved baseline beyond the
//! tolerance exits 2 and names the questions that regressed; an equal run exits 0; a broken
//! baseline file is an error (exit 1).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval")
        .join(name)
}

fn eval(run: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("ragsynth").unwrap();
    cmd.arg("eval")
        .arg(fixture("tiny.qrels"))
        .arg("--run")
        .arg(run)
        .args(extra);
    cmd
}

#[test]
fn worse_run_fails_the_gate_and_names_regressed_questions() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let per_question = dir.path().join("questions.jsonl");
    eval(&fixture("tiny.run"), &["--save-baseline"])
        .arg(&baseline)
        .arg("--out")
        .arg(&per_question)
        .assert()
        .code(0);
    let lines = std::fs::read_to_string(&per_question).unwrap();
    assert_eq!(
        lines.lines().count(),
        4,
        "one line per question, unanswerable included"
    );

    // Same run: passes.
    eval(&fixture("tiny.run"), &["--baseline"])
        .arg(&baseline)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("gate: pass"));

    // q2 now ranks a non-relevant document first: RR 1 -> 1/2 (MRR -0.167), q1 unchanged.
    let worse = dir.path().join("worse.run");
    let text = std::fs::read_to_string(fixture("tiny.run"))
        .unwrap()
        .replace("q2 Q0 d8 3 1.0", "q2 Q0 d8 3 9.0");
    std::fs::write(&worse, text).unwrap();
    let out = eval(&worse, &["--baseline"]).arg(&baseline).assert().code(2);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("gate: FAIL"), "{stdout}");
    assert!(stdout.contains("MRR") && stdout.contains("REGRESSED"), "{stdout}");
    assert!(
        stdout.contains("1 question(s) whose RR or recall@10 dropped"),
        "{stdout}"
    );
    assert!(stdout.contains("  q2  RR 1.0000 -> 0.5000"), "{stdout}");
    assert!(!stdout.contains("  q1  RR"), "{stdout}");

    // JSON says the same.
    let out = eval(&worse, &["--format", "json", "--baseline"])
        .arg(&baseline)
        .assert()
        .code(2);
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["comparison"]["failed"], true);
    assert_eq!(json["comparison"]["dropped_questions"][0]["id"], "q2");
    assert!(
        json["comparison"]["regressed"]
            .as_array()
            .unwrap()
            .contains(&"MRR".into())
    );

    // A tolerance wider than the drop passes, still listing the question.
    eval(&worse, &["--tolerance", "0.5", "--baseline"])
        .arg(&baseline)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("  q2  RR"));
}

#[test]
fn unreadable_baseline_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, "{\"not\": \"a report\"}").unwrap();
    eval(&fixture("tiny.run"), &["--baseline"])
        .arg(&baseline)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("field `metrics`"));
}
