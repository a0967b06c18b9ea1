//! Retrieval metrics of one ranked list, computed from what each rank was judged to be.
//!
//! The definitions follow `trec_eval` so figures can be cross-checked: precision divides by the
//! cutoff even when fewer items were retrieved, nDCG's ideal ranking is built from *all*
//! labelled relevant items (not from the retrieved ones), the gain of an item is its grade, and
//! the discount of rank `r` is `log2(r + 1)`.

use serde::{Deserialize, Serialize};

/// What one retrieved item turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Judged {
    /// Gain for nDCG: the highest grade among the labels this item newly matched (0 if none).
    pub gain: f64,
    /// True when it matched at least one label at or above the relevance level.
    pub relevant: bool,
    /// How many labels at or above the relevance level it newly matched (recall and AP count
    /// labels found, precision counts relevant items).
    pub found: u32,
}

/// Metrics of one question (or means over several).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Metrics {
    /// `precision@k` per cutoff.
    pub precision: Vec<f64>,
    /// `recall@k` per cutoff.
    pub recall: Vec<f64>,
    /// `hit@k` (1 if any relevant item in the top k) per cutoff.
    pub hit: Vec<f64>,
    /// `nDCG@k` per cutoff.
    pub ndcg: Vec<f64>,
    /// Reciprocal rank of the first relevant item (0 if none); MRR when averaged.
    pub rr: f64,
    /// Average precision over the whole list; MAP when averaged.
    pub ap: f64,
}

/// Computes every metric at the cutoffs `ks`.
///
/// `ranking` is the retrieved list in rank order, already judged; `grades` holds the grade of
/// every labelled item with a positive grade (the ideal ranking for nDCG); `relevant_labels`
/// is how many of them reach the relevance level (the recall and AP denominator, > 0).
pub fn compute(ranking: &[Judged], grades: &[f64], relevant_labels: usize, ks: &[usize]) -> Metrics {
    let n_rel = relevant_labels.max(1) as f64;
    let mut ideal: Vec<f64> = grades.iter().copied().filter(|g| *g > 0.0).collect();
    ideal.sort_by(|a, b| b.total_cmp(a));

    let max_k = ks.iter().copied().max().unwrap_or(0);
    let mut m = Metrics {
        precision: Vec::with_capacity(ks.len()),
        recall: Vec::with_capacity(ks.len()),
        hit: Vec::with_capacity(ks.len()),
        ndcg: Vec::with_capacity(ks.len()),
        ..Metrics::default()
    };

    // One pass accumulates prefix sums; cutoffs read them off as the pass crosses them.
    let mut rel_items = 0usize;
    let mut found = 0u64;
    let mut dcg = 0.0;
    let mut ap_sum = 0.0;
    let mut first: Option<usize> = None;
    let mut at_cut: Vec<(usize, usize, u64, f64)> = Vec::with_capacity(ks.len());
    let mut sorted_ks: Vec<usize> = ks.to_vec();
    sorted_ks.sort_unstable();
    sorted_ks.dedup();
    let mut next_cut = 0;
    for (i, j) in ranking.iter().enumerate() {
        let rank = i + 1;
        if j.relevant {
            rel_items += 1;
            first.get_or_insert(rank);
        }
        if j.found > 0 {
            ap_sum += j.found as f64 * rel_items as f64 / rank as f64;
            found += j.found as u64;
        }
        if j.gain > 0.0 && rank <= max_k {
            dcg += j.gain / discount(rank);
        }
        while next_cut < sorted_ks.len() && sorted_ks[next_cut] == rank {
            at_cut.push((rank, rel_items, found, dcg));
            next_cut += 1;
        }
    }
    while next_cut < sorted_ks.len() {
        at_cut.push((sorted_ks[next_cut], rel_items, found, dcg));
        next_cut += 1;
    }

    for &k in ks {
        let &(_, rel_k, found_k, dcg_k) = at_cut
            .iter()
            .find(|c| c.0 == k)
            .expect("every cutoff was recorded");
        m.precision
            .push(if k == 0 { 0.0 } else { rel_k as f64 / k as f64 });
        m.recall.push(found_k as f64 / n_rel);
        m.hit.push(if rel_k > 0 { 1.0 } else { 0.0 });
        let idcg: f64 = ideal
            .iter()
            .take(k)
            .enumerate()
            .map(|(i, g)| g / discount(i + 1))
            .sum();
        m.ndcg.push(if idcg > 0.0 { dcg_k / idcg } else { 0.0 });
    }
    m.rr = first.map_or(0.0, |r| 1.0 / r as f64);
    m.ap = ap_sum / n_rel;
    m
}

fn discount(rank: usize) -> f64 {
    ((rank + 1) as f64).log2()
}

impl Metrics {
    /// Zeroes for a question the run did not answer at all.
    pub fn zero(ks: &[usize]) -> Metrics {
        Metrics {
            precision: vec![0.0; ks.len()],
            recall: vec![0.0; ks.len()],
            hit: vec![0.0; ks.len()],
            ndcg: vec![0.0; ks.len()],
            rr: 0.0,
            ap: 0.0,
        }
    }

    /// Mean of several questions' metrics (zeroes for none).
    pub fn mean<'a>(items: impl IntoIterator<Item = &'a Metrics>, ks: &[usize]) -> Metrics {
        let mut sum = Metrics::zero(ks);
        let mut n = 0usize;
        for m in items {
            n += 1;
            for (s, v) in [
                (&mut sum.precision, &m.precision),
                (&mut sum.recall, &m.recall),
                (&mut sum.hit, &m.hit),
                (&mut sum.ndcg, &m.ndcg),
            ] {
                for (a, b) in s.iter_mut().zip(v) {
                    *a += b;
                }
            }
            sum.rr += m.rr;
            sum.ap += m.ap;
        }
        if n > 0 {
            let n = n as f64;
            for s in [&mut sum.precision, &mut sum.recall, &mut sum.hit, &mut sum.ndcg] {
                s.iter_mut().for_each(|v| *v /= n);
            }
            sum.rr /= n;
            sum.ap /= n;
        }
        sum
    }

    /// Every value with its name (`P@5`, `recall@5`, `hit@5`, `nDCG@5`, then `MRR`, `MAP`), in
    /// report order. Per question, MRR is the question's RR and MAP its AP.
    pub fn named(&self, ks: &[usize]) -> Vec<(String, f64)> {
        let mut out = Vec::with_capacity(ks.len() * 4 + 2);
        for (name, values) in [
            ("P", &self.precision),
            ("recall", &self.recall),
            ("hit", &self.hit),
            ("nDCG", &self.ndcg),
        ] {
            for (k, v) in ks.iter().zip(values) {
                out.push((format!("{name}@{k}"), *v));
            }
        }
        out.push(("MRR".to_string(), self.rr));
        out.push(("MAP".to_string(), self.ap));
        out
    }

    /// [`Metrics::named`] as a JSON object: the report's and the baseline file's `metrics`.
    pub fn to_map(&self, ks: &[usize]) -> serde_json::Map<String, serde_json::Value> {
        self.named(ks)
            .into_iter()
            .map(|(n, v)| (n, serde_json::Value::from(v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(grade: f64) -> Judged {
        Judged {
            gain: grade,
            relevant: true,
            found: 1,
        }
    }

    const MISS: Judged = Judged {
        gain: 0.0,
        relevant: false,
        found: 0,
    };

    #[test]
    fn hand_computed_binary_ranking() {
        // Relevant at ranks 2 and 4, three labelled items in all.
        let ranking = [MISS, rel(1.0), MISS, rel(1.0), MISS];
        let m = compute(&ranking, &[1.0, 1.0, 1.0], 3, &[1, 3, 5]);
        assert_eq!(m.precision, vec![0.0, 1.0 / 3.0, 2.0 / 5.0]);
        assert_eq!(m.recall, vec![0.0, 1.0 / 3.0, 2.0 / 3.0]);
        assert_eq!(m.hit, vec![0.0, 1.0, 1.0]);
        assert_eq!(m.rr, 0.5);
        // AP = (1/2 + 2/4) / 3
        assert!((m.ap - 1.0 / 3.0).abs() < 1e-12);
        // DCG@5 = 1/log2(3) + 1/log2(5); IDCG@5 = 1 + 1/log2(3) + 1/2
        let dcg = 1.0 / 3f64.log2() + 1.0 / 5f64.log2();
        let idcg = 1.0 + 1.0 / 3f64.log2() + 0.5;
        assert!((m.ndcg[2] - dcg / idcg).abs() < 1e-12);
    }

    #[test]
    fn ideal_ranking_uses_all_labels_not_the_retrieved_ones() {
        // One relevant item retrieved at rank 1, but two are labelled: nDCG@5 < 1.
        let m = compute(&[rel(1.0)], &[1.0, 1.0], 2, &[5]);
        assert!((m.ndcg[0] - 1.0 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-12);
        assert_eq!(m.precision, vec![0.2]);
    }

    #[test]
    fn graded_gain_is_the_grade() {
        // Grade 1 first, grade 3 second; ideal is 3 then 1.
        let m = compute(&[rel(1.0), rel(3.0)], &[3.0, 1.0], 2, &[2]);
        let dcg = 1.0 + 3.0 / 3f64.log2();
        let idcg = 3.0 + 1.0 / 3f64.log2();
        assert!((m.ndcg[0] - dcg / idcg).abs() < 1e-12);
    }

    #[test]
    fn one_item_finding_two_labels_counts_both_for_recall_and_ap() {
        let both = Judged {
            gain: 1.0,
            relevant: true,
            found: 2,
        };
        let m = compute(&[both], &[1.0, 1.0], 2, &[1]);
        assert_eq!(m.recall, vec![1.0]);
        assert_eq!(m.ap, 1.0);
        assert_eq!(m.precision, vec![1.0]);
    }

    #[test]
    fn mean_and_names() {
        let ks = [1, 5];
        let a = compute(&[rel(1.0)], &[1.0], 1, &ks);
        let b = Metrics::zero(&ks);
        let m = Metrics::mean([&a, &b], &ks);
        assert_eq!(m.rr, 0.5);
        let names: Vec<String> = m.named(&ks).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names[0], "P@1");
        assert_eq!(names.last().unwrap(), "MAP");
    }
}
