//! Thresholds of the audit rules: the `[audit]` section of `ragsynth.toml`.
//!
//! Defaults were calibrated on real data (TREC DL 2020 queries vs XQuAD crowd questions, see
//! `docs/benchmarks.md`, "Audit: calibration", and `scripts/calibrate-audit.sh`): a default that
//! flags most real queries is wrong.

use serde::{Deserialize, Serialize};

/// Every threshold the rules use. All fields are optional in the file; absent ones keep the
/// default shown in [`AuditConfig::default`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuditConfig {
    /// Rules to run, by code or prefix (empty: all).
    pub select: Vec<String>,
    /// Rules to skip, by code or prefix.
    pub ignore: Vec<String>,
    /// RS101: shortest copied run (in words) that counts as copying. Default 4.
    pub copied_run: usize,
    /// RS101: the run must hold at least this many non-stopwords. Default 3.
    pub copied_run_content: usize,
    /// RS102: the labelled source is rank 1 and scores at least this many times the best other
    /// chunk. Default 2.0.
    pub keyword_easy_margin: f32,
    /// RS102: ... and the question has at least this many words (short real queries are all
    /// key terms and naturally rank their source first). Default 7.
    pub keyword_easy_min_words: usize,
    /// RS102: ... and at least this share of its content words occur in the source. Default 0.6.
    pub keyword_easy_containment: f32,
    /// RS103: containment at or above this ... Default 1.0.
    pub containment: f32,
    /// RS103: ... in a question of at least this many words. Default 10.
    pub containment_min_words: usize,
    /// RS201: fewer words than this is too short. Default 3.
    pub min_words: usize,
    /// RS302: Jaccard similarity of word-bigram sets at or above which two questions are near
    /// duplicates. Default 0.8.
    pub near_duplicate: f32,
    /// RS501: another chunk scores at least this many times the labelled source ... Default 2.0.
    pub mislabel_ratio: f32,
    /// RS501: ... and the labelled source ranks at this place or worse. Default 5.
    pub mislabel_rank: usize,
    /// RS502: an unanswerable question whose best chunk contains this share of its content
    /// terms and a copied run of `copied_run` words is likely answerable. Default 0.9.
    pub unanswerable_containment: f32,
    /// RS504 (`--llm`): chunks, ranked by BM25 for the question, the judge is shown. Default 3.
    pub judge_top_k: usize,
    /// RS602: largest healthy share of synthetic cases. Default 0.8.
    pub max_synthetic_share: f32,
}

impl Default for AuditConfig {
    fn default() -> Self {
        AuditConfig {
            select: Vec::new(),
            ignore: Vec::new(),
            copied_run: crate::wording::overlap::COPIED_RUN,
            copied_run_content: crate::wording::overlap::COPIED_RUN_CONTENT,
            keyword_easy_margin: 2.0,
            keyword_easy_min_words: 7,
            keyword_easy_containment: 0.6,
            containment: 1.0,
            containment_min_words: 10,
            min_words: crate::wording::form::MIN_WORDS,
            near_duplicate: crate::wording::duplicates::NEAR_DUPLICATE,
            mislabel_ratio: 2.0,
            mislabel_rank: 5,
            unanswerable_containment: 0.9,
            judge_top_k: 3,
            max_synthetic_share: 0.8,
        }
    }
}

impl AuditConfig {
    /// True when rule `code` runs under `select` / `ignore` (codes or prefixes, e.g. `RS1`).
    pub fn enabled(&self, code: &str) -> bool {
        let hit = |p: &String| code.starts_with(p.trim());
        (self.select.is_empty() || self.select.iter().any(hit)) && !self.ignore.iter().any(hit)
    }
}
