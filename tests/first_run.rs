//! What a new user meets in the first ten minutes (issue #16): the common mistakes end with one
//! `error:` line that names the right place once and exit 1; a generate run that accepts nothing
//! says so and writes nothing; `review --open` opens the page; the default LLM journal is kept
//! per corpus and still replays a rerun; the demo, the tests and CI build into one folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

mod stub_llm;

fn ragsynth() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG").env_remove("RAGSYNTH_LLM");
    c
}

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A failed run's one message: exit 1, one `error:` line.
fn error_of(o: &Output) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("error:").count(), 1, "one `error:` prefix: {err}");
    err
}

#[test]
fn a_missing_corpus_or_test_set_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-corpus");
    let shown = missing.display().to_string();
    let o = ragsynth()
        .args(["generate", &shown, "--dry-run", "-o"])
        .arg(dir.path().join("set.yaml"))
        .output()
        .unwrap();
    let err = error_of(&o);
    assert_eq!(err.matches(&shown).count(), 1, "{err}");
    assert!(err.contains("does not exist"), "{err}");
    let o = ragsynth().args(["chunk", &shown]).output().unwrap();
    assert_eq!(error_of(&o).matches(&shown).count(), 1);

    let set = dir.path().join("nope.yaml");
    for command in ["audit", "review"] {
        let o = ragsynth().arg(command).arg(&set).output().unwrap();
        let err = error_of(&o);
        assert_eq!(
            err,
            format!("error: test set {} does not exist\n", set.display()),
            "{command}"
        );
    }
}

#[test]
fn a_yaml_error_names_the_line_of_the_fault_once() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.yaml");
    // Line 13 opens a flow map it never closes; the parser notices on line 14.
    let mut lines: Vec<String> = vec![
        "ragsynth: 1".into(),
        "cases:".into(),
        "  - id: a".into(),
        "    question: how long are snapshots kept?".into(),
        "    relevant: []".into(),
        "    tags: {type: unanswerable, source: real}".into(),
        "    review: accepted".into(),
        "  - id: b".into(),
        "    question: which cipher protects chunks?".into(),
        "    relevant: []".into(),
        "    answer: none".into(),
        "    split: dev".into(),
        "    tags: {type: unanswerable, source: real".into(),
        "    review: accepted".into(),
    ];
    lines.push(String::new());
    std::fs::write(&set, lines.join("\n")).unwrap();
    let o = ragsynth().arg("audit").arg(&set).output().unwrap();
    let err = error_of(&o);
    assert!(
        err.starts_with(&format!("error: {}:13:11: ", set.display())),
        "{err}"
    );
    assert!(err.contains("never closed"), "{err}");
    assert!(!err.contains("line 1") && !err.contains(":14"), "{err}");
}

#[test]
fn a_jsonl_error_names_its_line_once() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run.jsonl");
    std::fs::write(
        &run,
        "{\"id\": \"q1\", \"retrieved\": [\"a.md\"]}\n{\"id\": \"q2\", \"retrieved\": [\"a.md\",\n",
    )
    .unwrap();
    let o = ragsynth()
        .args(["eval", "tests/fixtures/eval/testset.yaml", "--run"])
        .arg(&run)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let err = error_of(&o);
    assert!(err.contains(&format!("{}:2:", run.display())), "{err}");
    assert!(!err.contains("at line") && !err.contains("line 1"), "{err}");
    assert!(err.contains("whole on one line"), "{err}");
}

#[test]
fn chunk_on_a_folder_without_documents_fails_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let o = ragsynth().arg("chunk").arg(dir.path()).output().unwrap();
    let err = error_of(&o);
    assert!(err.contains("no readable documents"), "{err}");
    assert!(o.stdout.is_empty(), "no table of zeros");
    std::fs::write(dir.path().join("empty.md"), "").unwrap();
    let o = ragsynth().arg("chunk").arg(dir.path()).output().unwrap();
    assert!(stderr(&o).contains("warning:"), "the skipped file is named");
    assert!(error_of(&o).contains("1 file(s) skipped"));
}

#[test]
fn eval_of_an_empty_run_fails() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["run.jsonl", "run.trec"] {
        let run = dir.path().join(name);
        std::fs::write(&run, "\n").unwrap();
        let o = ragsynth()
            .args(["eval", "tests/fixtures/eval/testset.yaml", "--run"])
            .arg(&run)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(error_of(&o).contains("holds no results"), "{name}");
        assert!(o.stdout.is_empty(), "{name}: no table of zeros");
    }
}

/// Answers every request with an empty JSON object: no candidate can be accepted.
async fn refusing_stub() -> MockServer {
    let server = MockServer::start().await;
    let reply = json!({
        "choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": "{}"}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 1},
    });
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(reply))
        .mount(&server)
        .await;
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_accepts_nothing_says_so_and_writes_nothing() {
    let stub = refusing_stub().await;
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.yaml");
    let o = ragsynth()
        .arg("generate")
        .arg(docs())
        .arg("-o")
        .arg(&set)
        .args(["-n", "3", "--max-rounds", "1", "--no-cache", "-q", "--llm"])
        .arg(format!("openai-compatible:stub@{}/v1", stub.uri()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with(&format!(
            "no candidate was accepted; nothing written to {}\n",
            set.display()
        )),
        "{out}"
    );
    assert!(!out.contains("held out") && !out.contains("0 new case"), "{out}");
    assert!(!set.exists(), "nothing accepted, nothing written");
}

fn generate_json(corpus: &Path, out: &Path, cache_root: &Path, llm: &str) -> Value {
    let o = ragsynth()
        .arg("generate")
        .arg(corpus)
        .arg("-o")
        .arg(out)
        .args([
            "-n",
            "2",
            "--max-rounds",
            "1",
            "--mix",
            "lookup=1",
            "--json",
            "-q",
            "--llm",
            llm,
        ])
        .env("RAGSYNTH_CACHE", cache_root)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn copy_docs(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in ["retention.md", "security.md"] {
        std::fs::copy(docs().join(f), to.join(f)).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_journal_is_kept_per_corpus_and_a_rerun_replays() {
    let stub = stub_llm::Stub::start(Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let (a, b) = (dir.path().join("one/docs"), dir.path().join("two/docs"));
    copy_docs(&a);
    copy_docs(&b);
    let first = generate_json(&a, &dir.path().join("a1.yaml"), &cache, &stub.spec());
    let calls = first["llm"]["calls"].as_u64().unwrap();
    assert!(calls > 0, "{first:#}");
    generate_json(&b, &dir.path().join("b.yaml"), &cache, &stub.spec());

    // Two corpora, two journals, named for their folder; nothing in the shared file.
    let mut folders: Vec<String> = std::fs::read_dir(cache.join("llm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert_eq!(folders.len(), 2, "{folders:?}");
    assert!(folders.iter().all(|f| f.starts_with("docs-")), "{folders:?}");
    for f in &folders {
        let journal = cache.join("llm").join(f).join("journal.jsonl");
        assert!(std::fs::metadata(&journal).unwrap().len() > 0, "{f}");
    }

    // The same command again replays its own corpus's journal: no call.
    let again = generate_json(&a, &dir.path().join("a2.yaml"), &cache, &stub.spec());
    assert_eq!(again["llm"]["calls"], 0, "{again:#}");
    assert_eq!(again["llm"]["cache_hits"], first["llm"]["calls"], "{again:#}");
    assert_eq!(
        std::fs::read(dir.path().join("a2.yaml")).unwrap(),
        std::fs::read(dir.path().join("a1.yaml")).unwrap()
    );

    // A journal shared by every corpus (before journals were kept per corpus) still replays.
    let c = dir.path().join("three/docs");
    copy_docs(&c);
    let old = ragsynth()
        .arg("generate")
        .arg(&c)
        .arg("-o")
        .arg(dir.path().join("c1.yaml"))
        .args([
            "-n",
            "2",
            "--max-rounds",
            "1",
            "--mix",
            "lookup=1",
            "--json",
            "-q",
        ])
        .arg("--llm")
        .arg(stub.spec())
        .arg("--cache-dir")
        .arg(cache.join("llm"))
        .output()
        .unwrap();
    assert!(old.status.success(), "{}", stderr(&old));
    let upgraded = generate_json(&c, &dir.path().join("c2.yaml"), &cache, &stub.spec());
    assert_eq!(upgraded["llm"]["calls"], 0, "{upgraded:#}");
    assert!(upgraded["llm"]["cache_hits"].as_u64() > Some(0), "{upgraded:#}");
}

#[test]
fn review_open_hands_the_url_to_the_desktop_browser() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.yaml");
    std::fs::write(
        &set,
        "ragsynth: 1\ncases:\n  - id: a\n    question: how long are snapshots kept?\n    relevant: []\n",
    )
    .unwrap();
    // A stand-in for xdg-open (open on macOS) that records the URL it was given.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let opened = dir.path().join("opened");
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::fs::write(
        bin.join(opener),
        format!("#!/bin/sh\necho \"$1\" > '{}'\n", opened.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join(opener), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    for open in [false, true] {
        let mut child = ragsynth()
            .arg("review")
            .arg(&set)
            .args(open.then_some("--open"))
            .env("PATH", &path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let (mut first, mut second) = (String::new(), String::new());
        use std::io::BufRead;
        out.read_line(&mut first).unwrap();
        out.read_line(&mut second).unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("{first}"))
            .to_string();
        if open {
            assert!(second.starts_with("Opening it in your browser"), "{second}");
            let deadline = Instant::now() + Duration::from_secs(20);
            while std::fs::read_to_string(&opened).map_or(true, |s| s.trim() != url) {
                assert!(Instant::now() < deadline, "the browser was not opened on {url}");
                std::thread::sleep(Duration::from_millis(50));
            }
        } else {
            assert!(
                second.starts_with("Open it in a browser (or pass --open)"),
                "{second}"
            );
            std::thread::sleep(Duration::from_millis(300));
            assert!(!opened.exists(), "no browser without --open");
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[test]
fn demo_tests_and_ci_build_into_one_folder() {
    // The same default in each script, so a demo after the tests (or CI) rebuilds nothing.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let line = |script: &str| {
        let text = std::fs::read_to_string(root.join(script)).unwrap();
        text.lines()
            .find(|l| l.starts_with("export CARGO_TARGET_DIR="))
            .unwrap_or_else(|| panic!("{script} sets no CARGO_TARGET_DIR"))
            .to_string()
    };
    assert_eq!(
        line("scripts/test.sh"),
        r#"export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/target}""#
    );
    assert_eq!(line(".ci/run"), line("scripts/test.sh"));
    // demo.sh names its cache folder first (it also finds the LLM there).
    let demo = std::fs::read_to_string(root.join("scripts/demo.sh")).unwrap();
    assert!(
        demo.contains(r#"CACHE="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}""#)
            && demo.contains(r#"export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}""#),
        "scripts/demo.sh builds elsewhere"
    );
}
