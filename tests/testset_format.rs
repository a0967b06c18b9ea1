//! The test-set file: byte-stable rewrites, preserved unknown fields and hand formatting, and
//! errors that say file, line, case and field.

use std::path::Path;

use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::testset::{self, Case, Format, Label, Review, Source, TestSet};

const HAND_WRITTEN: &str = r#"# Our test set. Comments and quoting styles are ours.
ragsynth: 1
corpus:
  root: ../corpora/docs
chunking: {splitter: auto, unit: chars, size: 1200, overlap: 120}
owner: search-team      # unknown top-level key
cases:
- id: real-001
  question: 'how long are snapshots kept on free plan'   # single quotes on purpose
  answer: >-
    30 days at most.
  relevant:
    - {doc: pricing.md, start: 10, end: 40, quote: "kept", reviewer_note: checked}
  tags: {type: lookup, topic: retention, source: real, team: support}
  review: accepted
  ticket: SUP-1234
- id: real-002
  question: "is there an iphone app"
  relevant: []
  tags:
    type: unanswerable
    source: real
"#;

fn read(text: &str, name: &str) -> TestSet {
    testset::load_str(text, Path::new(name), Format::of(Path::new(name))).unwrap()
}

#[test]
fn untouched_hand_written_file_is_rewritten_byte_for_byte() {
    let set = read(HAND_WRITTEN, "set.yaml");
    assert_eq!(testset::to_string(&set, Format::Yaml), HAND_WRITTEN);
}

#[test]
fn adding_a_case_keeps_real_cases_bytes_and_unknown_fields() {
    let mut set = read(HAND_WRITTEN, "set.yaml");
    assert_eq!(set.cases[0].extra["ticket"], "SUP-1234");
    assert_eq!(set.cases[0].relevant[0].extra["reviewer_note"], "checked");
    assert_eq!(set.cases[0].tags.extra["team"], "support");
    assert_eq!(set.extra["owner"], "search-team");
    let mut c = Case::new(
        "syn-1",
        "How long does Tidepool keep snapshots on the Community plan?",
    );
    c.tags.source = Some(Source::Synthetic);
    c.tags.kind = Some("lookup".into());
    c.review = Some(Review::Pending);
    c.relevant.push(Label {
        doc: "pricing.md".into(),
        start: 0,
        end: 5,
        quote: "Plans".into(),
        chunk: None,
        grade: None,
        extra: Default::default(),
    });
    set.cases.push(c);
    let out = testset::to_string(&set, Format::Yaml);
    // The original text stands unchanged before the new case.
    assert!(out.starts_with(HAND_WRITTEN), "{out}");
    let back = read(&out, "set.yaml");
    assert_eq!(back.cases.len(), 3);
    assert_eq!(back.cases[0], set.cases[0]);
    // Written once more: byte-identical.
    assert_eq!(testset::to_string(&back, Format::Yaml), out);
}

#[test]
fn editing_one_case_rewrites_only_that_case_and_keeps_key_order() {
    let mut set = read(HAND_WRITTEN, "set.yaml");
    set.cases[1].review = Some(Review::Rejected);
    let out = testset::to_string(&set, Format::Yaml);
    let first_case_end = HAND_WRITTEN.find("- id: real-002").unwrap();
    assert_eq!(&out[..first_case_end], &HAND_WRITTEN[..first_case_end]);
    let tail = &out[first_case_end..];
    assert_eq!(
        tail,
        "- id: real-002\n  question: is there an iphone app\n  relevant: []\n  tags: {type: unanswerable, source: real}\n  review: rejected\n"
    );
}

#[test]
fn written_file_round_trips_byte_identically_in_yaml_and_jsonl() {
    let set = read(HAND_WRITTEN, "set.yaml");
    let mut fresh = TestSet::default();
    fresh.cases = set.cases.clone();
    fresh.extra = set.extra.clone();
    fresh.corpus = set.corpus.clone();
    for (name, format) in [("a.yaml", Format::Yaml), ("a.jsonl", Format::Jsonl)] {
        let once = testset::to_string(&fresh, format);
        let back = read(&once, name);
        let twice = testset::to_string(&back, format);
        assert_eq!(once, twice, "{name}");
        assert_eq!(back.cases, fresh.cases, "{name}");
        assert_eq!(back.extra, fresh.extra);
    }
}

#[test]
fn save_is_atomic_and_load_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out/testset.yaml");
    let set = read(HAND_WRITTEN, "set.yaml");
    testset::save(&set, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), HAND_WRITTEN);
    let back = testset::load(&path).unwrap();
    assert_eq!(back.cases.len(), 2);
    assert_eq!(back.cases[1].line(), Some(17));
}

fn load_err(text: &str) -> String {
    testset::load_str(text, Path::new("bad/set.yaml"), Format::Yaml)
        .unwrap_err()
        .to_string()
}

#[test]
fn errors_name_file_line_case_and_field() {
    let e = load_err(
        "ragsynth: 1\ncases:\n  - id: a\n    question: q\n  - id: b\n    question: q\n    relevant:\n      - {doc: x.md, start: -3, end: 4, quote: q}\n",
    );
    assert!(e.starts_with("bad/set.yaml:8:"), "{e}");
    assert!(e.contains("case `b`") && e.contains("relevant[0].start"), "{e}");

    let e = load_err("cases:\n  - id: a\n    question: q\n    tags: {source: robot}\n");
    assert!(
        e.starts_with("bad/set.yaml:4:") && e.contains("tags.source") && e.contains("robot"),
        "{e}"
    );

    let e = load_err("cases:\n  - question: q\n");
    assert!(e.contains("case `#1`") && e.contains("id"), "{e}");

    let e = load_err("cases:\n  - id: a\n    question: [unclosed\n");
    assert!(e.starts_with("bad/set.yaml:"), "{e}");

    let e = load_err("ragsynth: 7\ncases: []\n");
    assert!(e.contains("newer"), "{e}");

    let e = testset::load_str(
        "{\"ragsynth\":1}\n{\"id\":\"a\",\"question\":\"q\"}\n{broken\n",
        Path::new("s.jsonl"),
        Format::Jsonl,
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("s.jsonl:3:"), "{e}");
}

#[test]
fn validation_names_case_and_field() {
    let corpus_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs");
    let corpus = Corpus::load(&corpus_dir, WalkOptions::default()).unwrap();
    let pricing = corpus.doc("pricing.md").unwrap();
    let quote: String = pricing.text.chars().skip(20).take(30).collect();
    let text = format!(
        "cases:\n- id: ok\n  question: q\n  relevant:\n  - {{doc: pricing.md, start: 10, end: 60, quote: {quote:?}}}\n\
         - id: ok\n  question: dup\n\
         - id: gone\n  question: q\n  relevant:\n  - {{doc: nope.md, start: 0, end: 1, quote: x}}\n\
         - id: far\n  question: q\n  relevant:\n  - {{doc: pricing.md, start: 0, end: 999999, quote: x}}\n\
         - id: moved\n  question: q\n  relevant:\n  - {{doc: pricing.md, start: 100, end: 200, quote: {quote:?}}}\n"
    );
    let set = read(&text, "v.yaml");
    let issues = testset::validate(&set, Some(&corpus));
    let find = |case: &str, field: &str| {
        issues
            .iter()
            .any(|i| i.case.as_deref() == Some(case) && i.field == field && i.line.is_some())
    };
    assert!(find("ok", "id"), "{issues:#?}");
    assert!(find("gone", "relevant[0].doc"));
    assert!(find("far", "relevant[0].end"));
    assert!(find("moved", "relevant[0].quote"));
    assert_eq!(issues.len(), 4, "{issues:#?}");
}

#[test]
fn a_case_without_relevant_is_not_given_one() {
    let text = "cases:\n- id: a\n  question: q?\n  tags: {source: real}\n- id: b\n  question: r?\n";
    let mut set = read(text, "s.yaml");
    assert_eq!(testset::to_string(&set, Format::Yaml), text);
    set.cases[1].review = Some(Review::Accepted);
    assert_eq!(
        testset::to_string(&set, Format::Yaml),
        "cases:\n- id: a\n  question: q?\n  tags: {source: real}\n- id: b\n  question: r?\n  review: accepted\n"
    );
}

#[test]
fn changed_header_with_verbatim_cases_stays_valid_yaml() {
    for text in [
        HAND_WRITTEN.to_string(),
        HAND_WRITTEN
            .replace("\n- ", "\n  - ")
            .replace("\n  ", "\n    ")
            .replace("\n    - id", "\n  - id"),
    ] {
        let mut set = read(&text, "s.yaml");
        set.extra.insert("owner".into(), "other-team".into());
        set.cases.push(Case::new("new-1", "A new question?"));
        let out = testset::to_string(&set, Format::Yaml);
        let back = read(&out, "s.yaml");
        assert_eq!(back.cases, set.cases, "{out}");
        assert_eq!(back.extra["owner"], "other-team");
    }
}

#[test]
fn hops_without_their_own_questions_are_read_and_kept() {
    // HotpotQA's bridges record what each hop finds, not a question per hop
    // (scripts/make-hotpot.py writes them so).
    let text = "cases:\n  - id: hotpot-02\n    question: What position was held by the woman who played Corliss Archer?\n    answer: Chief of Protocol\n    hops:\n      - answer: Shirley Temple\n        relevant: [0]\n      - answer: Chief of Protocol\n        relevant: [1]\n    bridge: Shirley Temple\n    relevant: []\n";
    let set = read(text, "set.yaml");
    let hops = set.cases[0].hops.as_ref().expect("hops read");
    assert_eq!(hops.len(), 2);
    assert!(hops[0].question.is_empty());
    assert_eq!(hops[0].answer.as_deref(), Some("Shirley Temple"));
    assert_eq!(testset::to_string(&set, Format::Yaml), text);
}
