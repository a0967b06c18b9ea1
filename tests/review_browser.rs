//! The review page in a real headless Chromium, driven through chromedriver's WebDriver API:
//! a person accepts one case by keyboard, edits and accepts another, rejects a third with a
//! reason — and the file on disk holds exactly those changes; a change made elsewhere is merged
//! with, a collision refused. A set of imported real questions opens on the cases that wait
//! (`needs_label`), and the HTML report shows each case's own finding with the rule's text
//! formatted below it, and heads its summary with the audit's synthetic-vs-real verdict. Screenshots of the review page, the summary and a report's flag land in
//! `output/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them the test prints why and
//! passes, unless `RAGSYNTH_REQUIRE_BROWSER=1` (CI) makes it fail.

mod review_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use ragsynth::testset::{self, Review};
use review_support::browser::{Browser, browser_available};
use review_support::{ReviewServer, repo, write_testset};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewer_accepts_edits_and_rejects_in_chromium() {
    let Some(driver) = browser_available() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = write_testset(dir.path());
    let original = std::fs::read_to_string(&path).unwrap();
    let server = ReviewServer::start(&path, &[]);
    let browser = Browser::start(&driver).await;
    let output = repo().join("output");
    std::fs::create_dir_all(&output).unwrap();

    browser.goto(&server.url).await;
    let first = browser.card_after("").await;
    let progress = browser
        .wait_for(
            "return document.getElementById('progress-text').textContent",
            "progress",
        )
        .await;
    assert_eq!(progress, "0 of 8 synthetic reviewed");
    // The card says how the case was written: here, how hard keyword search finds it.
    let made = browser
        .js("const m = document.getElementById('made'); return m ? m.textContent : ''")
        .await;
    assert!(
        made.as_str().unwrap_or_default().contains("ranks its source 3rd"),
        "{made}"
    );

    // 1. Accept by keyboard.
    browser.press("a").await;
    let second = browser.card_after(&first).await;

    // 2. Edit the question and topic, then save (status `edited`).
    browser.press("e").await;
    let edited_question = "Which cipher protects the contents of backed-up chunks?";
    browser.type_into("#edit-question", edited_question, true).await;
    browser.type_into("#edit-topic", "encryption", true).await;
    browser.click("#save-edit").await;
    let third = browser.card_after(&second).await;

    // 3. Reject with a reason typed into the box, confirmed with Enter.
    browser.press("r").await;
    let reason = "copies the passage; not how a user asks";
    browser.type_into("#reason", reason, false).await;
    browser.press("\u{E007}").await;
    let fourth = browser.card_after(&third).await;
    let progress = browser
        .wait_for(
            "const t = document.getElementById('progress-text').textContent; return t.startsWith('3 of') ? t : null",
            "progress after three decisions",
        )
        .await;
    assert_eq!(progress, "3 of 8 synthetic reviewed");
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#case-list li').length")
            .await,
        5,
        "the pending filter leaves five cases"
    );

    // The file holds exactly those three changes: apply them through the library to the
    // original and compare the whole text byte for byte.
    let mut expected = testset::load(&path_with(&original, dir.path())).unwrap();
    expected.case_mut(&first).unwrap().review = Some(Review::Accepted);
    let c = expected.case_mut(&second).unwrap();
    c.question = edited_question.into();
    c.tags.topic = Some("encryption".into());
    c.review = Some(Review::Edited);
    let c = expected.case_mut(&third).unwrap();
    c.review = Some(Review::Rejected);
    c.extra.insert(
        ragsynth::review::REASON_FIELD.into(),
        Value::String(reason.into()),
    );
    let on_disk = std::fs::read_to_string(&path).unwrap();
    assert_eq!(on_disk, testset::to_string(&expected, testset::Format::Yaml));
    let changed: Vec<&str> = original
        .split("\n  - ")
        .zip(on_disk.split("\n  - "))
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.lines().next().unwrap_or_default())
        .collect();
    assert_eq!(
        changed,
        [
            format!("id: {first}"),
            format!("id: {second}"),
            format!("id: {third}")
        ]
    );

    // Screenshot of a case card with its flags, copied words and quote: the next one (j).
    browser.press("j").await;
    let fifth = browser.card_after(&fourth).await;
    browser
        .wait_for(
            "return document.querySelector('#case-card mark.cp-run') !== null",
            "highlighted copied words",
        )
        .await;
    browser.screenshot(&output.join("review.png")).await;

    // The summary view draws its plots as inline SVG.
    browser.click("#tab-summary").await;
    let plots = browser
        .wait_for(
            "const n = document.querySelectorAll('#view-summary .plot svg').length; return n > 0 ? n : null",
            "summary plots",
        )
        .await;
    assert_eq!(plots, 4);
    browser.screenshot(&output.join("review-summary.png")).await;
    browser.click("#tab-review").await;

    // Edited elsewhere while the page is open: the next decision is saved next to that edit
    // (nothing of either is lost), and the page says so and shows the file as it now is.
    let elsewhere = on_disk.replace("Clock skew.", "Clock skew (edited elsewhere).");
    assert_ne!(elsewhere, on_disk);
    std::fs::write(&path, &elsewhere).unwrap();
    assert_eq!(browser.card_after("").await, fifth);
    browser.press("a").await;
    let message = browser
        .wait_for(
            "const b = document.getElementById('banner'); return b.hidden ? null : b.textContent",
            "the merge banner",
        )
        .await;
    let message = message.as_str().unwrap();
    assert!(message.contains("changed on disk"), "{message}");
    assert!(message.contains("saved next to those changes"), "{message}");
    browser
        .wait_for(
            "return document.getElementById('progress-text').textContent.startsWith('4 of')",
            "the progress after the merged save",
        )
        .await;
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(now.contains("Clock skew (edited elsewhere)."));
    let merged = testset::load(&path).unwrap();
    assert_eq!(merged.case(&fifth).unwrap().review, Some(Review::Accepted));

    // The same field changed both ways (the case on the card rejected elsewhere, accepted
    // here): nothing is written, the page names the other change and reloads.
    let sixth = browser.card_after(&fifth).await;
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find(&format!("id: {sixth}\n")).unwrap();
    let at = at + text[at..].find("review: pending").unwrap();
    let collided = format!(
        "{}review: rejected{}",
        &text[..at],
        &text[at + "review: pending".len()..]
    );
    std::fs::write(&path, &collided).unwrap();
    browser.press("a").await;
    browser
        .wait_for(
            "const b = document.getElementById('banner'); return !b.hidden && b.textContent.includes('was changed on disk')",
            "the conflict banner",
        )
        .await;
    assert_eq!(std::fs::read_to_string(&path).unwrap(), collided);

    // The static export renders the same views from one file, offline.
    let set = testset::load(&path).unwrap();
    let corpus = review_support::sample_corpus();
    let report = dir.path().join("report.html");
    std::fs::write(&report, ragsynth::review::static_html(&set, Some(&corpus))).unwrap();
    browser.goto(&format!("file://{}", report.display())).await;
    let shown = browser.card_after("").await;
    assert_eq!(shown, ragsynth::review::in_review_order(&set.cases)[0].id);
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#case-list li').length")
            .await,
        14
    );
    assert_eq!(
        browser.js("return document.getElementById('accept')").await,
        Value::Null,
        "the export is read-only"
    );
    browser.screenshot(&output.join("review-report.png")).await;
}

/// Writes `text` to a file of its own so it can be loaded as the original test set.
fn path_with(text: &str, dir: &Path) -> PathBuf {
    let p = dir.join("original.yaml");
    std::fs::write(&p, text).unwrap();
    p
}

/// The imported sample questions as a new user has them after the demo: 24 real cases, 3 of
/// them `needs_label`, none typed, none pending.
/// The sample's real questions imported, with three more that name no passage (a person's
/// questions before anyone labelled them): those wait as `needs_label`.
fn imported_set(dir: &Path) -> PathBuf {
    let set = dir.join("testset.yaml");
    let csv = dir.join("questions.csv");
    let mut rows = std::fs::read_to_string(repo().join("corpora/questions.csv")).unwrap();
    for q in [
        "how do I rotate the agent's API key",
        "can a backup run while a restore is running",
        "where does the agent keep its cache on macOS",
    ] {
        rows.push_str(&format!("\"{q}\",,,\n"));
    }
    std::fs::write(&csv, rows).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("import")
        .arg(&csv)
        .arg("--into")
        .arg(&set)
        .arg("--corpus")
        .arg(repo().join("corpora/docs"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    set
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_opens_on_what_waits_and_the_report_explains_each_flag() {
    let Some(driver) = browser_available() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = imported_set(dir.path());
    let server = ReviewServer::start(&path, &[]);
    let browser = Browser::start(&driver).await;
    browser.goto(&server.url).await;
    browser.card_after("").await;

    // No case is pending, 3 need a label: the page opens on those, not on "all reviewed".
    let status = browser
        .js("const s = document.getElementById('f-status'); return [s.value, s.selectedOptions[0].textContent]")
        .await;
    assert_eq!(status, json!(["todo", "to review (3)"]));
    assert_eq!(
        browser
            .js("return document.querySelectorAll('#case-list li').length")
            .await,
        3
    );
    assert_eq!(
        browser.js("return document.getElementById('empty-card')").await,
        Value::Null
    );

    // A filter that matches nothing says so on one line and points at what still waits.
    browser
        .js("const s = document.getElementById('f-status'); s.value = 'rejected'; s.dispatchEvent(new Event('change')); return null")
        .await;
    let empty = browser
        .wait_for(
            "const li = document.querySelector('#case-list li.empty'); if (!li) return null; \
             const r = document.createRange(); r.selectNodeContents(li); \
             return [li.textContent, r.getClientRects().length, document.getElementById('empty-card').textContent]",
            "the empty list",
        )
        .await;
    assert_eq!(empty[0], "No case matches these filters.");
    assert_eq!(empty[1], 1, "the message is one line, not a word per line");
    assert!(
        empty[2].as_str().unwrap().contains("3 case(s) still wait"),
        "{empty}"
    );

    // The summary's status tiles add up to the cases; untyped cases are not a type bar.
    browser.click("#tab-summary").await;
    let tiles = browser
        .wait_for(
            "const t = [...document.querySelectorAll('#view-summary .tile')]; \
             return t.length ? Object.fromEntries(t.map((x) => [x.querySelector('.k').textContent, +x.querySelector('.v').textContent])) : null",
            "summary tiles",
        )
        .await;
    assert_eq!(tiles["Needs label"], 3, "{tiles}");
    let statuses: i64 = ["Pending", "Needs label", "Accepted", "Edited", "Rejected"]
        .iter()
        .map(|k| tiles[k].as_i64().unwrap())
        .sum();
    assert_eq!(json!(statuses), tiles["Cases"], "{tiles}");
    let summary = browser
        .js("return document.getElementById('view-summary').textContent")
        .await;
    let summary = summary.as_str().unwrap();
    assert!(!summary.contains("untyped)"), "{summary}");
    // The sample's three "not in the docs" questions are typed unanswerable by import.
    assert!(summary.contains("24 case(s) have no type (24 real)"), "{summary}");
    drop(server);

    // The HTML report: a flagged case shows its own finding, and the rule's text as formatted
    // prose (no Markdown marks) folded below it.
    let report = dir.path().join("report.html");
    let o = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("audit")
        .arg(&path)
        .args(["--format", "html", "--fail-on", "never", "-o"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    browser.goto(&format!("file://{}", report.display())).await;
    browser.card_after("").await;
    browser
        .js("[...document.querySelectorAll('#case-list li')].find((li) => li.textContent.includes('RS202')).click(); return null")
        .await;
    let flag = browser
        .wait_for(
            "const f = [...document.querySelectorAll('#case-card .flag')].find((x) => x.querySelector('.code').textContent === 'RS202'); \
             if (!f) return null; const why = f.querySelector('details.why'); \
             return [f.querySelector('.msg').textContent, why ? why.textContent : '', why ? why.querySelectorAll('strong, code').length : 0]",
            "the RS202 flag",
        )
        .await;
    let message = flag[0].as_str().unwrap();
    assert_eq!(message, "answered by yes or no", "{flag}");
    let why = flag[1].as_str().unwrap();
    assert!(why.contains("What it flags"), "{flag}");
    assert!(
        !why.contains("**") && !why.contains('`') && !message.contains('`'),
        "{flag}"
    );
    assert!(flag[2].as_u64().unwrap() > 0, "{flag}");
    browser
        .js("document.querySelector('#case-card details.why').open = true; return null")
        .await;
    let output = repo().join("output");
    std::fs::create_dir_all(&output).unwrap();
    browser.screenshot(&output.join("report-flag.png")).await;

    // A report of a set with both halves heads its summary with the audit's verdict on them.
    let fixture = repo().join("tests/fixtures/audit");
    let both = dir.path().join("both.html");
    let o = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("audit")
        .arg(fixture.join("testset.yaml"))
        .arg("--corpus")
        .arg(fixture.join("corpus"))
        .arg("--config")
        .arg(fixture.join("ragsynth.toml"))
        .args(["--format", "html", "--fail-on", "never", "-o"])
        .arg(&both)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    browser.goto(&format!("file://{}", both.display())).await;
    browser.card_after("").await;
    browser.click("#tab-summary").await;
    let verdict = browser
        .wait_for(
            "const v = document.getElementById('lexical-verdict'); return v ? v.textContent : null",
            "the synthetic-vs-real verdict",
        )
        .await;
    let verdict = verdict.as_str().unwrap();
    assert!(
        verdict.starts_with("Keyword search: too few questions to tell synthetic from real"),
        "{verdict}"
    );
}
