//! `ragsynth run` against real systems: a small HTTP RAG server on a loopback port (a keyword
//! retriever over the sample corpus) that fails one request in seven with a 500 and now and
//! then answers too late, and shell commands that answer on stdout. Every question is answered
//! exactly once, `eval --run` and `eval --answers` miss none, a run killed with SIGKILL halfway
//! resumes asking only the rest, and a case that keeps failing is named, never lost.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sample's 24 real questions, imported into a set in `dir` (exported with
/// `--include-pending`: some wait for a label).
fn question_set(dir: &Path) -> PathBuf {
    let set = dir.join("set.yaml");
    let docs = root().join("corpora/docs");
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["import", "corpora/questions.csv", "--into"])
        .arg(&set)
        .arg("--corpus")
        .arg(&docs)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    set
}

fn ids_of(set: &Path) -> Vec<String> {
    ragsynth::testset::load(set)
        .unwrap()
        .cases
        .into_iter()
        .map(|c| c.id)
        .collect()
}

/// Paragraphs of the sample corpus, for the server's keyword retriever.
fn paragraphs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![root().join("corpora/docs")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                let text = std::fs::read_to_string(&p).unwrap();
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                out.extend(
                    text.split("\n\n")
                        .filter(|t| t.len() > 40)
                        .map(|t| (name.clone(), t.trim().to_string())),
                );
            }
        }
    }
    out
}

/// What the server saw.
#[derive(Default)]
struct Seen {
    requests: AtomicUsize,
    /// Requests per case id.
    asked: Mutex<HashMap<String, usize>>,
    /// Replies delivered in time per case id.
    answered: Mutex<HashMap<String, usize>>,
}

struct Server {
    paragraphs: Vec<(String, String)>,
    seen: Seen,
    /// Faults on: every 7th request a 500, every 11th too late.
    flaky: bool,
    /// A pause before every reply.
    delay: Duration,
}

fn words(s: &str) -> HashSet<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_lowercase)
        .collect()
}

async fn ask(State(s): State<Arc<Server>>, Json(body): Json<Value>) -> (StatusCode, Json<Value>) {
    let n = s.seen.requests.fetch_add(1, Ordering::SeqCst);
    let id = body["id"].as_str().unwrap_or_default().to_string();
    *s.seen.asked.lock().unwrap().entry(id.clone()).or_default() += 1;
    tokio::time::sleep(s.delay).await;
    if s.flaky && n % 7 == 6 {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"error": "index busy"})),
        );
    }
    if s.flaky && n % 11 == 5 {
        // Longer than the client waits: it gives up and asks again.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        return (StatusCode::OK, Json(json!({"answer": "too late"})));
    }
    let q = words(body["question"].as_str().unwrap_or_default());
    let mut ranked: Vec<(usize, &(String, String))> = s
        .paragraphs
        .iter()
        .map(|p| (words(&p.1).intersection(&q).count(), p))
        .collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    let contexts: Vec<&str> = ranked.iter().take(3).map(|(_, p)| p.1.as_str()).collect();
    let answer = contexts[0].split(". ").next().unwrap_or_default();
    *s.seen.answered.lock().unwrap().entry(id).or_default() += 1;
    (
        StatusCode::OK,
        Json(json!({"answer": answer, "contexts": contexts})),
    )
}

/// Starts the server on a free loopback port, on a runtime of its own; its URL and state.
fn serve(flaky: bool, delay: Duration) -> (String, Arc<Server>) {
    let server = Arc::new(Server {
        paragraphs: paragraphs(),
        seen: Seen::default(),
        flaky,
        delay,
    });
    let app = axum::Router::new()
        .route("/ask", axum::routing::post(ask))
        .with_state(server.clone());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/ask", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    (url, server)
}

fn ragsynth(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("ragsynth")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `eval --run` and `eval --answers` of the outputs in `out`: the questions each misses.
fn missing(set: &Path, out: &Path) -> (Vec<Value>, Vec<Value>) {
    let run = ragsynth(&[
        "eval",
        s(set),
        "--run",
        s(&out.join("run.jsonl")),
        "--split",
        "all",
        "--format",
        "json",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let answers = ragsynth(&[
        "eval",
        s(set),
        "--answers",
        s(&out.join("answers.jsonl")),
        "--split",
        "all",
        "--format",
        "json",
    ]);
    assert!(
        answers.status.success(),
        "{}",
        String::from_utf8_lossy(&answers.stderr)
    );
    let run: Value = serde_json::from_slice(&run.stdout).unwrap();
    let answers: Value = serde_json::from_slice(&answers.stdout).unwrap();
    (
        run["missing_from_run"].as_array().unwrap().clone(),
        answers["unanswered"].as_array().unwrap().clone(),
    )
}

#[test]
fn a_flaky_http_system_answers_every_question_once_and_eval_misses_none() {
    let dir = tempfile::tempdir().unwrap();
    let set = question_set(dir.path());
    let ids = ids_of(&set);
    let (url, server) = serve(true, Duration::ZERO);
    let out = dir.path().join("out");
    let run = ragsynth(&[
        "run",
        s(&set),
        "--http",
        &url,
        "-o",
        s(&out),
        "--include-pending",
        "--concurrency",
        "3",
        "--timeout",
        "0.5",
        "--retries",
        "8",
        "--backoff-ms",
        "10",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let answered = server.seen.answered.lock().unwrap().clone();
    for id in &ids {
        assert_eq!(
            answered.get(id),
            Some(&1),
            "case {id} answered once: {answered:?}"
        );
    }
    let requests = server.seen.requests.load(Ordering::SeqCst);
    assert!(
        requests > ids.len(),
        "the faults were met and retried: {requests} requests"
    );
    assert!(
        stderr.contains("failed attempts:") && stderr.contains("http_500"),
        "{stderr}"
    );
    assert!(stderr.contains("timeout"), "{stderr}");
    assert_eq!(missing(&set, &out), (vec![], vec![]));
    let lines = std::fs::read_to_string(out.join("run.jsonl")).unwrap();
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["retrieved"].as_array().unwrap().len(), 3, "{first}");
}

#[test]
fn a_run_killed_halfway_asks_only_the_rest_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let set = question_set(dir.path());
    let ids = ids_of(&set);
    let (url, server) = serve(false, Duration::from_millis(150));
    let out = dir.path().join("out");
    let args = [
        "run",
        s(&set),
        "--http",
        &url,
        "-o",
        s(&out),
        "--include-pending",
        "--concurrency",
        "1",
    ];
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ragsynth"))
        .args(args)
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while server.seen.answered.lock().unwrap().len() < ids.len() / 2 {
        assert!(start.elapsed() < Duration::from_secs(60), "the run is too slow");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let journaled: HashSet<String> = journal
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["answer"].is_string())
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    assert!(
        journaled.len() >= ids.len() / 2 - 1 && journaled.len() < ids.len(),
        "{}",
        journaled.len()
    );
    server.seen.asked.lock().unwrap().clear();

    let second = ragsynth(&args);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("resuming: {} case(s) already answered", journaled.len())),
        "{stderr}"
    );
    let asked = server.seen.asked.lock().unwrap().clone();
    for id in &journaled {
        assert!(
            !asked.contains_key(id),
            "case {id} was answered before the kill and asked again"
        );
    }
    assert_eq!(asked.len(), ids.len() - journaled.len(), "{asked:?}");
    assert_eq!(missing(&set, &out), (vec![], vec![]));
}

/// A command system: answers each JSON line with one, except questions matching `bad`, which
/// get a line that is not JSON. It logs every question it reads to `log`.
fn command(log: &Path, bad: &str) -> String {
    format!(
        r#"while read -r line; do echo "$line" >> {log}; case "$line" in *{bad}*) echo 'not json';; *) echo '{{"answer": "from the command", "contexts": ["Agents only open outgoing connections."]}}';; esac; done"#,
        log = log.display()
    )
}

#[test]
fn a_command_system_answers_and_a_malformed_reply_is_named_per_case_and_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let set = question_set(dir.path());
    let ids = ids_of(&set);
    let out = dir.path().join("out");
    let log = dir.path().join("asked.log");
    // "port" is in two of the sample's questions.
    let cmd = command(&log, "port");
    let args = [
        "run",
        s(&set),
        "--cmd",
        &cmd,
        "-o",
        s(&out),
        "--include-pending",
        "--retries",
        "1",
        "--backoff-ms",
        "1",
    ];
    let run = ragsynth(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
    let failed: Vec<Value> = errors.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!failed.is_empty());
    for f in &failed {
        assert_eq!(f["error"], "malformed_reply", "{f}");
        assert_eq!(f["attempts"], 2, "{f}");
        let id = f["id"].as_str().unwrap();
        assert!(
            stderr.contains(&format!("case `{id}`: malformed_reply after 2 attempt(s)")),
            "{stderr}"
        );
    }
    let answers = std::fs::read_to_string(out.join("answers.jsonl")).unwrap();
    assert_eq!(
        answers.lines().count() + failed.len(),
        ids.len(),
        "every case answered or named"
    );
    assert!(
        stderr.contains(&format!("{} case(s) got no answer", failed.len())),
        "{stderr}"
    );

    // The same command again asks only the failed cases.
    std::fs::remove_file(&log).unwrap();
    let again = ragsynth(&args);
    assert_eq!(again.status.code(), Some(1));
    let asked = std::fs::read_to_string(&log).unwrap();
    assert_eq!(asked.lines().count(), 2 * failed.len(), "{asked}");
}

#[test]
fn a_command_system_that_always_answers_leaves_eval_nothing_missing() {
    let dir = tempfile::tempdir().unwrap();
    let set = question_set(dir.path());
    let out = dir.path().join("out");
    let cmd = command(&dir.path().join("asked.log"), "xyzzy-no-question-has-this");
    let run = ragsynth(&["run", s(&set), "--cmd", &cmd, "-o", s(&out), "--include-pending"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(missing(&set, &out), (vec![], vec![]));
}

#[test]
fn a_system_that_cannot_be_reached_fails_at_once_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let set = question_set(dir.path());
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let url = format!("http://{closed}/ask");
    let start = Instant::now();
    let run = ragsynth(&["run", s(&set), "--http", &url, "-o", s(&dir.path().join("a"))]);
    assert_eq!(run.status.code(), Some(1));
    assert!(start.elapsed() < Duration::from_secs(10));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains(&format!("cannot reach {url}")), "{stderr}");
    let run = ragsynth(&[
        "run",
        s(&set),
        "--cmd",
        "no-such-rag-system --serve",
        "-o",
        s(&dir.path().join("b")),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("cannot reach `no-such-rag-system --serve`") && stderr.contains("not found"),
        "{stderr}"
    );
}

/// The README demo's set (the sample's real questions, three of them answered "not in the
/// docs", and synthetic cases waiting for review; here one stands for the twelve `generate`
/// adds): `run` asks the accepted cases, and `eval` scores exactly those, calling none missing.
#[test]
fn run_and_eval_count_the_same_cases_of_the_readme_demos_set() {
    let dir = tempfile::tempdir().unwrap();
    let set = question_set(dir.path());
    let mut with_pending = ragsynth::testset::load(&set).unwrap();
    let mut pending = ragsynth::testset::Case::new("syn-pending", "how long are backups kept?");
    pending.tags.source = Some(ragsynth::testset::Source::Synthetic);
    pending.review = Some(ragsynth::testset::Review::Pending);
    pending.relevant = with_pending.cases[0].relevant.clone();
    with_pending.cases.push(pending);
    ragsynth::testset::save(&with_pending, &set).unwrap();

    let (url, server) = serve(false, Duration::ZERO);
    let out = dir.path().join("out");
    let run = ragsynth(&["run", s(&set), "--http", &url, "-o", s(&out)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("24 of 24 case(s) answered"), "{stderr}");
    assert!(!server.seen.asked.lock().unwrap().contains_key("syn-pending"));

    let eval = ragsynth(&[
        "eval",
        s(&set),
        "--run",
        s(&out.join("run.jsonl")),
        "--split",
        "all",
        "--format",
        "json",
    ]);
    assert!(eval.status.success(), "{}", String::from_utf8_lossy(&eval.stderr));
    let report: Value = serde_json::from_slice(&eval.stdout).unwrap();
    assert_eq!(report["missing_from_run"], json!([]), "{report}");
    assert_eq!(
        report["unanswerable"]["count"], 3,
        "the three \"not in the docs\" questions"
    );
    assert_eq!(report["scored"], 21);
    assert_eq!(report["not_selected"], json!({"pending": 1}));
    let text = ragsynth(&[
        "eval",
        s(&set),
        "--run",
        s(&out.join("run.jsonl")),
        "--split",
        "all",
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("0 missing from the run"), "{text}");
    assert!(
        text.contains("not scored, as `run` does not ask them: 1 pending"),
        "{text}"
    );
}
