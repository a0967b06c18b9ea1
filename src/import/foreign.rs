//! Adding another tool's converted set ([`crate::testset::foreign::convert`]) to a test set:
//! the cases keep the ids and labels the conversion gave them, get chunk ids under the set's
//! chunking and a review state, and a case whose id is already in the set is left out (so
//! importing the same file twice adds nothing). Questions of a generator are not scrubbed —
//! they were written from the corpus, not by users — unless the cases are tagged real.

use crate::pii::{self, Counts};
use crate::testset::foreign::{Converted, Format, LocateStats};
use crate::testset::{Review, Source, TestSet};
use crate::workspace::ChunkedCorpus;

use super::ImportOptions;

/// What adding a converted set did.
#[derive(Debug, Clone, PartialEq)]
pub struct ForeignSummary {
    /// The format the file was read as.
    pub format: Format,
    /// Cases in the file.
    pub cases: usize,
    /// Ids of the cases added, in order.
    pub added: Vec<String>,
    /// Ids already in the set, not added again.
    pub taken: Vec<String>,
    /// Of the cases added, how many are tagged synthetic.
    pub synthetic: usize,
    /// How the passages were located.
    pub stats: LocateStats,
    /// Personal data replaced in real cases.
    pub scrubbed: Counts,
}

/// Adds the cases of `converted` to `set`.
pub fn add_converted(
    set: &mut TestSet,
    converted: Converted,
    chunks: &ChunkedCorpus,
    options: &ImportOptions,
) -> ForeignSummary {
    let mut summary = ForeignSummary {
        format: converted.format,
        cases: converted.cases.len(),
        added: Vec::new(),
        taken: Vec::new(),
        synthetic: 0,
        stats: converted.stats,
        scrubbed: Counts::default(),
    };
    for mut case in converted.cases {
        if set.case(&case.id).is_some() {
            summary.taken.push(case.id);
            continue;
        }
        for label in &mut case.relevant {
            label.chunk = chunks
                .holding(&label.doc, label.start, label.end)
                .or_else(|| {
                    chunks
                        .overlapping(&label.doc, label.start, label.end)
                        .first()
                        .map(|&i| &chunks[i])
                })
                .map(|c| c.id.clone());
        }
        let synthetic = case.tags.source == Some(Source::Synthetic);
        if synthetic {
            summary.synthetic += 1;
            case.review = Some(Review::Pending);
        } else {
            if options.scrub {
                let q = pii::scrub(&case.question);
                summary.scrubbed.merge(&q.counts);
                case.question = q.text;
                if let Some(a) = case.answer.take() {
                    let a = pii::scrub(&a);
                    summary.scrubbed.merge(&a.counts);
                    case.answer = Some(a.text);
                }
            }
            case.review = Some(if case.relevant.is_empty() && !case.is_unanswerable() {
                Review::NeedsLabel
            } else {
                Review::Accepted
            });
        }
        summary.added.push(case.id.clone());
        set.cases.push(case);
    }
    summary
}
