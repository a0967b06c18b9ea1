//! Ranks are counted to 1,000 chunks (`index::RANK_DEPTH`): a source that exactly 999 chunks
//! outscore ranks 1000, one that 1,001 outscore ranks "below 1000" in RS501's message and
//! `source_rank: ">1000"` when written back; the best other chunk is exact either way.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// A corpus of `others` chunks that each hold the question's words, plus `target.md`, which
/// holds one of them, and a test set with one synthetic case labelled with `target.md` whose
/// answer is in `best.md` (RS501 needs that evidence).
fn write_corpus(dir: &Path, others: usize) {
    let corpus = dir.join("corpus");
    fs::create_dir_all(&corpus).unwrap();
    for i in 0..others {
        // One paragraph, one chunk; a number of filler words makes the scores differ.
        let filler = "note ".repeat(i % 7);
        let text = format!("Quarterly key rotation for backup encryption keys. {filler}Entry {i}.\n");
        fs::write(corpus.join(format!("other{i:04}.md")), text).unwrap();
    }
    // One more chunk holding the question's words twice: the clear winner.
    fs::write(
        corpus.join("best.md"),
        "Rotate backup encryption keys quarterly: key rotation of encryption keys for backups.\n",
    )
    .unwrap();
    let target = "Encryption is on by default for every repository.\n";
    fs::write(corpus.join("target.md"), target).unwrap();
    let set = format!(
        "ragsynth: 1
corpus:
  root: corpus
chunking: {{splitter: text, unit: chars, size: 500, overlap: 0}}
cases:
  - id: deep
    question: \"How does quarterly key rotation work for backup encryption keys?\"
    answer: \"Rotate backup encryption keys quarterly\"
    relevant:
      - {{doc: target.md, start: 0, end: {}, quote: \"Encryption is on by default\"}}
    tags: {{type: lookup, source: synthetic}}
",
        target.trim_end().chars().count()
    );
    fs::write(dir.join("testset.yaml"), set).unwrap();
}

fn audit_json(dir: &Path) -> serde_json::Value {
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args([
            "audit",
            "testset.yaml",
            "--format",
            "json",
            "--select",
            "RS501",
            "--fail-on",
            "warning",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn rs501_message(report: &serde_json::Value) -> String {
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    findings[0]["message"].as_str().unwrap().to_string()
}

#[test]
fn a_rank_is_exact_to_the_depth() {
    let dir = tempfile::tempdir().unwrap();
    // 998 others + best.md = 999 chunks above the source: rank 1000, still counted.
    write_corpus(dir.path(), 998);
    let msg = rs501_message(&audit_json(dir.path()));
    assert!(msg.contains("ranks 1000 "), "{msg}");
    assert!(
        msg.contains("`best.md#0`"),
        "the best other chunk is named: {msg}"
    );
}

#[test]
fn past_the_depth_the_rank_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write_corpus(dir.path(), 1000);
    let msg = rs501_message(&audit_json(dir.path()));
    assert!(msg.contains("ranks below 1000 "), "{msg}");
    assert!(
        msg.contains("`best.md#0`"),
        "the best other chunk is still exact: {msg}"
    );

    Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["audit", "testset.yaml", "--write", "--fail-on", "never"])
        .current_dir(dir.path())
        .assert()
        .success();
    let written = fs::read_to_string(dir.path().join("testset.yaml")).unwrap();
    assert!(
        written.contains("source_rank: '>1000'") || written.contains("source_rank: \">1000\""),
        "{written}"
    );
}
