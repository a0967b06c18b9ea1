//! `import` and `audit` on other tools' real test sets, through the binary: importing a set
//! and auditing the result gives the findings auditing the original file gives, and bad input
//! stops with exit 1, naming the file and line or case, before anything is written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/foreign")
        .join(p)
}

fn ragsynth() -> Command {
    Command::cargo_bin("ragsynth").unwrap()
}

/// The findings of `ragsynth audit <args>` as (code, case, message).
fn findings(args: &[&str]) -> BTreeSet<(String, String, String)> {
    let out = ragsynth()
        .arg("audit")
        .args(args)
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
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
            (s("code"), s("case"), s("message"))
        })
        .collect()
}

#[test]
fn an_imported_set_audits_like_the_file_it_came_from() {
    let tmp = tempfile::tempdir().unwrap();
    for (set, docs) in [
        ("letstalk/testset.csv", "letstalk/docs"),
        ("giskard/testset.json", "giskard/docs"),
        ("deepeval/synthetic_dataset.json", "deepeval/docs"),
        ("llamaindex/rag_dataset.json", "llamaindex/docs"),
    ] {
        let (file, corpus) = (fixture(set), fixture(docs));
        let into = tmp.path().join(format!("{}.yaml", set.replace('/', "-")));
        ragsynth()
            .args(["import", file.to_str().unwrap(), "--into", into.to_str().unwrap()])
            .args(["--corpus", corpus.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("contexts:").and(predicate::str::contains("located")));
        let original = findings(&[file.to_str().unwrap(), "--corpus", corpus.to_str().unwrap()]);
        let imported = findings(&[into.to_str().unwrap()]);
        assert!(
            !original.is_empty(),
            "{set}: the audit found something to compare"
        );
        assert_eq!(original, imported, "{set}");
        // Importing the same file again adds nothing.
        ragsynth()
            .args(["import", file.to_str().unwrap(), "--into", into.to_str().unwrap()])
            .args(["--corpus", corpus.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("nothing to add"));
    }
}

#[test]
fn import_says_how_contexts_were_found_and_types_mapped() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("set.yaml");
    let out = ragsynth()
        .args(["import", fixture("letstalk/testset.csv").to_str().unwrap()])
        .args(["--into", into.to_str().unwrap(), "--corpus"])
        .arg(fixture("letstalk/docs"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("as Ragas (≥ 0.2)"), "{text}");
    assert!(text.contains("contexts: 23 of 23 located (100%)"), "{text}");
    assert!(
        text.contains("type `multi_hop_abstract_query_synthesizer` -> multi_hop"),
        "{text}"
    );
    let yaml = std::fs::read_to_string(&into).unwrap();
    assert!(
        yaml.contains("source: synthetic") && yaml.contains("generator: ragas"),
        "{yaml}"
    );
    assert!(yaml.contains("question_type: multi_hop_specific_query_synthesizer"));
    // --source real: tagged real, and real cases are accepted.
    let real = tmp.path().join("real.yaml");
    ragsynth()
        .args(["import", fixture("letstalk/testset_2.csv").to_str().unwrap()])
        .args(["--into", real.to_str().unwrap(), "--source", "real", "--corpus"])
        .arg(fixture("letstalk/docs"))
        .assert()
        .success();
    let yaml = std::fs::read_to_string(&real).unwrap();
    assert!(yaml.contains("source: real") && !yaml.contains("source: synthetic"));
}

/// Runs `import` on `text` written to `name` and expects exit 1 with `wants` on stderr and
/// no test set written.
fn refused(name: &str, text: &str, corpus: &str, wants: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join(name);
    std::fs::write(&file, text).unwrap();
    let into = tmp.path().join("set.yaml");
    let out = ragsynth()
        .args([
            "import",
            file.to_str().unwrap(),
            "--into",
            into.to_str().unwrap(),
            "--corpus",
        ])
        .arg(fixture(corpus))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{name}: {err}");
    for w in wants {
        assert!(err.contains(w), "{name}: `{w}` not in: {err}");
    }
    assert!(!into.exists(), "{name}: nothing may be written");
}

#[test]
fn bad_input_stops_before_anything_is_written() {
    refused(
        "goldens.json",
        "[{\"input\": \"q\", \"expected_output\": \"a\", \"context\": [\"x\"]},\n {\"input\": \"r\", \"context\": [",
        "letstalk/docs",
        &["goldens.json:2:"],
    );
    refused(
        "testset.csv",
        "user_input,reference_contexts\nfirst,\"['a passage']\"\nsecond,\"['broken\n",
        "letstalk/docs",
        &["testset.csv:3:", "never closed"],
    );
    refused(
        "testset.csv",
        "user_input,reference_contexts,reference\nWhat is Ragas?,just a passage,An evaluation library.\n",
        "letstalk/docs",
        &["testset.csv:2:", "field `reference_contexts`", "expected a list"],
    );
    let legacy = std::fs::read_to_string(fixture("ragas01/testset.csv")).unwrap();
    refused(
        "ragas.csv",
        &legacy,
        "letstalk/docs",
        &["none of its", "context passage(s) was found"],
    );
    refused(
        "export.jsonl",
        "{\"prompt\": \"q\", \"gold\": \"a\"}\n",
        "letstalk/docs",
        &[
            "export.jsonl:1:",
            "no known test-set format fits",
            "found fields prompt, gold",
        ],
    );
}

#[test]
fn audit_refuses_the_same_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("testset.csv");
    std::fs::write(
        &file,
        "user_input,reference_contexts\nWhat is Ragas?,\"[1, 2]\"\n",
    )
    .unwrap();
    ragsynth()
        .args(["audit", file.to_str().unwrap(), "--corpus"])
        .arg(fixture("letstalk/docs"))
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("testset.csv:2:").and(predicate::str::contains("reference_contexts")),
        );
}
