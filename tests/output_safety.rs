//! Smaller promises of the command line: data never reaches the terminal as escape sequences,
//! `audit --llm` against a dead provider fails instead of passing, a test set named by a bare
//! file name gets a relative corpus root, and a test set that is a symlink stays one.

mod stub_llm;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use stub_llm::Stub;

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env("NO_COLOR", "1")
        .current_dir(dir);
    c
}

fn docs() -> String {
    format!("{}/corpora/docs", env!("CARGO_MANIFEST_DIR"))
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const ESC: char = '\u{1b}';

#[test]
fn escape_sequences_in_data_are_shown_not_sent_to_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let set = format!(
        "ragsynth: 1\ncorpus: {{root: {}}}\ncases:\n  - id: \"syn-\\e[2J\"\n    question: \"Is it? \\e[31mRED\\e]0;owned\\a Is it\"\n    relevant: []\n    tags: {{type: lookup, topic: \"t\\e[1m\", source: synthetic}}\n  - id: syn-2\n    question: \"\\e[8mWhich step deletes the chunks that no remaining snapshot references?\"\n    relevant:\n      - {{doc: retention.md, start: 0, end: 400, quote: prune deletes the chunks}}\n    tags: {{type: lookup, source: synthetic}}\n",
        docs()
    );
    std::fs::write(dir.path().join("set.yaml"), set).unwrap();
    let o = ragsynth(dir.path()).args(["audit", "set.yaml"]).output().unwrap();
    let (out, err) = text(&o);
    assert!(
        !out.contains(ESC) && !out.contains('\u{7}'),
        "raw escape in the report: {out:?}"
    );
    assert!(out.contains("syn-\\u{1b}[2J"), "{out}");
    // The question itself, shown under its copied-phrase finding.
    assert!(
        out.contains("RS101") && out.contains("\\u{1b}[8mWhich step"),
        "{out}"
    );
    assert!(!err.contains(ESC), "{err:?}");

    // A file name holding an escape sequence, in `chunk`'s table.
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    std::fs::write(corpus.join("a\u{1b}[2Jb.md"), "# Title\n\nSome text here.\n").unwrap();
    let o = ragsynth(dir.path()).args(["chunk", "corpus"]).output().unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(!out.contains(ESC) && out.contains("a\\u{1b}[2Jb.md"), "{out:?}");
}

#[test]
fn audit_llm_with_a_dead_provider_fails_and_names_the_checks_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let set = format!(
        "ragsynth: 1\ncorpus: {{root: {}}}\ncases:\n  - id: syn-1\n    question: Can snapshots be stored on tape?\n    relevant: []\n    tags: {{type: unanswerable, source: synthetic}}\n",
        docs()
    );
    std::fs::write(dir.path().join("set.yaml"), set).unwrap();
    stub_llm::trust(dir.path(), &["openai-compatible:m"], &["answerable"]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = ragsynth(dir.path())
        .args(["audit", "set.yaml", "--no-cache", "--llm-retries", "0"])
        .args([
            "--llm",
            &format!("openai-compatible:m@http://127.0.0.1:{port}/v1"),
        ])
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("RS504") && err.contains("were not run"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bare_output_file_name_gets_a_relative_corpus_root() {
    let stub = Stub::start(Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let o = ragsynth(dir.path())
        .args([
            "generate",
            &docs(),
            "-o",
            "s.yaml",
            "-n",
            "1",
            "--mix",
            "lookup=1",
        ])
        .args(["--no-cache", "--quiet", "--llm", &stub.spec()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    let set = ragsynth::testset::load(&dir.path().join("s.yaml")).unwrap();
    let root = set.corpus.as_ref().unwrap().root.clone();
    assert!(!root.starts_with('/'), "root {root} is not relative to the file");
    let resolved = set.corpus_root(&dir.path().join("s.yaml")).unwrap();
    assert_eq!(
        resolved.canonicalize().unwrap(),
        Path::new(&docs()).canonicalize().unwrap()
    );
}

#[cfg(unix)]
#[test]
fn a_test_set_that_is_a_symlink_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let set = format!(
        "ragsynth: 1\ncorpus: {{root: {}}}\ncases:\n  - id: syn-1\n    question: What is the passage about?\n    relevant: []\n    tags: {{type: lookup, source: synthetic}}\n",
        docs()
    );
    std::fs::write(dir.path().join("real/set.yaml"), set).unwrap();
    std::os::unix::fs::symlink("real/set.yaml", dir.path().join("set.yaml")).unwrap();
    let o = ragsynth(dir.path())
        .args(["audit", "--write", "set.yaml"])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(1), "{}", text(&o).1);
    let link = dir.path().join("set.yaml");
    assert!(
        std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link was replaced"
    );
    let written = std::fs::read_to_string(dir.path().join("real/set.yaml")).unwrap();
    assert!(written.contains("audit:"), "{written}");
}
