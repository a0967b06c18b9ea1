//! Top-up rounds against the real local model (llama-server + SmolLM2), which rejects most of
//! its candidates — the case top-up exists for: the rounds run (or stop, saying why), the calls
//! stay within the stated bound, the counts add up over the rounds, no request is asked twice,
//! and a second identical run replays every round from the journal to the same file. Skipped
//! with a reason when the local model is not installed, unless `RAGSYNTH_REQUIRE_LLM=1`.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod local_llm;
use local_llm::local_llm_available;

fn generate(corpus: &Path, out: &Path, cache: &Path) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("generate")
        .arg(corpus)
        .arg("-o")
        .arg(out)
        .arg("--cache-dir")
        .arg(cache)
        .args(["-n", "4", "--max-rounds", "2", "--seed", "1", "--json", "--quiet"])
        .env_remove("RAGSYNTH_CONFIG")
        .env("RAGSYNTH_LLM", "llamacpp:smollm2")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "generate failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("--json prints the summary")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn short_kinds_are_topped_up_within_the_bound_and_a_rerun_replays_every_round() {
    if !local_llm_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("docs");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs"),
        &corpus,
    );
    let cache = dir.path().join("cache");
    let first_out = dir.path().join("first.yaml");
    let s = generate(&corpus, &first_out, &cache);
    eprintln!("first run: {s:#}");
    let n = |v: &Value| v.as_u64().unwrap();

    // Rounds: at most 2, each listed, and a reason for stopping that fits the count.
    let rounds = s["rounds"].as_array().unwrap();
    assert_eq!(n(&s["rounds_run"]), rounds.len() as u64);
    assert!((1..=2).contains(&rounds.len()), "{s:#}");
    let stopped = s["stopped"].as_str().unwrap();
    match rounds.len() {
        2 => assert!(["max_rounds", "complete"].contains(&stopped), "{stopped}"),
        _ => assert!(
            ["complete", "no_progress", "nothing_left"].contains(&stopped),
            "{stopped}"
        ),
    }

    // Per kind: accepted never above planned, attempted = accepted + rejections (all rounds).
    let kinds = s["by_type"].as_object().unwrap();
    let mut one_pass = 0;
    let mut calls = 0;
    for (name, f) in kinds {
        let rejected: u64 = f["rejected"].as_object().unwrap().values().map(n).sum();
        assert_eq!(n(&f["attempted"]), n(&f["accepted"]) + rejected, "{name}");
        assert!(n(&f["accepted"]) <= n(&f["planned"]), "{name}");
        // Calls of one pass: a call per two lookups or identifiers and a judge per task's two
        // questions, one per comparison, four per multi-hop (one per hop, the judge on two
        // descriptions), four per unanswerable (the question, the neighbours twice, the judge).
        one_pass += match name.as_str() {
            "lookup" | "identifier" => 3 * n(&f["planned"]).div_ceil(2),
            "comparison" => n(&f["planned"]),
            _ => 4 * n(&f["planned"]),
        };
        calls += n(&f["llm_calls"]);
    }
    assert_eq!(kinds.values().map(|f| n(&f["planned"])).sum::<u64>(), 4);
    // The rounds account for every candidate and call.
    let sum = |key: &str| rounds.iter().map(|r| n(&r[key])).sum::<u64>();
    let surplus: u64 = kinds.values().map(|f| f.get("surplus").map_or(0, n)).sum();
    assert_eq!(sum("candidates"), n(&s["attempted"]) + surplus);
    assert_eq!(sum("accepted"), n(&s["accepted"]));
    assert_eq!(sum("llm_calls"), calls);
    // A top-up asks for at most twice what was missing after the first round, and never more
    // than the plan's four.
    if let Some(second) = rounds.get(1) {
        let missing = 4 - n(&rounds[0]["accepted"]);
        assert!(
            (1..=(2 * missing).min(4)).contains(&n(&second["candidates"])),
            "{s:#}"
        );
    }
    // The stated bound holds: two rounds of one pass each.
    assert_eq!(n(&s["worst_case_calls"]), 2 * one_pass);
    assert!(calls <= n(&s["worst_case_calls"]), "{s:#}");
    // No request was asked twice: a repeat would have been a journal hit in this run.
    assert_eq!(n(&s["llm"]["cache_hits"]), 0, "{s:#}");

    // The same command again: every round replayed from the journal, no new call, same file.
    let journaled = std::fs::read_to_string(cache.join("journal.jsonl"))
        .unwrap()
        .lines()
        .count() as u64;
    let second_out = dir.path().join("second.yaml");
    let again = generate(&corpus, &second_out, &cache);
    assert_eq!(n(&again["llm"]["calls"]), 0, "{again:#}");
    assert_eq!(n(&again["llm"]["cache_hits"]), journaled, "{again:#}");
    assert_eq!(again["rounds"], s["rounds"]);
    assert_eq!(again["by_type"], s["by_type"]);
    // The same file, or none when nothing was accepted (an empty run writes nothing).
    assert_eq!(
        std::fs::read(&second_out).ok(),
        std::fs::read(&first_out).ok(),
        "a replayed run writes the same file"
    );
    assert_eq!(first_out.exists(), n(&s["accepted"]) > 0, "{s:#}");
}
