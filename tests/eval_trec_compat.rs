//! ragsynth's metrics agree with `trec_eval` on its own test inputs (`../shared/data/trec_eval`):
//! `qrels.test` + `results.test` against `out.test.aq` (`trec_eval -a -q`), and
//! `qrels.rel_level` + `results.test` against `out.test.aql` (`-a -q -l2`), per query and
//! overall, to 4 decimals. `results.test` has unsorted ranks and score ties, so this also pins
//! the tie-breaking rule (score descending, then docid descending).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ragsynth::eval::{self, EvalOptions, Rule, Run, questions};

fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("RAGSYNTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
        .join("trec_eval");
    if dir.join("results.test").exists() {
        Some(dir)
    } else {
        eprintln!("skipped: {} not found (set RAGSYNTH_SHARED_DATA)", dir.display());
        None
    }
}

/// `measure -> query (or "all") -> value` from a `trec_eval -q` output file.
fn expected(path: &Path) -> HashMap<(String, String), f64> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Some((
                (f.first()?.to_string(), f.get(1)?.to_string()),
                f.get(2)?.parse().ok()?,
            ))
        })
        .collect()
}

const KS: [usize; 9] = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

fn check(dir: &Path, qrels: &str, out: &str, level: u32) {
    let want = expected(&dir.join(out));
    let qs = questions::from_qrels(&dir.join(qrels)).unwrap();
    let run = Run::load(&dir.join("results.test")).unwrap();
    let options = EvalOptions {
        ks: KS.to_vec(),
        split: None,
        rule: Rule {
            level,
            ..Rule::default()
        },
        skip_missing: true,
        ..EvalOptions::default()
    };
    let report = eval::evaluate(&qs, &run, None, &options).unwrap();
    assert_eq!(report.scored as f64, want[&("num_q".into(), "all".into())]);

    let mut compared = 0;
    let mut compare = |measure: String, query: &str, got: f64| {
        let w = want[&(measure.clone(), query.to_string())];
        assert!(
            (got - w).abs() < 0.00005 + 1e-9,
            "{out}: {measure} for {query}: ragsynth {got:.6}, trec_eval {w}"
        );
        compared += 1;
    };
    let mut rows: Vec<(&str, &ragsynth::eval::Metrics)> = report
        .questions
        .iter()
        .map(|q| (q.id.as_str(), q.metrics.as_ref().unwrap()))
        .collect();
    rows.push(("all", &report.overall));
    for (query, m) in rows {
        for (i, k) in KS.iter().enumerate() {
            compare(format!("P_{k}"), query, m.precision[i]);
            compare(format!("recall_{k}"), query, m.recall[i]);
            compare(format!("ndcg_cut_{k}"), query, m.ndcg[i]);
        }
        compare("recip_rank".into(), query, m.rr);
        compare("map".into(), query, m.ap);
    }
    assert_eq!(compared, 4 * (KS.len() * 3 + 2));
}

#[test]
fn binary_relevance_matches_out_test_aq() {
    let Some(dir) = shared_data() else { return };
    check(&dir, "qrels.test", "out.test.aq", 1);
}

#[test]
fn graded_relevance_with_level_2_matches_out_test_aql() {
    let Some(dir) = shared_data() else { return };
    check(&dir, "qrels.rel_level", "out.test.aql", 2);
}

#[test]
fn the_binary_prints_trec_eval_summary_figures() {
    let Some(dir) = shared_data() else { return };
    let want = expected(&dir.join("out.test"));
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .arg("eval")
        .arg(dir.join("qrels.test"))
        .arg("--run")
        .arg(dir.join("results.test"))
        .args(["-k", "5,10", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (ours, theirs) in [
        ("P@5", "P_5"),
        ("P@10", "P_10"),
        ("MRR", "recip_rank"),
        ("MAP", "map"),
    ] {
        let got = json["metrics"][ours].as_f64().unwrap();
        let w = want[&(theirs.to_string(), "all".to_string())];
        assert!((got - w).abs() < 0.00005 + 1e-9, "{ours}: {got} vs {w}");
    }
}
