//! RS208 `heading-echo`: "What is X?" where X is the heading of the source.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

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

/// Outside English: the question's content words (the language's stopwords and question words
/// left out), when it opens with a question word; compared with a heading's.
fn core_of(text: &str, language: crate::lang::Language) -> Vec<String> {
    let words = language.analyzer();
    crate::text::words(text)
        .into_iter()
        .filter(|w| !words.is_stopword(w))
        .collect()
}

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    if input.language != crate::lang::Language::ENGLISH {
        let w = crate::lang::questions::wording(input.language)?;
        if !w.opens_question(&input.case.question) || w.opens_request(&input.case.question) {
            return None;
        }
        let core = core_of(&input.case.question, input.language);
        if core.is_empty() {
            return None;
        }
        let corpus = input.cx.corpus.as_ref()?;
        for label in &input.case.relevant {
            let Some(doc) = corpus.doc(&label.doc) else {
                continue;
            };
            for line in doc.text.lines() {
                let Some(h) = line.trim_start().strip_prefix('#') else {
                    continue;
                };
                if core_of(h.trim_start_matches('#'), input.language) == core {
                    return Some(Hit::new(format!("echoes the heading \"{}\"", line.trim())));
                }
            }
        }
        return None;
    }
    let q = crate::text::words(&input.case.question);
    if q.first().map(String::as_str) != Some("what") {
        return None;
    }
    let core: Vec<&str> = q
        .iter()
        .map(String::as_str)
        .skip_while(|w| LEAD.contains(w))
        .collect();
    let core: Vec<&str> = match core.split_last() {
        Some((last, rest)) if *last == "mean" || *last == "means" => rest.to_vec(),
        _ => core,
    };
    if core.is_empty() {
        return None;
    }
    let corpus = input.cx.corpus.as_ref()?;
    for label in &input.case.relevant {
        let Some(doc) = corpus.doc(&label.doc) else {
            continue;
        };
        for line in doc.text.lines() {
            let Some(h) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let h = crate::text::words(h.trim_start_matches('#'));
            let h: Vec<&str> = h
                .iter()
                .map(String::as_str)
                .skip_while(|w| LEAD.contains(w))
                .collect();
            if h == core {
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
