//! `ragsynth export` to every format, then `ragsynth import` of that file: the same questions
//! come back, with the same ids, every labelled passage located at its own span, unanswerable
//! cases still unanswerable; pending cases go out only with `--include-pending`, rejected
//! ones never.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ragsynth::testset::{self, TestSet};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The answers fixture (lookup, identifier, multi-hop, two unanswerable), plus a pending and
/// a rejected case, with its corpus root made absolute so the set can live anywhere.
fn fixture_set(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(root().join("tests/fixtures/answers/testset.yaml")).unwrap();
    let docs = root().join("corpora/docs");
    let mut text = text.replace(
        "root: ../../../corpora/docs",
        &format!("root: {}", docs.display()),
    );
    for (id, review) in [("pending-one", "pending"), ("rejected-one", "rejected")] {
        text.push_str(&format!(
            "  - id: {id}\n    question: \"Which port does the agent data use ({review})?\"\n    \
             answer: \"8751/tcp\"\n    relevant: []\n    tags: {{type: lookup, source: synthetic}}\n    \
             review: {review}\n"
        ));
    }
    let path = dir.join("set.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

fn ragsynth(args: &[&str]) -> std::process::Output {
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ragsynth {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The text a label's span covers in the corpus.
fn span_text(docs: &Path, l: &testset::Label) -> String {
    let text = std::fs::read_to_string(docs.join(&l.doc)).unwrap();
    text.chars().skip(l.start).take(l.end - l.start).collect()
}

fn load(path: &Path) -> TestSet {
    testset::load(path).unwrap()
}

#[test]
fn every_export_imports_back_with_the_same_questions_and_every_context_located() {
    let dir = tempfile::tempdir().unwrap();
    let set_path = fixture_set(dir.path());
    let original = load(&set_path);
    let accepted: Vec<_> = original
        .cases
        .iter()
        .filter(|c| c.review == Some(testset::Review::Accepted))
        .collect();
    assert_eq!(accepted.len(), 6);
    let docs = root().join("corpora/docs");
    for format in ragsynth::export::formats() {
        let file = dir.path().join(format!("{}.{}", format.name, format.extension));
        let out = ragsynth(&[
            "export",
            set_path.to_str().unwrap(),
            "--to",
            format.name,
            "-o",
            file.to_str().unwrap(),
        ]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("exported 6 case(s) (2 unanswerable)"),
            "{}: {said}",
            format.name
        );
        assert!(
            said.contains("left out: 1 pending, 1 rejected"),
            "{}: {said}",
            format.name
        );

        let back_path = dir.path().join(format!("back-{}.yaml", format.name));
        ragsynth(&[
            "import",
            file.to_str().unwrap(),
            "--into",
            back_path.to_str().unwrap(),
            "--corpus",
            docs.to_str().unwrap(),
        ]);
        let back = load(&back_path);
        assert_eq!(back.cases.len(), accepted.len(), "{}", format.name);
        for (was, now) in accepted.iter().zip(&back.cases) {
            let at = format!("{} case {}", format.name, was.id);
            assert_eq!(now.id, was.id, "{at}");
            assert_eq!(now.question, was.question, "{at}");
            assert_eq!(now.answer, was.answer, "{at}");
            assert_eq!(now.unlocated(), 0, "{at}: a context was not located");
            // The same passages: a span may come back without the white space at its ends.
            let spans = |c: &testset::Case| -> Vec<(String, String)> {
                c.relevant
                    .iter()
                    .map(|l| (l.doc.clone(), span_text(&docs, l).trim().to_string()))
                    .collect()
            };
            assert_eq!(spans(now), spans(was), "{at}");
            assert_eq!(now.is_unanswerable(), was.is_unanswerable(), "{at}");
        }
    }
}

#[test]
fn pending_cases_go_out_on_request_and_rejected_ones_never() {
    let dir = tempfile::tempdir().unwrap();
    let set_path = fixture_set(dir.path());
    let out = ragsynth(&[
        "export",
        set_path.to_str().unwrap(),
        "--to",
        "jsonl",
        "--include-pending",
    ]);
    let ids: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(ids.contains(&"pending-one".to_string()), "{ids:?}");
    assert!(!ids.contains(&"rejected-one".to_string()), "{ids:?}");
    assert_eq!(ids.len(), 7);
}

#[test]
fn an_unknown_format_is_refused_with_the_known_ones() {
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["export", "x.yaml", "--to", "trulens"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ragas") && err.contains("promptfoo"), "{err}");
}
