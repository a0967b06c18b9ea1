//! Does the synthetic part of a set rank systems the way its real part does?
//!
//! A test set exists to choose between systems (keyword or dense retrieval, hybrid or not, small
//! chunks or large), so a synthetic part is only as good as the choices it leads to. Given the
//! evaluations of several runs over one set, [`compare`] scores every system on the real and on
//! the synthetic questions separately, ranks the systems within each part, and says how alike
//! the two rankings are: Kendall's τ-b ([`kendall`]) with a bootstrap interval, and whether the
//! two parts pick the same winner.
//!
//! The interval resamples questions with replacement within each part (the real part from the
//! real questions, the synthetic from the synthetic), the same draw for every system, so
//! systems stay paired on the questions they are compared on; τ-b is recomputed on each draw
//! and the 2.5th and 97.5th percentiles are the 95% interval. The draws are seeded: the same
//! runs and seed give the same interval.

pub mod kendall;
pub mod metric;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub use metric::Metric;

use super::EvalReport;
use crate::{Error, Result};

/// How the systems are compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankingOptions {
    /// The per-question metric systems are ranked by.
    pub metric: Metric,
    /// Bootstrap resamples for the interval (0: no interval).
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
}

impl Default for RankingOptions {
    fn default() -> Self {
        RankingOptions {
            metric: Metric::Mrr,
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
        }
    }
}

/// Resamples by default: a percentile interval's ends need a thousand draws or more (Efron and
/// Tibshirani's advice for bootstrap percentile intervals); two thousand cost milliseconds.
pub const DEFAULT_RESAMPLES: usize = 2_000;

/// The two halves of a set a ranking is built on, by their `source` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Real users' questions.
    Real,
    /// Generated questions.
    Synthetic,
}

impl Part {
    /// The `source` tag value.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Real => "real",
            Part::Synthetic => "synthetic",
        }
    }
}

/// A system's mean on one part and its place there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// The metric's mean over the part's questions.
    pub value: f64,
    /// 1 for the best; systems that tie share the better place (1, 2, 2, 4).
    pub rank: usize,
}

/// One system (one run).
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    /// Its name (given, or the run file's stem).
    pub name: String,
    /// On the real questions.
    pub real: Placed,
    /// On the synthetic questions.
    pub synthetic: Placed,
}

/// A bootstrap percentile interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end (2.5th percentile).
    pub low: f64,
    /// Upper end (97.5th percentile).
    pub high: f64,
    /// Resamples on which τ-b was defined (a draw where one part ties every system has none).
    pub defined: usize,
}

/// The comparison of the two parts' rankings.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingReport {
    /// What systems were ranked by.
    pub metric: Metric,
    /// Split scored (`all` when none).
    pub split: String,
    /// Answerable real questions each system was scored on.
    pub real_questions: usize,
    /// Answerable synthetic questions each system was scored on.
    pub synthetic_questions: usize,
    /// Questions left out because a run does not list them (with `--skip-missing`).
    pub left_out: usize,
    /// The systems, in the order given.
    pub systems: Vec<System>,
    /// Kendall's τ-b between the two rankings; `None` when a part ties every system.
    pub tau_b: Option<f64>,
    /// Its 95% bootstrap interval, when resamples were asked for and τ-b was defined on some.
    pub interval: Option<Interval>,
    /// Resamples drawn, and the seed.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
    /// Best system(s) on the real part (several when they tie at the top).
    pub real_winners: Vec<String>,
    /// Best system(s) on the synthetic part.
    pub synthetic_winners: Vec<String>,
    /// Share of resamples on which the two parts' winners agree (`None` without resamples).
    pub winner_agreement: Option<f64>,
}

impl RankingReport {
    /// True when the two parts' winners share a system.
    pub fn same_winner(&self) -> bool {
        self.real_winners
            .iter()
            .any(|w| self.synthetic_winners.contains(w))
    }

    /// The gate: τ-b is defined and at least `min_tau`, and the parts pick the same winner (a
    /// set that would send a team to another system fails whatever its τ).
    pub fn passes(&self, min_tau: f64) -> bool {
        self.tau_b.is_some_and(|t| t >= min_tau) && self.same_winner()
    }
}

/// Compares the systems evaluated in `reports` (name, report of its run over one set, all with
/// the same options): ranks them on the set's real and synthetic answerable questions.
pub fn compare(reports: &[(String, EvalReport)], options: &RankingOptions) -> Result<RankingReport> {
    let Some((_, first)) = reports.first() else {
        return Err(Error::Config("no run to rank".into()));
    };
    if reports.len() < 2 {
        return Err(Error::Config("ranking needs two or more runs".into()));
    }
    let ks = &first.ks;
    if options.metric.cutoff().is_some_and(|k| !ks.contains(&k)) {
        return Err(Error::Config(format!(
            "{} is not among the cutoffs -k",
            options.metric
        )));
    }
    // Every report scored the same questions in the same order (one set, one selection).
    for (name, r) in reports {
        let same = r.questions.len() == first.questions.len()
            && r.questions
                .iter()
                .zip(&first.questions)
                .all(|(a, b)| a.id == b.id);
        if !same {
            return Err(Error::Config(format!(
                "run `{name}` was scored on other questions"
            )));
        }
    }
    // The questions every system is compared on: answerable, of a part, and (with
    // --skip-missing) listed by every run, so no system is averaged over fewer questions.
    let mut rows: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut left_out = 0;
    for (i, q) in first.questions.iter().enumerate() {
        let part = match q
            .tags
            .iter()
            .find(|(t, _)| *t == "source")
            .map(|(_, v)| v.as_str())
        {
            Some("real") => 0,
            Some("synthetic") => 1,
            _ => continue,
        };
        if q.metrics.is_none() {
            continue;
        }
        if first.skip_missing && reports.iter().any(|(_, r)| !r.questions[i].in_run) {
            left_out += 1;
            continue;
        }
        rows[part].push(i);
    }
    for (rows, part) in rows.iter().zip([Part::Real, Part::Synthetic]) {
        if rows.is_empty() {
            return Err(Error::Config(format!(
                "the set has no answerable {} question in split `{}` to rank the runs on \
                 (the check compares the real part with the synthetic one; try --split all)",
                part.as_str(),
                first.split
            )));
        }
    }
    let scores = Scores {
        values: rows
            .iter()
            .map(|rows| {
                reports
                    .iter()
                    .map(|(_, r)| {
                        rows.iter()
                            .map(|&i| {
                                let m = r.questions[i].metrics.as_ref().expect("answerable");
                                options.metric.value(m, ks).expect("cutoff checked")
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect(),
    };
    let (real, synthetic) = (scores.means(0, None), scores.means(1, None));
    let names: Vec<&str> = reports.iter().map(|(n, _)| n.as_str()).collect();
    let (interval, winner_agreement) = bootstrap(&scores, options);
    Ok(RankingReport {
        metric: options.metric,
        split: first.split.clone(),
        real_questions: rows[0].len(),
        synthetic_questions: rows[1].len(),
        left_out,
        systems: names
            .iter()
            .enumerate()
            .map(|(s, name)| System {
                name: name.to_string(),
                real: Placed {
                    value: real[s],
                    rank: rank(&real, s),
                },
                synthetic: Placed {
                    value: synthetic[s],
                    rank: rank(&synthetic, s),
                },
            })
            .collect(),
        tau_b: kendall::tau_b(&real, &synthetic),
        interval,
        resamples: options.resamples,
        seed: options.seed,
        real_winners: winners(&real).into_iter().map(|s| names[s].to_string()).collect(),
        synthetic_winners: winners(&synthetic)
            .into_iter()
            .map(|s| names[s].to_string())
            .collect(),
        winner_agreement,
    })
}

/// Each part's per-question values: `values[part][system][j]` is the metric of the part's
/// j-th question under the system (part 0 real, 1 synthetic).
struct Scores {
    values: Vec<Vec<Vec<f64>>>,
}

impl Scores {
    /// Every system's mean on `part`, over `draw` (question positions, repeats allowed) or
    /// over all of the part's questions.
    fn means(&self, part: usize, draw: Option<&[usize]>) -> Vec<f64> {
        self.values[part]
            .iter()
            .map(|v| match draw {
                Some(d) => d.iter().map(|&j| v[j]).sum::<f64>() / d.len() as f64,
                None => v.iter().sum::<f64>() / v.len() as f64,
            })
            .collect()
    }

    fn size(&self, part: usize) -> usize {
        self.values[part].first().map_or(0, Vec::len)
    }
}

/// The percentile interval of τ-b and the share of draws whose winners agree, over
/// `options.resamples` paired draws of each part's questions.
fn bootstrap(scores: &Scores, options: &RankingOptions) -> (Option<Interval>, Option<f64>) {
    if options.resamples == 0 {
        return (None, None);
    }
    let mut rng = StdRng::seed_from_u64(options.seed);
    let sizes = [scores.size(0), scores.size(1)];
    let mut taus = Vec::with_capacity(options.resamples);
    let mut agree = 0usize;
    let mut draw = Vec::new();
    for _ in 0..options.resamples {
        let [real, synthetic] = [0, 1].map(|part| {
            draw.clear();
            draw.extend((0..sizes[part]).map(|_| rng.random_range(0..sizes[part])));
            scores.means(part, Some(&draw))
        });
        taus.extend(kendall::tau_b(&real, &synthetic));
        let top = winners(&synthetic);
        agree += usize::from(winners(&real).iter().any(|w| top.contains(w)));
    }
    let share = agree as f64 / options.resamples as f64;
    if taus.is_empty() {
        return (None, Some(share));
    }
    taus.sort_by(f64::total_cmp);
    let at = |q: f64| taus[((q * (taus.len() - 1) as f64).round() as usize).min(taus.len() - 1)];
    let interval = Interval {
        low: at(0.025),
        high: at(0.975),
        defined: taus.len(),
    };
    (Some(interval), Some(share))
}

/// The place of system `s`: one more than the systems strictly better (ties share a place).
fn rank(values: &[f64], s: usize) -> usize {
    1 + values.iter().filter(|v| better(**v, values[s])).count()
}

/// Systems with the best value (several when they tie).
fn winners(values: &[f64]) -> Vec<usize> {
    (0..values.len()).filter(|&s| rank(values, s) == 1).collect()
}

/// `a` beats `b` by more than rounding (the tie of [`kendall`]).
fn better(a: f64, b: f64) -> bool {
    a - b > 1e-12
}

#[cfg(test)]
mod tests;
