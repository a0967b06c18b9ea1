//! Several writers on one test set: a person deciding on the review page while `generate` or
//! `audit --write` runs into the same file, and two batch commands overlapping. In either
//! order every writer's change ends up in the file, or the one that would drop another's
//! change refuses (exit 1, naming it) and writes nothing.
//!
//! `generate` and `audit --llm` talk to a stub model that answers after a delay, so the test
//! can act while they run; the stub's questions are trivial, the concurrency is the point.

mod review_support;
mod stub_llm;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use ragsynth::testset::{self, Review};
use rand::{Rng, SeedableRng};
use review_support::{ReviewServer, raw_request, repo, write_testset};
use serde_json::{Value, json};
use stub_llm::Stub;

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .current_dir(dir);
    c
}

/// `generate` of `n` lookups into `set`, one request at a time.
fn spawn_generate(dir: &Path, stub: &Stub, set: &Path, n: usize, seed: u64) -> Child {
    ragsynth(dir)
        .args(["generate"])
        .arg(repo().join("corpora/docs"))
        .arg("-o")
        .arg(set)
        .args([
            "-n",
            &n.to_string(),
            "--mix",
            "lookup=1",
            "--seed",
            &seed.to_string(),
        ])
        .args([
            "--json",
            "--quiet",
            "--llm",
            &stub.spec(),
            "--llm-concurrency",
            "1",
        ])
        .arg("--cache-dir")
        .arg(dir.join(format!("cache-generate-{seed}")))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `audit --write`, with the stub's judges when `stub` is given.
fn spawn_audit(dir: &Path, stub: Option<&Stub>, set: &Path) -> Child {
    let mut c = ragsynth(dir);
    c.args(["audit", "--write", "--format", "json"]).arg(set);
    if let Some(stub) = stub {
        // The stub's judges must run, to keep the audit busy: calibrated beside the set.
        let judges = ["answerable", "supported", "answers"];
        stub_llm::trust(set.parent().unwrap(), &["openai-compatible:stub"], &judges);
        c.args(["--llm", &stub.spec(), "--llm-concurrency", "1", "--cache-dir"])
            .arg(dir.join("cache-audit"));
    }
    c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

fn finish(child: Child, what: &str) -> Output {
    let out = child.wait_with_output().unwrap();
    let code = out.status.code();
    assert!(
        code == Some(0) || (what == "audit" && code == Some(2)),
        "{what} failed ({code:?}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Cases `generate` accepted, from its `--json` summary.
fn accepted(out: &Output) -> usize {
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    s["accepted"].as_u64().unwrap() as usize
}

/// The sample test set with no `audit` fields, so `audit --write` visibly adds them.
fn testset_without_audit(dir: &Path) -> PathBuf {
    let path = write_testset(dir);
    let mut set = testset::load(&path).unwrap();
    for c in &mut set.cases {
        c.audit = None;
    }
    testset::save(&set, &path).unwrap();
    path
}

fn host(port: u16) -> String {
    format!("127.0.0.1:{port}")
}

fn version(s: &ReviewServer) -> String {
    let r = raw_request(s.port, "GET", "/api/cases", &[("Host", &host(s.port))], "");
    assert_eq!(r.status, 200, "{}", r.body);
    let v: Value = serde_json::from_str(&r.body).unwrap();
    v["version"].as_str().unwrap().to_string()
}

/// Posts a decision made on a page at `version`; returns the status and the new version.
fn decide(s: &ReviewServer, id: &str, version: &str, decision: Value) -> (u16, String, Value) {
    let mut body = decision;
    body["version"] = json!(version);
    let h = host(s.port);
    let r = raw_request(
        s.port,
        "POST",
        &format!("/api/cases/{id}"),
        &[("Host", &h), ("Content-Type", "application/json")],
        &body.to_string(),
    );
    let v: Value = serde_json::from_str(&r.body).unwrap_or_default();
    let next = v["version"].as_str().unwrap_or(version).to_string();
    (r.status, next, v)
}

/// One of the eight synthetic cases of the sample set (`syn-01` .. `syn-08`), not a new one.
fn original(id: &str) -> bool {
    id.len() == 6 && id.starts_with("syn-0")
}

fn synthetic(path: &Path) -> Vec<testset::Case> {
    testset::load(path)
        .unwrap()
        .cases
        .into_iter()
        .filter(|c| c.is_synthetic())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn decisions_made_while_generate_runs_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let stub = Stub::start(Duration::from_millis(1000)).await;
    let review = ReviewServer::start(&path, &[]);
    let mut v = version(&review);

    let mut generate = spawn_generate(dir.path(), &stub, &path, 5, 1);
    stub.wait_for(1, Duration::from_secs(60)).await; // it has read the file
    for id in ["syn-01", "syn-02", "syn-03"] {
        let (status, next, body) = decide(&review, id, &v, json!({"action": "accept"}));
        assert_eq!(status, 200, "{body}");
        v = next;
    }
    assert!(
        generate.try_wait().unwrap().is_none(),
        "generate finished before the decisions: the test did not interleave"
    );
    let out = finish(generate, "generate");

    let cases = synthetic(&path);
    for id in ["syn-01", "syn-02", "syn-03"] {
        let c = cases.iter().find(|c| c.id == id).unwrap();
        assert_eq!(c.review, Some(Review::Accepted), "{id}'s decision was lost");
    }
    assert!(accepted(&out) > 0);
    assert_eq!(cases.len(), 8 + accepted(&out), "generated cases missing");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_decision_after_generate_wrote_is_saved_next_to_its_cases() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let stub = Stub::start(Duration::ZERO).await;
    let review = ReviewServer::start(&path, &[]);
    let v = version(&review);
    let out = finish(spawn_generate(dir.path(), &stub, &path, 3, 2), "generate");

    // The page still shows the file as it was before generate wrote it.
    let (status, _, body) = decide(
        &review,
        "syn-04",
        &v,
        json!({"action": "reject", "reason": "meta"}),
    );
    assert_eq!(status, 200, "{body}");
    assert!(body["merged"].is_string(), "{body}");
    let cases = synthetic(&path);
    assert_eq!(cases.len(), 8 + accepted(&out), "generated cases missing");
    let c = cases.iter().find(|c| c.id == "syn-04").unwrap();
    assert_eq!(c.review, Some(Review::Rejected));
}

#[tokio::test(flavor = "multi_thread")]
async fn audit_figures_written_while_generate_runs_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = testset_without_audit(dir.path());
    let stub = Stub::start(Duration::from_millis(1000)).await;
    let mut generate = spawn_generate(dir.path(), &stub, &path, 6, 3);
    stub.wait_for(1, Duration::from_secs(60)).await;
    finish(spawn_audit(dir.path(), None, &path), "audit");
    assert!(
        generate.try_wait().unwrap().is_none(),
        "generate finished before audit: the test did not interleave"
    );
    let out = finish(generate, "generate");

    let cases = synthetic(&path);
    assert_eq!(cases.len(), 8 + accepted(&out), "generated cases missing");
    for c in cases.iter().filter(|c| original(&c.id)) {
        assert!(c.audit.is_some(), "{}: audit figures lost", c.id);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cases_generated_while_audit_llm_runs_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = testset_without_audit(dir.path());
    let slow = Stub::start(Duration::from_millis(700)).await;
    let fast = Stub::start(Duration::ZERO).await;
    let mut audit = spawn_audit(dir.path(), Some(&slow), &path);
    slow.wait_for(1, Duration::from_secs(60)).await;
    let out = finish(spawn_generate(dir.path(), &fast, &path, 3, 4), "generate");
    assert!(
        audit.try_wait().unwrap().is_none(),
        "audit finished before generate: the test did not interleave"
    );
    finish(audit, "audit");

    let cases = synthetic(&path);
    assert!(accepted(&out) > 0);
    assert_eq!(cases.len(), 8 + accepted(&out), "generated cases lost");
    for c in cases.iter().filter(|c| original(&c.id)) {
        assert!(c.audit.is_some(), "{}: audit figures missing", c.id);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_writer_whose_change_collides_refuses_and_names_the_other_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = testset_without_audit(dir.path());
    let slow = Stub::start(Duration::from_millis(700)).await;
    let audit = spawn_audit(dir.path(), Some(&slow), &path);
    slow.wait_for(1, Duration::from_secs(60)).await;
    // Another writer stores its own figures in syn-01 meanwhile.
    let mut set = testset::load(&path).unwrap();
    set.case_mut("syn-01").unwrap().audit = Some(json!({"flags": ["RS999"]}));
    testset::save(&set, &path).unwrap();
    let theirs = std::fs::read_to_string(&path).unwrap();

    let out = audit.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("`syn-01` field `audit`") && err.contains("RS999"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
}

/// The fault test: 20 decisions at random moments while a `generate` and an `audit --write`
/// start at random moments on the same file, for a few seeds. Every decision and every
/// generated case must be in the final file.
#[tokio::test(flavor = "multi_thread")]
async fn twenty_decisions_interleaved_with_generate_and_audit_all_survive() {
    for seed in [11u64, 12, 13] {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let dir = tempfile::tempdir().unwrap();
        let path = testset_without_audit(dir.path());
        // 12 more pending synthetic cases, so there are 20 to decide on.
        let mut set = testset::load(&path).unwrap();
        for i in 0..12 {
            let mut c = set.cases.last().unwrap().clone();
            c.id = format!("syn-x{i:02}");
            c.question = format!("Which setting number {i} controls the snapshot schedule?");
            set.cases.push(c);
        }
        testset::save(&set, &path).unwrap();
        let ids: Vec<String> = synthetic(&path).into_iter().map(|c| c.id).collect();
        assert_eq!(ids.len(), 20);

        let stub = Stub::start(Duration::from_millis(rng.random_range(100..400))).await;
        let server = ReviewServer::start(&path, &[]);
        let mut v = version(&server);
        let generate_at = rng.random_range(0..20);
        let audit_at = rng.random_range(0..20);
        let (mut generate, mut audit) = (None, None);
        let mut expected = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            if i == generate_at {
                generate = Some(spawn_generate(dir.path(), &stub, &path, 4, seed));
            }
            if i == audit_at {
                audit = Some(spawn_audit(dir.path(), None, &path));
            }
            tokio::time::sleep(Duration::from_millis(rng.random_range(0..250))).await;
            let (decision, status_after) = match rng.random_range(0..3) {
                0 => (json!({"action": "accept"}), Review::Accepted),
                1 => (
                    json!({"action": "reject", "reason": format!("r{i}")}),
                    Review::Rejected,
                ),
                _ => (
                    json!({"action": "edit", "question": format!("Edited question {i}?"), "answer": "A.", "type": "lookup", "topic": "t"}),
                    Review::Edited,
                ),
            };
            let (status, next, body) = decide(&server, id, &v, decision);
            assert_eq!(status, 200, "seed {seed}, decision {i} on {id}: {body}");
            v = next;
            expected.push((id.clone(), status_after, i));
        }
        let out = finish(generate.unwrap(), "generate");
        finish(audit.unwrap(), "audit");

        let cases = synthetic(&path);
        for (id, review, i) in &expected {
            let c = cases.iter().find(|c| &c.id == id).unwrap();
            assert_eq!(c.review, Some(*review), "seed {seed}: decision on {id} lost");
            if *review == Review::Edited {
                assert_eq!(
                    c.question,
                    format!("Edited question {i}?"),
                    "seed {seed}: edit of {id} lost"
                );
            }
        }
        assert_eq!(
            cases.len(),
            20 + accepted(&out),
            "seed {seed}: generated cases lost"
        );
        let new = cases.iter().filter(|c| !ids.contains(&c.id)).count();
        assert_eq!(new, accepted(&out));
    }
}
