//! `ragsynth generate` without an LLM: the dry run plans and estimates without writing, and
//! bad options fail with a message naming the option.

use std::process::Command;

fn ragsynth() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG").env_remove("RAGSYNTH_LLM");
    c
}

fn docs() -> String {
    format!("{}/corpora/docs", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn dry_run_plans_in_proportion_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set.yaml");
    let o = ragsynth()
        .args([
            "generate",
            &docs(),
            "-o",
            out.to_str().unwrap(),
            "-n",
            "20",
            "--dry-run",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.exists(), "a dry run writes nothing");
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(s["dry_run"], true);
    let planned = |k: &str| s["by_type"][k]["planned"].as_u64().unwrap();
    let kinds = ["lookup", "identifier", "comparison", "multi_hop", "unanswerable"];
    assert_eq!(kinds.iter().map(|k| planned(k)).sum::<u64>(), 20);
    // Every type of the design has its share (lookup 0.3, identifier and comparison 0.15,
    // multi-hop and unanswerable 0.2).
    assert_eq!(kinds.map(planned), [6, 3, 3, 4, 4]);
    // A call per two lookups or identifiers (two to a chunk, the last chunk of an odd count
    // asks one) and the answers judge on each, one per comparison, four per multi-hop (a call
    // per hop, the judge on two descriptions), four per unanswerable (the fact's question,
    // the neighbours twice, the judge).
    let calls = planned("lookup").div_ceil(2)
        + planned("lookup")
        + planned("identifier").div_ceil(2)
        + planned("identifier")
        + planned("comparison")
        + 4 * planned("multi_hop")
        + 4 * planned("unanswerable");
    assert_eq!(s["llm"]["calls"].as_u64().unwrap(), calls);
    assert!(s["llm"]["prompt_tokens"].as_u64().unwrap() > 100 * calls);
    assert_eq!(s["llm"]["cache_hits"], 0);
    // Eight rounds by default: at most eight times one pass, if every candidate is rejected.
    assert_eq!(s["max_rounds"], 8);
    // (A task's bound counts its full two questions: a chunk asked for one is over by a judge.)
    let worst = s["worst_case_calls"].as_u64().unwrap();
    assert!(
        (8 * calls..=8 * (calls + 2)).contains(&worst),
        "{worst} vs {calls}"
    );

    // The same seed plans the same; the text form shows the plan per document.
    let text = ragsynth()
        .args([
            "generate",
            &docs(),
            "-o",
            out.to_str().unwrap(),
            "-n",
            "20",
            "--dry-run",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("retention.md"), "{text}");
    assert!(text.contains("(estimated)"), "{text}");
    assert!(
        text.contains(&format!("worst case over 8 round(s): {worst} calls")),
        "{text}"
    );

    // One round is the plan alone.
    let o = ragsynth()
        .args([
            "generate",
            &docs(),
            "-n",
            "20",
            "--dry-run",
            "--json",
            "--max-rounds",
            "1",
        ])
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(8 * s["worst_case_calls"].as_u64().unwrap(), worst);
}

/// A port nothing listens on: bound, read, released.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[test]
fn a_provider_that_is_down_stops_the_run_after_five_failures_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set.yaml");
    let before =
        "ragsynth: 1\ncases:\n  - id: real-1\n    question: how do I restore a file\n    relevant: []\n";
    std::fs::write(&out, before).unwrap();
    let llm = format!("openai-compatible:m@http://127.0.0.1:{}/v1", closed_port());
    let run = |extra: &[&str]| {
        ragsynth()
            .args(extra)
            .args([
                "generate",
                &docs(),
                "-o",
                out.to_str().unwrap(),
                "-n",
                "20",
                "--quiet",
            ])
            .args(["--llm", &llm, "--llm-retries", "1", "--cache-dir"])
            .arg(dir.path().join("cache"))
            .output()
            .unwrap()
    };

    let o = run(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // Five candidates in a row stop it, not the twenty planned (~20 s of backoff at one retry
    // each). Counted, not timed: a busy machine made a time bound fail.
    assert!(err.contains("openai-compatible:m looks down"), "{err}");
    assert!(
        err.contains("5 candidates in a row failed after all retries"),
        "{err}"
    );
    assert!(
        err.contains("Connection refused") || err.contains("connect"),
        "{err}"
    );
    assert!(err.contains("rerun the same command to resume"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        before,
        "the test set must be untouched"
    );

    // The count comes from `[generate] stop_after_llm_failed`.
    let config = dir.path().join("ragsynth.toml");
    std::fs::write(&config, "[generate]\nstop_after_llm_failed = 2\n").unwrap();
    let o = run(&["--config", config.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("2 candidates in a row"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
}

#[test]
fn bad_options_name_themselves() {
    let run = |extra: &[&str]| {
        let o = ragsynth()
            .args(["generate", &docs(), "--dry-run"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        String::from_utf8(o.stderr).unwrap()
    };
    assert!(run(&["--mix", "lookup=abc"]).contains("--mix"));
    assert!(run(&["--heldout", "1.5"]).contains("--heldout"));
    assert!(run(&["--max-rounds", "0"]).contains("--max-rounds"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lookup.j2"), "{% block user %}{{ text }").unwrap();
    assert!(run(&["--prompts", dir.path().to_str().unwrap()]).contains("lookup.j2"));
}
