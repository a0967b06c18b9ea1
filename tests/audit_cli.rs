//! `ragsynth audit` as a user runs it: exit codes, formats, `--explain`, `--write`, bad input
//! and foreign exports (a Ragas-style and a DeepEval-style export over `corpora/docs`).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::testset;
use ragsynth::testset::foreign;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    root().join("tests/fixtures/audit")
}

fn ragsynth() -> Command {
    let mut c = Command::cargo_bin("ragsynth").unwrap();
    c.env_remove("RAGSYNTH_CONFIG").env("NO_COLOR", "1");
    c
}

fn audit(set: &Path) -> Command {
    let mut c = ragsynth();
    c.arg("--config")
        .arg(fixture().join("ragsynth.toml"))
        .arg("audit")
        .arg(set);
    c
}

/// A copy of the fixture (test set + corpus) in a temp dir, so writes do not touch the repo.
fn copy_fixture() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("corpus")).unwrap();
    for e in std::fs::read_dir(fixture().join("corpus")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), tmp.path().join("corpus").join(e.file_name())).unwrap();
    }
    let set = tmp.path().join("testset.yaml");
    std::fs::copy(fixture().join("testset.yaml"), &set).unwrap();
    (tmp, set)
}

#[test]
fn explain_prints_the_rule_doc() {
    ragsynth()
        .args(["audit", "--explain", "RS101"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("RS101 copied-phrase (warning)"))
        .stdout(predicate::str::contains("**Why it matters**"));
    ragsynth()
        .args(["audit", "--explain", "RS999"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("unknown rule `RS999`"));
}

#[test]
fn exit_codes_follow_fail_on() {
    let set = fixture().join("testset.yaml");
    audit(&set)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("RS301 exact-duplicate [error]"))
        .stdout(predicate::str::contains("\x1b[").not());
    audit(&set).args(["--fail-on", "never"]).assert().code(0);
    audit(&set).args(["--select", "RS2"]).assert().code(0);
    audit(&set)
        .args(["--select", "RS2", "--fail-on", "warning"])
        .assert()
        .code(2);
    audit(&set).args(["--select", "RS9"]).assert().code(1);
}

#[test]
fn json_report_has_the_stable_shape() {
    let out = audit(&fixture().join("testset.yaml"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], 1);
    let f = &v["findings"][0];
    for key in ["code", "severity", "case", "message"] {
        assert!(f.get(key).is_some(), "{key} in {f}");
    }
    assert_eq!(v["summary"]["cases"], 28);
    assert_eq!(v["summary"]["coverage"]["uncovered_documents"][0], "changelog.md");
}

#[test]
fn write_touches_synthetic_cases_only_unless_asked() {
    let (_tmp, set) = copy_fixture();
    let before = std::fs::read_to_string(&set).unwrap();
    audit(&set)
        .args(["--write", "--fail-on", "never"])
        .assert()
        .code(0);
    let after = testset::load(&set).unwrap();
    let text = std::fs::read_to_string(&set).unwrap();
    let copied = after.case("syn-copied").unwrap().audit.as_ref().unwrap();
    assert_eq!(copied["flags"], serde_json::json!(["RS101", "RS102"]));
    assert_eq!(copied["copied_run"], 8);
    assert_eq!(copied["source_rank"], 1);
    // The rank is what the question needs found, as generate's `difficulty` counts it: both
    // labels of a multi-hop case (its pricing label ranks first, RS102 says so; the retention
    // one second), and nothing for a question that shares no word with its source.
    let two_docs = after.case("syn-two-docs").unwrap().audit.as_ref().unwrap();
    assert_eq!(two_docs["flags"], serde_json::json!(["RS102"]));
    assert_eq!(two_docs["source_rank"], 2);
    let meta = after.case("syn-meta").unwrap().audit.as_ref().unwrap();
    assert_eq!(meta["overlap"], 0.0);
    assert_eq!(meta["source_rank"], ">1000");
    let real = after.case("real-restore").unwrap();
    assert!(real.audit.is_none());
    // Real cases come out byte-for-byte as they went in.
    let real_block = "  - id: real-restore\n    question: \"How do I restore a deleted file?\"\n";
    assert!(before.contains(real_block) && text.contains(real_block));

    audit(&set)
        .args(["--write", "--write-real", "--fail-on", "never"])
        .assert()
        .code(0);
    let after = testset::load(&set).unwrap();
    assert!(after.case("real-restore").unwrap().audit.is_some());
}

#[test]
fn bad_input_is_a_clear_error_and_leaves_the_file_alone() {
    let (tmp, _) = copy_fixture();
    let cases = [
        (
            "malformed.yaml",
            "ragsynth: 1\ncorpus: {root: corpus}\ncases:\n  - id: a\n    question: [unclosed\n",
            "malformed.yaml:",
        ),
        (
            "missing.yaml",
            "ragsynth: 1\ncorpus: {root: corpus}\ncases:\n  - id: a\n    relevant: []\n",
            "question",
        ),
        (
            "outside.yaml",
            "ragsynth: 1\ncorpus: {root: corpus}\ncases:\n  - id: escape\n    question: What is in the parent?\n    relevant:\n      - {doc: ../secret.md, start: 0, end: 4, quote: abcd}\n",
            "case `escape`: field `relevant[0].doc`",
        ),
        (
            "broken.jsonl",
            "{\"user_input\": \"q\"}\n{not json\n",
            "broken.jsonl:2",
        ),
    ];
    for (name, content, expect) in cases {
        let path = tmp.path().join(name);
        std::fs::write(&path, content).unwrap();
        ragsynth()
            .arg("audit")
            .arg(&path)
            .arg("--write")
            .assert()
            .code(1)
            .stderr(predicate::str::contains(expect));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            content,
            "{name} untouched"
        );
    }
    ragsynth()
        .arg("audit")
        .arg(tmp.path().join("testset.yaml"))
        .args(["--corpus", "/nonexistent/corpus"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent/corpus"));
}

fn docs() -> Corpus {
    Corpus::load(&root().join("corpora/docs"), WalkOptions::default()).unwrap()
}

/// Text of `doc` between two markers, as an exporting tool would have stored a chunk.
fn passage(corpus: &Corpus, doc: &str, from: &str, to: &str) -> String {
    let text = &corpus.doc(doc).unwrap().text;
    let a = text.find(from).unwrap();
    let b = a + text[a..].find(to).unwrap() + to.len();
    text[a..b].to_string()
}

#[test]
fn ragas_and_deepeval_exports_get_their_labels_back() {
    let corpus = docs();
    let tmp = tempfile::tempdir().unwrap();
    let policy = passage(
        &corpus,
        "retention.md",
        "A retention policy decides",
        "given back after prune.",
    );
    let tp = passage(
        &corpus,
        "troubleshooting.md",
        "Most problems show up",
        "read the matching section.",
    );
    // A tool that reflowed white space and changed a word: found by the fuzzy step.
    let reflowed = policy.replace('\n', " ").replace("decides", "determines");

    let ragas = tmp.path().join("ragas.jsonl");
    let rows = [
        serde_json::json!({"user_input": "When is disk space given back after forgetting snapshots?",
            "reference_contexts": [reflowed], "reference": "Only after prune.",
            "synthesizer_name": "single_hop_specific_query_synthesizer"}),
        serde_json::json!({"user_input": "Where do TP error codes show up and what do forget and prune do?",
            "reference_contexts": [tp, policy], "reference": "CLI output, job log, agent log.",
            "synthesizer_name": "multi_hop_abstract_query_synthesizer"}),
    ];
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&ragas, text).unwrap();

    let deepeval = tmp.path().join("goldens.json");
    std::fs::write(
        &deepeval,
        serde_json::to_string(&serde_json::json!([
            {"input": "Where can I find the agent log on macOS?",
             "expected_output": "/Library/Logs/Tidepool/agent.log",
             "context": [passage(&corpus, "troubleshooting.md", "Most problems show up", "read the matching section.")]},
            {"input": "Which option keeps every snapshot with a tag?",
             "expected_output": "keep-tag", "context": ["This sentence is in no document of the corpus at all."]}
        ]))
        .unwrap(),
    )
    .unwrap();

    let opts = foreign::ReadOptions::default();
    assert_eq!(foreign::detect(&ragas, &opts).unwrap(), foreign::Format::Ragas);
    assert_eq!(
        foreign::detect(&deepeval, &opts).unwrap(),
        foreign::Format::DeepEval
    );

    let index = ragsynth::locate::CorpusIndex::new(&corpus);
    let load = |path: &std::path::Path| {
        let set = foreign::read(path, &opts).unwrap();
        foreign::convert(&set, Some(&index), &foreign::ConvertOptions::default())
    };
    let r = load(&ragas);
    assert!(r.stats.unlocated.is_empty(), "{:?}", r.stats);
    let c0 = &r.cases[0];
    assert_eq!(c0.relevant.len(), 1);
    assert_eq!(c0.relevant[0].doc, "retention.md");
    let doc = corpus.doc("retention.md").unwrap();
    let span: String = doc
        .text
        .chars()
        .skip(c0.relevant[0].start)
        .take(c0.relevant[0].end - c0.relevant[0].start)
        .collect();
    assert!(
        span.starts_with("A retention policy") && span.contains("prune"),
        "{span}"
    );
    assert_eq!(c0.tags.kind.as_deref(), Some("lookup"));
    let c1 = &r.cases[1];
    let docs: Vec<&str> = c1.relevant.iter().map(|l| l.doc.as_str()).collect();
    assert_eq!(docs, ["troubleshooting.md", "retention.md"]);
    assert_eq!(c1.tags.kind.as_deref(), Some("multi_hop"));
    assert!(c1.is_synthetic());

    let d = load(&deepeval);
    assert_eq!(d.cases[0].relevant[0].doc, "troubleshooting.md");
    assert_eq!(
        d.cases[0].answer.as_deref(),
        Some("/Library/Logs/Tidepool/agent.log")
    );
    // A context that is nowhere: kept on the case, which is not taken for unanswerable.
    assert!(d.cases[1].relevant.is_empty());
    assert_eq!(d.cases[1].unlocated(), 1);
    assert!(!d.cases[1].is_unanswerable());
    assert_eq!(d.stats.unlocated, [("deepeval-2".to_string(), 1)]);

    // The whole command: detected, located, audited; figures present for located cases.
    let out = ragsynth()
        .arg("audit")
        .arg(&ragas)
        .arg("--corpus")
        .arg(root().join("corpora/docs"))
        .args(["--format", "json", "--fail-on", "never"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["cases"], 2);
    assert_eq!(v["summary"]["synthetic"], 2);
    ragsynth()
        .arg("audit")
        .arg(&ragas)
        .arg("--write")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--write needs a ragsynth test set"));
}
