//! `review --answers` in a real headless Chromium: a person marks the judges' verdicts right
//! or wrong with the keyboard (1/2/3 pick a judge, y/n mark, u takes a mark back, j moves on),
//! the marks file on disk holds exactly those marks, they survive a restart of the server, and
//! `eval --calibration` then reports for each judge the count, accuracy and Cohen's kappa the
//! marks imply (computed here by hand); the next `eval --answers` report shows the refusal
//! detector's kappa next to its figures. A screenshot lands in `output/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them the test prints why and
//! passes, unless `RAGSYNTH_REQUIRE_BROWSER=1` (CI) makes it fail.

mod review_support;

use std::collections::BTreeMap;

use review_support::browser::{Browser, browser_available};
use review_support::judged::{by_hand, judged_workspace, ragsynth};
use review_support::{ReviewServer, repo};
use serde_json::Value;

/// The keys pressed on each case, in the order the page shows the cases.
const KEYS: &[(&str, &[&str])] = &[
    ("ret-prune", &["1", "y", "2", "y", "3", "n"]),
    ("plan-limit-error", &["2", "n", "1", "y"]),
    // The refusal verdict is marked, then taken back; `j` moves on with it unmarked (once
    // every verdict of a case is marked, the page moves on by itself).
    (
        "encrypt-and-price",
        &["2", "y", "2", "u", "1", "n", "3", "y", "j"],
    ),
    ("no-tape", &["2", "y"]),
];

/// The marks those keys leave: (id, judge) -> right?
fn expected_marks() -> BTreeMap<(String, String), bool> {
    [
        ("ret-prune", "correct", true),
        ("ret-prune", "refused", true),
        ("ret-prune", "grounded", false),
        ("plan-limit-error", "refused", false),
        ("plan-limit-error", "correct", true),
        ("encrypt-and-price", "correct", false),
        ("encrypt-and-price", "grounded", true),
        ("no-tape", "refused", true),
    ]
    .into_iter()
    .map(|(i, j, r)| ((i.to_string(), j.to_string()), r))
    .collect()
}

fn read_jsonl(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_marks_verdicts_by_keyboard_and_calibration_reports_their_kappa() {
    let Some(driver) = browser_available() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (testset, per_question) = judged_workspace(dir.path());
    let cases = read_jsonl(&per_question);
    let verdicts: usize = cases
        .iter()
        .map(|c| {
            ["correct", "refused", "grounded"]
                .iter()
                .filter(|j| c[**j].is_boolean())
                .count()
        })
        .sum();
    assert_eq!(
        verdicts, 9,
        "3 + 2 + 3 + 1 verdicts; the unanswered case has none"
    );

    let server = ReviewServer::start_answers(&per_question);
    let browser = Browser::start(&driver).await;
    browser.goto(&server.url).await;
    let progress = "return document.getElementById('progress-text').textContent";
    let first = browser.card_after("").await;
    assert_eq!(first, "ret-prune");
    assert_eq!(browser.js(progress).await, "0 of 9 verdicts marked");
    let keys = browser
        .js("return document.getElementById('keys').textContent")
        .await;
    assert!(keys.as_str().unwrap().contains("verdict wrong"), "{keys}");
    // The card shows what a person needs to judge: question, reference, answer, contexts.
    let card = browser
        .js("return document.getElementById('case-card').textContent")
        .await;
    let card = card.as_str().unwrap();
    for want in [
        "When does forgetting snapshots actually free disk space?",
        "Only after prune runs.",
        "Only when prune runs",
        "space is only given back after prune",
    ] {
        assert!(card.contains(want), "{want:?} not on the card: {card}");
    }

    for (id, keys) in KEYS {
        let shown = browser
            .wait_for(
                &format!(
                    "const c = document.getElementById('case-card'); return c && c.dataset.id === {id:?}"
                ),
                id,
            )
            .await;
        assert_eq!(shown, true);
        for k in *keys {
            browser.press(k).await;
        }
    }
    browser
        .wait_for(
            "return document.getElementById('progress-text').textContent === '8 of 9 verdicts marked'",
            "8 marks saved",
        )
        .await;
    let output = repo().join("output");
    std::fs::create_dir_all(&output).unwrap();
    browser.screenshot(&output.join("review-answers.png")).await;

    // On disk: exactly those marks, each with the verdict seen and the label it implies.
    let marks_path = dir.path().join("per-question.marks.jsonl");
    let marks = read_jsonl(&marks_path);
    let by_id: BTreeMap<&str, &Value> = cases.iter().map(|c| (c["id"].as_str().unwrap(), c)).collect();
    let mut got = BTreeMap::new();
    for m in &marks {
        let (id, judge) = (m["id"].as_str().unwrap(), m["judge"].as_str().unwrap());
        let verdict = by_id[id][judge].as_bool().unwrap();
        assert_eq!(m["verdict"], verdict, "{m}");
        let right = m["mark"] == "right";
        assert_eq!(m["truth"], if right { verdict } else { !verdict }, "{m}");
        got.insert((id.to_string(), judge.to_string()), right);
    }
    assert_eq!(got, expected_marks());

    // A restarted server shows the marks saved.
    drop(server);
    let server = ReviewServer::start_answers(&per_question);
    browser.goto(&server.url).await;
    browser
        .wait_for(
            "const p = document.getElementById('progress-text'); return p && p.textContent === '8 of 9 verdicts marked'",
            "the marks after a restart",
        )
        .await;
    // The one verdict left is where the page opens.
    assert_eq!(browser.card_after("").await, "encrypt-and-price");
    drop(server);

    // The agreement those marks imply, by hand: label = verdict if right, else its opposite.
    let mut pairs: BTreeMap<String, Vec<(bool, bool)>> = BTreeMap::new();
    for ((id, judge), right) in expected_marks() {
        let v = by_id[id.as_str()][judge.as_str()].as_bool().unwrap();
        pairs
            .entry(judge)
            .or_default()
            .push((v, if right { v } else { !v }));
    }
    let out = ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--calibration".as_ref(),
        per_question.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for judge in report["judges"].as_array().unwrap() {
        let name = judge["judge"].as_str().unwrap();
        let p = &pairs[name];
        let (accuracy, kappa) = by_hand(p);
        assert_eq!(judge["n"], p.len(), "{name}");
        assert!(
            (judge["accuracy"].as_f64().unwrap() - accuracy).abs() < 1e-12,
            "{name}: {judge}"
        );
        match kappa {
            Some(k) => assert!(
                (judge["kappa"].as_f64().unwrap() - k).abs() < 1e-12,
                "{name}: {judge}"
            ),
            None => assert!(judge["kappa"].is_null(), "{name}: {judge}"),
        }
    }
    // Worked out: refused pairs (no, no), (no, yes), (yes, yes): accuracy 2/3, chance
    // 1/3·2/3 + 2/3·1/3 = 4/9, kappa (6/9 − 4/9) / (5/9) = 0.4.
    let refused = &report["judges"][1];
    assert_eq!(refused["judge"], "refused");
    assert!((refused["kappa"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    assert_eq!(refused["model"], "lexical");

    // The next answers report shows the lexical detector's kappa beside its figures.
    let out = ragsynth(&[
        "eval".as_ref(),
        testset.as_os_str(),
        "--answers".as_ref(),
        repo().join("tests/fixtures/answers/answers.jsonl").as_os_str(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("lexical refused judge: κ 0.40, accuracy 0.67 (n 3, "),
        "{text}"
    );
}
