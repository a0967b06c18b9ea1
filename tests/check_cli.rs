//! `ragsynth check` end to end on the audit fixture (28 cases over four documents): generate's
//! checks over every case in set order, and, with the default local model, its calibrated judge
//! asked only of the lookups and identifiers no other check turned away, once each — a rerun
//! is served from the journal. Skipped with a reason when the model is not installed, unless
//! `RAGSYNTH_REQUIRE_LLM=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod local_llm;
use local_llm::model_available;

/// The audit fixture's set and corpus copied into `dir` (without its `ragsynth.toml`).
fn fixture(dir: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit");
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    for doc in std::fs::read_dir(from.join("corpus")).unwrap() {
        let doc = doc.unwrap().path();
        std::fs::copy(&doc, dir.join("corpus").join(doc.file_name().unwrap())).unwrap();
    }
    let set = dir.join("testset.yaml");
    std::fs::copy(from.join("testset.yaml"), &set).unwrap();
    set
}

fn check(set: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("check")
        .arg(set)
        .args(args)
        .current_dir(set.parent().unwrap())
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("RAGSYNTH_MODEL")
        .output()
        .unwrap()
}

/// The `--json` lines of a run that turned some case away (exit 2).
fn verdicts(out: &Output) -> Vec<Value> {
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn set_ids(set: &Path) -> Vec<String> {
    let set = ragsynth::testset::load(set).unwrap();
    set.cases.iter().map(|c| c.id.clone()).collect()
}

fn ids(verdicts: &[Value]) -> Vec<String> {
    verdicts
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect()
}

fn not_run_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.starts_with("not run: "))
        .unwrap_or_default()
        .to_string()
}

fn journal_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("journal.jsonl")).map_or(0, |j| j.lines().count())
}

#[test]
fn without_a_model_every_case_is_read_in_order_and_the_judges_are_named_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let set = fixture(dir.path());
    let keyless = verdicts(&check(&set, &["--json"]));
    assert_eq!(ids(&keyless), set_ids(&set));
    // The fixture's faults are turned away by name, and its right cases are not.
    let codes = |id: &str| {
        keyless.iter().find(|v| v["id"] == id).unwrap()["codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(codes("syn-pronoun").contains(&"RS209".to_string()), "{keyless:?}");
    assert!(keyless.iter().any(|v| v["codes"].as_array().unwrap().is_empty()));
    let text = check(&set, &[]);
    assert!(not_run_line(&text).contains("RS509"), "{}", not_run_line(&text));
}

#[test]
fn the_default_models_judge_asks_each_surviving_lookup_once() {
    if !model_available("qwen2.5-coder-1.5b") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let set = fixture(dir.path());
    let journal = dir.path().join("journal");
    let journal_arg = journal.to_str().unwrap();
    // What the judge is asked of: lookups and identifiers with an answer that pass every other check.
    let loaded = ragsynth::testset::load(&set).unwrap();
    let keyless = verdicts(&check(&set, &["--json"]));
    let asked = keyless
        .iter()
        .filter(|v| v["codes"].as_array().unwrap().is_empty())
        .filter(|v| matches!(v["type"].as_str(), Some("lookup" | "identifier")))
        .filter(|v| {
            let case = loaded
                .cases
                .iter()
                .find(|c| c.id == v["id"].as_str().unwrap())
                .unwrap();
            case.answer.is_some() && !case.relevant.is_empty()
        })
        .count();
    assert!(asked >= 2, "the fixture has lookups the judge is asked of");

    let judged = verdicts(&check(
        &set,
        &["--json", "--llm", "llamacpp", "--cache-dir", journal_arg],
    ));
    assert_eq!(
        ids(&judged),
        set_ids(&set),
        "answers asked at once come back in set order"
    );
    assert_eq!(
        journal_lines(&journal),
        asked,
        "one judge call per surviving lookup"
    );
    // A judge finding is the only difference from the keyless run.
    for (k, j) in keyless.iter().zip(&judged) {
        let extra: Vec<&Value> = j["codes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| !k["codes"].as_array().unwrap().contains(c))
            .collect();
        assert!(extra.iter().all(|c| *c == "RS509"), "{k} / {j}");
    }

    let again = check(&set, &["--llm", "llamacpp", "--cache-dir", journal_arg]);
    assert!(
        !not_run_line(&again).contains("RS509"),
        "{}",
        not_run_line(&again)
    );
    assert_eq!(
        journal_lines(&journal),
        asked,
        "a rerun is served from the journal"
    );
}
