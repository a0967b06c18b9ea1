//! Self-contained `ragsynth eval` tests through the real binary: a tiny qrels fixture with
//! hand-computed figures, and span-overlap relevance with runs chunked differently from the
//! test set (the sample corpus `corpora/docs` cut two other ways).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ragsynth::chunk::{Chunk, Chunker, Chunking, Splitter, Unit};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::testset;
use serde_json::{Value, json};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval")
        .join(name)
}

fn eval_json(testset: &Path, run: &Path, extra: &[&str]) -> Value {
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("eval")
        .arg(testset)
        .arg("--run")
        .arg(run)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(got: &Value, want: f64, what: &str) {
    let got = got
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: not a number: {got}"));
    assert!((got - want).abs() < 1e-6, "{what}: got {got}, want {want}");
}

fn question<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["questions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["id"] == id)
        .unwrap_or_else(|| panic!("no question {id}"))
}

/// Worked by hand (see the comments); the run has unsorted ranks and a score tie.
#[test]
fn tiny_qrels_hand_computed() {
    let r = eval_json(&fixture("tiny.qrels"), &fixture("tiny.run"), &["-k", "1,3,5"]);
    // q1: tie d1/d7 at 0.5 -> docid descending puts d7 first: d3(judged 0) d7 d1* d2*.
    let q1 = &question(&r, "q1")["metrics"];
    close(&q1["P@3"], 1.0 / 3.0, "q1 P@3");
    close(&q1["recall@3"], 0.5, "q1 recall@3");
    close(&q1["RR"], 1.0 / 3.0, "q1 RR");
    close(&q1["AP"], (1.0 / 3.0 + 2.0 / 4.0) / 2.0, "q1 AP");
    // DCG@3 = 1/log2(4); IDCG@3 = 1 + 1/log2(3)
    close(&q1["nDCG@3"], 0.5 / (1.0 + 1.0 / 3f64.log2()), "q1 nDCG@3");
    // q2: d6 (grade 1), d5 (grade 2), d8. DCG@3 = 1 + 2/log2(3); IDCG@3 = 2 + 1/log2(3).
    let q2 = &question(&r, "q2")["metrics"];
    close(&q2["nDCG@1"], 0.5, "q2 nDCG@1");
    close(
        &q2["nDCG@3"],
        (1.0 + 2.0 / 3f64.log2()) / (2.0 + 1.0 / 3f64.log2()),
        "q2 nDCG@3",
    );
    close(&q2["AP"], 1.0, "q2 AP");
    // q3 is missing from the run: zeros, and it counts in the means (3 questions).
    assert_eq!(r["missing_from_run"], json!(["q3"]));
    close(&question(&r, "q3")["metrics"]["recall@5"], 0.0, "q3 recall@5");
    assert_eq!(r["scored"], 3);
    let m = &r["metrics"];
    close(&m["P@1"], 1.0 / 3.0, "P@1");
    close(&m["P@5"], 0.8 / 3.0, "P@5");
    close(&m["recall@5"], 2.0 / 3.0, "recall@5");
    close(&m["hit@3"], 2.0 / 3.0, "hit@3");
    close(&m["MRR"], (1.0 / 3.0 + 1.0) / 3.0, "MRR");
    close(&m["MAP"], ((1.0 / 3.0 + 0.5) / 2.0 + 1.0) / 3.0, "MAP");
    // q4 has no relevant judgment: unanswerable, skipped, its top score reported.
    assert_eq!(r["unanswerable"]["count"], 1);
    close(
        &r["unanswerable"]["mean_top_score"],
        0.7,
        "unanswerable top score",
    );
    // q9 is not in the qrels.
    assert_eq!(r["not_in_test_set"], 1);

    // trec_eval's default: questions missing from the run are left out.
    let r = eval_json(
        &fixture("tiny.qrels"),
        &fixture("tiny.run"),
        &["-k", "1,3,5", "--skip-missing"],
    );
    assert_eq!(r["scored"], 2);
    close(&r["metrics"]["MRR"], (1.0 / 3.0 + 1.0) / 2.0, "MRR without q3");
}

struct Fixture {
    corpus: Corpus,
    set: testset::TestSet,
    small: Vec<Chunk>,
}

impl Fixture {
    fn load() -> Fixture {
        let set = testset::load(&fixture("testset.yaml")).unwrap();
        let corpus = Corpus::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs"),
            WalkOptions::default(),
        )
        .unwrap();
        // The user's system: plain-text chunks of 200 characters, no overlap — nothing like
        // the test set's 1200-character markdown chunks.
        let small = Chunker::new(Chunking {
            splitter: Splitter::Text,
            unit: Unit::Chars,
            size: 200,
            min_size: None,
            overlap: 0,
        })
        .unwrap()
        .chunk_all(&corpus.docs);
        Fixture { corpus, set, small }
    }

    /// The label's absolute quote span.
    fn quote(&self, case: &str, n: usize) -> (String, usize, usize) {
        let l = &self.set.case(case).unwrap().relevant[n];
        let text: String = self
            .corpus
            .doc(&l.doc)
            .unwrap()
            .text
            .chars()
            .skip(l.start)
            .take(l.end - l.start)
            .collect();
        let at = text.find(&l.quote).unwrap();
        let start = l.start + text[..at].chars().count();
        (l.doc.clone(), start, start + l.quote.chars().count())
    }

    /// The small chunk holding the label's quote.
    fn holding(&self, case: &str, n: usize) -> &Chunk {
        let (doc, qs, qe) = self.quote(case, n);
        self.small
            .iter()
            .find(|c| c.doc == doc && c.start <= qs && qe <= c.end)
            .unwrap_or_else(|| panic!("no 200-char chunk holds the quote of {case}"))
    }

    fn unrelated(&self) -> &Chunk {
        self.small.iter().find(|c| c.doc == "install.md").unwrap()
    }
}

fn span(c: &Chunk, score: f64) -> Value {
    json!({"doc": c.doc, "start": c.start, "end": c.end, "score": score})
}

fn write_jsonl(dir: &Path, name: &str, lines: &[Value]) -> PathBuf {
    let path = dir.join(name);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// The figures every run below is built to produce.
fn assert_expected_figures(r: &Value) {
    // ret-prune: unrelated, the quote's chunk, the same chunk again (already claimed).
    let q = &question(r, "ret-prune")["metrics"];
    close(&q["RR"], 0.5, "ret-prune RR");
    close(&q["P@3"], 1.0 / 3.0, "ret-prune P@3 (second copy not relevant)");
    close(&q["recall@3"], 1.0, "ret-prune recall@3");
    // plan-limit-error: first.
    close(&question(r, "plan-limit-error")["metrics"]["RR"], 1.0, "plan RR");
    // encrypt-and-price: security label (grade 1), unrelated, pricing label (grade 2).
    let q = &question(r, "encrypt-and-price")["metrics"];
    close(&q["recall@1"], 0.5, "multi-hop recall@1");
    close(&q["recall@3"], 1.0, "multi-hop recall@3");
    close(&q["AP"], (1.0 + 2.0 / 3.0) / 2.0, "multi-hop AP");
    close(&q["nDCG@3"], 2.0 / (2.0 + 1.0 / 3f64.log2()), "multi-hop nDCG@3");
    assert_eq!(r["scored"], 3, "dev split, unanswerable skipped");
    assert_eq!(r["unanswerable"]["count"], 1);
}

#[test]
fn spans_chunked_differently_are_judged_by_overlap() {
    let f = Fixture::load();
    let dir = tempfile::tempdir().unwrap();
    let prune = f.holding("ret-prune", 0);
    let tp403 = f.holding("plan-limit-error", 0);
    let sec = f.holding("encrypt-and-price", 1);
    let price = f.holding("encrypt-and-price", 0);
    let other = f.unrelated();
    // Each chunk is far smaller than its label, so relevance comes from holding the quote.
    let label = &f.set.case("ret-prune").unwrap().relevant[0];
    assert!((prune.end - prune.start) * 2 < label.end - label.start);

    let spans = write_jsonl(
        dir.path(),
        "spans.jsonl",
        &[
            json!({"id": "ret-prune", "retrieved": [span(other, 3.0), span(prune, 2.0), span(prune, 1.0)]}),
            json!({"id": "plan-limit-error", "retrieved": [span(tp403, 5.0)]}),
            json!({"id": "encrypt-and-price", "retrieved": [span(sec, 3.0), span(other, 2.0), span(price, 1.0)]}),
            json!({"id": "no-tape", "retrieved": [span(other, 0.25)]}),
        ],
    );
    let r = eval_json(&fixture("testset.yaml"), &spans, &["-k", "1,3"]);
    assert_expected_figures(&r);
    close(
        &r["unanswerable"]["mean_top_score"],
        0.25,
        "unanswerable top score",
    );

    // The same run given as text: located in the corpus, judged the same.
    let text = |c: &Chunk| json!({"text": c.text});
    let texts = write_jsonl(
        dir.path(),
        "texts.jsonl",
        &[
            json!({"id": "ret-prune", "retrieved": [text(other), text(prune), text(prune)]}),
            json!({"id": "plan-limit-error", "retrieved": [text(tp403)]}),
            json!({"id": "encrypt-and-price", "retrieved": [text(sec), text(other), text(price)]}),
            json!({"id": "no-tape", "retrieved": [text(other)]}),
        ],
    );
    assert_expected_figures(&eval_json(&fixture("testset.yaml"), &texts, &["-k", "1,3"]));
}

#[test]
fn chunk_ids_resolve_under_the_test_sets_chunking() {
    let f = Fixture::load();
    let dir = tempfile::tempdir().unwrap();
    let chunks = Chunker::new(f.set.chunking.clone().unwrap())
        .unwrap()
        .chunk_all(&f.corpus.docs);
    let id_of = |case: &str, n: usize| {
        let (doc, qs, qe) = f.quote(case, n);
        chunks
            .iter()
            .find(|c| c.doc == doc && c.start <= qs && qe <= c.end)
            .unwrap()
            .id
            .clone()
    };
    let other = "install.md#0";
    let run = dir.path().join("run.trec");
    let lines = [
        format!("ret-prune Q0 {other} 1 3 sys"),
        format!("ret-prune Q0 {} 2 2 sys", id_of("ret-prune", 0)),
        format!("ret-prune Q0 {} 3 1 sys", id_of("ret-prune", 0)),
        format!("plan-limit-error Q0 {} 1 1 sys", id_of("plan-limit-error", 0)),
        format!("encrypt-and-price Q0 {} 1 3 sys", id_of("encrypt-and-price", 1)),
        format!("encrypt-and-price Q0 {other} 2 2 sys"),
        "encrypt-and-price Q0 no-such.md#4 3 1.5 sys".to_string(),
        format!("encrypt-and-price Q0 {} 4 1 sys", id_of("encrypt-and-price", 0)),
        format!("no-tape Q0 {other} 1 1 sys"),
    ];
    std::fs::write(&run, lines.join("\n")).unwrap();
    let r = eval_json(&fixture("testset.yaml"), &run, &["-k", "1,3,4"]);
    let q = &question(&r, "ret-prune")["metrics"];
    close(&q["RR"], 0.5, "ret-prune RR");
    close(&q["P@3"], 1.0 / 3.0, "ret-prune P@3");
    let q = &question(&r, "encrypt-and-price");
    close(&q["metrics"]["recall@3"], 0.5, "multi-hop recall@3");
    close(&q["metrics"]["recall@4"], 1.0, "multi-hop recall@4");
    assert_eq!(q["unresolved"], 1);
    assert_eq!(r["unresolved_items"], 1);
}

#[test]
fn coverage_threshold_decides_without_the_quote() {
    let f = Fixture::load();
    let dir = tempfile::tempdir().unwrap();
    let label = &f.set.case("ret-prune").unwrap().relevant[0];
    let (_, qs, qe) = f.quote("ret-prune", 0);
    let len = label.end - label.start;
    // From the span's start to just inside the quote's end: cuts the quote, covers 50–60%.
    let cut = qe - 5;
    assert!((cut - label.start) * 2 >= len && (cut - label.start) * 10 < len * 6);
    // From the span's start to just before the quote: < 50%.
    let short = qs - 1;
    assert!((short - label.start) * 2 < len);
    let run = write_jsonl(
        dir.path(),
        "cover.jsonl",
        &[json!({"id": "ret-prune", "retrieved": [
            {"doc": "retention.md", "start": label.start, "end": short},
            {"doc": "retention.md", "start": label.start, "end": cut},
        ]})],
    );
    let r = eval_json(&fixture("testset.yaml"), &run, &[]);
    close(
        &question(&r, "ret-prune")["metrics"]["RR"],
        0.5,
        "half covered counts",
    );
    let r = eval_json(&fixture("testset.yaml"), &run, &["--min-coverage", "0.6"]);
    close(&question(&r, "ret-prune")["metrics"]["RR"], 0.0, "60% demanded");
    // The other dev questions are missing from this run: scored 0, named.
    assert_eq!(
        r["missing_from_run"],
        json!(["plan-limit-error", "encrypt-and-price"])
    );
}

#[test]
fn split_selects_questions() {
    let f = Fixture::load();
    let dir = tempfile::tempdir().unwrap();
    let held = f.holding("held-keep-daily", 0);
    let run = write_jsonl(
        dir.path(),
        "held.jsonl",
        &[json!({"id": "held-keep-daily", "retrieved": [span(held, 1.0)]})],
    );
    let r = eval_json(&fixture("testset.yaml"), &run, &["--split", "heldout"]);
    assert_eq!(r["scored"], 1);
    close(&r["metrics"]["MRR"], 1.0, "held-out MRR");
    let r = eval_json(&fixture("testset.yaml"), &run, &["--split", "all"]);
    assert_eq!(r["scored"], 4);
    close(&r["metrics"]["MRR"], 0.25, "all splits MRR");
    let by_split: Vec<&Value> = r["by_tag"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["tag"] == "split")
        .collect();
    assert_eq!(by_split.len(), 2);
}

#[test]
fn qrels_export_names_the_chunks_holding_the_quotes() {
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("eval")
        .arg(fixture("testset.yaml"))
        .args(["--export-qrels", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // One line per label, unanswerable questions have none; grades carried over.
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines.contains(&"encrypt-and-price 0 pricing.md#0 2"), "{text}");
    assert!(!text.contains("no-tape"));
}

/// Issue 66, defect 8: a case id went into qrels unescaped, so an id holding a newline added a
/// judgment line of its own. An id a qrels field cannot hold is now an error naming the case.
#[test]
fn a_case_id_qrels_cannot_hold_is_refused_naming_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("testset.yaml")).unwrap();
    let root = fixture("testset.yaml").parent().unwrap().to_path_buf();
    let set = text
        .replace(
            "id: encrypt-and-price",
            "id: \"encrypt\\nforged 0 pricing.md#0 2\"",
        )
        .replace("root: ", &format!("root: {}/", root.display()));
    let path = dir.path().join("set.yaml");
    std::fs::write(&path, set).unwrap();
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("eval")
        .arg(&path)
        .args(["--export-qrels", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "nothing written");
    assert!(
        err.contains("set.yaml")
            && err.contains("case `encrypt")
            && err.contains("cannot be a TREC qrels field"),
        "{err}"
    );
}

#[test]
fn bad_run_is_an_error_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("bad.run");
    std::fs::write(&run, "q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 oops x\n").unwrap();
    Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("eval")
        .arg(fixture("tiny.qrels"))
        .arg("--run")
        .arg(&run)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "bad.run:2: score `oops` is not a number",
        ));
}
