//! RS404 `corpus-changed`: the corpus changed since the labels were anchored (fingerprint differs).

validator_rule! {
    code: "RS404",
    name: "corpus-changed",
    summary: "The corpus changed since the labels were anchored (fingerprint differs)",
    flags: "the corpus changed since the labels were anchored (fingerprint differs)",
    why: "a header's `corpus.fingerprint` differs from the corpus on disk: some document was added, removed or edited since the labels were written, so spans may point at the wrong text.",
    example: "a document was edited after `ragsynth generate`; run `ragsynth remap`.",
    severity: Warning,
    issues: Corpus,
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{cx, on_testset};
    use super::*;
    use crate::testset::{CorpusRef, TestSet};

    #[test]
    fn flags_a_changed_fingerprint_and_not_the_same_one() {
        let now = cx().corpus.as_ref().unwrap().fingerprint();
        let mut set = TestSet {
            corpus: Some(CorpusRef {
                root: "docs".into(),
                fingerprint: Some("sha256:0000".into()),
                ..CorpusRef::default()
            }),
            ..TestSet::default()
        };
        let hits = on_testset(check, &set);
        assert_eq!(hits.len(), 1);
        assert!(hits[0].case.is_none() && hits[0].message.contains("corpus changed"));
        set.corpus.as_mut().unwrap().fingerprint = Some(now);
        assert!(on_testset(check, &set).is_empty());
    }
}
