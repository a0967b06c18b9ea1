//! `ragsynth remap` on real files: the sample corpus copied to a temporary directory, labelled
//! with the sample questions as they were before their quotes were widened
//! (`tests/fixtures/remap/`), then re-chunked or edited (sentences inserted, a file renamed, a
//! quote reworded, a quote deleted).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ragsynth::chunk::{CharIndex, Chunker, Chunking, Splitter};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::import;
use ragsynth::remap::{self, RemapOptions, Status};
use ragsynth::testset::{self, CorpusRef, Label, Review, Severity, TestSet};
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn load_corpus(dir: &Path) -> Corpus {
    Corpus::load(&dir.join("docs"), WalkOptions::default()).unwrap()
}

/// A temporary directory with `docs/` (a copy of the sample corpus) and `set.yaml` holding the
/// sample questions with labels anchored in that copy.
fn seeded() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("corpora/docs"), &dir.path().join("docs"));
    let corpus = load_corpus(dir.path());
    let mut set = TestSet::default();
    set.corpus = Some(CorpusRef {
        root: "docs".into(),
        fingerprint: Some(corpus.fingerprint()),
        ..CorpusRef::default()
    });
    set.chunking = Some(Chunking::default());
    // Short quotes, each inside the smallest chunk tried below (see the fixture's README).
    let rows = import::read(
        &repo().join("tests/fixtures/remap/questions.csv"),
        &import::Columns::default(),
    )
    .unwrap();
    import::import(
        &mut set,
        &rows,
        &corpus,
        &Chunking::default(),
        &import::ImportOptions::default(),
    )
    .unwrap();
    let path = dir.path().join("set.yaml");
    testset::save(&set, &path).unwrap();
    (dir, path)
}

const INSERTED: &str =
    "This paragraph was added in a later release. It changes nothing about the limits.\n\n";

/// Edits the corpus copy: sentences before a quote (retention.md), a rename (install.md), a
/// reworded quote (security.md) and a deleted quote (troubleshooting.md).
fn edit_corpus(dir: &Path) {
    let docs = dir.join("docs");
    let edit = |name: &str, from: &str, to: &str| {
        let p = docs.join(name);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{name} lacks {from:?}");
        std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        "retention.md",
        "On the Community plan, snapshots",
        &format!("{INSERTED}On the Community plan, snapshots"),
    );
    std::fs::create_dir_all(docs.join("setup")).unwrap();
    std::fs::rename(docs.join("install.md"), docs.join("setup/install-guide.md")).unwrap();
    edit(
        "security.md",
        "using a fresh random 192-bit nonce",
        "using a new random 192-bit nonce",
    );
    edit(
        "troubleshooting.md",
        "and they differ. During a restore on a new machine this nearly always means the",
        "and so on; see below for what to check next. This",
    );
}

fn text_of<'c>(corpus: &'c Corpus, label: &Label) -> &'c str {
    let doc = corpus
        .doc(&label.doc)
        .unwrap_or_else(|| panic!("{} missing", label.doc));
    CharIndex::new(&doc.text).slice(label.start, label.end).unwrap()
}

/// The YAML block of each case, by id, as written in the file.
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(id) = line.strip_prefix("  - id: ") {
            out.push((id.trim().to_string(), String::new()));
        }
        if let Some(last) = out.last_mut() {
            last.1.push_str(line);
        }
    }
    out
}

#[test]
fn unchanged_corpus_and_chunking_rewrite_nothing() {
    let (dir, path) = seeded();
    let before = std::fs::read_to_string(&path).unwrap();
    let corpus = load_corpus(dir.path());
    let mut set = testset::load(&path).unwrap();
    let chunking = set.chunking.clone().unwrap();
    let report = remap::remap(&mut set, &corpus, "docs", chunking, RemapOptions::default()).unwrap();
    assert_eq!(report.count(Status::Unchanged), report.labels.len(), "{report:?}");
    assert_eq!(report.labels.len(), 30);
    testset::save(&set, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn rechunking_keeps_every_label_and_span() {
    let (dir, path) = seeded();
    let corpus = load_corpus(dir.path());
    let original = testset::load(&path).unwrap();
    let chunkings = [
        Chunking {
            size: 300,
            overlap: 30,
            ..Chunking::default()
        },
        Chunking {
            unit: "tokens:cl100k_base".parse().unwrap(),
            size: 128,
            overlap: 16,
            ..Chunking::default()
        },
        Chunking {
            splitter: Splitter::Text,
            size: 2000,
            overlap: 0,
            ..Chunking::default()
        },
    ];
    for chunking in chunkings {
        let mut set = original.clone();
        let report = remap::remap(
            &mut set,
            &corpus,
            "docs",
            chunking.clone(),
            RemapOptions::default(),
        )
        .unwrap();
        let total = report.labels.len();
        assert_eq!(
            report.count(Status::Unchanged) + report.count(Status::Rechunked),
            total,
            "{chunking:?}"
        );
        assert!(
            report.count(Status::Rechunked) > 0,
            "chunk ids should move under {chunking:?}"
        );
        let chunker = Chunker::new(chunking.clone()).unwrap();
        for (before, after) in original.cases.iter().zip(&set.cases) {
            assert_eq!(before.relevant.len(), after.relevant.len());
            for (b, a) in before.relevant.iter().zip(&after.relevant) {
                assert_eq!(
                    (&b.doc, b.start, b.end, &b.quote),
                    (&a.doc, a.start, a.end, &a.quote)
                );
                // The new chunk id names a chunk that holds the quote.
                let chunks = chunker.chunk(corpus.doc(&a.doc).unwrap());
                let chunk = chunks.iter().find(|c| Some(&c.id) == a.chunk.as_ref()).unwrap();
                assert!(
                    chunk.text.contains(&a.quote),
                    "{} lacks the quote of {}",
                    chunk.id,
                    after.id
                );
            }
        }
        assert_eq!(set.chunking.as_ref(), Some(&chunking));
        assert!(testset::validate(&set, Some(&corpus)).is_empty());
    }
}

#[test]
fn edited_corpus_labels_are_refound_and_classified() {
    let (dir, path) = seeded();
    let before_text = std::fs::read_to_string(&path).unwrap();
    let original = testset::load(&path).unwrap();
    edit_corpus(dir.path());
    let corpus = load_corpus(dir.path());
    let mut set = original.clone();
    let chunking = set.chunking.clone().unwrap();
    let report = remap::remap(&mut set, &corpus, "docs", chunking, RemapOptions::default()).unwrap();

    // The accepted label whose quote starts with `prefix`: (before, after, outcome).
    let find = |prefix: &str| {
        let (ci, case) = original
            .cases
            .iter()
            .enumerate()
            .find(|(_, c)| c.review == Some(Review::Accepted) && c.relevant[0].quote.starts_with(prefix))
            .unwrap_or_else(|| panic!("no label quoting {prefix:?}"));
        let outcome = report
            .labels
            .iter()
            .find(|o| o.case == case.id && o.label == 0)
            .unwrap();
        (
            case.relevant[0].clone(),
            set.cases[ci].relevant[0].clone(),
            outcome.clone(),
        )
    };

    let (b, a, o) = find("On the Community plan");
    let shift = INSERTED.chars().count();
    assert_eq!(o.status, Status::Moved);
    assert_eq!((a.start, a.end), (b.start + shift, b.end + shift));
    assert_eq!(text_of(&corpus, &a), b.quote);

    for prefix in ["Agents only open outgoing", "macOS 13 Ventura"] {
        let (b, a, o) = find(prefix);
        assert_eq!(o.status, Status::Renamed, "{prefix}");
        assert_eq!(a.doc, "setup/install-guide.md");
        assert_eq!((a.start, a.end, &a.quote), (b.start, b.end, &b.quote));
        assert_ne!(a.chunk, b.chunk, "chunk ids follow the document's new name");
    }

    let (b, a, o) = find("**XChaCha20-Poly1305**");
    assert_eq!(o.status, Status::Fuzzy);
    let sim = o.similarity.unwrap();
    assert!((0.8..1.0).contains(&sim), "similarity {sim}");
    assert!(
        a.quote.contains("using a new random 192-bit nonce per chunk"),
        "{}",
        a.quote
    );
    assert_eq!(text_of(&corpus, &a), a.quote, "the quote is the corpus text");
    let marker = remap::marker(&a).unwrap();
    assert_eq!(marker["status"], "fuzzy");
    assert_eq!(marker["previous_quote"], b.quote.as_str());

    let (b, a, o) = find("and they differ.");
    assert_eq!(o.status, Status::Lost);
    assert_eq!(
        (&a.doc, a.start, a.end, &a.quote),
        (&b.doc, b.start, b.end, &b.quote)
    );
    assert_eq!(remap::marker(&a).unwrap()["status"], "lost");

    // Every label but the lost one points at its quote; nothing else about a case changed.
    let lost_case = &report
        .labels
        .iter()
        .find(|o| o.status == Status::Lost)
        .unwrap()
        .case;
    let errors: Vec<_> = testset::validate(&set, Some(&corpus))
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].case.as_ref(), Some(lost_case));
    assert_eq!(report.count(Status::Lost), 1);
    assert_eq!(set.cases.len(), original.cases.len());
    for (b, a) in original.cases.iter().zip(&set.cases) {
        let (mut b, mut a) = (b.clone(), a.clone());
        b.relevant.clear();
        a.relevant.clear();
        assert_eq!(
            serde_json::to_value(&b).unwrap(),
            serde_json::to_value(&a).unwrap()
        );
    }

    // Cases whose labels did not move come out byte for byte.
    testset::save(&set, &path).unwrap();
    let after_text = std::fs::read_to_string(&path).unwrap();
    let after_blocks = blocks(&after_text);
    let mut untouched = 0;
    for (id, block) in blocks(&before_text) {
        if report
            .labels
            .iter()
            .filter(|o| o.case == id)
            .all(|o| o.status == Status::Unchanged)
        {
            let after = &after_blocks.iter().find(|(i, _)| *i == id).unwrap().1;
            assert_eq!(&block, after, "case {id}");
            untouched += 1;
        }
    }
    assert!(untouched >= 10, "{untouched} untouched cases");

    // A second run has nothing left to do but the lost label, and rewrites nothing.
    let mut again = testset::load(&path).unwrap();
    let chunking = again.chunking.clone().unwrap();
    let second = remap::remap(&mut again, &corpus, "docs", chunking, RemapOptions::default()).unwrap();
    assert_eq!(second.count(Status::Lost), 1);
    assert_eq!(second.count(Status::Unchanged), second.labels.len() - 1);
    testset::save(&again, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), after_text);
}

#[test]
fn remap_command_reports_writes_and_flags() {
    let (dir, path) = seeded();
    edit_corpus(dir.path());
    let before = std::fs::read_to_string(&path).unwrap();

    let dry = Command::cargo_bin("ragsynth")
        .unwrap()
        .current_dir(dir.path())
        .args(["remap", "set.yaml", "--dry-run"])
        .assert()
        .code(2);
    let out = String::from_utf8(dry.get_output().stdout.clone()).unwrap();
    for status in ["moved", "renamed", "fuzzy", "lost"] {
        assert!(
            out.lines().any(|l| l.starts_with(status)),
            "no {status} line in:\n{out}"
        );
    }
    assert!(
        out.contains("install.md") && out.contains("setup/install-guide.md"),
        "{out}"
    );
    assert!(out.contains("dry run"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        before,
        "--dry-run writes nothing"
    );

    let run = Command::cargo_bin("ragsynth")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "remap",
            "set.yaml",
            "--corpus",
            "docs",
            "--size",
            "600",
            "--overlap",
            "60",
            "--format",
            "json",
        ])
        .assert()
        .code(2);
    let out = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["written"], true);
    assert_eq!(summary["counts"]["lost"], 1);
    assert_eq!(summary["counts"]["renamed"], 2);
    assert_eq!(summary["chunking"]["size"], 600);
    let labels = lines.iter().filter(|l| l["type"] == "label").count();
    assert_eq!(labels as u64, summary["labels"].as_u64().unwrap());

    let set = testset::load(&path).unwrap();
    let corpus = load_corpus(dir.path());
    let header = set.corpus.as_ref().unwrap();
    assert_eq!(header.root, "docs");
    assert_eq!(header.fingerprint.as_deref(), Some(corpus.fingerprint().as_str()));
    assert_eq!(set.chunking.as_ref().unwrap().size, 600);
    assert_eq!(set.cases.len(), 24, "no case is ever dropped");
    let lost: Vec<&Label> = set
        .cases
        .iter()
        .flat_map(|c| &c.relevant)
        .filter(|l| remap::marker(l).is_some_and(|m| m["status"] == "lost"))
        .collect();
    assert_eq!(lost.len(), 1);
    assert!(lost[0].quote.starts_with("and they differ."));
}
