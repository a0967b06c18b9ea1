//! The ranking check through the real binary: `eval SET --run a --run b --run c` on runs whose
//! rankings are known — the real and synthetic parts rank the systems the same way, in
//! reverse, and with a tie — in text and JSON, with the `--min-tau` gate's exit codes, and the
//! flags that belong to one mode or the other refused.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

/// A corpus of eight short documents and a set whose four real and four synthetic questions
/// are each labelled with one of the first four documents (the last four are never relevant).
fn workspace(dir: &Path) -> PathBuf {
    let docs = dir.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    for d in 0..8 {
        std::fs::write(docs.join(format!("d{d}.txt")), text(d)).unwrap();
    }
    let mut yaml = String::from("ragsynth: 1\ncorpus:\n  root: docs\ncases:\n");
    for (source, prefix) in [("real", "r"), ("synthetic", "s")] {
        for d in 0..4 {
            let t = text(d);
            yaml.push_str(&format!(
                "  - id: {prefix}{d}\n    question: what does document {d} say\n    relevant:\n      - doc: d{d}.txt\n        start: 0\n        end: {}\n        quote: {t}\n    tags: {{type: lookup, source: {source}}}\n    review: accepted\n",
                t.chars().count()
            ));
        }
    }
    let set = dir.join("set.yaml");
    std::fs::write(&set, yaml).unwrap();
    set
}

fn text(d: usize) -> String {
    format!("Document {d} holds the fact number {d} and nothing else")
}

/// A run that puts each question's labelled document at `real_rank` for the real questions and
/// `synthetic_rank` for the synthetic ones (1-based), the never-relevant documents around it.
fn run(dir: &Path, name: &str, real_rank: usize, synthetic_rank: usize) -> String {
    let mut lines = String::new();
    for (prefix, rank) in [("r", real_rank), ("s", synthetic_rank)] {
        for d in 0..4 {
            let mut items: Vec<Value> = (4..8).map(|f| json!(format!("d{f}.txt"))).collect();
            items.insert(rank - 1, json!(format!("d{d}.txt")));
            lines.push_str(&json!({"id": format!("{prefix}{d}"), "retrieved": items}).to_string());
            lines.push('\n');
        }
    }
    let path = dir.join(format!("{name}.jsonl"));
    std::fs::write(&path, lines).unwrap();
    format!("{name}={}", path.display())
}

fn eval(set: &Path, runs: &[String], extra: &[&str]) -> assert_cmd::assert::Assert {
    let mut cmd = Command::cargo_bin("ragsynth").unwrap();
    cmd.arg("eval").arg(set);
    for r in runs {
        cmd.arg("--run").arg(r);
    }
    cmd.args(extra).assert()
}

fn json_of(a: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&a.get_output().stdout).unwrap()
}

#[test]
fn identical_rankings_pass_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let set = workspace(dir.path());
    let runs = [
        run(dir.path(), "dense", 1, 1),
        run(dir.path(), "hybrid", 2, 2),
        run(dir.path(), "bm25", 4, 4),
    ];
    let a = eval(&set, &runs, &["--min-tau", "0.7"]).code(0);
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    assert!(
        out.contains("3 runs ranked by MRR on 4 real and 4 synthetic questions"),
        "{out}"
    );
    assert!(out.contains("dense     1.0000    1     1.0000    1"), "{out}");
    assert!(out.contains("bm25      0.2500    3     0.2500    3"), "{out}");
    assert!(out.contains("Kendall τ-b 1.00"), "{out}");
    assert!(
        out.contains("winner: real dense, synthetic dense: the same"),
        "{out}"
    );
    assert!(out.contains("gate (--min-tau 0.7): pass"), "{out}");

    let j = json_of(
        &eval(
            &set,
            &runs,
            &["--format", "json", "--metric", "ndcg@10", "--resamples", "200"],
        )
        .code(0),
    );
    assert_eq!(j["metric"], "nDCG@10");
    assert_eq!(j["kendall_tau_b"]["value"], 1.0);
    assert_eq!(j["kendall_tau_b"]["resamples"], 200);
    assert_eq!(j["winners"]["same"], true);
    assert_eq!(j["systems"][2]["name"], "bm25");
    assert_eq!(j["systems"][2]["synthetic"]["rank"], 3);
    assert!(j.get("gate").is_none(), "no gate unless asked");
}

#[test]
fn reversed_rankings_fail_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let set = workspace(dir.path());
    let runs = [
        run(dir.path(), "dense", 1, 4),
        run(dir.path(), "hybrid", 2, 2),
        run(dir.path(), "bm25", 4, 1),
    ];
    let a = eval(&set, &runs, &["--min-tau", "0.7"]).code(2);
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    assert!(out.contains("Kendall τ-b -1.00"), "{out}");
    assert!(
        out.contains("winner: real dense, synthetic bm25: they differ"),
        "{out}"
    );
    assert!(
        out.contains("gate (--min-tau 0.7): fail: τ-b -1.00 < 0.70, the winners differ"),
        "{out}"
    );
    let j = json_of(&eval(&set, &runs, &["--format", "json", "--min-tau", "-1"]).code(2));
    assert_eq!(j["gate"]["passed"], false, "τ-b meets -1 but the winners differ");
    // Without a gate the same figures exit 0: the check reports, the team decides.
    eval(&set, &runs, &[]).code(0);
}

#[test]
fn tied_systems_share_a_place() {
    let dir = tempfile::tempdir().unwrap();
    let set = workspace(dir.path());
    // Real: a = b > c; synthetic: a > b = c. τ-b = 1 / sqrt(2 * 2) = 0.5.
    let runs = [
        run(dir.path(), "a", 1, 1),
        run(dir.path(), "b", 1, 2),
        run(dir.path(), "c", 2, 2),
    ];
    let j = json_of(&eval(&set, &runs, &["--format", "json"]).code(0));
    let ranks: Vec<(u64, u64)> = j["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["real"]["rank"].as_u64().unwrap(),
                s["synthetic"]["rank"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(ranks, [(1, 1), (1, 2), (3, 2)]);
    assert!(
        (j["kendall_tau_b"]["value"].as_f64().unwrap() - 0.5).abs() < 1e-9,
        "{j}"
    );
    assert_eq!(j["winners"]["real"], json!(["a", "b"]));
    assert_eq!(j["winners"]["same"], true);
}

#[test]
fn flags_of_one_run_and_of_several_are_kept_apart() {
    let dir = tempfile::tempdir().unwrap();
    let set = workspace(dir.path());
    let one = run(dir.path(), "a", 1, 1);
    let two = [one.clone(), run(dir.path(), "b", 2, 2)];
    let err = |a: assert_cmd::assert::Assert| String::from_utf8(a.get_output().stderr.clone()).unwrap();
    let e = err(eval(&set, std::slice::from_ref(&one), &["--metric", "map"]).code(1));
    assert!(e.contains("give --run twice or more"), "{e}");
    let e = err(eval(&set, &two, &["--baseline", "b.json"]).code(1));
    assert!(e.contains("are for one run"), "{e}");
    let e = err(eval(&set, &two, &["--metric", "f1"]).code(2));
    assert!(e.contains("unknown metric"), "{e}");
    let same_name = [one.clone(), one];
    let e = err(eval(&set, &same_name, &[]).code(1));
    assert!(e.contains("two runs are named `a`"), "{e}");
    // A run file named by its stem when no name is given.
    let path = dir.path().join("b.jsonl");
    let j = json_of(
        &eval(
            &set,
            &[two[0].clone(), path.display().to_string()],
            &["--format", "json"],
        )
        .code(0),
    );
    assert_eq!(j["systems"][1]["name"], "b");
}
