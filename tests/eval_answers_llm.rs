//! `ragsynth eval --answers --llm` against the real local model (llama-server + SmolLM2): the
//! three judges are asked what they should be asked (no `correct` for a lexical refusal or an
//! unanswerable case, `grounded` only with contexts), their verdicts and reasons land in the
//! per-case file and their calls in the report, and a rerun is answered entirely from the LLM
//! journal with the same verdicts. SmolLM2-135M is a weak judge: this tests the plumbing and
//! determinism, not its verdicts (`ragsynth calibrate` measures those).
//! Skipped with a reason when the local model is not installed, unless
//! `RAGSYNTH_REQUIRE_LLM=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod local_llm;
use local_llm::local_llm_available;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/answers")
        .join(name)
}

/// The fixture set copied into `dir` (its corpus root made absolute), with a calibration file
/// beside it that lets `model`'s answer judges run: SmolLM2 is near chance at all three and the
/// stub was never measured, so without one `eval` would not run them (this tests the plumbing,
/// not the verdicts).
fn set_in(dir: &Path, model: &str) -> PathBuf {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs");
    let text = std::fs::read_to_string(fixture("testset.yaml")).unwrap().replace(
        "root: ../../../corpora/docs",
        &format!("root: {}", corpus.display()),
    );
    let set = dir.join("testset.yaml");
    std::fs::write(&set, text).unwrap();
    let prompts = ragsynth::prompts::Prompts::load(None).unwrap();
    let records: Vec<Value> = ["correct", "refused", "grounded"]
        .into_iter()
        .map(|judge| {
            serde_json::json!({"judge": judge, "model": model,
                "prompt": prompts.id(&format!("judge_{judge}")), "n": 40, "accuracy": 0.9, "kappa": 0.8,
                "measured": "2026-12-01T00:00:00Z", "marks": "test"})
        })
        .collect();
    std::fs::write(
        dir.join("judge-calibration.json"),
        serde_json::json!({"ragsynth_calibration": 1, "records": records}).to_string(),
    )
    .unwrap();
    set
}

fn run(set: &Path, cache: &Path, out: &Path) -> (Value, Vec<Value>) {
    let output = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("eval")
        .arg(set)
        .arg("--answers")
        .arg(fixture("answers.jsonl"))
        .args(["--format", "json", "--llm", "llamacpp:smollm2", "--cache-dir"])
        .arg(cache)
        .arg("--out")
        .arg(out)
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let lines = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (report, lines)
}

#[test]
fn judges_run_once_and_a_rerun_is_served_from_the_journal() {
    if !local_llm_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let set = set_in(dir.path(), "llamacpp:SmolLM2-135M-Instruct.Q4_1");
    let (first, cases) = run(&set, &cache, &dir.path().join("first.jsonl"));
    let judges = &first["judges"];
    assert!(
        judges["standing"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["calibrated"] == true && c["why"].as_str().unwrap().contains("judge-calibration.json")),
        "{judges}"
    );
    // refused: the four answered dev cases; correct: the three answerable ones (none is a
    // lexical refusal); grounded: the two lines with contexts.
    assert_eq!(
        judges["asked"],
        serde_json::json!({"correct": 3, "grounded": 2, "refused": 4}),
        "{judges}"
    );
    let lost: u64 = judges["lost"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    let usage = &judges["usage"];
    assert!(usage["calls"].as_u64().unwrap() >= 9, "{usage}");
    assert_eq!(usage["cache_hits"], 0, "{usage}");
    assert!(first["metrics"].get("correct").is_some(), "{}", first["metrics"]);

    let by_id = |id: &str| cases.iter().find(|c| c["id"] == id).unwrap().clone();
    let tape = by_id("no-tape");
    assert!(
        tape["correct"].is_null(),
        "unanswerable: no correct verdict: {tape}"
    );
    assert!(
        tape["grounded"].is_null() && tape["refused"].is_boolean(),
        "{tape}"
    );
    let glacier = by_id("no-glacier");
    assert!(
        glacier["refused"].is_null() && glacier["reasons"] == serde_json::json!({}),
        "{glacier}"
    );
    let prune = by_id("ret-prune");
    if lost == 0 {
        for key in ["correct", "refused", "grounded"] {
            assert!(prune[key].is_boolean(), "{key}: {prune}");
            assert!(prune["reasons"][key].is_string(), "{key}: {prune}");
        }
    }
    let limit = by_id("plan-limit-error");
    assert!(
        limit["grounded"].is_null(),
        "no contexts, no grounded verdict: {limit}"
    );

    // The same command again: nothing asked, the same verdicts.
    let (again, cases2) = run(&set, &cache, &dir.path().join("again.jsonl"));
    assert_eq!(again["judges"]["usage"]["calls"], 0, "{}", again["judges"]);
    assert_eq!(again["judges"]["usage"]["cache_hits"], usage["calls"]);
    assert_eq!(cases2, cases);
    assert_eq!(again["metrics"], first["metrics"]);
}

/// A provider that keeps failing stops the evaluation with an error (exit 1) that says the
/// judges did not finish, instead of a report with verdicts silently missing.
#[tokio::test(flavor = "multi_thread")]
async fn a_failing_provider_is_an_error_not_a_partial_report() {
    use wiremock::matchers::any;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(503))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let set = set_in(dir.path(), "openai-compatible:stub");
    let output = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("eval")
        .arg(&set)
        .arg("--answers")
        .arg(fixture("answers.jsonl"))
        .arg("--llm")
        .arg(format!("openai-compatible:stub@{}/v1", server.uri()))
        .args(["--llm-retries", "0", "--cache-dir"])
        .arg(dir.path())
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the answer judges did not finish"), "{stderr}");
    assert!(output.stdout.is_empty(), "no report on stdout");
}
