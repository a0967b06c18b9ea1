//! `ragsynth eval --answers` through the real binary, on `tests/fixtures/answers`: the
//! judge-free figures computed by hand, unanswered cases listed and scored as wrong, strict
//! errors naming file and line, and the baseline gate.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/answers")
        .join(name)
}

fn eval(answers: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("ragsynth").unwrap();
    // No judges here, whatever the environment names.
    cmd.env_remove("RAGSYNTH_LLM")
        .arg("eval")
        .arg(fixture("testset.yaml"))
        .arg("--answers")
        .arg(answers)
        .args(extra);
    cmd
}

fn json(answers: &Path, extra: &[&str]) -> Value {
    let out = eval(answers, &[&["--format", "json"], extra].concat())
        .assert()
        .code(0);
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

fn close(v: &Value, want: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((got - want).abs() < 1e-9, "{got} != {want}");
}

#[test]
fn figures_match_the_hand_computed_squad_scores() {
    let r = json(&fixture("answers.jsonl"), &[]);
    // Dev split, five cases (references after SQuAD normalisation):
    //   ret-prune          "only after prune runs" vs "only when prune runs": 3 common of 4/4
    //                      tokens, P = R = 3/4, F1 0.75, EM 0;
    //   plan-limit-error   "tp403" vs "tp403" ("TP-403." and "tp-403"): EM 1, F1 1;
    //   encrypt-and-price  second reference "clientside encryption in agent" = prediction:
    //                      EM 1, F1 1 (the first reference alone gives F1 8/13);
    //   no-tape            unanswerable, "i dont know" is not empty: EM 0, F1 0; refused;
    //   no-glacier         unanswered: scored 0, not refused.
    // EM = 2/5, F1 = 2.75/5.
    let m = &r["metrics"];
    close(&m["exact_match"], 0.4);
    close(&m["f1"], 0.55);
    close(&m["refused_unanswerable"], 0.5);
    close(&m["refused_answerable"], 0.0);
    assert!(m.get("correct").is_none(), "no judge, no `correct`: {m}");
    assert_eq!(r["kind"], "answers");
    assert_eq!(r["unanswered"], serde_json::json!(["no-glacier"]));
    assert_eq!(r["other_split"], 1, "held-keep-daily is held out");
    let group = |tag: &str, value: &str| {
        r["by_tag"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["tag"] == tag && g["value"] == value)
            .unwrap_or_else(|| panic!("{tag}={value}"))
            .clone()
    };
    close(&group("type", "lookup")["metrics"]["f1"], 0.75);
    close(
        &group("type", "unanswerable")["metrics"]["refused_unanswerable"],
        0.5,
    );
    // source=real: ret-prune (F1 0.75) and no-glacier (0): 0.375.
    close(&group("source", "real")["metrics"]["f1"], 0.375);

    // Left out instead: four cases, EM 2/4, F1 2.75/4, the one unanswerable refused.
    let r = json(&fixture("answers.jsonl"), &["--skip-missing"]);
    close(&r["metrics"]["exact_match"], 0.5);
    close(&r["metrics"]["f1"], 0.6875);
    close(&r["metrics"]["refused_unanswerable"], 1.0);

    // Every split: held-keep-daily "17" vs "Roughly 17.": P 1, R 1/2, F1 2/3; EM 2/6.
    let r = json(&fixture("answers.jsonl"), &["--split", "all"]);
    close(&r["metrics"]["exact_match"], 2.0 / 6.0);
    close(&r["metrics"]["f1"], (2.75 + 2.0 / 3.0) / 6.0);
}

#[test]
fn an_empty_answer_is_the_right_abstention_and_out_has_one_line_per_case() {
    let dir = tempfile::tempdir().unwrap();
    let answers = dir.path().join("a.jsonl");
    std::fs::write(
        &answers,
        "{\"id\":\"no-tape\",\"answer\":\"\"}\n{\"id\":\"no-glacier\",\"answer\":\"Yes, with the glacier plugin.\"}\n",
    )
    .unwrap();
    let out = dir.path().join("per-question.jsonl");
    let r = json(&answers, &["--out", out.to_str().unwrap()]);
    let lines: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "every dev case, answered or not");
    let tape = lines.iter().find(|l| l["id"] == "no-tape").unwrap();
    assert_eq!(
        (tape["exact_match"].as_f64(), tape["refused"].as_bool()),
        (Some(1.0), Some(true))
    );
    let glacier = lines.iter().find(|l| l["id"] == "no-glacier").unwrap();
    assert_eq!(
        (glacier["f1"].as_f64(), glacier["refused"].as_bool()),
        (Some(0.0), Some(false))
    );
    let prune = lines.iter().find(|l| l["id"] == "ret-prune").unwrap();
    assert_eq!(
        (prune["answered"].as_bool(), prune["refused"].is_null()),
        (Some(false), true)
    );
    for key in ["correct", "grounded", "reasons"] {
        assert!(prune.get(key).is_some(), "{key} missing from {prune}");
    }
    close(&r["metrics"]["exact_match"], 1.0 / 5.0);
}

#[test]
fn bad_answer_files_are_errors_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "{\"id\":\"ret-prune\",\"answer\":\"x\"}\n{\"id\":\"nope\",\"answer\":\"x\"}\n",
            ":2: case `nope`: field `id`: no case of the test set has this id",
        ),
        (
            "{\"id\":\"ret-prune\",\"answer\":\"x\"}\n\n{\"id\":\"ret-prune\",\"answer\":\"y\"}\n",
            ":3: case `ret-prune`: field `id`: answered twice (first on line 1)",
        ),
        (
            "{\"id\":\"ret-prune\",\"answer\":\"x\"}\n{\"id\": \"no-tape\", \"answer\": \n",
            ":2:",
        ),
        (
            "{\"id\":\"ret-prune\"}\n",
            ":1: case `ret-prune`: field `answer`: missing",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("answers{i}.jsonl"));
        std::fs::write(&path, text).unwrap();
        let out = eval(&path, &[]).assert().code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        let expected = format!("{}{want}", path.display());
        assert!(
            stderr.contains(&expected),
            "{text:?}\nwant {expected}\ngot {stderr}"
        );
    }
}

#[test]
fn the_gate_fails_on_worse_answers_and_names_the_cases() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    eval(
        &fixture("answers.jsonl"),
        &["--save-baseline", baseline.to_str().unwrap()],
    )
    .assert()
    .code(0);
    let same = eval(
        &fixture("answers.jsonl"),
        &["--baseline", baseline.to_str().unwrap()],
    )
    .assert()
    .code(0);
    assert!(String::from_utf8_lossy(&same.get_output().stdout).contains("gate: pass"));

    // plan-limit-error now answered wrongly (EM and F1 1 -> 0: overall -0.2), no-tape
    // answered instead of refused (refused_unanswerable 0.5 -> 0).
    let worse = dir.path().join("worse.jsonl");
    let text = std::fs::read_to_string(fixture("answers.jsonl"))
        .unwrap()
        .replace("\"tp-403\"", "\"TP-500\"")
        .replace("I don't know.", "Yes, on LTO-8.");
    std::fs::write(&worse, text).unwrap();
    let out = eval(&worse, &["--baseline", baseline.to_str().unwrap()])
        .assert()
        .code(2);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(stdout.contains("gate: FAIL"), "{stdout}");
    for want in [
        "exact_match",
        "refused_unanswerable",
        "plan-limit-error  f1 1.0000 -> 0.0000",
        "no-tape  refusal 1.0000 -> 0.0000",
    ] {
        assert!(stdout.contains(want), "{want}: {stdout}");
    }

    // A retrieval baseline is not an answers baseline.
    let retrieval = dir.path().join("retrieval.json");
    std::fs::write(&retrieval, "{\"metrics\": {\"MRR\": 1.0}}").unwrap();
    let out = eval(
        &fixture("answers.jsonl"),
        &["--baseline", retrieval.to_str().unwrap()],
    )
    .assert()
    .code(1);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("not an answers report"));
}

#[test]
fn html_report_is_a_page_and_only_for_answers() {
    let out = eval(&fixture("answers.jsonl"), &["--format", "html"])
        .assert()
        .code(0);
    let page = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(page.starts_with("<!doctype html>") && page.trim_end().ends_with("</html>"));
    // The overall row and the unanswered case, marked as a miss.
    assert!(
        page.contains("<tr><td>all</td><td>5</td><td>0.4000</td><td>0.5500</td>"),
        "{page}"
    );
    assert!(page.contains("<tr class=\"miss\"><td>no-glacier</td>"), "{page}");

    let mut cmd = Command::cargo_bin("ragsynth").unwrap();
    let out = cmd
        .env_remove("RAGSYNTH_LLM")
        .arg("eval")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/tiny.qrels"))
        .arg("--run")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/tiny.run"))
        .args(["--format", "html"])
        .assert()
        .code(1);
    assert!(
        String::from_utf8_lossy(&out.get_output().stderr).contains("--format html is for answers reports")
    );
}
