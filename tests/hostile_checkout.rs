//! A cloned repository written by an attacker: a `ragsynth.toml` that names its own program,
//! host, key variable and paths outside the project, and a test set whose questions are
//! promptfoo sinks and templates reaching for the environment. `generate`, `audit`, `review`,
//! `run` and `export` run in it as a user would — and run no program of its choosing (every
//! program it names would leave a marker file) and send no variable of the user's environment
//! anywhere (a server of its own records every byte it is sent; sentinel secrets sit in the
//! environment). Issue 66's end-to-end check.
//!
//! `generate` needs no model for the check: the user's llama-server (a script, trusted through
//! `RAGSYNTH_LLAMA_SERVER`) fails at once, after the configuration was read and acted on. When
//! `RAGSYNTH_PROMPTFOO` names a promptfoo binary, the export is also run through promptfoo with
//! its `echo` provider.

mod raw_http;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use raw_http::{RawServer, Reply};
use serde_json::json;

/// Secrets in the user's environment; none may leave.
const SECRETS: [(&str, &str); 4] = [
    ("SENTINEL_TOKEN", "sentinel-token-4d1c0ffee0123456"),
    ("GITHUB_TOKEN", "ghp_sentinelGITHUB0123456789abcd"),
    ("OPENAI_API_KEY", "sk-sentinel-openai-0123456789abcdef"),
    ("ANTHROPIC_API_KEY", "sk-ant-sentinel-0123456789abcdef"),
];

/// A script that leaves `marker` behind and fails.
fn script(path: &Path, marker: &Path) {
    std::fs::write(path, format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display())).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

struct Scene {
    clone: tempfile::TempDir,
    home: tempfile::TempDir,
    outside: tempfile::TempDir,
    catcher: RawServer,
}

impl Scene {
    async fn new() -> Scene {
        let (clone, home, outside) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let catcher = RawServer::start(|_| Reply::json(200, &json!({"ok": true}))).await;
        let c = clone.path();
        script(&c.join("pwn.sh"), &c.join("PWNED-server"));
        script(
            &home.path().join("llama-server.sh"),
            &home.path().join("USERS-SERVER-RAN"),
        );
        std::fs::write(home.path().join("model.gguf"), "").unwrap();
        std::fs::create_dir_all(c.join("corpus")).unwrap();
        std::fs::write(
            c.join("corpus/retention.md"),
            "# Retention\n\nSnapshots are kept for 30 days and then deleted.\n",
        )
        .unwrap();
        std::fs::write(
            c.join("corpus/helper.js"),
            format!(
                "require('fs').writeFileSync('{}', 'ran'); module.exports = () => ({{ output: 'x' }});\n",
                c.join("PWNED-js").display()
            ),
        )
        .unwrap();
        let out = outside.path().display();
        std::fs::write(
            c.join("ragsynth.toml"),
            format!(
                "[llm]\nmodel = \"openai-compatible:m@{u}/v1\"\nbase_url = \"{u}/v1\"\napi_key_env = \"SENTINEL_TOKEN\"\n\
                 server = \"./pwn.sh\"\ncache_dir = \"{out}\"\n[generate]\nprompts = \"{out}\"\noutput = \"../stolen.yaml\"\n\
                 n = 1\n",
                u = catcher.url
            ),
        )
        .unwrap();
        std::fs::write(
            c.join("set.yaml"),
            "ragsynth: 1\ncorpus: {root: corpus}\ncases:\n\
             - id: q1\n  question: file://corpus/helper.js\n  answer: file://corpus/helper.js\n  relevant: []\n\
             - id: q2\n  question: 'What is {{ env.SENTINEL_TOKEN }}?'\n  answer: '{% for k in env %}{{ k }}{% endfor %}'\n  relevant: []\n\
             - id: q3\n  question: 'package:evilpkg:run'\n  relevant: []\n\
             - id: q4-$(touch PWNED-id)\n  question: \"`touch PWNED-backtick` {# hidden #}\"\n  relevant: []\n",
        )
        .unwrap();
        Scene {
            clone,
            home,
            outside,
            catcher,
        }
    }

    fn ragsynth(&self) -> Command {
        let home = self.home.path();
        let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
        c.env_remove("RAGSYNTH_CONFIG")
            .env_remove("RAGSYNTH_LLM")
            .env_remove("OPENAI_BASE_URL")
            .env_remove("ANTHROPIC_BASE_URL")
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("RAGSYNTH_CACHE", home.join("cache"))
            .env("RAGSYNTH_LLAMA_SERVER", home.join("llama-server.sh"))
            .env("RAGSYNTH_MODEL", home.join("model.gguf"))
            .envs(SECRETS)
            .current_dir(self.clone.path());
        c
    }

    fn output(&self, args: &[&str]) -> Output {
        self.ragsynth().args(args).output().unwrap()
    }

    /// Every file under `dir`, as text.
    fn files(dir: &Path) -> Vec<(PathBuf, String)> {
        let mut out = Vec::new();
        let mut dirs = vec![dir.to_path_buf()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if let Ok(bytes) = std::fs::read(&p) {
                    out.push((p, String::from_utf8_lossy(&bytes).into_owned()));
                }
            }
        }
        out
    }
}

/// `review` on the hostile set: the page and its cases are served, then it is stopped.
fn review(scene: &Scene) {
    let mut child = scene
        .ragsynth()
        .args(["review", "set.yaml", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .and_then(|u| u.trim_end_matches('/').rsplit(':').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no URL: {line}"));
    for target in ["/", "/api/cases"] {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            s,
            "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        assert!(
            reply.starts_with("HTTP/1.1 200"),
            "{target}: {}",
            &reply[..reply.len().min(200)]
        );
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hostile_checkout_runs_no_program_and_sends_no_secret() {
    let scene = Scene::new().await;
    let c = scene.clone.path();
    let system = RawServer::start(|_| {
        Reply::json(
            200,
            &json!({"answer": "30 days", "contexts": ["Snapshots are kept for 30 days."]}),
        )
    })
    .await;

    let generate = scene.output(&["generate", "corpus", "--no-cache", "--quiet"]);
    let err = String::from_utf8_lossy(&generate.stderr);
    assert_eq!(
        generate.status.code(),
        Some(1),
        "the user's llama-server fails: {err}"
    );
    assert!(scene.home.path().join("USERS-SERVER-RAN").exists(), "{err}");
    for key in [
        "[llm] model",
        "[llm] base_url",
        "[llm] api_key_env",
        "[llm] server",
        "[llm] cache_dir",
        "[generate] prompts",
        "[generate] output",
    ] {
        assert!(err.contains(key), "{key} not reported: {err}");
    }

    let audit = scene.output(&["audit", "set.yaml", "--fail-on", "never"]);
    assert!(
        audit.status.success(),
        "{}",
        String::from_utf8_lossy(&audit.stderr)
    );
    let judged = scene.output(&["audit", "set.yaml", "--llm", "llamacpp", "--no-cache"]);
    assert_eq!(
        judged.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&judged.stderr)
    );

    review(&scene);

    let run = scene.output(&["run", "set.yaml", "--http", &system.url, "-o", "out"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for r in system.requests() {
        let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        let keys: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["id", "question"],
            "only the question goes to the user's system"
        );
    }

    let export = scene.output(&["export", "set.yaml", "--to", "promptfoo", "-o", "tests.json"]);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let exported = std::fs::read_to_string(c.join("tests.json")).unwrap();
    for sink in ["\"file://", "\"package:", "{{", "{%", "{#"] {
        assert!(!exported.contains(sink), "{sink} left in the export: {exported}");
    }
    if let Some(promptfoo) = std::env::var_os("RAGSYNTH_PROMPTFOO") {
        promptfoo_eval(&scene, Path::new(&promptfoo));
    } else {
        eprintln!("skipped running promptfoo on the export: RAGSYNTH_PROMPTFOO is not set");
    }

    // No program of the checkout's ran.
    let markers: Vec<_> = std::fs::read_dir(c)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("PWNED"))
        .collect();
    assert!(markers.is_empty(), "ran: {markers:?}");
    // Nothing went to its host, nothing was written outside it, no secret was written down.
    assert!(
        scene.catcher.requests().is_empty(),
        "sent: {:?}",
        scene.catcher.requests()
    );
    assert!(!c.parent().unwrap().join("stolen.yaml").exists());
    assert!(Scene::files(scene.outside.path()).is_empty(), "written outside");
    for (path, text) in Scene::files(c).into_iter().chain(Scene::files(scene.home.path())) {
        for (var, secret) in SECRETS {
            assert!(!text.contains(secret), "{var} written into {}", path.display());
        }
    }
}

/// promptfoo over the export with the `echo` provider: no file of the checkout runs and no
/// environment variable reaches a prompt or an output.
fn promptfoo_eval(scene: &Scene, promptfoo: &Path) {
    let c = scene.clone.path();
    std::fs::write(
        c.join("promptfooconfig.yaml"),
        "prompts: [\"{{question}}\"]\nproviders: [echo]\ndefaultTest:\n  options:\n    provider: echo\ntests: file://tests.json\n",
    )
    .unwrap();
    let o = Command::new(promptfoo)
        .args(["eval", "--no-cache", "-o", "promptfoo-out.json"])
        .envs(SECRETS)
        .env("PROMPTFOO_DISABLE_TELEMETRY", "1")
        .env("PROMPTFOO_DISABLE_UPDATE", "1")
        .current_dir(c)
        .output()
        .unwrap();
    let out = std::fs::read_to_string(c.join("promptfoo-out.json"))
        .unwrap_or_else(|_| panic!("promptfoo wrote nothing: {}", String::from_utf8_lossy(&o.stderr)));
    assert!(
        out.contains("helper.js"),
        "the questions went through as text: {out}"
    );
    for (var, secret) in SECRETS {
        assert!(!out.contains(secret), "promptfoo put {var} in a prompt or output");
    }
    std::fs::remove_file(c.join("promptfoo-out.json")).unwrap();
}
