//! Every kind of unusable file is skipped with a warning naming it, and the run goes on.

use std::path::Path;

use assert_cmd::Command;
use ragsynth::corpus::{Corpus, SkipReason, WalkOptions};

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn bad_corpus() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "good.md", b"# Good\n\nA document about refunds.\n");
    write(d.path(), "binary.md", b"PK\x03\x04\x00\x00binary\x00data");
    write(d.path(), "latin1.txt", b"caf\xe9 cr\xe8me");
    write(d.path(), "empty.md", b"");
    write(d.path(), "blank.txt", b"  \n\t\n");
    // A 50 MB file: over the default size limit.
    let big = vec![b'a'; 50 * 1024 * 1024];
    write(d.path(), "huge.txt", &big);
    std::fs::create_dir_all(d.path().join("loop")).unwrap();
    std::os::unix::fs::symlink("..", d.path().join("loop/back")).unwrap();
    d
}

#[test]
fn each_bad_file_is_skipped_with_its_reason() {
    let d = bad_corpus();
    let c = Corpus::load(d.path(), WalkOptions::default()).unwrap();
    let paths: Vec<_> = c.docs.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["good.md"]);
    let reason = |name: &str| {
        c.skipped
            .iter()
            .find(|s| s.path.to_string_lossy().ends_with(name))
            .map(|s| s.reason.clone())
            .unwrap_or_else(|| panic!("{name} not reported; skipped = {:?}", c.skipped))
    };
    assert_eq!(reason("binary.md"), SkipReason::Binary);
    assert_eq!(reason("latin1.txt"), SkipReason::NotUtf8(3));
    assert_eq!(reason("empty.md"), SkipReason::Empty);
    assert_eq!(reason("blank.txt"), SkipReason::Empty);
    assert_eq!(reason("huge.txt"), SkipReason::TooLarge(50 * 1024 * 1024));
    assert_eq!(reason("back"), SkipReason::SymlinkLoop);
    assert_eq!(c.skipped.len(), 6);
}

#[test]
fn chunk_command_warns_once_per_bad_file_and_goes_on() {
    let d = bad_corpus();
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("chunk")
        .arg(d.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let warnings: Vec<_> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: skipped"))
        .collect();
    assert_eq!(warnings.len(), 6, "{stderr}");
    for name in [
        "binary.md",
        "latin1.txt",
        "empty.md",
        "blank.txt",
        "huge.txt",
        "back",
    ] {
        assert!(
            warnings.iter().any(|w| w.contains(name)),
            "no warning for {name}: {stderr}"
        );
    }
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("good.md"));
    assert!(stdout.contains("6 files skipped"), "{stdout}");
}

#[cfg(unix)]
#[test]
fn unreadable_file_is_skipped() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "ok.md", b"fine");
    write(d.path(), "locked.md", b"secret");
    let p = d.path().join("locked.md");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&p).is_ok() {
        eprintln!("skipping: running as a user who can read mode-000 files (root)");
        return;
    }
    let c = Corpus::load(d.path(), WalkOptions::default()).unwrap();
    assert_eq!(c.docs.len(), 1);
    assert!(matches!(c.skipped[0].reason, SkipReason::Unreadable(_)));
}
