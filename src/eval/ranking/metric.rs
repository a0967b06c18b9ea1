//! Which metric the systems are ranked by: one of the figures `eval --run` reports, named as it
//! names them (`MRR`, `MAP`, `nDCG@10`, `recall@10`, `P@10`, `hit@10`).

use std::fmt;
use std::str::FromStr;

use crate::eval::Metrics;

/// A per-question metric a ranking is built on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Reciprocal rank of the first relevant item (MRR when averaged).
    Mrr,
    /// Average precision (MAP when averaged).
    Map,
    /// nDCG at a cutoff.
    Ndcg(usize),
    /// Recall at a cutoff.
    Recall(usize),
    /// Precision at a cutoff.
    Precision(usize),
    /// Hit (any relevant item) at a cutoff.
    Hit(usize),
}

impl Metric {
    /// The cutoff the metric needs among the report's, if any.
    pub fn cutoff(self) -> Option<usize> {
        match self {
            Metric::Mrr | Metric::Map => None,
            Metric::Ndcg(k) | Metric::Recall(k) | Metric::Precision(k) | Metric::Hit(k) => Some(k),
        }
    }

    /// The metric's value in `m`, computed at the cutoffs `ks`; `None` when its cutoff is not
    /// among them.
    pub fn value(self, m: &Metrics, ks: &[usize]) -> Option<f64> {
        let at = |values: &[f64], k: usize| {
            ks.iter()
                .position(|c| *c == k)
                .and_then(|i| values.get(i).copied())
        };
        match self {
            Metric::Mrr => Some(m.rr),
            Metric::Map => Some(m.ap),
            Metric::Ndcg(k) => at(&m.ndcg, k),
            Metric::Recall(k) => at(&m.recall, k),
            Metric::Precision(k) => at(&m.precision, k),
            Metric::Hit(k) => at(&m.hit, k),
        }
    }
}

impl fmt::Display for Metric {
    /// The name `eval --run` gives the figure.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Metric::Mrr => f.write_str("MRR"),
            Metric::Map => f.write_str("MAP"),
            Metric::Ndcg(k) => write!(f, "nDCG@{k}"),
            Metric::Recall(k) => write!(f, "recall@{k}"),
            Metric::Precision(k) => write!(f, "P@{k}"),
            Metric::Hit(k) => write!(f, "hit@{k}"),
        }
    }
}

impl FromStr for Metric {
    type Err = String;

    /// `mrr`, `map`, or `ndcg@K`, `recall@K`, `p@K` (`precision@K`), `hit@K`; any case.
    fn from_str(s: &str) -> Result<Metric, String> {
        let lower = s.trim().to_ascii_lowercase();
        let usage =
            || format!("unknown metric `{s}`: use mrr, map, ndcg@K, recall@K, p@K or hit@K (e.g. ndcg@10)");
        match lower.as_str() {
            "mrr" => return Ok(Metric::Mrr),
            "map" => return Ok(Metric::Map),
            _ => {}
        }
        let (name, k) = lower.split_once('@').ok_or_else(usage)?;
        let k: usize = k.parse().ok().filter(|k| *k > 0).ok_or_else(usage)?;
        match name {
            "ndcg" => Ok(Metric::Ndcg(k)),
            "recall" => Ok(Metric::Recall(k)),
            "p" | "precision" => Ok(Metric::Precision(k)),
            "hit" => Ok(Metric::Hit(k)),
            _ => Err(usage()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Metric;
    use crate::eval::Metrics;

    #[test]
    fn parses_the_names_eval_prints_and_reads_them_back() {
        for (text, metric) in [
            ("mrr", Metric::Mrr),
            ("MAP", Metric::Map),
            ("nDCG@10", Metric::Ndcg(10)),
            ("recall@5", Metric::Recall(5)),
            ("p@3", Metric::Precision(3)),
            ("precision@3", Metric::Precision(3)),
            ("hit@1", Metric::Hit(1)),
        ] {
            assert_eq!(text.parse::<Metric>().unwrap(), metric, "{text}");
            assert_eq!(metric.to_string().parse::<Metric>().unwrap(), metric);
        }
        for bad in ["", "ndcg", "ndcg@0", "ndcg@x", "mrr@10x", "f1@3"] {
            assert!(bad.parse::<Metric>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_the_value_at_its_cutoff() {
        let m = Metrics {
            precision: vec![1.0, 0.5],
            recall: vec![0.25, 0.75],
            hit: vec![1.0, 1.0],
            ndcg: vec![0.6, 0.8],
            rr: 0.5,
            ap: 0.4,
        };
        let ks = [1, 10];
        assert_eq!(Metric::Ndcg(10).value(&m, &ks), Some(0.8));
        assert_eq!(Metric::Recall(1).value(&m, &ks), Some(0.25));
        assert_eq!(Metric::Mrr.value(&m, &ks), Some(0.5));
        assert_eq!(Metric::Ndcg(5).value(&m, &ks), None);
    }
}
