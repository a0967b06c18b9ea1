//! `ragsynth import` end to end: real files in a temporary directory, the real binary, the
//! sample corpus copied next to the test set.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::testset::{self, Review, Severity, Source};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures/import").join(name)
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

/// A temporary directory holding `docs/` (a copy of the sample corpus).
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("corpora/docs"), &dir.path().join("docs"));
    dir
}

fn ragsynth(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("ragsynth").unwrap();
    cmd.current_dir(dir);
    cmd
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn csv_with_bom_quoted_fields_and_newlines_becomes_real_cases() {
    let dir = workspace();
    let out = stdout_of(
        ragsynth(dir.path())
            .arg("import")
            .arg(fixture("tricky.csv"))
            .args(["--into", "out/set.yaml", "--corpus", "docs"]),
    );
    let set = testset::load(&dir.path().join("out/set.yaml")).unwrap();
    assert_eq!(set.corpus.as_ref().unwrap().root, "../docs");
    assert!(set.chunking.is_some());
    let questions: Vec<&str> = set.cases.iter().map(|c| c.question.as_str()).collect();
    assert_eq!(
        questions,
        [
            "Snapshots on the free plan: how long, exactly?",
            "which ports?\n(asking for our firewall team)",
            "He said \"TP-412\" on restore, what now?",
            "does the web console speak german",
        ]
    );
    // The last row repeats the first once case and punctuation are folded.
    let first = &set.cases[0].id;
    assert!(
        first.starts_with("real-") && first.len() == "real-".len() + 8,
        "{first}"
    );
    assert!(
        out.contains(&format!("tricky.csv:7: not added: same question as `{first}`")),
        "{out}"
    );
    assert!(out.contains("1 duplicates not added"), "{out}");

    for case in &set.cases[..3] {
        assert_eq!(case.tags.source, Some(Source::Real));
        assert_eq!(case.review, Some(Review::Accepted));
        assert_eq!(case.relevant.len(), 1);
        assert!(case.relevant[0].chunk.is_some());
    }
    assert_eq!(set.cases[0].tags.topic.as_deref(), Some("retention"));
    assert_eq!(set.cases[2].tags.topic, None);
    assert_eq!(set.cases[1].relevant[0].doc, "install.md");

    // A row without a label gets candidates from keyword search, waiting for a person.
    let open = &set.cases[3];
    assert_eq!(open.review, Some(Review::NeedsLabel));
    assert_eq!(open.relevant.len(), 3);
    for (rank, label) in open.relevant.iter().enumerate() {
        assert_eq!(label.extra["candidate"]["rank"], rank as u64 + 1);
    }
    assert_eq!(open.relevant[0].doc, "overview.md", "{:?}", open.relevant[0]);

    // Every label points at its quote in the corpus.
    let corpus = Corpus::load(&dir.path().join("docs"), WalkOptions::default()).unwrap();
    let issues = testset::validate(&set, Some(&corpus));
    assert!(issues.is_empty(), "{issues:?}");
}

#[test]
fn non_utf8_row_is_an_error_naming_file_and_line() {
    let dir = workspace();
    let mut bytes = b"question,answer\nfine question,ok\n\"spans\ntwo lines\",x\n".to_vec();
    bytes.extend_from_slice(b"caf\xe9 au lait?,y\n");
    std::fs::write(dir.path().join("bad.csv"), bytes).unwrap();
    let assert = ragsynth(dir.path())
        .args(["import", "bad.csv", "--into", "set.yaml", "--corpus", "docs"])
        .assert()
        .code(1);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(err.contains("bad.csv:5") && err.contains("UTF-8"), "{err}");
    assert!(
        !dir.path().join("set.yaml").exists(),
        "nothing is written on error"
    );
}

#[test]
fn every_kind_of_personal_data_is_scrubbed_and_look_alikes_are_kept() {
    let dir = workspace();
    let pii = fixture("pii.csv");
    let out = stdout_of(
        ragsynth(dir.path())
            .arg("import")
            .arg(&pii)
            .args(["--into", "set.yaml", "--corpus", "docs"]),
    );
    assert!(
        out.contains(
            "scrubbed from questions and answers: 3 email, 4 phone, 2 card, 1 iban, 2 ip, 2 url, 1 id"
        ),
        "{out}"
    );
    let set = testset::load(&dir.path().join("set.yaml")).unwrap();
    assert_eq!(set.corpus.as_ref().unwrap().root, "docs");
    let mut reader = csv::Reader::from_path(&pii).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(set.cases.len(), rows.len());
    for (case, row) in set.cases.iter().zip(&rows) {
        assert_eq!(case.question, &row[1], "from {:?}", &row[0]);
        if !row[3].is_empty() {
            assert_eq!(case.answer.as_deref(), Some(&row[3]));
        }
    }
    // No original value reaches the file, not even inside an id or provenance.
    let written = std::fs::read_to_string(dir.path().join("set.yaml")).unwrap();
    for secret in [
        "jane.doe@example.com",
        "7946 0958",
        "123-4567",
        "030 1234567",
        "4111 1111 1111 1111",
        "5500-0000-0000-0004",
        "DE89",
        "192.168.10.24",
        "2001:db8",
        "s3cret",
        "9f8e7d6c5b4a",
        "483920175",
        "bob@example.org",
    ] {
        assert!(!written.contains(secret), "{secret} leaked");
    }

    // --no-scrub writes the questions as read.
    let raw = stdout_of(ragsynth(dir.path()).arg("import").arg(&pii).args([
        "--into",
        "raw.yaml",
        "--corpus",
        "docs",
        "--no-scrub",
    ]));
    assert!(raw.contains("scrubbing off"), "{raw}");
    let raw_set = testset::load(&dir.path().join("raw.yaml")).unwrap();
    for (case, row) in raw_set.cases.iter().zip(&rows) {
        assert_eq!(case.question, &row[0]);
    }
}

#[test]
fn importing_into_an_existing_set_keeps_its_bytes_and_skips_repeats() {
    let dir = workspace();
    stdout_of(
        ragsynth(dir.path())
            .arg("import")
            .arg(repo().join("corpora/questions.csv"))
            .args(["--into", "set.yaml", "--corpus", "docs"]),
    );
    let set_path = dir.path().join("set.yaml");
    let before = std::fs::read_to_string(&set_path).unwrap();

    // JSON Lines with ids (a number too), a quote that is nowhere, an unanswerable.
    let out = stdout_of(
        ragsynth(dir.path())
            .arg("import")
            .arg(fixture("questions.jsonl"))
            .args(["--into", "set.yaml"]),
    );
    let after = std::fs::read_to_string(&set_path).unwrap();
    assert!(
        after.starts_with(&before),
        "existing cases must come out byte for byte"
    );
    assert!(
        out.contains("questions.jsonl:2: quote not found in `retention.md` nor elsewhere in the corpus"),
        "{out}"
    );
    assert!(
        out.contains(
            "questions.jsonl:4: quote found in `retention.md`, not in `faq.md`; labelled `retention.md`"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "questions.jsonl:5: quote matched inexactly (similarity 1.00); the label quotes the corpus text"
        ),
        "{out}"
    );
    let set = testset::load(&set_path).unwrap();
    assert_eq!(set.case("ticket-4").unwrap().relevant[0].doc, "retention.md");
    assert_eq!(
        set.case("ticket-5").unwrap().relevant[0].quote,
        "The web console is available in English, German, French and Japanese"
    );
    let t1 = set.case("ticket-1").unwrap();
    assert_eq!(t1.review, Some(Review::Accepted));
    assert_eq!(t1.tags.kind.as_deref(), Some("lookup"));
    assert_eq!(t1.relevant[0].doc, "guides/first-backup.md");
    let t42 = set.case("42").unwrap();
    assert_eq!(t42.review, Some(Review::NeedsLabel));
    assert!(!t42.relevant.is_empty());
    assert!(
        t42.relevant.iter().all(|l| l.doc == "retention.md"),
        "candidates from the named document"
    );
    let t3 = set.case("ticket-3").unwrap();
    assert!(t3.relevant.is_empty());
    assert_eq!(t3.review, Some(Review::Accepted));
    let corpus = Corpus::load(&dir.path().join("docs"), WalkOptions::default()).unwrap();
    let errors: Vec<_> = testset::validate(&set, Some(&corpus))
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");

    // The same files again: nothing added, file untouched.
    let again = stdout_of(
        ragsynth(dir.path())
            .arg("import")
            .arg(repo().join("corpora/questions.csv"))
            .args(["--into", "set.yaml"]),
    );
    assert!(again.contains("added 0 real cases"), "{again}");
    assert!(again.contains("27 duplicates not added"), "{again}");
    assert_eq!(std::fs::read_to_string(&set_path).unwrap(), after);

    // A dry run reports and writes nothing.
    std::fs::write(dir.path().join("new.csv"), "question\nis there a mobile app\n").unwrap();
    let dry = stdout_of(ragsynth(dir.path()).args(["import", "new.csv", "--into", "set.yaml", "--dry-run"]));
    assert!(
        dry.contains("added 1 real cases") && dry.contains("dry run"),
        "{dry}"
    );
    assert_eq!(std::fs::read_to_string(&set_path).unwrap(), after);
}

#[test]
fn the_samples_real_questions_hold_their_answers_and_its_unanswerables_are_unanswerable() {
    let dir = workspace();
    let out = stdout_of(
        ragsynth(dir.path())
            .arg("import")
            .arg(repo().join("corpora/questions.csv"))
            .args(["--into", "set.yaml", "--corpus", "docs"]),
    );
    assert!(
        out.contains("added 24 real cases to set.yaml: 21 labelled and 3 unanswerable"),
        "{out}"
    );
    assert!(!out.contains("warning"), "every quote holds its answer: {out}");
    assert_eq!(
        out.matches(
            "added as unanswerable (relevant: [], type unanswerable): its answer \"not in the docs\""
        )
        .count(),
        3,
        "{out}"
    );
    let set = testset::load(&dir.path().join("set.yaml")).unwrap();
    let unanswerable: Vec<_> = set.cases.iter().filter(|c| c.is_unanswerable()).collect();
    assert_eq!(unanswerable.len(), 3);
    for case in unanswerable {
        assert!(case.relevant.is_empty());
        assert_eq!(case.tags.kind.as_deref(), Some("unanswerable"));
        assert_eq!(case.review, Some(Review::Accepted));
    }
    // A question on two rows is one case with two labels.
    let rate = set
        .cases
        .iter()
        .find(|c| c.question == "api rate limit on business plan")
        .unwrap();
    let docs: Vec<&str> = rate.relevant.iter().map(|l| l.doc.as_str()).collect();
    assert_eq!(docs, ["reference/api.md", "pricing.md"]);
    assert!(
        out.contains("same question as `") && out.contains("added as another label of it"),
        "{out}"
    );
}

#[test]
fn an_answer_its_quote_does_not_hold_is_named_with_its_line() {
    let dir = workspace();
    std::fs::write(
        dir.path().join("q.csv"),
        concat!(
            "question,answer,doc,quote\n",
            "what ports need opening,8750/tcp on the server,install.md,Agents only open outgoing connections.\n",
            "free plan snapshots,kept for thirty days,retention.md,\"On the Community plan, snapshots older than 30 days\"\n",
            "is there an iphone app,\"No, not in the docs.\",,\n",
            "is there an android app,\"Not in the docs, but the API works from any phone\",,\n",
            "what ports need opening,8750/tcp on the server,install.md,| 8750 | TCP (HTTPS) |\n",
            "what ports need opening,8750/tcp on the server,install.md,| 8750 | TCP (HTTPS) |\n",
            "what ports need opening,8750/tcp on the server,install.md,No such sentence anywhere at all here.\n",
            "migration how long,about one hour per 500 GB,release-notes.md,Migration reads and rewrites the whole repository.\n",
        ),
    )
    .unwrap();
    let out =
        stdout_of(ragsynth(dir.path()).args(["import", "q.csv", "--into", "set.yaml", "--corpus", "docs"]));
    assert!(
        !out.contains("q.csv:3: warning"),
        "a paraphrase is no warning: {out}"
    );
    assert!(out.contains("q.csv:4: added as unanswerable"), "{out}");
    assert!(
        !out.contains("q.csv:5: added as unanswerable"),
        "an answer that says more stays answerable: {out}"
    );
    assert!(out.contains("3 labelled and 1 unanswerable"), "{out}");
    // More rows of a question: a second quote labels it (and then holds the port), the same
    // quote again is a duplicate, a quote found nowhere adds nothing.
    assert!(out.contains("q.csv:6: same question as `"), "{out}");
    assert!(
        out.contains("with another quote: added as another label of it"),
        "{out}"
    );
    assert!(out.contains("q.csv:7: not added: same question as `"), "{out}");
    assert!(
        out.contains("q.csv:8: same question as `") && out.contains("no label added"),
        "{out}"
    );
    assert!(
        !out.contains("q.csv:2: warning"),
        "the second quote holds 8750: {out}"
    );
    assert!(
        out.contains("q.csv:9: warning: the answer says \"500\", which its quote does not hold"),
        "{out}"
    );
    let set = testset::load(&dir.path().join("set.yaml")).unwrap();
    let ports = set
        .cases
        .iter()
        .find(|c| c.question == "what ports need opening")
        .unwrap();
    assert_eq!(ports.relevant.len(), 2);
}
