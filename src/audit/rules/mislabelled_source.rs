//! RS501 `mislabelled-source`: the reference answer is in another chunk that fits the question
//! far better than the label, and not in the labelled source.

use std::collections::HashSet;

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::lang::Language;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS501",
    name: "mislabelled-source",
    summary: "The reference answer is in another chunk, which outscores the labelled source, and not in the source",
    doc: "\
**What it flags**: a case whose labelled source ranks at place `mislabel_rank` (default 5) or
worse under BM25 (ranks are counted to 1,000; beyond, \"below 1000\") while the best other
chunk scores at least `mislabel_ratio` (default 2.0) times as much, *and* the reference answer
is in that chunk but not in the source: at least three quarters of the answer's content words
are in the other chunk and fewer than half in the labelled one. The message names that chunk
and both shares: check whether it is the source the label should name.

**Why it matters**: a wrong label punishes a retriever for finding the right passage. A low
rank alone is no evidence: a real user's words differ from the page's (\"free plan\" for
\"Community plan\"), which makes a question hard for keyword search, not mislabelled; such a
question is a good test case and is left alone. Without a reference answer there is no
evidence, and the rule stays silent. Questions a generator made distracting on purpose
(`provenance.question_type` \"distracting element\", as Giskard writes) are left alone too:
they name an unrelated element by design.

**Example**: question about restore throttling, answer \"50 MB/s per agent\", labelled with
the pricing page while `guides/restore.md#2` says \"throttled to 50 MB/s per agent\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

/// Share of the answer's content words a chunk must hold to hold the answer.
const ANSWER_IN: f32 = 0.75;
/// Share below which the labelled source does not hold it.
const ANSWER_OUT: f32 = 0.5;

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
    // The evidence: the reference answer is in that chunk and not in the source.
    let answer = input.case.answer.as_deref()?;
    let chunks = &input.cx.chunks;
    let holds = answer_share(input.language, answer);
    let in_other = holds(&chunks[f.best_other_index?].text)?;
    let source: Vec<&str> = f.source_chunks.iter().map(|&i| chunks[i].text.as_str()).collect();
    let in_source = holds(&source.join("\n\n"))?;
    if in_other < ANSWER_IN || in_source >= ANSWER_OUT {
        return None;
    }
    let chunk = f.best_other_chunk.as_deref().unwrap_or("another chunk");
    let rank = if f.rank_beyond_depth {
        format!("below {}", crate::index::RANK_DEPTH)
    } else {
        rank.to_string()
    };
    Some(Hit::new(format!(
        "`{chunk}` holds {:.0}% of the reference answer's words and scores {other:.2}; the labelled source holds {:.0}% and ranks {rank} (score {score:.2})",
        in_other * 100.0,
        in_source * 100.0
    )))
}

/// The share of `answer`'s distinct content words (stems, in the question's language) a text
/// holds; `None` for an answer without content words.
fn answer_share(language: Language, answer: &str) -> impl Fn(&str) -> Option<f32> {
    let analyzer = language.analyzer();
    let wanted: HashSet<String> = analyzer.content_terms(answer).into_iter().collect();
    move |text: &str| {
        if wanted.is_empty() {
            return None;
        }
        let have: HashSet<String> = analyzer.content_terms(text).into_iter().collect();
        Some(wanted.iter().filter(|w| have.contains(*w)).count() as f32 / wanted.len() as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{labelled, on_case_with};
    use super::*;
    use crate::audit::AuditConfig;

    #[test]
    fn flags_a_label_whose_answer_is_elsewhere_and_not_a_hard_question() {
        // The fixture corpus has a handful of chunks: a wrong source can rank 2nd, not 5th.
        let config = AuditConfig {
            mislabel_rank: 2,
            ..AuditConfig::default()
        };
        let question = "Which port does the agent open on the server after the apt install?";
        let mut wrong = labelled(
            question,
            "billing.md",
            "Invoices are sent on the first day of each month.",
        );
        wrong.answer = Some("Port 8750".into());
        let hit = on_case_with(check, &wrong, &config).expect("mislabelled");
        assert!(hit.message.contains("`install.md#"), "{}", hit.message);
        assert!(
            hit.message.contains("holds 100% of the reference answer"),
            "{}",
            hit.message
        );
        let mut right = labelled(question, "install.md", "open port 8750 on the server");
        right.answer = Some("Port 8750".into());
        assert!(on_case_with(check, &right, &config).is_none());
        // Outscored, but the answer is nowhere else (or there is none): hard for keyword
        // search, not mislabelled.
        let mut elsewhere = wrong.clone();
        elsewhere.answer = Some("On the first day of each month".into());
        assert!(on_case_with(check, &elsewhere, &config).is_none());
        let mut no_answer = wrong.clone();
        no_answer.answer = None;
        assert!(on_case_with(check, &no_answer, &config).is_none());
        let mut distracting = wrong.clone();
        distracting.provenance =
            Some(serde_json::json!({"generator": "giskard", "question_type": "distracting element"}));
        assert!(on_case_with(check, &distracting, &config).is_none());
    }
}
