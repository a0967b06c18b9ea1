//! RS501 `mislabelled-source`: another chunk fits the question far better than the label.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS501",
    name: "mislabelled-source",
    summary: "Another chunk scores far above the labelled source for the question",
    doc: "\
**What it flags**: a case whose labelled source ranks at place `mislabel_rank` (default 5) or
worse under BM25 (ranks are counted to 1,000; beyond, \"below 1000\") while the best other
chunk scores at least `mislabel_ratio` (default 2.0) times as much. The message names that
chunk: check whether it answers the question.

**Why it matters**: a wrong label punishes a retriever for finding the right passage. Real
questions often use other words than their source, so a low rank alone is not an error; a
chunk scoring twice as high usually deserves a look. Questions a generator made distracting
on purpose (`provenance.question_type` \"distracting element\", as Giskard writes) are left
alone: they name an unrelated element by design.

**Example**: question about restore throttling labelled with the pricing page while
`guides/restore.md#2` holds the answer.",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    // A question its generator made distracting on purpose (Giskard's "distracting element")
    // names something another chunk is about: that chunk outscoring the label is the design.
    if input
        .case
        .generator_question_type()
        .is_some_and(crate::testset::foreign::is_distracting)
    {
        return None;
    }
    let (f, cfg) = (input.figures, input.config);
    let (rank, score, other) = f.standing()?;
    // Another chunk must clearly beat a source that ranks low: both, or it is noise.
    let beaten = other > 0.0 && other >= cfg.mislabel_ratio * score;
    if rank < cfg.mislabel_rank || !beaten {
        return None;
    }
    let chunk = f.best_other_chunk.as_deref().unwrap_or("another chunk");
    let rank = if f.rank_beyond_depth {
        format!("below {}", crate::index::RANK_DEPTH)
    } else {
        rank.to_string()
    };
    Some(Hit::new(format!(
        "the labelled source ranks {rank} (score {score:.2}); `{chunk}` scores {other:.2}"
    )))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{labelled, on_case_with};
    use super::*;
    use crate::audit::AuditConfig;

    #[test]
    fn flags_a_label_far_from_the_chunk_that_fits_and_not_the_right_one() {
        // The fixture corpus has a handful of chunks: a wrong source can rank 2nd, not 5th.
        let config = AuditConfig {
            mislabel_rank: 2,
            ..AuditConfig::default()
        };
        let question = "Which port does the agent open on the server after the apt install?";
        let wrong = labelled(
            question,
            "billing.md",
            "Invoices are sent on the first day of each month.",
        );
        let hit = on_case_with(check, &wrong, &config).expect("mislabelled");
        assert!(hit.message.contains("`install.md#"), "{}", hit.message);
        let right = labelled(question, "install.md", "open port 8750 on the server");
        assert!(on_case_with(check, &right, &config).is_none());
        let mut distracting = wrong.clone();
        distracting.provenance =
            Some(serde_json::json!({"generator": "giskard", "question_type": "distracting element"}));
        assert!(on_case_with(check, &distracting, &config).is_none());
    }
}
