//! `ragsynth run` against systems that misbehave on purpose (issue 66): one that redirects, one
//! that echoes the credentials it was sent, one whose reply is huge or never ends, one with
//! two million contexts, a command that writes without end, and a command that starts a
//! process and then hangs. Each test says which defect it pins; each failed on the code before.

mod raw_http;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use raw_http::{RawServer, Reply};
use serde_json::json;

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_MAX_REPLY_BYTES")
        .env("XDG_CONFIG_HOME", dir.join("no-user-config"))
        .current_dir(dir);
    c
}

/// A set of two questions in `dir/set.yaml`.
fn set(dir: &Path) {
    std::fs::write(
        dir.join("set.yaml"),
        "ragsynth: 1\ncases:\n  - id: q1\n    question: How long are snapshots kept?\n    relevant: []\n  \
         - id: q2\n    question: Where are keys stored?\n    relevant: []\n",
    )
    .unwrap();
}

fn run(dir: &Path, target: &[&str], extra: &[&str]) -> Output {
    ragsynth(dir)
        .args([
            "run",
            "set.yaml",
            "-o",
            "out",
            "--retries",
            "0",
            "--backoff-ms",
            "10",
        ])
        .args(target)
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join("out").join(file)).unwrap_or_default()
}

fn answer() -> Reply {
    Reply::json(
        200,
        &json!({"answer": "30 days", "contexts": ["Snapshots are kept 30 days."]}),
    )
}

/// Defect 4: a 301/302/303 turned the POST into a GET without the question and the GET's reply
/// was recorded as the answer; `Referer` carried the first URL with its query.
#[tokio::test(flavor = "multi_thread")]
async fn redirects_are_not_followed_and_a_question_never_becomes_a_get() {
    let elsewhere = RawServer::start(|_| answer()).await;
    for status in [301, 302, 303, 307, 308] {
        let target = format!("{}/stolen", elsewhere.url);
        let system = RawServer::start(move |r| match r.path.as_str() {
            "/ask?token=abc12345xyz" => Reply::redirect(status, &target),
            _ => answer(),
        })
        .await;
        let dir = tempfile::tempdir().unwrap();
        set(dir.path());
        let url = format!("{}/ask?token=abc12345xyz", system.url);
        let o = run(dir.path(), &["--http", &url], &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{status}: {err}");
        let errors = read(dir.path(), "errors.jsonl");
        assert!(
            errors.contains("redirects are not followed"),
            "{status}: {errors}"
        );
        if matches!(status, 307 | 308) {
            assert!(errors.contains("--follow-redirects"), "{errors}");
        }
        assert!(read(dir.path(), "answers.jsonl").is_empty(), "no answer recorded");
        assert!(system.requests().iter().all(|r| r.method == "POST"));
    }
    assert!(elsewhere.requests().is_empty(), "nothing reached the other host");

    // Asked for, a 307 or 308 to the same host is followed with the question, and without a
    // Referer; one to another host, or a 302, still is not.
    let system = RawServer::start(|r| match r.path.as_str() {
        "/old" => Reply::redirect(307, "/new"),
        "/away" => Reply::redirect(308, "http://localhost:1/x"),
        "/found" => Reply::redirect(302, "/new"),
        _ => answer(),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    set(dir.path());
    let o = run(
        dir.path(),
        &["--http", &format!("{}/old", system.url)],
        &["--follow-redirects"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let followed: Vec<_> = system
        .requests()
        .into_iter()
        .filter(|r| r.path == "/new")
        .collect();
    assert_eq!(followed.len(), 2);
    for r in &followed {
        assert_eq!(r.method, "POST");
        assert!(
            String::from_utf8_lossy(&r.body).contains("question"),
            "the body went along"
        );
        assert_eq!(r.header("referer"), None);
    }
    for path in ["/away", "/found"] {
        let dir = tempfile::tempdir().unwrap();
        set(dir.path());
        let o = run(
            dir.path(),
            &["--http", &format!("{}{path}", system.url)],
            &["--follow-redirects"],
        );
        assert_eq!(o.status.code(), Some(1), "{path}: {}", stderr(&o));
    }
}

/// Defect 5: the URL's password and query, `--header` values and a server's echo of them were
/// written to journal.jsonl, errors.jsonl and stderr as they came.
#[tokio::test(flavor = "multi_thread")]
async fn credentials_in_the_url_headers_and_echoes_reach_no_file_and_no_terminal() {
    let system = RawServer::start(|r| {
        Reply::json(
            500,
            &json!({"error": format!("upstream failed; you sent {}", r.text())}),
        )
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    set(dir.path());
    let url =
        system.url.replace("http://", "http://alice:pa55word-sekrit@") + "/ask?api_key=qk-0123456789&mode=x";
    let o = run(
        dir.path(),
        &["--http", &url],
        &["--header", "X-Team-Token: tt-9876543210abcdef"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let sent = system.requests();
    assert!(
        sent[0].text().contains("tt-9876543210abcdef"),
        "the system did get the header"
    );
    let written = [
        stderr(&o),
        read(dir.path(), "journal.jsonl"),
        read(dir.path(), "errors.jsonl"),
    ];
    assert!(written[2].contains("upstream failed"), "{}", written[2]);
    for text in written {
        for secret in ["pa55word-sekrit", "qk-0123456789", "tt-9876543210abcdef"] {
            assert!(!text.contains(secret), "{secret} written: {text}");
        }
    }
}

/// Defect 6: a reply was read whole: three 300 MB replies took 2.8 GB, an endless chunked one
/// 927 MB before the timeout. Now a reply past the limit is refused as it streams in.
#[tokio::test(flavor = "multi_thread")]
async fn a_huge_or_endless_reply_is_refused_at_the_limit() {
    let huge = RawServer::start(|_| Reply::Full {
        status: 200,
        headers: vec![],
        body: vec![b' '; 20 << 20],
    })
    .await;
    let endless = RawServer::start(|_| Reply::Endless).await;
    for (server, what) in [(&huge, "huge"), (&endless, "endless")] {
        let dir = tempfile::tempdir().unwrap();
        set(dir.path());
        let started = Instant::now();
        let o = run(dir.path(), &["--http", &server.url], &["--timeout", "60"]);
        assert_eq!(o.status.code(), Some(1), "{what}: {}", stderr(&o));
        assert!(started.elapsed() < Duration::from_secs(30), "{what}: it read on");
        let errors = read(dir.path(), "errors.jsonl");
        assert!(
            errors.contains("larger than 16.0 MiB") && errors.contains("--max-reply-bytes"),
            "{what}: {errors}"
        );
    }
    // Raised on purpose, the huge reply is read (and is not JSON).
    let dir = tempfile::tempdir().unwrap();
    set(dir.path());
    let o = run(dir.path(), &["--http", &huge.url], &["--max-reply-bytes", "32M"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(read(dir.path(), "errors.jsonl").contains("malformed_reply"));
}

/// Defect 6: two million contexts took 2.5 GB and a run.jsonl that eval then refused. (Two
/// hundred thousand here, and a lowered line limit: a debug build parses slowly.)
#[tokio::test(flavor = "multi_thread")]
async fn too_many_contexts_are_refused_naming_the_flag() {
    let contexts: Vec<&str> = vec!["c"; 200_000];
    let body = json!({"answer": "x", "contexts": contexts})
        .to_string()
        .into_bytes();
    let server = RawServer::start(move |_| Reply::Full {
        status: 200,
        headers: vec![],
        body: body.clone(),
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    set(dir.path());
    let o = run(dir.path(), &["--http", &server.url], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let errors = read(dir.path(), "errors.jsonl");
    assert!(
        errors.contains("200000 contexts, over the limit of 1000") && errors.contains("--max-contexts"),
        "{errors}"
    );
    // More allowed, the answer's run.jsonl line would be past what eval reads: refused too.
    let o = ragsynth(dir.path())
        .env("RAGSYNTH_MAX_LINE_BYTES", "1M")
        .args([
            "run",
            "set.yaml",
            "-o",
            "out",
            "--retries",
            "0",
            "--http",
            &server.url,
        ])
        .args(["--max-contexts", "300000"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let errors = read(dir.path(), "errors.jsonl");
    assert!(
        errors.contains("in run.jsonl") && errors.contains("RAGSYNTH_MAX_LINE_BYTES"),
        "{errors}"
    );
}

/// Defect 6: a `--cmd` that wrote 300 MB without a newline took 862 MB.
#[test]
fn a_command_writing_without_end_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    set(dir.path());
    let o = run(
        dir.path(),
        &["--cmd", "read l; head -c 50000000 /dev/zero | tr '\\0' x"],
        &["--timeout", "60"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let errors = read(dir.path(), "errors.jsonl");
    assert!(
        errors.contains("larger than 16.0 MiB") && errors.contains("--max-reply-bytes"),
        "{errors}"
    );
}

/// Defect 8: a `--cmd` that timed out was stopped by killing `sh` only; what it had started
/// ran on, reparented to pid 1.
#[test]
fn a_timed_out_command_is_stopped_with_everything_it_started() {
    let dir = tempfile::tempdir().unwrap();
    set(dir.path());
    let o = run(
        dir.path(),
        &[
            "--cmd",
            "sleep 300 & echo $! >> children.txt; while read l; do sleep 100; done",
        ],
        &["--timeout", "1"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(read(dir.path(), "errors.jsonl").contains("timeout"));
    let pids = std::fs::read_to_string(dir.path().join("children.txt")).unwrap();
    assert_eq!(pids.lines().count(), 2, "one command per timed-out question");
    for pid in pids.lines() {
        // Killed: gone, or a zombie about to be reaped.
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let alive = state.split_whitespace().nth(2).is_some_and(|s| s != "Z");
        assert!(!alive, "the command's child {pid} still runs: {state}");
    }
}
