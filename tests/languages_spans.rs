//! Spans are characters in every script: on XQuAD's Chinese, German and Spanish articles (one
//! document per article), each answer labelled at its `answer_start` passes validation, is
//! found by `eval` through a located text or a character span, and keeps its span and quote
//! through `remap` to another chunking. Skips (with a reason) without the shared data.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

fn xquad() -> Option<PathBuf> {
    let dir = std::env::var_os("RAGSYNTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
        .join("xquad");
    dir.join("xquad.zh.json").is_file().then_some(dir)
}

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("ragsynth").unwrap();
    c.env_remove("RAGSYNTH_CONFIG")
        .env("NO_COLOR", "1")
        .current_dir(dir);
    c
}

/// The first `articles` articles as documents; a case per question, labelled at its answer.
/// Returns the number of cases.
fn build(data: &Path, lang: &str, articles: usize, dir: &Path) -> usize {
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(data.join(format!("xquad.{lang}.json"))).unwrap())
            .unwrap();
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    let (mut set, mut run) = (String::new(), String::new());
    set.push_str(&json!({"ragsynth": 1, "corpus": {"root": "corpus"}}).to_string());
    set.push('\n');
    let mut n = 0;
    for (a, article) in v["data"].as_array().unwrap().iter().take(articles).enumerate() {
        let doc = format!("a{a:02}.md");
        let mut text = String::new();
        for para in article["paragraphs"].as_array().unwrap() {
            let ctx = para["context"].as_str().unwrap();
            let offset = text.chars().count();
            for qa in para["qas"].as_array().unwrap() {
                let answer = qa["answers"][0]["text"].as_str().unwrap();
                let at = qa["answers"][0]["answer_start"].as_u64().unwrap() as usize;
                let found: String = ctx.chars().skip(at).take(answer.chars().count()).collect();
                assert_eq!(found, answer, "{lang}: answer_start of {}", qa["id"]);
                let (start, end) = (offset + at, offset + at + answer.chars().count());
                let id = format!("{lang}-{}", qa["id"].as_str().unwrap());
                let case = json!({"id": id, "question": qa["question"], "answer": answer,
                    "relevant": [{"doc": doc, "start": start, "end": end, "quote": answer}],
                    "tags": {"type": "lookup", "source": "real"}});
                set.push_str(&format!("{case}\n"));
                // A wrong passage first, then the answer found by its text, then by its span.
                let retrieved = json!([{"text": "没有这样的文字 / no such text at all"}, {"text": answer},
                    {"doc": doc, "start": start, "end": end}]);
                run.push_str(&format!("{}\n", json!({"id": id, "retrieved": retrieved})));
                n += 1;
            }
            text.push_str(ctx);
            text.push_str("\n\n");
        }
        std::fs::write(dir.join("corpus").join(&doc), &text).unwrap();
    }
    std::fs::write(dir.join("set.jsonl"), set).unwrap();
    std::fs::write(dir.join("run.jsonl"), run).unwrap();
    n
}

#[test]
fn labels_are_character_spans_in_every_script() {
    let Some(data) = xquad() else {
        eprintln!("skipped: no shared data (set RAGSYNTH_SHARED_DATA or provide ../shared/data/xquad)");
        return;
    };
    for lang in ["zh", "de", "es"] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let n = build(&data, lang, 3, dir);
        assert!(n > 100, "{lang}: {n} cases");
        // Every label's span holds its quote: the audit's label rules find nothing.
        let audit = ragsynth(dir)
            .args([
                "audit",
                "set.jsonl",
                "--select",
                "RS4",
                "--format",
                "json",
                "--fail-on",
                "never",
            ])
            .assert()
            .success();
        let report: Value = serde_json::from_slice(&audit.get_output().stdout).unwrap();
        assert_eq!(
            report["findings"].as_array().unwrap().len(),
            0,
            "{lang}: {report:#}"
        );
        let eval = ragsynth(dir)
            .args(["eval", "set.jsonl", "--run", "run.jsonl", "--format", "json"])
            .assert()
            .success();
        let report: Value = serde_json::from_slice(&eval.get_output().stdout).unwrap();
        let metric = |name: &str| report["metrics"][name].as_f64().unwrap();
        // Every label found by rank 3 (by its text at rank 2, or — where that text first
        // stands elsewhere in the document, as a short number does — by its span at rank 3);
        // the made-up text at rank 1 names nothing and is counted once per question.
        assert_eq!(metric("recall@3"), 1.0, "{lang}: {}", report["metrics"]);
        assert_eq!(metric("hit@1"), 0.0, "{lang}");
        assert!(metric("MRR") > 0.45, "{lang}: {}", report["metrics"]);
        assert_eq!(report["unresolved_items"].as_u64(), Some(n as u64), "{lang}");
        // Another chunking: every label keeps its span and quote.
        let remap = ragsynth(dir)
            .args([
                "remap",
                "set.jsonl",
                "--size",
                "300",
                "--overlap",
                "30",
                "--format",
                "json",
            ])
            .assert()
            .success();
        let lines = String::from_utf8(remap.get_output().stdout.clone()).unwrap();
        let summary: Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
        let count = |k: &str| summary["counts"][k].as_u64().unwrap();
        let moved: u64 = ["moved", "fuzzy", "renamed", "lost"]
            .iter()
            .map(|k| count(k))
            .sum();
        assert_eq!(summary["labels"].as_u64(), Some(n as u64), "{lang}");
        assert_eq!(
            count("unchanged") + count("rechunked"),
            n as u64,
            "{lang}: {summary:#}"
        );
        assert_eq!(moved, 0, "{lang}: {summary:#}");
    }
}
