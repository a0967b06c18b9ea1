//! RS208 `heading-echo`: "What is X?" where X is the heading of the source.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::lang::Language;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS208",
    name: "heading-echo",
    summary: "\"What is X?\" where X is a heading of the labelled document",
    doc: "\
**What it flags**: a question of the form \"What is / are / does (a, an, the) X (mean)?\" where
X, as words, equals a Markdown heading (`#` line) of a labelled document. In another language
with question words (Spanish, German, Portuguese, French, Chinese): a question opening with
one whose words, stopwords and question words left out, are the heading's.

**Why it matters**: echoing a heading is the laziest question a generator can write; it
matches the section title word for word, so keyword and dense retrievers both find it, and it
says nothing about what users ask.

**Example**: heading \"## Retention policies\", question \"What are retention policies?\"",
    severity: Severity::Info,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

const LEAD: &[&str] = &[
    "what", "is", "are", "does", "do", "a", "an", "the", "mean", "means",
];

/// What a question or a heading says once its lead words are set apart; `None` for a question
/// that is not of the echoing kind. English: the words after "What is / are / does (a, an, the)",
/// without a closing "mean(s)". Another language: the content words (its stopwords and question
/// words left out) of a question opening with a question word.
fn core_of(text: &str, language: Language, question: bool) -> Option<Vec<String>> {
    let words = crate::text::words(text);
    let core: Vec<String> = if language == Language::ENGLISH {
        if question && words.first().map(String::as_str) != Some("what") {
            return None;
        }
        let mut core: Vec<String> = words
            .into_iter()
            .skip_while(|w| LEAD.contains(&w.as_str()))
            .collect();
        if question && core.last().is_some_and(|w| w == "mean" || w == "means") {
            core.pop();
        }
        core
    } else {
        let table = crate::lang::questions::wording(language)?;
        if question && (!table.opens_question(text) || table.opens_request(text)) {
            return None;
        }
        let analyzer = language.analyzer();
        words.into_iter().filter(|w| !analyzer.is_stopword(w)).collect()
    };
    (!core.is_empty()).then_some(core)
}

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    let core = core_of(&input.case.question, input.language, true)?;
    let corpus = input.cx.corpus.as_ref()?;
    for label in &input.case.relevant {
        let Some(doc) = corpus.doc(&label.doc) else {
            continue;
        };
        for line in doc.text.lines() {
            let Some(h) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            if core_of(h.trim_start_matches('#'), input.language, false).as_ref() == Some(&core) {
                return Some(Hit::new(format!("echoes the heading \"{}\"", line.trim())));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{labelled, on_case};
    use super::*;

    #[test]
    fn flags_a_heading_turned_into_a_question_and_not_a_real_one() {
        let quote = "Snapshots are kept for 30 days on the free plan.";
        let echo = labelled("What are retention policies?", "retention.md", quote);
        let hit = on_case(check, &echo).unwrap();
        assert!(hit.message.contains("# Retention policies"), "{}", hit.message);
        let real = labelled("What retention do free snapshots get?", "retention.md", quote);
        assert!(on_case(check, &real).is_none());
        let cita = "Las instantáneas se conservan durante 30 días en el plan gratuito";
        let eco = labelled("¿Cuáles son las políticas de retención?", "retencion.md", cita);
        let hit = on_case(check, &eco).unwrap();
        assert!(
            hit.message.contains("# Políticas de retención"),
            "{}",
            hit.message
        );
        let real = labelled(
            "¿Cuánto tiempo se guardan las instantáneas gratis?",
            "retencion.md",
            cita,
        );
        assert!(on_case(check, &real).is_none());
    }
}
