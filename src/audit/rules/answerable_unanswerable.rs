//! RS502 `answerable-unanswerable`: an "unanswerable" question that a chunk seems to answer.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS502",
    name: "answerable-unanswerable",
    summary: "An unanswerable case whose best BM25 chunk holds its words and copies its phrasing",
    doc: "\
**What it flags**: a case with no relevant passage (type `unanswerable` or empty `relevant`)
whose best BM25 chunk contains at least `unanswerable_containment` (default 0.9) of its
content words and a copied run of at least `copied_run` words. This is the lexical check; it
catches unanswerables the corpus answers in the question's own words.

**Why it matters**: a system that answers correctly from the corpus is scored as
hallucinating, and one that says \"I don't know\" is rewarded.

**Example**: \"What is the maximum snapshot retention in Tidepool?\" marked unanswerable while
a chunk says \"the maximum snapshot retention in Tidepool is 10 years\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let n = input.figures.nearest.as_ref()?;
    let cfg = input.config;
    if n.containment < cfg.unanswerable_containment * input.language.containment_scale()
        || n.copied_run < cfg.copied_run
    {
        return None;
    }
    Some(Hit::new(format!(
        "marked unanswerable, but `{}` holds {:.0}% of its content words and a {}-word copied run",
        n.chunk,
        n.containment * 100.0,
        n.copied_run
    )))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, on_case};
    use super::*;

    #[test]
    fn flags_an_unanswerable_the_corpus_spells_out_and_not_one_it_lacks() {
        let answered = case("Is the archive tier of Tidepool called Glacier Vault?");
        let hit = on_case(check, &answered).expect("answered by the archive chunk");
        assert!(hit.message.contains("`retention.md#"), "{}", hit.message);
        assert!(on_case(check, &case("Can snapshots be stored on magnetic tape?")).is_none());
    }
}
