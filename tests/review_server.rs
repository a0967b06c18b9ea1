//! The review server over plain HTTP: decisions saved, changes on disk merged with and never
//! overwritten, and requests from other names, other origins or for files outside the corpus
//! refused.

mod review_support;

use review_support::{ReviewServer, raw_request, write_testset};
use serde_json::{Value, json};

fn host(s: &ReviewServer) -> String {
    format!("127.0.0.1:{}", s.port)
}

fn get_json(s: &ReviewServer, target: &str) -> Value {
    let r = raw_request(s.port, "GET", target, &[("Host", &host(s))], "");
    assert_eq!(r.status, 200, "{target}: {}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

fn post(s: &ReviewServer, id: &str, body: &Value, origin: Option<&str>) -> review_support::Raw {
    let h = host(s);
    let mut headers = vec![("Host", h.as_str()), ("Content-Type", "application/json")];
    if let Some(o) = origin {
        headers.push(("Origin", o));
    }
    raw_request(
        s.port,
        "POST",
        &format!("/api/cases/{id}"),
        &headers,
        &body.to_string(),
    )
}

#[test]
fn serves_the_page_and_saves_a_decision_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let s = ReviewServer::start(&path, &[]);
    assert!(s.url.starts_with("http://127.0.0.1:"), "{}", s.url);

    let page = raw_request(s.port, "GET", "/", &[("Host", &host(&s))], "");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/assets/review.js"));
    let js = raw_request(s.port, "GET", "/assets/review.js", &[("Host", &host(&s))], "");
    assert_eq!(js.status, 200);
    assert!(
        !js.body.contains("https://"),
        "the page loads nothing from elsewhere"
    );

    let list = get_json(&s, "/api/cases");
    assert_eq!(list["cases"].as_array().unwrap().len(), 14);
    let card = get_json(&s, "/api/cases/syn-01");
    assert_eq!(card["review"], "pending");
    // "snapshots older than 30 days" and "forgotten at the next prune": 5 tokens each.
    assert_eq!(card["longest_run"], 5);
    assert!(!card["passages"][0]["marks"].as_array().unwrap().is_empty());
    assert!(card["passages"][0]["quote"].is_array());

    let before = std::fs::read_to_string(&path).unwrap();
    let r = post(
        &s,
        "syn-01",
        &json!({"version": list["version"], "action": "accept"}),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let after = std::fs::read_to_string(&path).unwrap();
    assert_ne!(before, after);
    let set = ragsynth::testset::load(&path).unwrap();
    assert_eq!(
        set.case("syn-01").unwrap().review,
        Some(ragsynth::testset::Review::Accepted)
    );
    // The page must send its version: a decision against an old one is refused.
    let stale = post(
        &s,
        "syn-02",
        &json!({"version": list["version"], "action": "accept"}),
        None,
    );
    assert_eq!(stale.status, 409);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
}

#[test]
fn a_file_changed_on_disk_is_merged_with_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let s = ReviewServer::start(&path, &[]);
    let list = get_json(&s, "/api/cases");

    // Someone edits another case elsewhere while the page is open: the decision is saved next
    // to that edit, and the page is told to reload.
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replace("Clock skew.", "Clock skew between agent and server.");
    std::fs::write(&path, &edited).unwrap();
    let r = post(
        &s,
        "syn-02",
        &json!({"version": list["version"], "action": "reject", "reason": "x"}),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let saved: Value = serde_json::from_str(&r.body).unwrap();
    assert!(
        saved["merged"].as_str().unwrap().contains("changed on disk"),
        "{}",
        r.body
    );
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(
        now.contains("Clock skew between agent and server."),
        "the other edit survives"
    );
    let set = ragsynth::testset::load(&path).unwrap();
    assert_eq!(
        set.case("syn-02").unwrap().review,
        Some(ragsynth::testset::Review::Rejected)
    );

    // The same field changed on disk: refused, nothing written, the page reloads.
    let theirs = now.replacen("review: rejected", "review: accepted", 1);
    std::fs::write(&path, &theirs).unwrap();
    let r = post(
        &s,
        "syn-02",
        &json!({"version": saved["version"], "action": "pending"}),
        None,
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(
        r.body.contains("changed on disk") && r.body.contains("`syn-02` field `review`"),
        "{}",
        r.body
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs, "nothing written");

    let reloaded = get_json(&s, "/api/cases");
    assert_ne!(reloaded["version"], saved["version"]);
    assert_eq!(get_json(&s, "/api/cases/syn-02")["review"], "accepted");
    let r = post(
        &s,
        "syn-02",
        &json!({"version": reloaded["version"], "action": "pending"}),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("Clock skew between agent and server.")
    );
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let s = ReviewServer::start(&path, &[]);
    let before = std::fs::read_to_string(&path).unwrap();
    let port = s.port.to_string();

    // DNS rebinding: the attacker's name resolves to 127.0.0.1, the Host header still names it.
    for h in [
        format!("attacker.example:{port}"),
        format!("localhost.attacker.example:{port}"),
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{}", s.port.wrapping_add(1)),
    ] {
        let r = raw_request(s.port, "GET", "/api/cases", &[("Host", &h)], "");
        assert_eq!(r.status, 403, "Host {h}: {}", r.body);
        assert!(!r.body.contains("syn-01"));
    }
    for h in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let r = raw_request(s.port, "GET", "/api/cases", &[("Host", &h)], "");
        assert_eq!(r.status, 200, "Host {h}");
    }

    let version = get_json(&s, "/api/cases")["version"].clone();
    let decision = json!({"version": version, "action": "accept"});
    for origin in [
        "http://attacker.example",
        &format!("http://attacker.example:{port}"),
        &format!("https://127.0.0.1:{port}"),
        "null",
    ] {
        let r = post(&s, "syn-01", &decision, Some(origin));
        assert_eq!(r.status, 403, "Origin {origin}: {}", r.body);
    }
    let r = raw_request(
        s.port,
        "GET",
        "/api/cases/syn-01",
        &[("Host", &host(&s)), ("Origin", "http://attacker.example")],
        "",
    );
    assert_eq!(r.status, 403);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        before,
        "nothing was written"
    );

    // A form post (no JSON content type) cannot carry a decision either.
    let h = host(&s);
    let r = raw_request(
        s.port,
        "POST",
        "/api/cases/syn-01",
        &[("Host", &h), ("Content-Type", "text/plain")],
        &decision.to_string(),
    );
    assert!(r.status >= 400, "{}", r.status);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);

    // The page's own origin is accepted.
    let r = post(&s, "syn-01", &decision, Some(&format!("http://localhost:{port}")));
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn nothing_outside_the_corpus_can_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(corpus.join("sub")).unwrap();
    std::fs::write(corpus.join("a.md"), "# A\nPublic text.\n").unwrap();
    std::fs::write(corpus.join("sub/b.md"), "# B\nMore public text.\n").unwrap();
    std::fs::write(corpus.join(".hidden.md"), "HIDDEN-IN-CORPUS\n").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "TOP-SECRET\n").unwrap();
    let path = dir.path().join("set.yaml");
    std::fs::write(
        &path,
        "ragsynth: 1\ncorpus: {root: corpus}\ncases:\n  - id: c1\n    question: What is public?\n    relevant: []\n    tags: {source: synthetic}\n",
    )
    .unwrap();
    let s = ReviewServer::start(&path, &[]);
    let h = host(&s);

    let ok = raw_request(s.port, "GET", "/api/doc?path=sub/b.md", &[("Host", &h)], "");
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert!(ok.body.contains("More public text."));

    let secret = dir.path().join("secret.txt").display().to_string();
    for target in [
        "/api/doc?path=../secret.txt".to_string(),
        "/api/doc?path=..%2Fsecret.txt".to_string(),
        "/api/doc?path=%2e%2e/secret.txt".to_string(),
        "/api/doc?path=sub/../../secret.txt".to_string(),
        format!("/api/doc?path={secret}"),
        "/api/doc?path=/etc/passwd".to_string(),
        "/api/doc?path=.hidden.md".to_string(),
        "/api/doc?path=sub/../a.md".to_string(),
        "/assets/../secret.txt".to_string(),
        "/assets/..%2f..%2fsecret.txt".to_string(),
        "/../secret.txt".to_string(),
        "/api/cases/..%2F..%2Fsecret.txt".to_string(),
        "/set.yaml".to_string(),
    ] {
        let r = raw_request(s.port, "GET", &target, &[("Host", &h)], "");
        assert!(
            r.status == 404 || r.status == 400,
            "{target}: {} {}",
            r.status,
            r.body
        );
        assert!(
            !r.body.contains("TOP-SECRET") && !r.body.contains("HIDDEN-IN-CORPUS"),
            "{target}"
        );
        assert!(!r.body.contains("root:"), "{target}");
    }
}

#[test]
fn the_library_binds_loopback_unless_told_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let server = ragsynth::review::serve(ragsynth::review::ServeOptions::new(&path))
            .await
            .unwrap();
        assert!(server.local_addr().ip().is_loopback());
        assert_ne!(server.local_addr().port(), 0);
        assert_eq!(server.counts(), (14, 8, 0));
    });
}

#[test]
fn a_missing_or_broken_test_set_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .args(["review", "no-such-file.yaml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-file.yaml"), "{err}");

    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "ragsynth: 1\ncases:\n  - id: x\n    question: [unclosed\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("review")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.yaml:"), "{err}");
}
