//! What the set covers: cases by type × topic × source, the documents no label points at,
//! and the share of synthetic cases.

use std::collections::{BTreeMap, HashSet};

use super::{AuditContext, Coverage, CoverageRow};
use crate::testset::{QuestionType, TestSet};

/// The coverage of `set` over the corpus of `cx`.
pub(super) fn coverage(set: &TestSet, cx: &AuditContext) -> Coverage {
    let mut table: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for c in &set.cases {
        let kind = c.tags.kind.clone().unwrap_or_else(|| {
            if c.is_unanswerable() {
                QuestionType::Unanswerable.as_str().to_string()
            } else {
                "-".to_string()
            }
        });
        let topic = c.tags.topic.clone().unwrap_or_else(|| "-".into());
        let source = if c.is_synthetic() { "synthetic" } else { "real" };
        *table.entry((kind, topic, source.to_string())).or_insert(0) += 1;
    }
    let covered: HashSet<&str> = set
        .cases
        .iter()
        .flat_map(|c| c.relevant.iter().map(|l| l.doc.as_str()))
        .collect();
    let synthetic = set.cases.iter().filter(|c| c.is_synthetic()).count();
    Coverage {
        table: table
            .into_iter()
            .map(|((kind, topic, source), cases)| CoverageRow {
                kind,
                topic,
                source,
                cases,
            })
            .collect(),
        uncovered_documents: cx
            .corpus
            .as_ref()
            .map(|c| {
                c.docs
                    .iter()
                    .filter(|d| !covered.contains(d.path.as_str()))
                    .map(|d| d.path.clone())
                    .collect()
            })
            .unwrap_or_default(),
        synthetic_share: if set.cases.is_empty() {
            0.0
        } else {
            synthetic as f32 / set.cases.len() as f32
        },
    }
}
