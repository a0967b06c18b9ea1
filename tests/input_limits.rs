//! Hostile inputs fail fast with a message naming the file, the limit and how to raise it:
//! YAML whose aliases expand a small file into a huge document, too many aliases, and JSON
//! Lines or CSV lines and fields past their limits.

use std::path::Path;
use std::process::{Command, Output};

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ragsynth"));
    c.env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("RAGSYNTH_MAX_YAML_ALIASES")
        .env_remove("RAGSYNTH_MAX_YAML_EXPANSION")
        .env_remove("RAGSYNTH_MAX_LINE_BYTES")
        .env_remove("RAGSYNTH_MAX_FIELD_BYTES")
        .current_dir(dir);
    c
}

fn docs() -> String {
    format!("{}/corpora/docs", env!("CARGO_MANIFEST_DIR"))
}

/// A test set holding one anchored scalar of `scalar` bytes and `aliases` aliases of it.
pub fn alias_bomb(scalar: usize, aliases: usize) -> String {
    let mut s = format!("ragsynth: 1\nblob: &b \"{}\"\nrepeat: [", "x".repeat(scalar));
    s.push_str(&vec!["*b"; aliases].join(", "));
    s.push_str("]\ncases:\n  - id: c1\n    question: What is kept?\n    relevant: []\n");
    s
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn aliases_expanding_a_small_file_are_refused_before_the_memory_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.yaml");
    // 1 MB aliased 200 times: 200 MB once expanded, past the 64 MiB + 16 × 1 MB budget.
    let text = alias_bomb(1 << 20, 200);
    std::fs::write(&path, &text).unwrap();
    let o = ragsynth(dir.path())
        .args(["audit", "--write", "bomb.yaml"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("bomb.yaml"), "{err}");
    assert!(err.contains("expands to more than"), "{err}");
    assert!(err.contains("RAGSYNTH_MAX_YAML_EXPANSION"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "nothing written");

    // The limit can be raised on purpose.
    let o = ragsynth(dir.path())
        .env("RAGSYNTH_MAX_YAML_EXPANSION", "512M")
        .args(["audit", "bomb.yaml"])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn more_aliases_than_the_limit_are_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.yaml"), alias_bomb(3, 50)).unwrap();
    let o = ragsynth(dir.path())
        .env("RAGSYNTH_MAX_YAML_ALIASES", "20")
        .args(["audit", "many.yaml"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("many.yaml") && err.contains("more than 20 YAML aliases"),
        "{err}"
    );
    assert!(err.contains("RAGSYNTH_MAX_YAML_ALIASES"), "{err}");
    // Within the default limit the same file reads.
    let o = ragsynth(dir.path())
        .args(["audit", "many.yaml"])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn a_jsonl_line_or_a_csv_field_past_its_limit_names_line_limit_and_variable() {
    let dir = tempfile::tempdir().unwrap();
    let long = "word ".repeat(600);
    let jsonl =
        format!("{{\"question\": \"How long are snapshots kept?\"}}\n{{\"question\": \"{long}?\"}}\n");
    std::fs::write(dir.path().join("q.jsonl"), jsonl).unwrap();
    let o = ragsynth(dir.path())
        .env("RAGSYNTH_MAX_LINE_BYTES", "2000")
        .args(["import", "q.jsonl", "--into", "set.yaml", "--corpus", &docs()])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("q.jsonl:2:") && err.contains("RAGSYNTH_MAX_LINE_BYTES"),
        "{err}"
    );
    assert!(!dir.path().join("set.yaml").exists());

    let csv = format!("question,answer\nHow long are snapshots kept?,30 days\n\"{long}?\",x\n");
    std::fs::write(dir.path().join("q.csv"), csv).unwrap();
    let o = ragsynth(dir.path())
        .env("RAGSYNTH_MAX_FIELD_BYTES", "1000")
        .args(["import", "q.csv", "--into", "set.yaml", "--corpus", &docs()])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("q.csv:3:")
            && err.contains("field `question`")
            && err.contains("RAGSYNTH_MAX_FIELD_BYTES"),
        "{err}"
    );

    // A test set in JSON Lines: a field past the limit anywhere in a case.
    let set =
        format!("{{\"ragsynth\": 1}}\n{{\"id\": \"c1\", \"question\": \"Q?\", \"answer\": \"{long}\"}}\n");
    std::fs::write(dir.path().join("set.jsonl"), set).unwrap();
    let o = ragsynth(dir.path())
        .env("RAGSYNTH_MAX_FIELD_BYTES", "1000")
        .args(["audit", "set.jsonl"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("set.jsonl:2:") && err.contains("field `answer`"),
        "{err}"
    );
}

/// Issue 66, defect 8: nested anchors ("billion laughs") stopped the parser with "budget
/// breached: RecordedAnchorEvents { … }" instead of the documented message naming the setting.
#[test]
fn nested_anchors_get_the_expansion_message_naming_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = vec![
        "ragsynth: 1".to_string(),
        format!("l0: &l0 [{}]", ["\"lol\""; 9].join(",")),
    ];
    for i in 1..9 {
        lines.push(format!(
            "l{i}: &l{i} [{}]",
            vec![format!("*l{}", i - 1); 9].join(",")
        ));
    }
    lines.push("cases: []".into());
    std::fs::write(dir.path().join("lol.yaml"), lines.join("\n") + "\n").unwrap();
    let o = ragsynth(dir.path()).args(["audit", "lol.yaml"]).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("lol.yaml")
            && err.contains("expands to more than")
            && err.contains("RAGSYNTH_MAX_YAML_EXPANSION"),
        "{err}"
    );
    assert!(!err.contains("budget breached"), "{err}");
}
