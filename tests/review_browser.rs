//! The review page in a real headless Chromium, driven through chromedriver's WebDriver API:
//! a person accepts one case by keyboard, edits and accepts another, rejects a third with a
//! reason — and the file on disk holds exactly those changes. Screenshots of the review page
//! and the summary land in `output/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them the test prints why and
//! passes, unless `RAGSYNTH_REQUIRE_BROWSER=1` (CI) makes it fail.

mod review_support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use ragsynth::testset::{self, Review};
use review_support::{ReviewServer, repo, write_testset};
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn chromedriver() -> Option<PathBuf> {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// A chromedriver process and one browser session; both ended when dropped.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    http: reqwest::Client,
    _profile: tempfile::TempDir,
}

impl Browser {
    async fn start(driver_path: &Path) -> Browser {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let driver = Command::new(driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = http.get(format!("{base}/status")).send().await;
            if let Ok(r) = ready
                && r.json::<Value>()
                    .await
                    .ok()
                    .and_then(|v| v["value"]["ready"].as_bool())
                    == Some(true)
            {
                break;
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = tempfile::tempdir().unwrap();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-dev-shm-usage", "--window-size=1440,1000", "--force-device-scale-factor=1",
                    format!("--user-data-dir={}", profile.path().display()),
                ],
            },
        }}});
        let r: Value = http
            .post(format!("{base}/session"))
            .json(&caps)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {r}"))
            .to_string();
        Browser {
            driver,
            base,
            session,
            http,
            _profile: profile,
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let mut req = self.http.request(method, url);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let v: Value = req.send().await.unwrap().json().await.unwrap();
        if let Some(err) = v["value"].get("error") {
            panic!("WebDriver {path}: {err} {}", v["value"]["message"]);
        }
        v["value"].clone()
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    async fn goto(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    async fn js(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": []}))
            .await
    }

    /// Polls a script until it returns something other than null/false.
    async fn wait_for(&self, script: &str, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let v = self.js(script).await;
            if !v.is_null() && v != Value::Bool(false) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn element(&self, css: &str) -> String {
        self.wait_for(&format!("return document.querySelector({css:?}) !== null"), css)
            .await;
        let v = self
            .post("/element", json!({"using": "css selector", "value": css}))
            .await;
        v[ELEMENT].as_str().unwrap().to_string()
    }

    async fn click(&self, css: &str) {
        let id = self.element(css).await;
        self.post(&format!("/element/{id}/click"), json!({})).await;
    }

    async fn type_into(&self, css: &str, text: &str, clear: bool) {
        let id = self.element(css).await;
        if clear {
            self.post(&format!("/element/{id}/clear"), json!({})).await;
        }
        self.post(&format!("/element/{id}/value"), json!({ "text": text }))
            .await;
    }

    /// Presses a key as a person would: keyDown, keyUp on whatever has focus.
    async fn press(&self, key: &str) {
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
            ]}]}),
        )
        .await;
    }

    async fn screenshot(&self, to: &Path) {
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(to, png).unwrap();
    }

    /// The id of the case on the card, once it is `not` any more.
    async fn card_after(&self, not: &str) -> String {
        self.wait_for(
            &format!(
                "const c = document.getElementById('case-card'); return c && c.dataset.id !== {not:?} ? c.dataset.id : null"
            ),
            "the next case",
        )
        .await
        .as_str()
        .unwrap()
        .to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ending the session closes Chromium; then the driver itself.
        let url = format!("{}/session/{}", self.base, self.session);
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let _ = reqwest::Client::new().delete(url).send().await;
            })
        })
        .join();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn browser_available() -> Option<PathBuf> {
    let driver = chromedriver();
    let required = std::env::var("RAGSYNTH_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    match (Path::new(CHROMIUM).exists(), driver) {
        (true, Some(d)) => Some(d),
        _ if required => {
            panic!(
                "RAGSYNTH_REQUIRE_BROWSER=1 but {CHROMIUM} or chromedriver is missing (apt-get install chromium chromium-driver)"
            )
        }
        _ => {
            eprintln!(
                "skipping the browser test: {CHROMIUM} or chromedriver not found (apt-get install chromium chromium-driver)"
            );
            None
        }
    }
}

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

    // The static export renders the same views from one file, offline.
    let set = testset::load(&path).unwrap();
    let corpus = review_support::sample_corpus();
    let report = dir.path().join("report.html");
    std::fs::write(&report, ragsynth::review::static_html(&set, Some(&corpus))).unwrap();
    browser.goto(&format!("file://{}", report.display())).await;
    let shown = browser.card_after("").await;
    assert_eq!(shown, set.cases[0].id);
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
