//! `ragsynth audit --format html -o FILE`: one self-contained page with every case, its flags
//! (each with the case's own finding) and the rules' explanations; the test set itself is not
//! touched.

use std::path::Path;

use assert_cmd::Command;

#[test]
fn html_report_is_self_contained_and_leaves_the_set_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("testset.yaml");
    let import = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("import")
        .arg(root.join("corpora/questions.csv"))
        .arg("--into")
        .arg(&set)
        .arg("--corpus")
        .arg(root.join("corpora/docs"))
        .output()
        .unwrap();
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let before = std::fs::read(&set).unwrap();

    let report = dir.path().join("report.html");
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["audit", "--format", "html", "--fail-on", "never", "-o"])
        .arg(&report)
        .arg(&set)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "the report goes to the file, not stdout");

    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"));
    // Every case is in it, with the flags audit found (the sample questions hold yes/no ones).
    let text = String::from_utf8(before.clone()).unwrap();
    for id in text.lines().filter_map(|l| l.trim_start().strip_prefix("- id: ")) {
        assert!(html.contains(id), "case {id} missing from the report");
    }
    assert!(html.contains("RS202"), "yes/no flags are shown");
    assert!(
        html.contains("\"lexical_verdict\":null"),
        "no synthetic half, no verdict"
    );
    assert!(html.contains("yes-no"), "rule explanations are embedded");
    // Each flag carries the case's own finding, not only the rule's generic example.
    assert!(
        html.contains(r#"{"code":"RS202","message":"answered by yes or no","explanation":"#),
        "a case's own figures are shown with its flag"
    );
    // Works offline: nothing is loaded from elsewhere.
    for needle in ["src=\"http", "href=\"http", "@import", "src=\"//"] {
        assert!(
            !html.contains(needle),
            "external reference `{needle}` in the report"
        );
    }
    assert_eq!(
        std::fs::read(&set).unwrap(),
        before,
        "audit without --write must not touch the set"
    );
}

/// The page's summary is headed by the audit's synthetic-vs-real verdict when the set holds
/// both halves; a set of real questions only has none.
#[test]
fn the_report_carries_the_synthetic_vs_real_verdict() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit");
    let dir = tempfile::tempdir().unwrap();
    let audit = |format: &str, out: &Path| {
        let o = Command::cargo_bin("ragsynth")
            .unwrap()
            .arg("audit")
            .arg(fixture.join("testset.yaml"))
            .arg("--corpus")
            .arg(fixture.join("corpus"))
            .arg("--config")
            .arg(fixture.join("ragsynth.toml"))
            .args(["--format", format, "--fail-on", "never", "-o"])
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let (json, html) = (dir.path().join("report.json"), dir.path().join("report.html"));
    audit("json", &json);
    audit("html", &html);
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let verdict = report["summary"]["comparison"]["verdict"]
        .as_str()
        .expect("both halves");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(&format!(
            "\"lexical_verdict\":{}",
            serde_json::to_string(verdict).unwrap()
        )),
        "the page carries the verdict: {verdict}"
    );
    assert!(page.contains("Keyword search: "), "and shows it");
}

/// Both reports open on what waits for review: the text report lists the findings on pending
/// synthetic cases first, and the page's case list starts with those cases.
#[test]
fn the_reports_open_on_the_synthetic_cases_waiting_for_review() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("testset.yaml");
    let import = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("import")
        .arg(root.join("corpora/questions.csv"))
        .arg("--into")
        .arg(&set)
        .arg("--corpus")
        .arg(root.join("corpora/docs"))
        .output()
        .unwrap();
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let mut with_pending = ragsynth::testset::load(&set).unwrap();
    let mut pending =
        ragsynth::testset::Case::new("syn-waiting", "does the passage say how long snapshots are kept?");
    pending.tags.source = Some(ragsynth::testset::Source::Synthetic);
    pending.review = Some(ragsynth::testset::Review::Pending);
    pending.relevant = with_pending.cases[0].relevant.clone();
    with_pending.cases.push(pending);
    ragsynth::testset::save(&with_pending, &set).unwrap();

    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["audit", "--fail-on", "never"])
        .arg(&set)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let waiting = text
        .find("Waiting for review: 1 synthetic case(s) pending")
        .expect(&text);
    let rest = text.find("Real and reviewed cases, and the set:").expect(&text);
    let finding = text.find("syn-waiting").expect(&text);
    let real = text.find("real-").expect(&text);
    assert!(waiting < finding && finding < rest && rest < real, "{text}");

    let report = dir.path().join("report.html");
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["audit", "--format", "html", "--fail-on", "never", "-o"])
        .arg(&report)
        .arg(&set)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    let cases = html.find("\"cases\":[").expect("the page's case list");
    let first = html[cases..].find("\"id\":\"").map(|i| cases + i + 6).unwrap();
    assert!(
        html[first..].starts_with("syn-waiting"),
        "{}",
        &html[first..first + 40]
    );
}
