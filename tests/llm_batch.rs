//! `--batch` against a local server that implements the documented batch endpoints (real ones
//! cost money): results out of order, one request expired, and `kill -9` of ragsynth while a
//! batch runs. The rerun collects the journaled batch instead of resubmitting (0 requests
//! submitted twice, the expired one aside, which goes into the next batch), loses no result (the
//! same set as a run never killed), and a third run replays the journal with 0 calls and no
//! request to the server at all. Anthropic's Message Batches are driven through `calibrate`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod stub_llm;
use stub_llm::batch::{BatchStub, Flavor};

fn ragsynth() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY");
    c
}

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs")
}

/// A folder with the config (polls every 0.2 s) and a calibration file that lets the stub's
/// answers judge run, so a run has two stages: the questions, then the judge.
fn workspace(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let config = dir.join("ragsynth.toml");
    std::fs::write(&config, "[llm]\nbatch_poll_secs = 0.2\n").unwrap();
    let prompts = ragsynth::prompts::Prompts::load(None).unwrap();
    let record = json!({"judge": "answers", "model": "openai-compatible:stub", "prompt": prompts.id("judge_answers"),
        "n": 60, "accuracy": 0.9, "kappa": 0.9, "measured": "2026-12-07T00:00:00Z", "marks": "test"});
    std::fs::write(
        dir.join("out/judge-calibration.json"),
        json!({"ragsynth_calibration": 1, "records": [record]}).to_string(),
    )
    .unwrap();
    config
}

fn generate(dir: &Path, llm: &str) -> Command {
    let mut c = ragsynth();
    c.arg("--config")
        .arg(dir.join("ragsynth.toml"))
        .arg("generate")
        .arg(docs())
        .arg("-o")
        .arg(dir.join("out/set.yaml"))
        .args([
            "-n",
            "4",
            "--mix",
            "lookup=1",
            "--max-rounds",
            "1",
            "--json",
            "--batch",
            "--llm",
            llm,
        ])
        .arg("--cache-dir")
        .arg(dir.join("journal"));
    c
}

fn finish(mut c: Command) -> (Value, String) {
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (serde_json::from_slice(&o.stdout).unwrap(), err)
}

fn questions(dir: &Path) -> Vec<String> {
    let set = ragsynth::testset::load(&dir.join("out/set.yaml")).unwrap();
    let mut q: Vec<String> = set.cases.iter().map(|c| c.question.clone()).collect();
    q.sort();
    q
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_batch_run_collects_its_batches_and_loses_nothing() {
    // A run never killed, for the set to expect.
    let reference_stub = BatchStub::start(Flavor::OpenAi, Duration::from_millis(300)).await;
    let reference = tempfile::tempdir().unwrap();
    workspace(reference.path());
    let (summary, progress) = finish(generate(reference.path(), &reference_stub.spec()));
    let expected = questions(reference.path());
    assert!(!expected.is_empty(), "{summary:#}");
    assert!(
        reference_stub.batches() >= 2,
        "one batch per stage: questions, then the judge"
    );
    assert!(progress.contains("batch batch_1: running"), "{progress}");
    assert!(progress.contains("batch batch_1: ended"), "{progress}");
    let expired = reference_stub.expired().unwrap();
    let resent = reference_stub
        .submitted()
        .iter()
        .filter(|id| **id == expired)
        .count();
    assert_eq!(resent, 2, "the expired request went into the next batch");
    assert!(summary["llm"]["retries"].as_u64().unwrap() >= 1, "{summary:#}");

    // The same run, killed while its first batch runs.
    let stub = BatchStub::start(Flavor::OpenAi, Duration::from_secs(3)).await;
    let dir = tempfile::tempdir().unwrap();
    workspace(dir.path());
    let mut child = generate(dir.path(), &stub.spec())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let index = dir.path().join("journal/batches.jsonl");
    let started = Instant::now();
    while !std::fs::read_to_string(&index).is_ok_and(|t| t.ends_with('\n')) {
        assert!(started.elapsed() < Duration::from_secs(60), "no batch journaled");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = stub.submitted();
    assert!(!killed.is_empty());
    assert_eq!(stub.batches(), 1, "killed while its first batch ran");

    let (summary, progress) = finish(generate(dir.path(), &stub.spec()));
    assert!(
        progress.contains("batch batch_1: collecting (submitted by an earlier run)"),
        "{progress}"
    );
    let expired = stub.expired().unwrap();
    let rerun = &stub.submitted()[killed.len()..];
    let again: Vec<&String> = rerun
        .iter()
        .filter(|id| killed.contains(id) && **id != expired)
        .collect();
    assert!(again.is_empty(), "resubmitted {} request(s)", again.len());
    assert_eq!(
        rerun.iter().filter(|id| **id == expired).count(),
        1,
        "the expired request goes into a later batch once"
    );
    assert_eq!(questions(dir.path()), expected, "no result lost");
    let calls = summary["llm"]["calls"].as_u64().unwrap();
    assert!(calls > 0, "{summary:#}");

    // The journal answers a third run: no call, no request to the server.
    let seen = stub.requests().await;
    std::fs::remove_file(dir.path().join("out/set.yaml")).unwrap();
    let (replayed, _) = finish(generate(dir.path(), &stub.spec()));
    assert_eq!(replayed["llm"]["calls"], 0, "{replayed:#}");
    assert!(
        replayed["llm"]["cache_hits"].as_u64().unwrap() >= calls,
        "{replayed:#}"
    );
    assert_eq!(stub.requests().await, seen, "no request at all");
    assert_eq!(questions(dir.path()), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_message_batches_through_calibrate() {
    let stub = BatchStub::start(Flavor::Anthropic, Duration::from_millis(500)).await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("ragsynth.toml");
    std::fs::write(&config, "[llm]\nbatch_poll_secs = 0.1\n").unwrap();
    let key = "sk-ant-test-7c1e93";
    let run = || {
        let mut c = ragsynth();
        c.arg("--config")
            .arg(&config)
            .args(["calibrate", "--llm", "anthropic:claude-haiku-4-5", "--batch"])
            .args(["--judge", "refused", "--limit", "6", "--json", "-o"])
            .arg(dir.path().join("out/judge-calibration.json"))
            .arg("--cache-dir")
            .arg(dir.path().join("journal"))
            .env("ANTHROPIC_BASE_URL", format!("{}/v1", stub.server.uri()))
            .env("ANTHROPIC_API_KEY", key);
        c
    };
    let (report, progress) = finish(run());
    let all = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source"] == "all")
        .unwrap()
        .clone();
    assert_eq!(all["agreement"]["n"], 6, "{report:#}");
    assert!(progress.contains("batch msgbatch_1: ended"), "{progress}");
    assert_eq!(stub.batches(), 2, "the expired request went into a second batch");
    assert_eq!(stub.submitted().len(), 7);
    assert!(stub.keys().iter().all(|k| k == key));
    // The key is sent, never written down.
    for entry in std::fs::read_dir(dir.path().join("journal")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!text.contains(key));
    }
    // A rerun is answered by the journal: no request at all.
    let seen = stub.requests().await;
    let (again, _) = finish(run());
    assert_eq!(again["rows"], report["rows"]);
    assert_eq!(stub.requests().await, seen);
}

#[test]
fn the_estimate_prices_a_batch_at_the_batch_rate() {
    let cost = |batch: bool| {
        let mut c = ragsynth();
        c.arg("generate").arg(docs()).args([
            "-o",
            "/nonexistent/out/set.yaml",
            "-n",
            "6",
            "--dry-run",
            "--json",
            "--llm",
            "openai:gpt-4o-mini",
        ]);
        if batch {
            c.arg("--batch");
        }
        let (summary, _) = finish(c);
        summary["llm"]["cost_usd"].as_f64().unwrap()
    };
    let (online, batched) = (cost(false), cost(true));
    assert!(online > 0.0);
    assert!((batched - online / 2.0).abs() < 1e-12, "{online} {batched}");
}
