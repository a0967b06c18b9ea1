//! Kendall's τ-b between two scorings of the same systems: how alike the two rankings are.
//!
//! τ-b (Kendall 1945) rather than τ-a because systems tie: two runs that score the same on a
//! part are neither concordant nor discordant, and τ-b divides by the pairs each ranking
//! actually orders, so a tie does not count as a half-disagreement. It is what `scipy.stats.
//! kendalltau` computes by default and what the TREC DL 2023 synthetic-query study reported.

/// τ-b of `x` and `y` (equal lengths, one entry per system); `None` when it is undefined: fewer
/// than two systems, or one of the scorings ties every system.
pub fn tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    debug_assert_eq!(x.len(), y.len());
    let n = x.len().min(y.len());
    let (mut concordant, mut discordant) = (0i64, 0i64);
    let (mut ordered_x, mut ordered_y) = (0i64, 0i64);
    for i in 0..n {
        for j in i + 1..n {
            let dx = order(x[i], x[j]);
            let dy = order(y[i], y[j]);
            ordered_x += i64::from(dx != 0);
            ordered_y += i64::from(dy != 0);
            match dx * dy {
                1 => concordant += 1,
                -1 => discordant += 1,
                _ => {}
            }
        }
    }
    if ordered_x == 0 || ordered_y == 0 {
        return None;
    }
    Some((concordant - discordant) as f64 / ((ordered_x as f64) * (ordered_y as f64)).sqrt())
}

/// Scores closer than this are a tie: two means of the same values summed in another order
/// differ in the last bits, and that is not a ranking.
const TIE: f64 = 1e-12;

fn order(a: f64, b: f64) -> i32 {
    if (a - b).abs() <= TIE {
        0
    } else if a < b {
        -1
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::tau_b;

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("defined");
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    #[test]
    fn identical_reversed_and_one_swap() {
        let x = [0.1, 0.2, 0.3, 0.4, 0.5];
        close(tau_b(&x, &x), 1.0);
        close(tau_b(&x, &[0.5, 0.4, 0.3, 0.2, 0.1]), -1.0);
        // One adjacent swap of five: 9 concordant, 1 discordant pair of 10.
        close(tau_b(&x, &[0.1, 0.2, 0.3, 0.5, 0.4]), 0.8);
    }

    #[test]
    fn ties_leave_the_pairs_they_tie_out_of_both_counts() {
        // x ties systems 0 and 1, y ties 1 and 2: 4 concordant, 0 discordant, 5 pairs ordered
        // by each; τ-b = 4 / sqrt(5 * 5) = 0.8 (scipy.stats.kendalltau gives the same), where
        // τ-a would say 4/6.
        close(tau_b(&[1.0, 1.0, 2.0, 3.0], &[1.0, 2.0, 2.0, 3.0]), 0.8);
        // A tie in one scoring only: 5 of 6 pairs ordered by x, all 6 by y.
        close(
            tau_b(&[1.0, 1.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 4.0]),
            5.0 / (5.0f64 * 6.0).sqrt(),
        );
    }

    #[test]
    fn undefined_when_a_scoring_ties_everything_or_too_few_systems() {
        assert_eq!(tau_b(&[0.3, 0.3, 0.3], &[0.1, 0.2, 0.3]), None);
        assert_eq!(tau_b(&[0.3], &[0.1]), None);
        assert_eq!(tau_b(&[], &[]), None);
    }

    #[test]
    fn last_bit_differences_are_ties() {
        let a = (0.1 + 0.2) + 0.3;
        let b = 0.1 + (0.2 + 0.3);
        assert_ne!(a, b);
        assert_eq!(tau_b(&[a, b], &[1.0, 2.0]), None);
    }
}
