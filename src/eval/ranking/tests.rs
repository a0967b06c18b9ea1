//! Runs whose rankings are known: the real and synthetic parts rank the systems identically,
//! in reverse, and with ties.

use super::*;
use crate::eval::{EvalOptions, Metrics, QuestionResult};

/// A report of one system: `(source, RR)` per question, with one unanswerable question and one
/// question without a source tag, which no part holds.
fn report(questions: &[(&str, f64)]) -> EvalReport {
    let ks = vec![1, 10];
    let mut results: Vec<QuestionResult> = questions
        .iter()
        .enumerate()
        .map(|(i, (source, rr))| QuestionResult {
            id: format!("q{i}"),
            tags: vec![("source", source.to_string())],
            in_run: true,
            retrieved: 10,
            first_relevant: None,
            labels: 1,
            found: 0,
            top_score: None,
            unresolved: 0,
            metrics: Some(Metrics {
                rr: *rr,
                ..Metrics::zero(&ks)
            }),
        })
        .collect();
    let mut unanswerable = results[0].clone();
    unanswerable.id = "unanswerable".into();
    unanswerable.metrics = None;
    let mut untagged = results[0].clone();
    untagged.id = "untagged".into();
    untagged.tags.clear();
    results.extend([unanswerable, untagged]);
    let options = EvalOptions {
        ks,
        ..EvalOptions::default()
    };
    EvalReport::build(results, &options, 0, false)
}

/// A system whose real questions score `real` and synthetic ones `synthetic` (two each, the
/// mean is the value given).
fn system(name: &str, real: f64, synthetic: f64) -> (String, EvalReport) {
    let r = report(&[
        ("real", real - 0.05),
        ("real", real + 0.05),
        ("synthetic", synthetic + 0.1),
        ("synthetic", synthetic - 0.1),
    ]);
    (name.to_string(), r)
}

fn ranks(r: &RankingReport) -> Vec<(usize, usize)> {
    r.systems
        .iter()
        .map(|s| (s.real.rank, s.synthetic.rank))
        .collect()
}

#[test]
fn identical_rankings_give_tau_one_and_the_same_winner() {
    let systems = [
        system("bm25", 0.50, 0.70),
        system("dense", 0.61, 0.80),
        system("hybrid", 0.63, 0.85),
        system("bm25-stop", 0.45, 0.64),
    ];
    let r = compare(&systems, &RankingOptions::default()).unwrap();
    assert_eq!(r.tau_b, Some(1.0));
    assert_eq!(ranks(&r), [(3, 3), (2, 2), (1, 1), (4, 4)]);
    assert_eq!(r.real_winners, ["hybrid"]);
    assert!(r.same_winner());
    assert_eq!((r.real_questions, r.synthetic_questions), (2, 2));
    assert!((r.systems[0].real.value - 0.50).abs() < 1e-12);
    assert!((r.systems[0].synthetic.value - 0.70).abs() < 1e-12);
    let i = r.interval.expect("an interval");
    assert!(i.low <= 1.0 && i.high == 1.0 && i.defined > 0, "{i:?}");
}

#[test]
fn reversed_rankings_give_tau_minus_one_and_another_winner() {
    let systems = [
        system("a", 0.1, 0.9),
        system("b", 0.2, 0.8),
        system("c", 0.3, 0.7),
    ];
    let r = compare(&systems, &RankingOptions::default()).unwrap();
    assert_eq!(r.tau_b, Some(-1.0));
    assert_eq!(
        (r.real_winners.as_slice(), r.synthetic_winners.as_slice()),
        (&["c".to_string()][..], &["a".to_string()][..])
    );
    assert!(!r.same_winner());
    assert!(r.winner_agreement.unwrap() < 0.5);
}

#[test]
fn ties_share_a_place_and_tau_b_leaves_tied_pairs_out() {
    // Real ties a and b at the top; synthetic ties b and c. As in kendall's test: τ-b = 0.8.
    let systems = [
        system("d", 0.1, 0.0),
        system("c", 0.2, 0.2),
        system("b", 0.3, 0.2),
        system("a", 0.3, 0.1),
    ];
    let r = compare(&systems, &RankingOptions::default()).unwrap();
    assert_eq!(ranks(&r), [(4, 4), (3, 1), (1, 1), (1, 3)]);
    assert_eq!(r.real_winners, ["b", "a"]);
    assert_eq!(r.synthetic_winners, ["c", "b"]);
    assert!(r.same_winner(), "b wins both");
    let expected = kendall::tau_b(&[0.1, 0.2, 0.3, 0.3], &[0.0, 0.2, 0.2, 0.1]).unwrap();
    assert!((r.tau_b.unwrap() - expected).abs() < 1e-12);
}

#[test]
fn a_part_that_ties_every_system_has_no_tau() {
    let systems = [system("a", 0.3, 0.5), system("b", 0.4, 0.5)];
    let r = compare(&systems, &RankingOptions::default()).unwrap();
    assert_eq!(r.tau_b, None);
    assert_eq!(r.synthetic_winners, ["a", "b"]);
}

#[test]
fn the_interval_is_seeded_and_narrows_with_clear_gaps() {
    // Five systems `gap` apart on both parts: τ-b 1 on the whole set. Each question is 0.15 off
    // its system's mean, in a direction that alternates with the system, so a draw that favours
    // some questions moves neighbouring systems apart or together.
    let make = |gap: f64| -> Vec<(String, EvalReport)> {
        (0..5)
            .map(|s| {
                let v = 0.2 + gap * s as f64;
                let qs: Vec<(&str, f64)> = (0..20)
                    .flat_map(|j| {
                        let noise = if (j + s) % 2 == 0 { 0.15 } else { -0.15 };
                        [("real", v + noise), ("synthetic", v - noise)]
                    })
                    .collect();
                (format!("s{s}"), report(&qs))
            })
            .collect()
    };
    let options = RankingOptions {
        resamples: 500,
        seed: 7,
        ..RankingOptions::default()
    };
    let wide = compare(&make(0.02), &options).unwrap();
    let again = compare(&make(0.02), &options).unwrap();
    assert_eq!(wide.interval, again.interval, "same seed, same interval");
    let clear = compare(&make(0.4), &options).unwrap();
    let (w, c) = (wide.interval.unwrap(), clear.interval.unwrap());
    assert_eq!(wide.tau_b, Some(1.0));
    assert!(w.low < c.low, "close systems: a wider interval ({w:?} vs {c:?})");
    assert_eq!(c.low, 1.0, "systems 0.4 apart keep their order on every draw");
    assert_eq!(clear.winner_agreement, Some(1.0));
}

#[test]
fn refuses_what_it_cannot_rank() {
    let options = RankingOptions::default();
    assert!(compare(&[system("a", 0.1, 0.2)], &options).is_err(), "one run");
    let only_real = [
        ("a".to_string(), report(&[("real", 0.5)])),
        ("b".to_string(), report(&[("real", 0.6)])),
    ];
    let err = compare(&only_real, &options).unwrap_err().to_string();
    assert!(err.contains("no answerable synthetic question"), "{err}");
    let ndcg5 = RankingOptions {
        metric: Metric::Ndcg(5),
        ..options
    };
    let systems = [system("a", 0.1, 0.2), system("b", 0.2, 0.1)];
    assert!(
        compare(&systems, &ndcg5)
            .unwrap_err()
            .to_string()
            .contains("nDCG@5")
    );
}
