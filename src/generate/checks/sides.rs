//! How the checks read a comparison's two sides: each side's thing, value and label text. One
//! reading for the comparison kind (which picks the values from the model's reply and the
//! facts) and for `ragsynth check` (a finished case's `sides`). Not a check: RS703 and RS704
//! read through it.

use super::{Check, labels_text, says};
use crate::generate::bridges;
use crate::generate::candidate::{Accepted, Shape};
use crate::generate::names;
use crate::lang::{Language, List};
use crate::testset::Label;
use crate::text::{fold, single_spaced, spans};

/// One side of a comparison as its checks read it: the thing, its value, the side's label
/// text (`quote`) and the sentence as shown (`shown`, the same for a finished case).
pub struct SideText<'a> {
    pub thing: &'a str,
    pub value: &'a str,
    pub quote: &'a str,
    pub shown: &'a str,
}

/// What is wrong with two sides, first fault first: each side's thing and value stand in its
/// label, each thing a name its sentence says whole; two different things with two different
/// values; each value says something of its thing; two things of one kind
/// ([`Check::SidesMissing`]); a value that names its own thing as code
/// ([`Check::NoValueCompared`]).
pub fn sides_fault(
    sides: &[SideText<'_>; 2],
    language: Language,
    runs: &dyn Fn(Check) -> bool,
) -> Option<(Check, String)> {
    let missing = runs(Check::SidesMissing)
        .then(|| sides_missing(sides, language))
        .flatten();
    missing.or_else(|| {
        let coded = sides
            .iter()
            .find(|s| !s.value.is_empty() && names_itself_as_code(s.thing, s.value))?;
        runs(Check::NoValueCompared).then(|| {
            (
                Check::NoValueCompared,
                format!("the value of {} names it as code", coded.thing),
            )
        })
    })
}

/// The [`Check::SidesMissing`] part of [`sides_fault`]. A side without a value (a case that
/// records only the things compared, as HotpotQA's comparisons do) is read for its thing alone.
pub(crate) fn sides_missing(sides: &[SideText<'_>; 2], language: Language) -> Option<(Check, String)> {
    let holds = |text: &str, part: &str| says(text, part, language);
    // Each thing a name its sentence says whole, of two letters or more: "Bureau" of "the
    // Bureau of Labor Statistics" and "Â£36,500", an amount, compared nothing (TREC DL 2020).
    let named = |shown: &str, thing: &str| {
        thing.chars().filter(|ch| ch.is_alphabetic()).count() >= 2 && bridges::names_whole(shown, thing)
    };
    let missing = |why: String| Some((Check::SidesMissing, why));
    for s in sides {
        if !holds(s.quote, s.thing) || !named(s.shown, s.thing) {
            return missing(format!("its label does not name \"{}\"", s.thing));
        }
        if !s.value.is_empty() && !holds(s.quote, s.value) {
            return missing(format!("its label does not say \"{}\" of {}", s.value, s.thing));
        }
    }
    let [a, b] = sides;
    // Two things, and two values: "(if present on *current* class)" said of both compares
    // nothing.
    if normal(a.thing) == normal(b.thing) || a.thing.is_empty() || b.thing.is_empty() {
        return missing("one thing, not two".into());
    }
    let valued = !a.value.is_empty() && !b.value.is_empty();
    if valued && normal(a.value) == normal(b.value) {
        return missing("the same value on both sides".into());
    }
    let says_nothing = |s: &&SideText<'_>| !s.value.is_empty() && !tells(s.thing, s.value, s.shown, language);
    if let Some(s) = sides.iter().find(says_nothing) {
        return missing(format!("\"{}\" only names {} again", s.value, s.thing));
    }
    // Two things of one kind: the rust book's "a None variant" and "The Result enum" are not.
    // Told by the kind words of the language (none without them).
    if let (Some(ka), Some(kb)) = (
        names::kind_after(a.shown, a.thing, language),
        names::kind_after(b.shown, b.thing, language),
    ) && ka != kb
    {
        return missing(format!("a {ka} and a {kb}"));
    }
    None
}

/// [`sides_fault`] of a finished comparison case: its sides with their labels' text; a case
/// recording fewer than two sides, or a question that does not name both, misses a side.
pub fn case_sides_fault(a: &Accepted) -> Option<(Check, String)> {
    let Shape::Comparison(sides) = &a.shape else {
        return Some((Check::SidesMissing, "the case records no sides".into()));
    };
    if sides.len() != 2 {
        return Some((Check::SidesMissing, format!("{} sides", sides.len())));
    }
    let text = |s: &crate::testset::Side| -> String {
        let labels: Vec<Label> = s
            .relevant
            .iter()
            .filter_map(|&i| a.relevant.get(i).cloned())
            .collect();
        labels_text(&labels)
    };
    let (qa, qb) = (text(&sides[0]), text(&sides[1]));
    let value = |s: &crate::testset::Side| s.value.clone().unwrap_or_default();
    let (va, vb) = (value(&sides[0]), value(&sides[1]));
    let both = [
        SideText {
            thing: &sides[0].name,
            value: &va,
            quote: &qa,
            shown: &qa,
        },
        SideText {
            thing: &sides[1].name,
            value: &vb,
            quote: &qb,
            shown: &qb,
        },
    ];
    sides_fault(&both, a.language, &|_| true).or_else(|| {
        let unnamed = sides
            .iter()
            .find(|s| !question_names(&a.question, &s.name, a.language))?;
        Some((
            Check::SidesMissing,
            format!("the question does not name {}", unnamed.name),
        ))
    })
}

/// Whether `value` names `thing` as code: inside backticks, or verbatim where the thing has
/// a code's marks (`file.filename`, `BaseCommand.invoke`). Such a value is its fact's sentence
/// ("You can also pass a file … using the `--ignore-revs-file` option"), not what the fact
/// says of one attribute both things have; hand-marked, the 6 comparisons written so were
/// wrong ("two unrelated sentences", "two items of one list"). A plain word said again ("Ok:
/// the value inside the Ok will get returned") is no code.
pub(crate) fn names_itself_as_code(thing: &str, value: &str) -> bool {
    let thing = thing.trim().trim_matches('`');
    if thing.is_empty() {
        return false;
    }
    let lower = fold(value);
    let t = fold(thing);
    let quoted = lower.split('`').skip(1).step_by(2).any(|code| {
        code.trim_start_matches('~')
            .trim_end_matches("()")
            .ends_with(t.as_str())
    });
    quoted || (crate::wording::answer::has_code_marks(thing) && lower.contains(&t))
}

/// Whether `value` says something of `thing`: a word that is neither a word of the thing's
/// full name as `quote` writes it ("macOS 12 Monterey": the capitalised and numbered words
/// around it), nor a kind word (in a language with them), nor a function word. "None variant",
/// said of `None`, and
/// "macOS 12 Monterey", said of Monterey, only name the thing again.
pub(crate) fn tells(thing: &str, value: &str, quote: &str, language: Language) -> bool {
    // A span bare of punctuation but for an amount's `$` ([`crate::text::bare`] drops it).
    let bare = |w: &str| -> String { fold(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '$')) };
    let named = |w: &str| w.chars().any(|c| c.is_uppercase() || c.is_ascii_digit());
    let tokens: Vec<&str> = spans(quote).collect();
    let thing_words: Vec<String> = spans(thing).map(bare).collect();
    let mut own: std::collections::HashSet<String> = thing_words.iter().cloned().collect();
    for (i, t) in tokens.iter().enumerate() {
        if !thing_words.contains(&bare(t)) {
            continue;
        }
        for j in (0..i).rev().take_while(|&j| named(tokens[j])) {
            own.insert(bare(tokens[j]));
        }
        for t in tokens[i + 1..].iter().take_while(|t| named(t)) {
            own.insert(bare(t));
        }
    }
    let analyzer = language.analyzer();
    spans(value).map(bare).any(|w| {
        !w.is_empty() && !own.contains(&w) && !names::is_kind_word(&w, language) && !analyzer.is_stopword(&w)
    })
}

/// Lower case, runs of white space as one space.
pub(crate) fn normal(s: &str) -> String {
    single_spaced(&fold(s))
}

/// Whether `question` names `thing` (its words, any case, any order), the word saying its kind
/// aside ([`List::OfferingKinds`], in a language with them): "Business" names "Business plan".
pub(crate) fn question_names(question: &str, thing: &str, language: Language) -> bool {
    let kinds = language.list(List::OfferingKinds).unwrap_or_default();
    let name = match thing.trim().rsplit_once(' ') {
        Some((name, kind)) if kinds.contains(&fold(kind).as_str()) => name,
        _ => thing,
    };
    says(question, name, language)
}
