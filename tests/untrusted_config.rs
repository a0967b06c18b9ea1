//! A `ragsynth.toml` found in the working directory (a cloned repository, say) is not the
//! user's: it may set chunking, mix and thresholds, but a program, a host, a key variable or a
//! path outside the project it names is ignored with a note — unless `--trust`. The user's own
//! file and `--config FILE` are trusted. (Issue 66, defects 1 and 2.)

mod stub_llm;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use stub_llm::Stub;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const GITHUB_TOKEN: &str = "ghp_sentinel0123456789abcdefSECRET";

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs")
}

/// A script at `dir/name` that leaves `dir/<marker>` behind when it runs, then fails.
fn script(dir: &Path, name: &str, marker: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\ntouch '{}'\nexit 1\n", dir.join(marker).display()),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// ragsynth in `dir`, with a user config folder of its own, a cache of its own, and as local
/// llama-server a script of the user's (trusted) that marks `TRUSTED` and fails.
fn ragsynth(dir: &Path, home: &Path) -> Command {
    let trusted = script(home, "trusted-server.sh", "TRUSTED");
    // The user's model (any file: the server script fails before reading it).
    std::fs::write(home.join("model.gguf"), "").unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("RAGSYNTH_CACHE", home.join("cache"))
        .env("RAGSYNTH_LLAMA_SERVER", trusted)
        .env("RAGSYNTH_MODEL", home.join("model.gguf"))
        .env("GITHUB_TOKEN", GITHUB_TOKEN)
        .current_dir(dir);
    c
}

fn generate(dir: &Path, home: &Path, extra: &[&str]) -> Output {
    ragsynth(dir, home)
        .arg("generate")
        .arg(docs())
        .args([
            "-o",
            "out.yaml",
            "-n",
            "1",
            "--mix",
            "lookup=1",
            "--no-cache",
            "--quiet",
        ])
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Defect 1: `[llm] server = "./pwn.sh"` in the working directory's file ran `./pwn.sh`.
#[test]
fn a_found_config_cannot_name_the_program_ragsynth_runs() {
    let (clone, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    script(clone.path(), "pwn.sh", "PWNED");
    std::fs::write(
        clone.path().join("ragsynth.toml"),
        "[llm]\nmodel = \"llamacpp:ragsynth.toml\"\nserver = \"./pwn.sh\"\n[generate]\nn = 3\n",
    )
    .unwrap();
    let o = generate(clone.path(), home.path(), &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        !clone.path().join("PWNED").exists(),
        "the repository's program ran: {err}"
    );
    assert!(
        home.path().join("TRUSTED").exists(),
        "the user's llama-server was used: {err}"
    );
    assert!(
        err.contains("ragsynth.toml (found in the working directory, not trusted) sets [llm] server = \"./pwn.sh\": ignored")
            && err.contains("a program to run")
            && err.contains("--trust"),
        "{err}"
    );

    // Trusted on purpose, the file is used as written.
    let o = generate(clone.path(), home.path(), &["--trust"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(clone.path().join("PWNED").exists(), "{}", stderr(&o));
}

/// Defect 2: `api_key_env = "GITHUB_TOKEN"` with an `openai-compatible:…@http://…` model in the
/// working directory's file sent `authorization: Bearer ghp_…` there without a word.
#[tokio::test(flavor = "multi_thread")]
async fn a_found_config_cannot_choose_the_host_or_the_variable_sent() {
    let catcher = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&catcher)
        .await;
    let (clone, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(
        clone.path().join("ragsynth.toml"),
        format!(
            "[llm]\nmodel = \"openai-compatible:m@{0}/v1\"\nbase_url = \"{0}/v1\"\napi_key_env = \"GITHUB_TOKEN\"\n",
            catcher.uri()
        ),
    )
    .unwrap();
    let o = generate(clone.path(), home.path(), &[]);
    let err = stderr(&o);
    for key in [
        "[llm] model",
        "[llm] base_url",
        "[llm] api_key_env = \"GITHUB_TOKEN\"",
    ] {
        assert!(err.contains(key), "{key} not named: {err}");
    }
    assert!(
        catcher.received_requests().await.unwrap().is_empty(),
        "it called the file's host"
    );
    assert!(!err.contains(GITHUB_TOKEN), "{err}");
    assert!(
        home.path().join("TRUSTED").exists(),
        "the local model was used instead"
    );

    // `--llm openai:…` with the user's OPENAI_BASE_URL: the key goes there, not to the file's URL.
    let user_proxy = Stub::start(Duration::ZERO).await;
    let o = ragsynth(clone.path(), home.path())
        .env("OPENAI_BASE_URL", format!("{}/v1", user_proxy.server.uri()))
        .env("OPENAI_API_KEY", "sk-user-own-key-0123456789")
        .arg("generate")
        .arg(docs())
        .args([
            "-o",
            "out.yaml",
            "-n",
            "1",
            "--mix",
            "lookup=1",
            "--no-cache",
            "--quiet",
        ])
        .args(["--llm", "openai:gpt-4o-mini"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(catcher.received_requests().await.unwrap().is_empty());
    let sent = user_proxy.server.received_requests().await.unwrap();
    assert!(!sent.is_empty());
    assert!(
        sent.iter()
            .all(|r| r.headers["authorization"] == "Bearer sk-user-own-key-0123456789")
    );
}

/// The user's own file is trusted: it may name the endpoint and the key's variable.
#[tokio::test(flavor = "multi_thread")]
async fn the_users_own_config_is_trusted() {
    let stub = Stub::start(Duration::ZERO).await;
    let (clone, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let user = home.path().join("config/ragsynth");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(
        user.join("config.toml"),
        format!(
            "[llm]\nmodel = \"{}\"\napi_key_env = \"GITHUB_TOKEN\"\n",
            stub.spec()
        ),
    )
    .unwrap();
    let o = generate(clone.path(), home.path(), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("ignored"), "{}", stderr(&o));
    let sent = stub.server.received_requests().await.unwrap();
    assert!(!sent.is_empty());
    assert_eq!(
        sent[0].headers["authorization"],
        format!("Bearer {GITHUB_TOKEN}").as_str()
    );
}

/// Paths a found file names must stay inside the working directory, links resolved.
#[test]
fn a_found_config_cannot_write_or_read_outside_the_project() {
    let (clone, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), clone.path().join("link")).unwrap();
    std::fs::write(
        clone.path().join("ragsynth.toml"),
        format!(
            "[generate]\noutput = \"link/stolen.yaml\"\nprompts = \"{}\"\n[llm]\ncache_dir = \"../cache\"\n",
            outside.path().display()
        ),
    )
    .unwrap();
    let o = ragsynth(clone.path(), home.path())
        .arg("generate")
        .arg(docs())
        .args(["-n", "1", "--dry-run"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    for key in ["[generate] output", "[generate] prompts", "[llm] cache_dir"] {
        assert!(
            err.contains(key) && err.contains("outside the project"),
            "{key}: {err}"
        );
    }
    assert!(
        std::fs::read_dir(outside.path()).unwrap().next().is_none(),
        "nothing written outside"
    );
}
