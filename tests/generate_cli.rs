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
    assert_eq!(
        planned("lookup") + planned("multi_hop") + planned("unanswerable"),
        20
    );
    assert_eq!(planned("unanswerable"), 4);
    // 1 call per lookup, 3 per multi-hop, 2 per unanswerable.
    let calls = planned("lookup") + 3 * planned("multi_hop") + 2 * planned("unanswerable");
    assert_eq!(s["llm"]["calls"].as_u64().unwrap(), calls);
    assert!(s["llm"]["prompt_tokens"].as_u64().unwrap() > 100 * calls);
    assert_eq!(s["llm"]["cache_hits"], 0);

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
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("single_hop.j2"), "{% block user %}{{ text }").unwrap();
    assert!(run(&["--prompts", dir.path().to_str().unwrap()]).contains("single_hop.j2"));
}
