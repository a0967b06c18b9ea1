//! Wording checks that the generator (to turn candidates away) and the auditor (to flag cases)
//! share, so a question `generate` writes can never be one `audit` flags for the same reason:
//! one definition each, here and in the submodules — the form of a question ([`form`]: length,
//! openers, yes/no, several questions), references to the source ([`meta_reference_in`],
//! [`meta_question_in`]), questions that lean on an earlier turn ([`leans_on_context_in`]), an
//! answer given away ([`restates_answer_in`]), copied wording ([`overlap`]) and repeats
//! ([`duplicates`]). `tests/agreement.rs` runs what `generate` accepts through the audit.

// Text is read through the text layer (`crate::text`, `crate::lang`), never raw: clippy.toml.
#![deny(clippy::disallowed_methods)]

pub mod answer;
pub mod duplicates;
pub mod form;
pub mod overlap;
pub mod standalone;

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::lang::lists::english;
use crate::lang::{Language, List, questions};
use crate::text::{fold, spans};

/// Where a question points at the material its writer was shown — "the passage", "this
/// document", "according to the table", "based on the information provided", "Document 12" —
/// which a user of a RAG system has never seen. The idiom "in the context of" is not a
/// reference, nor is a compound noun such as "the document type" or "the context window".
pub fn meta_reference(question: &str) -> Option<Range<usize>> {
    static PATTERNS: OnceLock<[Regex; 4]> = OnceLock::new();
    let [material, according, based, numbered] = PATTERNS.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("valid regex");
        [
            re(r"(?i)\b(the|this|that|given|above|following|provided|aforementioned)\s+(passage|text|document|article|paragraph|context|excerpt|section|snippet|chunk)s?\b"),
            re(r"(?i)\baccording to (the|this|that|these|those) (table|study|studies|document|report|text|passage|context|article|authors?|figure|chart|graph|diagram|survey|paper|excerpt|information|snippet|chunk|content|material|source|research|findings|transcript|slides?|page|data|provided|given|above)\b"),
            re(r"(?i)\b(based on|from|given) (the|this) (information|context|text|passage|document|excerpt|content|details|material|data) (provided|given|above|presented|shown|supplied)\b|\bbased on the (information|context|passage|excerpt)\b"),
            re(r"(?i)\b(document|doc|chunk|passage|excerpt|snippet)\s*#?\s*\d+\b"),
        ]
    });
    let hit = |re: &Regex, check_compound: bool| {
        re.find_iter(question)
            .find(|m| {
                let not_a_reference = is_context_idiom(question, m.range())
                    || names_its_source(question, m.end())
                    || (check_compound && is_compound(question, m));
                !not_a_reference
            })
            .map(|m| m.range())
    };
    [
        hit(according, false),
        hit(based, false),
        hit(numbered, false),
        hit(material, true),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|r| r.start)
}

/// `according to the source "Ethereum VS EOS"`: the question says which source it means, so a
/// user can ask it too.
fn names_its_source(question: &str, end: usize) -> bool {
    question[end..]
        .trim_start()
        .starts_with(['"', '\u{201c}', '\u{ab}'])
}

/// "in the context of": a figure of speech, not a pointer at a passage.
/// In any position and case: the word before is "in" (or the question starts with it).
fn is_context_idiom(question: &str, m: Range<usize>) -> bool {
    let before = question[..m.start].trim_end();
    let word_before = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
    let after = question[m.end..].trim_start();
    fold(&question[m]).ends_with("context")
        && word_before.eq_ignore_ascii_case("in")
        && after.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("of "))
}

/// "the document type", "the text editor", "the context window": the noun after "the" names
/// a thing of its own. Only words that go on talking about the material ("the text says",
/// "the passage, ...", "in the document?") keep it a reference.
fn is_compound(question: &str, m: &regex::Match<'_>) -> bool {
    let determiner = fold(spans(m.as_str()).next().unwrap_or(""));
    if !matches!(determiner.as_str(), "the" | "this" | "that") {
        return false;
    }
    let rest = question[m.end()..].trim_start();
    let Some(next) = rest
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .next()
        .filter(|w| !w.is_empty())
    else {
        return false; // punctuation or the end: "... in the passage?"
    };
    if !rest.starts_with(next) {
        return false;
    }
    // An English reading throughout (its patterns too): `meta_reference_in` reaches it for
    // English only.
    !english(List::GoesOn).contains(&fold(next).as_str())
}

/// Where a question leans on something it does not say: an earlier turn ("the previous
/// answer", "as mentioned earlier", "what about ...", "in this situation": none of 5,018
/// crowd questions in shared/data says so) or a pronoun with nothing in the
/// question it could stand for ("What is its purpose?", "What advice is given to them?").
/// Such a question only makes sense after another one.
pub fn leans_on_context(question: &str) -> Option<Range<usize>> {
    static EARLIER: OnceLock<Regex> = OnceLock::new();
    let earlier = EARLIER.get_or_init(|| {
        Regex::new(
            r"(?i)\b(the previous (question|answer|one|response|point)|as (mentioned|discussed|said|noted|stated|described) (earlier|before|above|previously)|you (just )?(said|mentioned)|mentioned (earlier|before|previously)|^(and )?(what|how) about\b|the (latter|former)\b|the other one|that one\b|the same one|\b(in|for|at|with|from) (this|that|these|those) (situation|case|cases|scenario|context|step|example|point|section|chapter|page|passage)\b)",
        )
        .expect("valid regex")
    });
    match earlier.find(question) {
        Some(m) => Some(m.range()),
        None => dangling_pronoun(question),
    }
}

/// The first pronoun of `question` with no word before it that it could stand for (a name, a
/// number, a content word): "What is its purpose?". English (`leans_on_context_in` reaches it
/// for English only).
fn dangling_pronoun(question: &str) -> Option<Range<usize>> {
    let (pronouns, generic) = (english(List::Pronouns), english(List::Generic));
    let tokens = crate::text::tokens(question);
    // "Why is it important to ...", "How long does it take to ...": an "it" that stands for the
    // clause after it, not for something said before; so too after "mean", "take" and "cost",
    // whose clause may open with "if", "when" or "for" ("what does it mean if your tsh is low",
    // "what does it mean for a knot to be …": people-written, TREC DL 2020 and XQuAD).
    let placeholder = |i: usize| {
        let after = |n: usize, words: &[&str]| {
            tokens[i + 1..]
                .iter()
                .skip(1)
                .take(n)
                .any(|t| words.contains(&t.norm.as_str()))
        };
        let extraposing = tokens.get(i + 1).is_some_and(|t| {
            matches!(
                t.norm.as_str(),
                "mean" | "means" | "take" | "takes" | "cost" | "costs"
            )
        });
        tokens[i].norm == "it"
            && (after(2, &["to", "that", "whether"]) || extraposing && after(1, &["if", "when", "for"]))
    };
    let at = (0..tokens.len()).find(|&i| pronouns.contains(&tokens[i].norm.as_str()) && !placeholder(i))?;
    let antecedent = tokens[..at].iter().enumerate().any(|(i, t)| {
        let proper = i > 0 && t.raw.chars().next().is_some_and(char::is_uppercase);
        let number = t.raw.chars().any(|c| c.is_ascii_digit());
        let content = !Language::ENGLISH.analyzer().is_stopword(&t.norm)
            && !generic.contains(&t.norm.as_str())
            && !t.norm.ends_with("ing");
        proper || number || content
    });
    (!antecedent).then(|| tokens[at].byte..tokens[at].byte + tokens[at].raw.len())
}

/// Whether a short answer is already in its question: every content word (stemmed, not a
/// stopword) of an answer of 1 to 6 of them occurs in the question. "Yes" is not counted.
pub fn restates_answer(question: &str, answer: &str) -> bool {
    restates_answer_in(question, answer, Language::ENGLISH)
}

/// Where `question` names the id a labelled document is filed under: a file name of digits only
/// (TREC DL 2020's `8243793.txt`), as a whole number the label's quote does not hold. `labels`
/// are each label's document path and quote. A user has never seen the id; a generator shown
/// the file name copies it ("8243793 turbine height").
pub fn names_document_id<'a>(
    question: &str,
    labels: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<Range<usize>> {
    static NUMBER: OnceLock<Regex> = OnceLock::new();
    let number = NUMBER.get_or_init(|| Regex::new(r"\d+").expect("valid regex"));
    labels.into_iter().find_map(|(doc, quote)| {
        let stem = crate::text::file_stem(doc);
        if stem.len() < 3 || !stem.chars().all(|c| c.is_ascii_digit()) || quote.contains(stem) {
            return None;
        }
        number
            .find_iter(question)
            .find(|m| m.as_str() == stem)
            .map(|m| m.range())
    })
}

/// [`meta_reference`] for a question in `language` (its table in [`crate::lang::questions`]);
/// `None` in a language with no table.
pub fn meta_reference_in(question: &str, language: Language) -> Option<Range<usize>> {
    match questions::wording(language) {
        _ if language == Language::ENGLISH => meta_reference(question),
        Some(w) => w.meta_reference(question),
        None => None,
    }
}

/// Where a question asks about the text itself rather than its subject: "what is this section
/// about", "the main idea of the document", "summarize ..." (RS206; `generate` turns it away as
/// a meta reference). In another language, its table's phrases; none in a language without one.
pub fn meta_question_in(question: &str, language: Language) -> Option<Range<usize>> {
    static ENGLISH: OnceLock<Regex> = OnceLock::new();
    let english = ENGLISH.get_or_init(|| {
        Regex::new(
            r"(?i)(\bwhat\s+(is|are)\s+(this|the|these)\s+(section|document|passage|text|article|page|chapter|paragraph)s?\s+(mainly\s+)?about\b|\bmain\s+(idea|point|topic|theme|purpose)\s+of\s+(this|the)\s+(section|document|passage|text|article|page|chapter|paragraph)\b|\bsummari[sz]e\b|\bpurpose\s+of\s+(this|the)\s+(section|document|passage|text|article|page|chapter)\b)",
        )
        .expect("valid regex")
    });
    match questions::wording(language) {
        _ if language == Language::ENGLISH => english.find(question).map(|m| m.range()),
        Some(w) => w.meta_question(question),
        None => None,
    }
}

/// [`leans_on_context`] for a question in `language`: outside English only the pointers at an
/// earlier turn are told (a pronoun's antecedent needs the language's grammar).
pub fn leans_on_context_in(question: &str, language: Language) -> Option<Range<usize>> {
    match questions::wording(language) {
        _ if language == Language::ENGLISH => leans_on_context(question),
        Some(w) => w.earlier_turn(question),
        None => None,
    }
}

/// "Yes" in the languages with a question table: an answer that is only this is not restated.
const YES: &[&str] = &["yes", "sí", "si", "ja", "sim", "oui", "是", "是的", "对"];

/// [`restates_answer`] with `language`'s stopwords and stems. A word of the answer is in the
/// question by its stem; in English only as written or inflected ("plans" for "plan"), not as
/// another word of its stem ("stratigraphic sections" do not say "stratigraphers", "Islamism"
/// does not say "Islam"): English inflects with an ending of two letters at most, where
/// Russian's "напечатано" and "напечатанное" are one word. A question that offers a choice
/// ([`List::Alternatives`]: "between the Broncos and the Steelers", "… or …?") names its answer
/// among others by design and is not read.
pub fn restates_answer_in(question: &str, answer: &str, language: Language) -> bool {
    let analyzer = language.analyzer();
    let content: Vec<String> = crate::text::words(answer)
        .into_iter()
        .filter(|w| !analyzer.is_stopword(w))
        .collect();
    if content.is_empty()
        || content.len() > 6
        || YES.contains(&fold(answer.trim().trim_end_matches(['.', '。'])).as_str())
    {
        return false;
    }
    let asked = crate::text::words(question);
    if language
        .list(List::Alternatives)
        .is_some_and(|choice| asked.iter().any(|w| choice.contains(&w.as_str())))
    {
        return false;
    }
    let asked: Vec<(String, String)> = asked.into_iter().map(|w| (analyzer.stem(&w), w)).collect();
    content.iter().all(|w| {
        let stem = analyzer.stem(w);
        asked
            .iter()
            .any(|(s, q)| *s == stem && (language != Language::ENGLISH || inflects(w, q)))
    })
}

/// Whether two words of one stem are one word inflected: equal, or one the other with at
/// most two more letters at its end ("plan" and "plans", "box" and "boxes").
fn inflects(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.starts_with(short) && long.chars().count() - short.chars().count() <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_references_are_found_and_the_idiom_is_not() {
        let q = "According to the passage, how long are snapshots kept?";
        assert_eq!(&q[meta_reference(q).unwrap()], "According to the passage");
        assert!(meta_reference("What does the provided context say about keys?").is_some());
        assert!(meta_reference("How is a lock used in the context of a prune?").is_none());
        assert!(meta_reference("How long are snapshots kept on the free plan?").is_none());
        for q in [
            "According to the table, which plan is cheapest?",
            "What did the authors find, according to the study?",
            "Based on the information provided, when is a refund due?",
            "What is the projected growth, according to the context information?",
            "What does Document 61 say about the fund?",
            "What challenges are mentioned in the document?",
            "Which platforms are mentioned in the context information?",
        ] {
            assert!(meta_reference(q).is_some(), "{q}");
        }
        for q in [
            "What is the document type of an invoice?",
            "How large is the context window of the model?",
            "Which section of the act covers refunds?",
            "How is the text editor configured?",
            "What is the difference between Ethereum and EOS according to the source \"Ethereum VS EOS\"?",
        ] {
            assert!(meta_reference(q).is_none(), "{q}");
        }
    }

    #[test]
    fn questions_that_lean_on_an_earlier_turn() {
        for (q, at) in [
            ("What is its purpose?", "its"),
            ("What advice is given to them?", "them"),
            ("How does it work?", "it"),
            ("And what about the second option?", "And what about"),
            ("Can you expand on the previous answer?", "the previous answer"),
            (
                "what does sys.stdout.write do in this situation",
                "in this situation",
            ),
            ("What should I set for that case?", "for that case"),
        ] {
            let r = leans_on_context(q).unwrap_or_else(|| panic!("{q}"));
            assert_eq!(&q[r], at, "{q}");
        }
        for q in [
            "What is Ragas and how does it help with evaluation?",
            "How can I reset my password if I forgot it?",
            "Who is the CEO of Tidepool and what did he announce?",
            "How are snapshots kept on the free plan?",
            "Why is it important to have reliable metrics when building chat agents?",
            "How long does it take to restore a snapshot?",
            "Which case does this option change?",
            "what does it mean if your tsh is low",
            "What does it mean for a knot to be considered indecomposable?",
        ] {
            assert!(leans_on_context(q).is_none(), "{q}");
        }
        // The same verbs with "it" a thing the question never named.
        for q in ["What does it mean?", "What does it cost?"] {
            assert!(leans_on_context(q).is_some(), "{q}");
        }
    }

    #[test]
    fn an_answer_in_its_question() {
        assert!(restates_answer(
            "Is the archive tier of Tidepool called Glacier Vault?",
            "Glacier Vault"
        ));
        assert!(!restates_answer(
            "What is the archive tier called?",
            "Glacier Vault"
        ));
        assert!(!restates_answer("Is it on?", "Yes"));
        assert!(restates_answer(
            "Which ports does the agent use, 8443?",
            "port 8443"
        ));
        // Another word of the answer's stem, a choice offered.
        assert!(!restates_answer(
            "The analysis of stratigraphic sections is done by who?",
            "stratigraphers"
        ));
        assert!(!restates_answer(
            "Which team won the divisional round between the Broncos and Steelers?",
            "Broncos"
        ));
        assert!(!restates_answer(
            "Who is older, Annie Morton or Terry Richardson?",
            "Terry Richardson"
        ));
        assert!(restates_answer_in(
            "¿Se llama Glacier Vault el nivel de archivo?",
            "Glacier Vault",
            Language::parse("es").unwrap()
        ));
        assert!(!restates_answer_in(
            "¿Está activo?",
            "Sí",
            Language::parse("es").unwrap()
        ));
    }
}
