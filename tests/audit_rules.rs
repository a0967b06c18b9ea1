//! Every rule against the fixture set (`tests/fixtures/audit/`): each rule flags exactly the
//! cases built to trigger it (positive) and none of the others (negative). The terminal and
//! JSON reports of the same run are pinned by snapshots.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ragsynth::audit::{self, AuditConfig, AuditContext, AuditReport, rules};
use ragsynth::config::{ConfigFile, Sources};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::render::audit as report;
use ragsynth::testset::{self, Case, Label, Source, TestSet};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

fn config() -> AuditConfig {
    ConfigFile::load(&Sources {
        named: Some(fixture().join("ragsynth.toml")),
        ..Sources::default()
    })
    .unwrap()
    .section("audit")
    .unwrap()
}

fn run(set: &TestSet, cfg: &AuditConfig) -> AuditReport {
    let corpus = Corpus::load(&fixture().join("corpus"), WalkOptions::default()).unwrap();
    let cx = AuditContext::new(Some(corpus), &set.chunking.clone().unwrap_or_default()).unwrap();
    audit::audit(set, &cx, cfg)
}

fn flagged(report: &AuditReport) -> BTreeMap<&'static str, Vec<String>> {
    let mut m: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for f in &report.findings {
        m.entry(f.code)
            .or_default()
            .push(f.case.clone().unwrap_or_else(|| "(set)".into()));
    }
    for v in m.values_mut() {
        v.sort();
    }
    m
}

fn load() -> TestSet {
    testset::load(&fixture().join("testset.yaml")).unwrap()
}

#[test]
fn each_rule_flags_its_fixture_cases_and_no_others() {
    let expected: &[(&str, &[&str])] = &[
        ("RS101", &["syn-copied", "syn-statement"]),
        (
            "RS102",
            &[
                "syn-answer",
                "syn-contained",
                "syn-copied",
                "syn-passage",
                "syn-two-docs",
            ],
        ),
        ("RS103", &["syn-contained"]),
        ("RS201", &["syn-short"]),
        ("RS202", &["syn-invalid", "syn-yes-no"]),
        ("RS203", &["syn-statement"]),
        ("RS204", &["syn-several"]),
        ("RS205", &["syn-meta", "syn-passage"]),
        ("RS206", &["syn-meta"]),
        ("RS207", &["syn-answer"]),
        ("RS208", &["syn-heading"]),
        ("RS209", &["syn-pronoun"]),
        ("RS210", &["syn-stutter"]),
        ("RS301", &["syn-dup"]),
        ("RS302", &["syn-near-b"]),
        ("RS303", &["syn-near-b"]),
        ("RS401", &["syn-doc-missing"]),
        ("RS402", &["syn-span"]),
        ("RS403", &["syn-quote"]),
        ("RS404", &["(set)"]),
        ("RS405", &["syn-invalid"]),
        ("RS406", &["syn-unlocated"]),
        ("RS501", &["syn-mislabel"]),
        ("RS502", &["syn-answerable"]),
        ("RS503", &["syn-one-chunk"]),
        // The LLM checks run only with a model (tests/audit_llm.rs).
        ("RS504", &[]),
        ("RS505", &[]),
        ("RS506", &[]),
        // The mislabelled case's answer is on the pricing page, not in its label.
        ("RS507", &["syn-mislabel"]),
        ("RS508", &[]),
        ("RS509", &[]),
        ("RS510", &[]),
        ("RS511", &[]),
        ("RS512", &[]),
        ("RS513", &[]),
        ("RS514", &[]),
        ("RS601", &["(set)"]),
        ("RS602", &["(set)"]),
        ("RS603", &[]),
    ];
    let codes: Vec<&str> = rules::all().iter().map(|r| r.code).collect();
    let listed: Vec<&str> = expected.iter().map(|e| e.0).collect();
    assert_eq!(codes, listed, "every registered rule has a fixture expectation");

    let report = run(&load(), &config());
    let got = flagged(&report);
    for (code, cases) in expected {
        let want: Vec<String> = cases.iter().map(|s| s.to_string()).collect();
        assert_eq!(got.get(code).cloned().unwrap_or_default(), want, "{code}");
    }
    // The real keyword query is left alone by the wording rule meant for synthetic text.
    assert!(!got["RS203"].contains(&"real-keywords".to_string()));
    let copied = report.findings.iter().find(|f| f.code == "RS101").unwrap();
    assert_eq!(
        copied.phrase.as_deref(),
        Some("command forgets snapshots older than the retention window")
    );
}

fn healthy(set: &TestSet) -> TestSet {
    let keep = [
        "real-free-tier",
        "real-keywords",
        "real-restore",
        "real-unanswerable",
        "syn-two-docs",
    ];
    let mut s = set.clone();
    s.cases.retain(|c| keep.contains(&c.id.as_str()));
    let mut c = Case::new("real-changelog", "when did parallel uploads arrive");
    c.tags.source = Some(Source::Real);
    c.relevant.push(Label {
        doc: "changelog.md".into(),
        start: 13,
        end: 48,
        quote: "parallel uploads".into(),
        chunk: None,
        grade: None,
        extra: Default::default(),
    });
    s.cases.push(c);
    let corpus = Corpus::load(&fixture().join("corpus"), WalkOptions::default()).unwrap();
    s.corpus.as_mut().unwrap().fingerprint = Some(corpus.fingerprint());
    s
}

#[test]
fn set_rules_stay_quiet_on_a_healthy_set_and_fire_when_types_are_missing() {
    let set = healthy(&load());
    let got = flagged(&run(&set, &config()));
    for code in [
        "RS301", "RS302", "RS401", "RS402", "RS403", "RS404", "RS405", "RS601", "RS602", "RS603",
    ] {
        assert!(!got.contains_key(code), "{code}: {:?}", got.get(code));
    }
    let mut narrow = set.clone();
    narrow
        .cases
        .retain(|c| c.id != "real-unanswerable" && c.id != "syn-two-docs");
    let got = flagged(&run(&narrow, &config()));
    assert_eq!(got["RS603"], ["(set)"]);
}

#[test]
fn select_and_ignore_by_code_or_prefix() {
    let set = load();
    let only = |select: &[&str], ignore: &[&str]| {
        let cfg = AuditConfig {
            select: select.iter().map(|s| s.to_string()).collect(),
            ignore: ignore.iter().map(|s| s.to_string()).collect(),
            ..config()
        };
        flagged(&run(&set, &cfg)).into_keys().collect::<Vec<_>>()
    };
    assert_eq!(only(&["RS3"], &[]), ["RS301", "RS302", "RS303"]);
    assert_eq!(only(&["RS3"], &["RS302", "RS303"]), ["RS301"]);
    assert_eq!(only(&["RS101", "RS207"], &[]), ["RS101", "RS207"]);
    assert!(
        !only(&[], &["RS1", "RS2"])
            .iter()
            .any(|c| c.starts_with("RS1") || c.starts_with("RS2"))
    );
}

#[test]
fn synthetic_vs_real_verdict_has_the_numbers() {
    let report = run(&load(), &config());
    let cmp = report.summary.comparison.as_ref().expect("both sources present");
    assert_eq!(cmp.real.cases, 4);
    assert_eq!(cmp.synthetic.cases, 24);
    assert!(
        cmp.verdict.contains('%') && cmp.verdict.contains("words per question"),
        "{}",
        cmp.verdict
    );
    assert!(cmp.synthetic.copied > cmp.real.copied);
}

#[test]
fn report_snapshots() {
    let set = load();
    let report = run(&set, &config());
    let text = report::text(
        &report,
        &set,
        report::TextOptions {
            color: false,
            max_per_rule: 0,
        },
    );
    insta::assert_snapshot!("fixture_text_report", text);
    insta::assert_snapshot!("fixture_json_report", report::json(&report));
}
