//! RS102 `keyword-easy`: keyword search alone finds the source, far ahead of anything else.

use super::{CaseInput, Check, Family, Hit, RuleInfo, length_in_words};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS102",
    name: "keyword-easy",
    summary: "BM25 ranks the labelled source first by a wide margin for a long question",
    doc: "\
**What it flags**: a question of at least `keyword_easy_min_words` words (default 7; outside English
every 5.5 letters count as a word when that makes more, as in RS103), at least
`keyword_easy_containment` (default 0.6) of whose content words occur in its labelled source,
where BM25 (k1 0.9, b 0.4, stemmed non-stopwords) ranks that source first among all chunks
with a score at least `keyword_easy_margin` (default 2.0) times that of the best other chunk
(or no other chunk matches at all).

**Why it matters**: such a question tests nothing a keyword index cannot do; it measures the
overlap between question and passage, not retrieval. Short real queries (\"aziz hashim\") are
all key terms and often rank their source first too, so the rule ignores them. It ignores
identifier questions too (`tags.type: identifier`): one gives an error code, option or function
name as users paste it, and being found by it is what it tests. A multi-hop case with `hops` is
read against its last hop's passage, with the first hop's as another chunk: it reaches the
first by saying what that passage says, by design; found at once by the last hop's words, it
needs no first hop.

**Example**: \"What is the default retention period for incremental snapshots in Tidepool?\"
when only one chunk mentions \"retention\", \"incremental\" and \"snapshots\" together.",
    severity: Severity::Warning,
    family: Family::Overlap,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let f = input.figures;
    let cfg = input.config;
    let (rank, score, other, containment) = f.answering()?;
    if input.case.tags.kind.as_deref() == Some("identifier") {
        return None;
    }
    if rank != 1
        || length_in_words(input) < cfg.keyword_easy_min_words
        || score <= 0.0
        || containment < cfg.keyword_easy_containment * input.language.containment_scale()
    {
        return None;
    }
    if other > 0.0 && score < cfg.keyword_easy_margin * other {
        return None;
    }
    let margin = if other > 0.0 {
        format!("{:.1}x the best other chunk", score / other)
    } else {
        format!("no other chunk scores above 1/{} of it", cfg.keyword_easy_margin)
    };
    Some(Hit::new(format!(
        "BM25 ranks the {} first with score {score:.2} ({margin})",
        f.answering_source()
    )))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_a_long_question_whose_source_wins_by_far_and_not_a_short_one() {
        let ask = |q| labelled(q, "billing.md", "The Team plan costs 8 euros per user and month.");
        let easy = ask("How many euros per user and month does the Team plan cost?");
        assert!(flags(check, &easy).starts_with("BM25 ranks the source first"));
        // Short real queries are all key terms: too few words to count.
        passes(check, &ask("Team plan cost?"));
        // An identifier question is meant to be found by its identifier.
        let mut identifier = easy.clone();
        identifier.tags.kind = Some("identifier".into());
        passes(check, &identifier);
    }

    #[test]
    fn a_multi_hop_question_is_read_against_its_last_hop() {
        use super::super::fixture::price_then_port as case;
        // Found at once by its description of hop 1, which is how it points there.
        passes(
            check,
            &case("which port does the plan that costs 8 euros per user and month need"),
        );
        // Found at once by hop 2's own words: the first hop is not needed.
        assert!(
            flags(
                check,
                &case("which port do I open on the server when I install the agent with apt")
            )
            .starts_with("BM25 ranks the last hop's passage first")
        );
    }
}
