//! `ragsynth calibrate` and the judges' standing in every command (issue 68): a judge runs only
//! where its kappa for the model in use clears 0.6 — in the person's `judge-calibration.json`
//! beside the set, or the built-in table — and each summary says which judges ran and why the
//! others did not.
//!
//! - With the stub server: generate's answers judge is off for a model nobody measured (the
//!   summary names the `calibrate` command), on with a user's file that gives it κ 0.9 (the
//!   stub is then asked to judge), off again at κ 0.3; `eval --answers` says the same of its
//!   judges.
//! - With the real local model SmolLM2: `calibrate` measures a judge on the shipped hand marks
//!   and keeps the kappa in the file `generate` then reads; the same file with a kappa above,
//!   then below the bar switches the judge on, then off, and the summary says so.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::{Value, json};

mod local_llm;
mod stub_llm;

fn ragsynth() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG").env_remove("RAGSYNTH_LLM");
    c
}

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs")
}

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Writes the records file `file` with one record: `judge` of `model` at `kappa`.
fn calibration(file: &Path, judge: &str, model: &str, kappa: f64) {
    let prompts = ragsynth::prompts::Prompts::load(None).unwrap();
    let record = json!({"judge": judge, "model": model, "prompt": prompts.id(&format!("judge_{judge}")),
        "n": 60, "accuracy": 0.9, "kappa": kappa, "measured": "2026-12-07T00:00:00Z", "marks": "a person's"});
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        file,
        json!({"ragsynth_calibration": 1, "records": [record]}).to_string(),
    )
    .unwrap();
}

/// Answers-judge requests the stub has received.
async fn judged(stub: &stub_llm::Stub) -> usize {
    stub.server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| String::from_utf8_lossy(&r.body).contains("<sentence>"))
        .count()
}

fn generate(set: &Path, journal: &Path, llm: &str, json: bool) -> String {
    let mut c = ragsynth();
    c.arg("generate")
        .arg(docs())
        .arg("-o")
        .arg(set)
        .args([
            "-n",
            "2",
            "--mix",
            "lookup=1",
            "--max-rounds",
            "1",
            "-q",
            "--llm",
            llm,
        ])
        .arg("--cache-dir")
        .arg(journal);
    if json {
        c.arg("--json");
    }
    ok(&c.output().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generate_runs_the_answers_judge_only_where_its_kappa_clears_the_bar() {
    let stub = stub_llm::Stub::start(Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("out/set.yaml");
    let file = dir.path().join("out/judge-calibration.json");

    // Never measured with this model: off, and the summary says what to run.
    let text = generate(&set, &dir.path().join("j0"), &stub.spec(), false);
    let expected = format!(
        "judge answers: not run, not calibrated for openai-compatible:stub: run `ragsynth calibrate --llm {} -o {}`",
        stub.spec(),
        file.display()
    );
    assert!(text.contains(&expected), "{text}");
    assert!(text.contains("judge answerable: not run"), "{text}");
    assert_eq!(judged(&stub).await, 0);

    // A user's calibration file beside the set, κ 0.9: the judge runs.
    calibration(&file, "answers", "openai-compatible:stub", 0.9);
    std::fs::remove_file(&set).ok();
    let summary: Value =
        serde_json::from_str(&generate(&set, &dir.path().join("j1"), &stub.spec(), true)).unwrap();
    let answers = summary["judges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["judge"] == "answers")
        .unwrap()
        .clone();
    assert_eq!(answers["calibrated"], true, "{answers}");
    assert_eq!(answers["source"], file.display().to_string(), "{answers}");
    assert_eq!(answers["why"], format!("κ 0.90 on 60 items ({})", file.display()));
    let asked = judged(&stub).await;
    assert!(asked > 0, "the judge was asked");
    assert!(summary["accepted"].as_u64().unwrap() > 0, "{summary:#}");

    // The same file at κ 0.3: off again, and why.
    calibration(&file, "answers", "openai-compatible:stub", 0.3);
    std::fs::remove_file(&set).ok();
    let text = generate(&set, &dir.path().join("j2"), &stub.spec(), false);
    assert!(
        text.contains("judge answers: not run, κ 0.30 with openai-compatible:stub is below the bar 0.6"),
        "{text}"
    );
    assert_eq!(judged(&stub).await, asked, "no judge request at κ 0.3");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_says_which_answer_judges_ran() {
    let stub = stub_llm::Stub::start(Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/answers");
    let set = dir.path().join("testset.yaml");
    let text = std::fs::read_to_string(fixtures.join("testset.yaml"))
        .unwrap()
        .replace(
            "root: ../../../corpora/docs",
            &format!("root: {}", docs().display()),
        );
    std::fs::write(&set, text).unwrap();
    calibration(
        &dir.path().join("judge-calibration.json"),
        "refused",
        "openai-compatible:stub",
        0.95,
    );
    let out = ok(&ragsynth()
        .arg("eval")
        .arg(&set)
        .arg("--answers")
        .arg(fixtures.join("answers.jsonl"))
        .args(["--llm", &stub.spec(), "--cache-dir"])
        .arg(dir.path().join("journal"))
        .output()
        .unwrap());
    assert!(out.contains("refused: ran, κ 0.95 on 60 items"), "{out}");
    assert!(
        out.contains(
            "correct: not run, not calibrated for openai-compatible:stub: run `ragsynth calibrate --llm"
        ),
        "{out}"
    );
    assert!(out.contains("grounded: not run"), "{out}");
    assert!(out.contains("refused   4 asked"), "{out}");
    assert!(
        !out.lines()
            .any(|l| l.trim_start().starts_with("correct") && l.contains(" asked,")),
        "correct was not asked: {out}"
    );
}

#[test]
fn calibrate_checks_its_arguments() {
    let o = ragsynth()
        .args(["calibrate", "--judge", "wise", "--no-cache"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--judge wise: no such judge; the judges are answerable, supported, answers, correct, refused, grounded"), "{err}");
    let o = ragsynth()
        .args(["calibrate", "--squad", "/nonexistent/squad.json", "--no-cache"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("/nonexistent/squad.json"), "{err}");
    let o = ragsynth()
        .args(["calibrate", "--llm", "ollama:qwen", "--batch", "--no-cache"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("ollama has no batch API"), "{err}");
}

#[test]
fn calibrate_keeps_the_kappa_generate_then_reads() {
    if !local_llm::local_llm_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out/judge-calibration.json");
    let journal = dir.path().join("journal");
    let out = ok(&ragsynth()
        .args([
            "calibrate",
            "--llm",
            "llamacpp:smollm2",
            "--judge",
            "answers",
            "--limit",
            "6",
            "--json",
            "-o",
        ])
        .arg(&file)
        .arg("--cache-dir")
        .arg(&journal)
        .output()
        .unwrap());
    let report: Value = serde_json::from_str(&out).unwrap();
    let model = "llamacpp:SmolLM2-135M-Instruct.Q4_1";
    assert_eq!(report["model"], model);
    let rows = report["rows"].as_array().unwrap();
    let sources: Vec<&str> = rows.iter().map(|r| r["source"].as_str().unwrap()).collect();
    assert_eq!(sources, ["hand marks", "all"], "{report:#}");
    let all = &rows[1];
    assert_eq!(
        all["agreement"]["n"].as_u64().unwrap() + all["lost"].as_u64().unwrap(),
        6,
        "{all}"
    );
    // Six items alternating true and false: three of each, less any reply lost.
    assert!(all["truly_yes"].as_u64().unwrap() <= 3, "{all}");
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let record = &kept["records"][0];
    assert_eq!(
        (record["judge"].as_str(), record["model"].as_str()),
        (Some("answers"), Some(model))
    );
    assert_eq!(record["kappa"], all["agreement"]["kappa"]);
    assert!(
        record["marks"].as_str().unwrap().contains("hand marks"),
        "{record}"
    );

    // A rerun is answered from the journal.
    let again: Value = serde_json::from_str(&ok(&ragsynth()
        .args([
            "calibrate",
            "--llm",
            "llamacpp:smollm2",
            "--judge",
            "answers",
            "--limit",
            "6",
            "--json",
            "--dry-run",
            "-o",
        ])
        .arg(&file)
        .arg("--cache-dir")
        .arg(&journal)
        .output()
        .unwrap()))
    .unwrap();
    assert_eq!(again["rows"], report["rows"]);
    assert!(again["saved"].is_null());

    // generate reads the kept kappa: the judge runs exactly when it clears the bar.
    let set = dir.path().join("out/set.yaml");
    let summary: Value =
        serde_json::from_str(&generate(&set, &dir.path().join("j"), "llamacpp:smollm2", true)).unwrap();
    let answers = summary["judges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["judge"] == "answers")
        .unwrap()
        .clone();
    assert_eq!(answers["source"], file.display().to_string(), "{answers}");
    assert_eq!(answers["kappa"], record["kappa"], "{answers}");
    let clears = record["kappa"].as_f64().is_some_and(|k| k >= 0.6);
    assert_eq!(answers["calibrated"], clears, "{answers}");

    // The same file with the kappa a person measured above, then below the bar: the judge is
    // switched on, then off, and the summary says so.
    for (kappa, line) in [
        (0.85, "judge answers: ran, κ 0.85 on 60 items".to_string()),
        (
            0.2,
            format!("judge answers: not run, κ 0.20 with {model} is below the bar 0.6"),
        ),
    ] {
        calibration(&file, "answers", model, kappa);
        std::fs::remove_file(&set).ok();
        let text = generate(&set, &dir.path().join("j"), "llamacpp:smollm2", false);
        assert!(text.contains(&line), "{text}");
    }
}
