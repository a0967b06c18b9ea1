//! Which cases of a set count: the ones `run` asks, `eval` scores and `export` writes. One
//! definition, so `eval --run` never reports as missing a question `run` did not ask, and a set
//! handed to another tool holds the cases our own figures were computed on.

use super::{Case, Review, TestSet};

/// Which cases are taken: accepted ones (and those a person wrote, with no review state), and
/// on request the ones still waiting for a person. Rejected cases never.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Selection {
    /// Pending cases (and real questions still waiting for a label) too, not only accepted
    /// ones.
    pub include_pending: bool,
}

impl Selection {
    /// Whether a case in this review state is taken. A case with no review state was written
    /// by a person and counts as accepted.
    pub fn takes(self, review: Option<Review>) -> bool {
        match review {
            None | Some(Review::Accepted) | Some(Review::Edited) => true,
            Some(Review::Pending) | Some(Review::NeedsLabel) => self.include_pending,
            Some(Review::Rejected) => false,
        }
    }

    /// The cases of `set` taken, in set order.
    pub fn cases(self, set: &TestSet) -> impl Iterator<Item = &Case> {
        set.cases.iter().filter(move |c| self.takes(c.review))
    }

    /// How many cases of `set` are left out, per review state (in the file's words).
    pub fn left_out(self, set: &TestSet) -> Vec<(Review, usize)> {
        let mut out: Vec<(Review, usize)> = Vec::new();
        for case in set.cases.iter().filter(|c| !self.takes(c.review)) {
            let review = case.review.unwrap_or(Review::Accepted);
            match out.iter_mut().find(|(r, _)| *r == review) {
                Some((_, n)) => *n += 1,
                None => out.push((review, 1)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_by_default_pending_on_request_rejected_never() {
        let mut set = TestSet::default();
        for (id, review) in [
            ("a", Some(Review::Accepted)),
            ("b", None),
            ("c", Some(Review::Pending)),
            ("d", Some(Review::NeedsLabel)),
            ("e", Some(Review::Rejected)),
            ("f", Some(Review::Edited)),
        ] {
            let mut case = Case::new(id, format!("question {id}?"));
            case.review = review;
            set.cases.push(case);
        }
        let ids = |s: Selection| s.cases(&set).map(|c| c.id.as_str()).collect::<Vec<_>>();
        assert_eq!(ids(Selection::default()), ["a", "b", "f"]);
        let all = Selection {
            include_pending: true,
        };
        assert_eq!(ids(all), ["a", "b", "c", "d", "f"]);
        assert_eq!(
            Selection::default().left_out(&set),
            [
                (Review::Pending, 1),
                (Review::NeedsLabel, 1),
                (Review::Rejected, 1)
            ]
        );
        assert_eq!(all.left_out(&set), [(Review::Rejected, 1)]);
    }
}
