//! The corpus is a boundary: a symlink leading out of it is not followed (unless asked), so
//! no command reads, serves, imports or sends what it points at; special files and size-0
//! pseudo-files are not read past the size limit; two file names that are not UTF-8 stay two
//! files (here: both skipped, each named) instead of becoming one path.

#![cfg(unix)]

mod review_support;

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

use review_support::{ReviewServer, raw_request};

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG").current_dir(dir);
    c
}

/// `corpus/` with one document and links to a secret file and a folder outside it.
fn corpus_with_links_out(dir: &Path) {
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::write(
        dir.join("corpus/guide.md"),
        "# Guide\n\nSnapshots are kept for thirty days on the free plan.\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("secret.txt"),
        "root:x:0:0:TOP-SECRET-LINE:/root:/bin/bash\n",
    )
    .unwrap();
    std::fs::write(dir.join("elsewhere/notes.md"), "# Notes\n\nOUTSIDE-FOLDER-TEXT\n").unwrap();
    symlink(dir.join("secret.txt"), dir.join("corpus/passwd.txt")).unwrap();
    symlink(dir.join("elsewhere"), dir.join("corpus/linked")).unwrap();
}

#[test]
fn links_out_of_the_corpus_are_skipped_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    corpus_with_links_out(d);

    let o = ragsynth(d)
        .args(["chunk", "corpus", "--format", "jsonl"])
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    assert!(out.contains("guide.md"), "{out}");
    assert!(
        !out.contains("TOP-SECRET") && !out.contains("OUTSIDE-FOLDER"),
        "{out}"
    );
    assert!(
        err.contains("passwd.txt") && err.contains("outside the corpus"),
        "{err}"
    );
    assert!(err.contains("linked"), "{err}");

    // import: a question whose quote is a line of the linked file finds nothing to quote.
    std::fs::write(
        d.join("q.csv"),
        "question,quote\nWhat is the root line?,TOP-SECRET-LINE\n",
    )
    .unwrap();
    let o = ragsynth(d)
        .args(["import", "q.csv", "--into", "set.yaml", "--corpus", "corpus"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let set = std::fs::read_to_string(d.join("set.yaml")).unwrap();
    assert!(
        !set.contains("passwd.txt") && !set.contains("root:x:0:0"),
        "{set}"
    );

    // review: the page serves documents of the corpus only.
    let s = ReviewServer::start(&d.join("set.yaml"), &[]);
    let h = format!("127.0.0.1:{}", s.port);
    for target in ["/api/doc?path=passwd.txt", "/api/doc?path=linked/notes.md"] {
        let r = raw_request(s.port, "GET", target, &[("Host", &h)], "");
        assert_eq!(r.status, 404, "{target}: {}", r.body);
        assert!(!r.body.contains("TOP-SECRET") && !r.body.contains("OUTSIDE-FOLDER"));
    }
    let r = raw_request(s.port, "GET", "/api/doc?path=guide.md", &[("Host", &h)], "");
    assert_eq!(r.status, 200, "{}", r.body);

    // Asked for explicitly, the links are followed.
    let o = ragsynth(d)
        .args(["chunk", "corpus", "--format", "jsonl", "--follow-outside-links"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("TOP-SECRET") && out.contains("OUTSIDE-FOLDER"),
        "{out}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_pseudo_file_reporting_size_zero_is_not_read_past_the_limit() {
    let maps = Path::new("/proc/self/maps");
    if std::fs::metadata(maps).map(|m| m.len()).unwrap_or(1) != 0 {
        eprintln!("skipping: /proc/self/maps does not report size 0 here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("corpus")).unwrap();
    symlink(maps, dir.path().join("corpus/maps.txt")).unwrap();
    std::fs::write(dir.path().join("corpus/a.md"), "# A\n\nText.\n").unwrap();
    let o = ragsynth(dir.path())
        .args([
            "chunk",
            "corpus",
            "--follow-outside-links",
            "--max-file-size",
            "64",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("maps.txt") && err.contains("holds more than 64 bytes"),
        "{err}"
    );
}

#[test]
fn two_file_names_that_are_not_utf8_are_not_merged_into_one_path() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    let text = "# Retention\n\nSnapshots are kept for thirty days on the free plan.\n";
    std::fs::write(corpus.join(std::ffi::OsStr::from_bytes(b"name-\xff.md")), text).unwrap();
    std::fs::write(
        corpus.join(std::ffi::OsStr::from_bytes(b"name-\xfe.md")),
        "# Other\n\nA different document with other words in it.\n",
    )
    .unwrap();
    std::fs::write(corpus.join("plain.md"), text).unwrap();
    let o = ragsynth(dir.path())
        .args(["chunk", "corpus", "--format", "jsonl"])
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    let ids: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "duplicate chunk ids: {ids:?}");
    assert!(
        !out.contains('\u{FFFD}'),
        "a lossy name reached the output: {out}"
    );
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("not valid UTF-8")).collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert_ne!(warnings[0], warnings[1], "the two files are told apart: {err}");
}
