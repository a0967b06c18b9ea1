//! The lexical refusal detector: does an answer decline ("I don't know", "the context does not
//! say")? Cheap and judge-free; the `refused` LLM judge replaces it when one runs, and it is
//! the fallback when the judge's reply is lost.
//!
//! Phrases are matched on the answer lower-cased with curly apostrophes straightened and white
//! space collapsed. An empty answer is a refusal (a system that abstains by saying nothing).
//! The phrase list favours precision: an answer that hedges but still answers ("not sure, but
//! probably 1066") is not a refusal, so phrases that usually precede an answer are left out.

/// Phrases that mark a refusal anywhere in the answer.
const PHRASES: &[&str] = &[
    "i don't know",
    "i do not know",
    "i dont know",
    "don't have enough information",
    "do not have enough information",
    "not enough information",
    "insufficient information",
    "no information about",
    "no information on",
    "no information regarding",
    "cannot answer",
    "can't answer",
    "can not answer",
    "unable to answer",
    "unable to find",
    "unable to determine",
    "cannot be determined",
    "cannot determine",
    "can't determine",
    "not able to answer",
    "is not mentioned",
    "are not mentioned",
    "not mentioned in",
    "not stated in",
    "not specified in",
    "not provided in",
    "not found in the",
    "not covered in",
    "does not say",
    "doesn't say",
    "does not mention",
    "doesn't mention",
    "does not specify",
    "doesn't specify",
    "does not contain",
    "doesn't contain",
    "does not provide",
    "doesn't provide",
    "no answer",
    "there is no mention",
    "i'm not sure",
    "i am not sure",
    "i could not find",
    "i couldn't find",
    "i can't find",
    "i cannot find",
];

/// Answers that are a refusal when they are the whole answer.
const WHOLE: &[&str] = &["unknown", "n/a", "none", "no idea", "unanswerable", "not known"];

/// True when `answer` declines to answer.
pub fn refused(answer: &str) -> bool {
    let text: String = answer
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}', '`'], "'")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let bare = text.trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace());
    bare.is_empty() || WHOLE.contains(&bare) || PHRASES.iter().any(|p| text.contains(p))
}

#[cfg(test)]
mod tests {
    use super::refused;

    #[test]
    fn refusals_are_seen() {
        for a in [
            "",
            "  ",
            "I don’t know.",
            "I do not know the answer to that.",
            "The context does not say whether tape is supported.",
            "Sorry, I cannot answer this from the documents provided.",
            "This is not mentioned in the documentation.",
            "Unknown.",
            "The provided passages don't contain\nthat information; the documents doesn't say.",
        ] {
            assert!(refused(a), "{a:?}");
        }
    }

    #[test]
    fn answers_are_not_refusals() {
        for a in [
            "France",
            "In the 10th and 11th centuries.",
            "Only after prune runs.",
            "No, encryption is included in every plan.",
            "None of the plans charge for restores.",
            "The answer is known: TP-403.",
        ] {
            assert!(!refused(a), "{a:?}");
        }
    }
}
