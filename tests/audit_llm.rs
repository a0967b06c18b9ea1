//! `ragsynth audit --llm` against the real local model (llama-server + SmolLM2): the judged
//! checks (RS504-RS506) run over a three-case set, their findings and the LLM usage appear in
//! the JSON report, and a rerun through the command line is answered entirely from the LLM
//! journal with the same findings. SmolLM2-135M is a weak judge, so this tests the plumbing and
//! determinism, not its verdicts. Skipped with a reason when the local model is not installed,
//! unless `RAGSYNTH_REQUIRE_LLM=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use ragsynth::audit::{self, AuditConfig, AuditContext, Severity};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::judge::calibration::Known;
use ragsynth::llm::{Llm, LlmSettings};
use ragsynth::prompts::Prompts;
use ragsynth::render::audit as report;
use ragsynth::testset::{self, Case, Label, TestSet};
use serde_json::Value;

mod local_llm;
use local_llm::local_llm_available;

/// Two documents of the sample corpus.
fn corpus(dir: &Path) -> PathBuf {
    let root = dir.join("corpus");
    std::fs::create_dir_all(&root).unwrap();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs");
    for f in ["retention.md", "security.md"] {
        std::fs::copy(docs.join(f), root.join(f)).unwrap();
    }
    root
}

/// A label on the first occurrence of `quote` in `doc`.
fn label(corpus: &Corpus, doc: &str, quote: &str) -> Label {
    let text = &corpus.doc(doc).unwrap().text;
    let byte = text
        .find(quote)
        .unwrap_or_else(|| panic!("{quote:?} not in {doc}"));
    let start = text[..byte].chars().count();
    Label::spanning(doc, start, quote)
}

/// One case per LLM rule: an unanswerable (RS504), a multi-hop over two documents (RS505, and
/// RS506 for its answer), a lookup with an answer (RS506).
fn set(corpus: &Corpus) -> TestSet {
    let mut set = TestSet::default();
    let mut u = Case::new("u1", "Which cipher encrypts chunk contents?");
    u.tags.kind = Some("unanswerable".into());
    let mut m = Case::new(
        "m1",
        "Which cipher encrypts chunks, and which step deletes chunks no snapshot references?",
    );
    m.tags.kind = Some("multi_hop".into());
    m.answer = Some("XChaCha20-Poly1305; prune.".into());
    m.relevant = vec![
        label(
            corpus,
            "security.md",
            "Chunk contents and snapshot metadata are encrypted with",
        ),
        label(
            corpus,
            "retention.md",
            "**prune** deletes the chunks that no remaining snapshot references",
        ),
    ];
    let mut l = Case::new("l1", "How many iterations does Argon2id use?");
    l.tags.kind = Some("lookup".into());
    l.answer = Some("3 iterations".into());
    l.relevant = vec![label(
        corpus,
        "security.md",
        "memory, 3 iterations, parallelism 4",
    )];
    set.cases = vec![u, m, l];
    set
}

/// Writes `judge-calibration.json` into `dir` saying the answerability and support judges of
/// `model` agree with people (κ 0.8), and returns what a set in `dir` then knows.
fn trust(dir: &Path, model: &str, prompts: &Prompts) -> Known {
    let records: Vec<Value> = ["answerable", "supported"]
        .into_iter()
        .map(|judge| {
            serde_json::json!({"judge": judge, "model": model, "prompt": prompts.id(&format!("judge_{judge}")),
                "n": 40, "accuracy": 0.9, "kappa": 0.8, "measured": "2026-12-01T00:00:00Z", "marks": "test"})
        })
        .collect();
    std::fs::write(
        dir.join("judge-calibration.json"),
        serde_json::json!({"ragsynth_calibration": 1, "records": records}).to_string(),
    )
    .unwrap();
    Known::beside(&dir.join("set.yaml")).unwrap()
}

/// The LLM rules' findings, without the file line (the first run's set has no file).
fn llm_findings(json: &Value) -> Vec<Value> {
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| ["RS504", "RS505", "RS506"].contains(&f["code"].as_str().unwrap()))
        .map(|f| {
            let mut f = f.clone();
            f.as_object_mut().unwrap().remove("line");
            f
        })
        .collect()
}

#[test]
fn judged_checks_run_and_a_rerun_is_served_from_the_journal() {
    if !local_llm_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = corpus(dir.path());
    let cache = dir.path().join("cache");
    let corpus = Corpus::load(&root, WalkOptions::default()).unwrap();
    let set = set(&corpus);
    // RS504-RS506's plumbing; SmolLM2 cannot fill RS509's copy (a re-asked reply would make the
    // counts below depend on it).
    let config = AuditConfig {
        ignore: vec!["RS509".into()],
        ..AuditConfig::default()
    };
    let cx = AuditContext::new(Some(corpus), &Default::default()).unwrap();

    // First run, in the library, against a fresh journal.
    let mut first = audit::audit(&set, &cx, &config);
    assert!(first.summary.notes.iter().any(|n| n.contains("pass --llm")));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let settings = LlmSettings {
            cache_dir: Some(cache.clone()),
            config: ConfigFile::default(),
            ..LlmSettings::default()
        };
        let llm = Llm::connect(Some("llamacpp:smollm2"), settings).await.unwrap();
        let prompts = Prompts::load(None).unwrap();
        // SmolLM2's judges are near chance: a calibration file beside the set lets them run
        // here, to test the plumbing (the judges' standing is tests/calibrate_cli.rs's).
        let known = trust(dir.path(), &llm.id(), &prompts);
        audit::judged::judge(&mut first, &set, &cx, &config, &llm, &prompts, &known)
            .await
            .unwrap();
        llm.shutdown().await;
    });
    let json: Value = serde_json::from_str(&report::json(&first)).unwrap();
    let llm = &json["summary"]["llm"];
    for (code, cases) in [("RS504", 1), ("RS505", 1), ("RS506", 2)] {
        let c = &llm["checks"][code];
        assert_eq!(c["cases"], cases, "{code}: {llm}");
        assert!(
            c["flagged"].as_u64().unwrap() + c["skipped"].as_u64().unwrap() <= cases,
            "{code}: {llm}"
        );
    }
    let usage = &llm["usage"];
    let calls = usage["calls"].as_u64().unwrap();
    // One question for RS504, one per labelled chunk for RS505, one per case for RS506.
    assert!(calls >= 5, "{usage}");
    assert_eq!(usage["cache_hits"], 0, "{usage}");
    assert!(usage["prompt_tokens"].as_u64().unwrap() > 0, "{usage}");
    for code in ["RS504", "RS505", "RS506"] {
        assert!(
            json["summary"]["rules"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r == code),
            "{code} listed as run"
        );
    }
    assert!(
        !first.summary.notes.iter().any(|n| n.contains("pass --llm")),
        "{:?}",
        first.summary.notes
    );
    let flagged: u64 = ["RS504", "RS505", "RS506"]
        .iter()
        .map(|c| llm["checks"][c]["flagged"].as_u64().unwrap())
        .sum();
    assert_eq!(llm_findings(&json).len() as u64, flagged);
    let text = report::text(
        &first,
        &set,
        report::TextOptions {
            color: false,
            max_per_rule: 0,
        },
    );
    assert!(text.contains(&format!("{calls} calls, 0 cache hits")), "{text}");
    assert!(text.contains("RS505: 1 case(s) judged"), "{text}");

    // Second run, through the command line, on the same journal.
    let set_path = dir.path().join("set.yaml");
    testset::save(&set, &set_path).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .current_dir(dir.path())
        .args(["audit", "set.yaml", "--corpus", "corpus", "--format", "json"])
        .args(["--fail-on", "never", "--ignore", "RS509"])
        .args(["--llm", "llamacpp:smollm2", "--cache-dir"])
        .arg(&cache)
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    let usage2 = &again["summary"]["llm"]["usage"];
    assert_eq!(usage2["calls"], 0, "{usage2}");
    assert_eq!(usage2["cache_hits"].as_u64().unwrap(), calls, "{usage2}");
    assert_eq!(llm_findings(&again), llm_findings(&json));
    assert_eq!(again["summary"]["llm"]["checks"], llm["checks"]);
}

#[test]
fn a_fatal_llm_error_stops_the_audit_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let root = corpus(dir.path());
    let corpus = Corpus::load(&root, WalkOptions::default()).unwrap();
    testset::save(&set(&corpus), &dir.path().join("set.yaml")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .current_dir(dir.path())
        .args(["audit", "set.yaml", "--corpus", "corpus", "--no-cache"])
        .args(["--llm", "openai:gpt-4o-mini"])
        .env_remove("OPENAI_API_KEY")
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("OPENAI_API_KEY"), "{err}");
    assert!(out.stdout.is_empty(), "no report on a fatal error");
}

/// Plays a judge that answers every question except "How many iterations ...?", to which it
/// replies with something that is not JSON: a fault the real server cannot be made to produce.
struct Judge;

impl wiremock::Respond for Judge {
    fn respond(&self, req: &wiremock::Request) -> wiremock::ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let text = body.to_string();
        let content = if text.contains("answer_text") {
            r#"{"answer_text": ""}"#.to_string()
        } else if text.contains("How many iterations") {
            "I think so".to_string()
        } else if text.contains("\"supported\"") {
            r#"{"supported": false}"#.to_string()
        } else {
            r#"{"answerable": true}"#.to_string()
        };
        wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5},
        }))
    }
}

#[tokio::test]
async fn a_malformed_verdict_skips_that_check_for_that_case_only() {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(Judge)
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let root = corpus(dir.path());
    let corpus = Corpus::load(&root, WalkOptions::default()).unwrap();
    let set = set(&corpus);
    let config = AuditConfig::default();
    let cx = AuditContext::new(Some(corpus), &Default::default()).unwrap();
    let settings = LlmSettings {
        cache_dir: Some(dir.path().join("cache")),
        api_key: Some("sk-test".into()),
        max_retries: Some(0),
        ..LlmSettings::default()
    };
    let llm = Llm::connect(
        Some(&format!("openai-compatible:stub@{}/v1", server.uri())),
        settings,
    )
    .await
    .unwrap();
    // Nobody measured the stub's judges: their rules do not run, and the report says why.
    let prompts = Prompts::load(None).unwrap();
    let mut unmeasured = audit::audit(&set, &cx, &config);
    let none = Known::beside(&dir.path().join("set.yaml")).unwrap();
    audit::judged::judge(&mut unmeasured, &set, &cx, &config, &llm, &prompts, &none)
        .await
        .unwrap();
    assert!(
        !unmeasured
            .findings
            .iter()
            .any(|f| ["RS504", "RS505", "RS506", "RS509"].contains(&f.code)),
        "{:?}",
        unmeasured.findings
    );
    let figures = unmeasured.summary.llm.as_ref().unwrap();
    assert!(figures.checks.is_empty(), "{:?}", figures.checks);
    assert_eq!(figures.usage.total.calls, 0);
    let json: Value = serde_json::from_str(&report::json(&unmeasured)).unwrap();
    let judges = json["summary"]["llm"]["judges"].as_array().unwrap();
    assert_eq!(judges.len(), 3, "{judges:?}");
    assert!(
        judges
            .iter()
            .all(|j| j["calibrated"] == false && j["kappa"].is_null()),
        "{judges:?}"
    );
    let note = unmeasured
        .summary
        .notes
        .iter()
        .find(|n| n.contains("RS504, RS505 did not run"))
        .unwrap_or_else(|| panic!("{:?}", unmeasured.summary.notes));
    assert!(
        note.contains(
            "not calibrated for openai-compatible:stub: run `ragsynth calibrate --llm openai-compatible:stub@"
        ),
        "{note}"
    );

    // The person's own calibration beside the set, above the bar: the rules run.
    let records: Vec<Value> = ["answerable", "supported", "answers"]
        .into_iter()
        .map(|judge| {
            serde_json::json!({"judge": judge, "model": llm.id(), "prompt": prompts.id(&format!("judge_{judge}")),
                "n": 40, "accuracy": 0.9, "kappa": 0.8, "measured": "2026-12-01T00:00:00Z", "marks": "m.jsonl"})
        })
        .collect();
    let set_path = dir.path().join("set.yaml");
    std::fs::write(
        dir.path().join("judge-calibration.json"),
        serde_json::json!({"ragsynth_calibration": 1, "records": records}).to_string(),
    )
    .unwrap();
    let mut report = audit::audit(&set, &cx, &config);
    let known = Known::beside(&set_path).unwrap();
    audit::judged::judge(&mut report, &set, &cx, &config, &llm, &prompts, &known)
        .await
        .unwrap();

    let flagged: Vec<(&str, &str)> = report
        .findings
        .iter()
        .filter(|f| f.code >= "RS504" && f.code <= "RS506")
        .map(|f| (f.code, f.case.as_deref().unwrap()))
        .collect();
    assert_eq!(flagged, [("RS504", "u1"), ("RS505", "m1"), ("RS506", "m1")]);
    let warned: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| ("RS504"..="RS506").contains(&f.code) && f.severity == Severity::Warning)
        .map(|f| f.code)
        .collect();
    assert_eq!(warned, ["RS504", "RS505", "RS506"]);
    let figures = report.summary.llm.as_ref().unwrap();
    let rs506 = figures.checks["RS506"];
    assert_eq!((rs506.cases, rs506.flagged, rs506.skipped), (2, 1, 1));
    assert_eq!(figures.checks["RS505"].cases, 1);
    // The lost verdict was asked once and re-asked twice, then given up.
    assert_eq!(figures.usage.total.rejected, 1);
    assert_eq!(report.summary.by_rule["RS506"], 1);
    assert!(
        report
            .summary
            .notes
            .iter()
            .any(|n| n.starts_with("1 LLM check(s) skipped")),
        "{:?}",
        report.summary.notes
    );
    assert!(
        figures
            .judges
            .iter()
            .all(|j| j.calibrated && j.kappa == Some(0.8) && j.why.contains("judge-calibration.json"))
    );
}
