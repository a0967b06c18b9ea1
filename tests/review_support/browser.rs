//! A headless Chromium driven through chromedriver's WebDriver API, for the page tests.
//!
//! Needs Debian's `chromium` and `chromium-driver`; [`browser_available`] says why a test is
//! skipped without them, or fails it when `RAGSYNTH_REQUIRE_BROWSER=1` (CI).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
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
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    http: reqwest::Client,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub async fn start(driver_path: &Path) -> Browser {
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

    pub async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
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

    pub async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn goto(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    pub async fn js(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": []}))
            .await
    }

    /// Polls a script until it returns something other than null/false.
    pub async fn wait_for(&self, script: &str, what: &str) -> Value {
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

    pub async fn element(&self, css: &str) -> String {
        self.wait_for(&format!("return document.querySelector({css:?}) !== null"), css)
            .await;
        let v = self
            .post("/element", json!({"using": "css selector", "value": css}))
            .await;
        v[ELEMENT].as_str().unwrap().to_string()
    }

    pub async fn click(&self, css: &str) {
        let id = self.element(css).await;
        self.post(&format!("/element/{id}/click"), json!({})).await;
    }

    pub async fn type_into(&self, css: &str, text: &str, clear: bool) {
        let id = self.element(css).await;
        if clear {
            self.post(&format!("/element/{id}/clear"), json!({})).await;
        }
        self.post(&format!("/element/{id}/value"), json!({ "text": text }))
            .await;
    }

    /// Presses a key as a person would: keyDown, keyUp on whatever has focus.
    pub async fn press(&self, key: &str) {
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
            ]}]}),
        )
        .await;
    }

    pub async fn screenshot(&self, to: &Path) {
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(to, png).unwrap();
    }

    /// The id of the case on the card, once it is `not` any more.
    pub async fn card_after(&self, not: &str) -> String {
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

pub fn browser_available() -> Option<PathBuf> {
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
