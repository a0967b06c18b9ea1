//! SQuAD v2's judge-free answer figures: exact match and token F1, computed as the official
//! evaluation script (`evaluate-v2.0.py`) computes them, so a figure here can be compared with
//! a published one.
//!
//! Normalisation, in the script's order: lower-case (Unicode, like Python's `str.lower`),
//! delete ASCII punctuation (Python's `string.punctuation`), replace the words `a`, `an`, `the`
//! (whole `\w` runs, as the script's `\b(a|an|the)\b`) with a space, and collapse white space
//! (Python's `str.split`). A reference that normalises to nothing is not a reference; a case
//! without one (an unanswerable question) has the empty answer as its only reference, so it
//! scores 1 exactly when the prediction normalises to nothing.

use std::collections::HashMap;

/// The script's normalisation of an answer.
pub fn normalize(s: &str) -> String {
    let lowered = s.to_lowercase();
    let kept: String = lowered.chars().filter(|c| !c.is_ascii_punctuation()).collect();
    let mut out = String::with_capacity(kept.len());
    let mut word = String::new();
    // Articles are removed as maximal word runs, so `another` and `a1` stay.
    let flush = |word: &mut String, out: &mut String| {
        if matches!(word.as_str(), "a" | "an" | "the") {
            out.push(' ');
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in kept.chars() {
        if is_word(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    tokens_of(&out).collect::<Vec<_>>().join(" ")
}

/// Python's `\w` under `re.UNICODE`: letters, digits and the underscore.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Python's `str.split()`: white space, plus the four separators U+001C–U+001F it also splits on.
fn tokens_of(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
        .filter(|t| !t.is_empty())
}

/// Exact match of one reference: 1 when both normalise to the same text.
pub fn exact(reference: &str, prediction: &str) -> f64 {
    f64::from(u8::from(normalize(reference) == normalize(prediction)))
}

/// Token F1 of one reference: the harmonic mean of token precision and recall (tokens counted
/// with multiplicity); when either side has no token, 1 if both have none, else 0.
pub fn f1(reference: &str, prediction: &str) -> f64 {
    let (gold, pred) = (normalize(reference), normalize(prediction));
    let gold: Vec<&str> = tokens_of(&gold).collect();
    let pred: Vec<&str> = tokens_of(&pred).collect();
    if gold.is_empty() || pred.is_empty() {
        return f64::from(u8::from(gold.is_empty() && pred.is_empty()));
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for t in &gold {
        *counts.entry(t).or_default() += 1;
    }
    let mut same = 0usize;
    for t in &pred {
        if let Some(n) = counts.get_mut(t)
            && *n > 0
        {
            *n -= 1;
            same += 1;
        }
    }
    if same == 0 {
        return 0.0;
    }
    let precision = same as f64 / pred.len() as f64;
    let recall = same as f64 / gold.len() as f64;
    2.0 * precision * recall / (precision + recall)
}

/// `(exact match, F1)` of `prediction`, each the best over `references`. References that
/// normalise to nothing are dropped; with none left the reference is the empty answer.
pub fn score(references: &[&str], prediction: &str) -> (f64, f64) {
    let kept: Vec<&str> = references
        .iter()
        .copied()
        .filter(|r| !normalize(r).is_empty())
        .collect();
    let refs: &[&str] = if kept.is_empty() { &[""] } else { &kept };
    let best = |f: fn(&str, &str) -> f64| refs.iter().map(|r| f(r, prediction)).fold(0.0, f64::max);
    (best(exact), best(f1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_follows_the_script() {
        assert_eq!(normalize("The  Eiffel-Tower!"), "eiffeltower");
        // Articles go only as whole words; `another`, `theory` and `a1` stay.
        assert_eq!(normalize("A theory, another an a1 THE"), "theory another a1");
        // Non-ASCII punctuation is not removed (string.punctuation is ASCII); letters are
        // lower-cased beyond ASCII.
        assert_eq!(normalize("«Élan» — the end"), "«élan» — end");
        // An article next to a non-word, non-punctuation character is still a word.
        assert_eq!(normalize("€the€"), "€ €");
        assert_eq!(normalize("  \t\n"), "");
        assert_eq!(normalize("a\u{1c}b"), "b");
    }

    #[test]
    fn exact_and_f1_by_hand() {
        // "in the 10th and 11th centuries" → [in, 10th, and, 11th, centuries];
        // "10th century" → [10th, century]: one common token, P = 1/2, R = 1/5,
        // F1 = 2·(1/2)(1/5)/(1/2+1/5) = (1/5)/(7/10) = 2/7.
        assert!((f1("in the 10th and 11th centuries", "10th century") - 2.0 / 7.0).abs() < 1e-12);
        assert_eq!(exact("The Normans", "normans."), 1.0);
        // Repeated tokens count with multiplicity: gold [x, x, y], pred [x, x, x]: common 2,
        // P = 2/3, R = 2/3, F1 = 2/3.
        assert!((f1("x x y", "x x x") - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(f1("France", "Paris"), 0.0);
    }

    #[test]
    fn best_reference_wins_and_unanswerable_wants_nothing() {
        // References "10th and 11th centuries" and "in the 10th and 11th centuries"; the
        // prediction "in 10th and 11th centuries" normalises like the second: EM 1, F1 1.
        let refs = ["10th and 11th centuries", "in the 10th and 11th centuries"];
        assert_eq!(score(&refs, "in 10th and 11th centuries"), (1.0, 1.0));
        // Prediction "10th centuries": vs the first, common 2 of pred 2 / gold 4: P 1, R 1/2,
        // F1 2/3; vs the second, P 1, R 2/5, F1 4/7. Best 2/3.
        let (em, f) = score(&refs, "10th centuries");
        assert_eq!(em, 0.0);
        assert!((f - 2.0 / 3.0).abs() < 1e-12);
        // Unanswerable: no reference, or only ones that normalise to nothing.
        assert_eq!(score(&[], ""), (1.0, 1.0));
        assert_eq!(score(&["the", "."], " The. "), (1.0, 1.0));
        assert_eq!(score(&[], "I don't know"), (0.0, 0.0));
    }
}
