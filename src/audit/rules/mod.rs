//! The rule table: every check the audit runs, with a stable code, a name, a severity and its
//! documentation as data (`ragsynth audit --explain RS101` prints it; the review screen shows
//! it next to a flag).
//!
//! Codes are grouped by hundreds, one [`Family`] each: `RS1xx` lexical overlap, `RS2xx`
//! wording, `RS3xx` duplicates, `RS4xx` labels, `RS5xx` answerability, `RS6xx` coverage. A code
//! never changes meaning; a retired rule leaves a gap.

use std::ops::Range;

use serde::Serialize;

use super::{AuditConfig, AuditContext, CaseFigures, Severity};
use crate::testset::{Case, Issue, IssueFamily, TestSet};

/// Declares a label rule (`RS4xx`) that reports the test-set validator's issues of one
/// [`IssueFamily`]: its `INFO` (the doc written from `flags`, `why` and `example` in the shape
/// every rule's doc has) and its check.
macro_rules! validator_rule {
    (
        code: $code:literal,
        name: $name:literal,
        summary: $summary:literal,
        flags: $flags:literal,
        why: $why:literal,
        example: $example:literal,
        severity: $severity:ident,
        issues: $issues:ident $(,)?
    ) => {
        pub const INFO: super::RuleInfo = super::RuleInfo {
            code: $code,
            name: $name,
            summary: $summary,
            doc: concat!(
                "**What it flags**: ",
                $flags,
                " (from the test-set validator, with the corpus when one is\navailable).\n\n**Why it matters**: ",
                $why,
                "\n\n**Example**: ",
                $example
            ),
            severity: crate::severity::Severity::$severity,
            family: super::Family::Labels,
            reads: super::Reads::Any,
            check: super::Check::Set(check),
        };

        fn check(input: &super::SetInput<'_>) -> Vec<super::SetHit> {
            super::issues_on(input, crate::testset::IssueFamily::$issues)
        }
    };
}

mod answer_about_absence;
mod answer_contradicts_label;
mod answer_in_question;
mod answer_not_in_label;
mod answer_off_question;
mod answer_points_outside;
mod answer_stitched;
mod answerable_unanswerable;
mod answers_another_question;
mod contained_long_question;
mod context_not_found;
mod copied_phrase;
mod corpus_answers;
mod corpus_changed;
mod doc_missing;
mod exact_duplicate;
#[cfg(test)]
mod fixture;
mod heading_echo;
mod invalid_case;
mod joined_multi_hop;
mod keyword_easy;
mod meta_question;
mod mislabelled_source;
mod missing_types;
mod multi_hop_one_passage;
mod near_duplicate;
mod not_a_question;
mod not_standalone;
mod quote_not_in_span;
mod refers_to_source;
mod same_answer_same_source;
mod several_questions;
mod single_chunk_multi_hop;
mod span_out_of_range;
mod stutter;
mod synthetic_share;
mod too_short;
mod uncovered_documents;
mod unsupported_answer;
mod yes_no;

/// A rule: what it is called and what it checks, as data.
#[derive(Debug, Serialize)]
pub struct RuleInfo {
    /// Stable code, e.g. `RS101`.
    pub code: &'static str,
    /// Short kebab-case name, e.g. `copied-phrase`.
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    /// What it flags, why it matters, an example (Markdown).
    pub doc: &'static str,
    /// How bad a finding is.
    pub severity: Severity,
    /// The group the rule belongs to (the hundreds of its code).
    pub family: Family,
    /// What the rule reads of the question's language: it is skipped for a question in a
    /// language that lacks it (and the report says so).
    pub reads: Reads,
    #[serde(skip)]
    pub(crate) check: Check,
}

/// What a rule needs of a question's language (shared with generate's checks).
pub use crate::lang::Reads;

/// The groups of rules, one per hundred of the codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// `RS1xx`: the question shares words with its source.
    Overlap,
    /// `RS2xx`: the question is worded the way generators write, not users.
    Wording,
    /// `RS3xx`: the same question twice.
    Duplicates,
    /// `RS4xx`: labels that point at the wrong text (from the test-set validator).
    Labels,
    /// `RS5xx`: the case's answerability is not what its labels say.
    Answerability,
    /// `RS6xx`: what the set covers as a whole.
    Coverage,
}

/// How a rule looks at the set.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Check {
    /// One case at a time (run in parallel).
    Case(fn(&CaseInput<'_>) -> Option<Hit>),
    /// The whole set at once.
    Set(fn(&SetInput<'_>) -> Vec<SetHit>),
    /// Questions to an LLM judge per case; runs only with `--llm` (see [`crate::audit::judged`]).
    Llm(LlmCheck),
}

/// A rule decided by an LLM judge: which questions to ask about a case, and what the verdicts
/// mean. Pure functions, so the decision logic is tested without a model.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LlmCheck {
    /// The questions for one case (none: the rule does not apply to it).
    pub asks: fn(&JudgeInput<'_>) -> Vec<Ask>,
    /// The finding, given one verdict per question (`true`: answerable / supported).
    pub decide: fn(&[Ask], &[bool]) -> Option<Hit>,
}

/// What an LLM rule sees of a case.
pub(crate) struct JudgeInput<'a> {
    pub case: &'a Case,
    pub cx: &'a AuditContext,
    pub config: &'a AuditConfig,
    /// Chunk indices of the BM25 top `k` for a query.
    pub search: &'a (dyn Fn(&str, usize) -> Vec<usize> + Sync),
}

/// One question to the judge.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ask {
    /// The passages shown.
    pub passages: Vec<Shown>,
    /// With an answer: "do the passages support it?"; without: "do they answer the question?".
    pub answer: Option<String>,
    /// Asks instead which words of the passages answer the question, and holds `answer` against
    /// them (the answers-the-question judge, [`crate::judge::answers_request`]).
    pub copy: bool,
}

/// A passage shown to the judge.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shown {
    /// How findings name it: a chunk id, or `doc[start..end]` for a bare label.
    pub name: String,
    pub doc: String,
    pub text: String,
}

impl JudgeInput<'_> {
    /// The passages the case's labels point at: the chunks holding them (in label order, each
    /// once), or the label's own quote where no chunk of the corpus holds it.
    pub fn labelled(&self) -> Vec<Shown> {
        let mut out: Vec<Shown> = Vec::new();
        for l in &self.case.relevant {
            let chunks = self.cx.chunks_of(&l.doc, l.start, l.end);
            if chunks.is_empty() {
                if !l.quote.trim().is_empty() {
                    out.push(Shown {
                        name: format!("{}[{}..{}]", l.doc, l.start, l.end),
                        doc: l.doc.clone(),
                        text: l.quote.clone(),
                    });
                }
                continue;
            }
            for i in chunks {
                let c = &self.cx.chunks[i];
                if !out.iter().any(|s| s.name == c.id) {
                    out.push(Shown {
                        name: c.id.clone(),
                        doc: c.doc.clone(),
                        text: c.text.clone(),
                    });
                }
            }
        }
        out
    }
}

/// What a per-case rule sees.
pub(crate) struct CaseInput<'a> {
    pub case: &'a Case,
    /// The question's language.
    pub language: crate::lang::Language,
    pub figures: &'a CaseFigures,
    pub cx: &'a AuditContext,
    pub config: &'a AuditConfig,
}

/// What a set rule sees.
pub(crate) struct SetInput<'a> {
    pub set: &'a TestSet,
    pub cx: &'a AuditContext,
    pub config: &'a AuditConfig,
    /// `testset::validate` over the set and corpus, computed once for the label rules.
    pub issues: &'a [Issue],
}

/// A per-case finding before it is dressed with the rule's code and the case's id.
pub(crate) struct Hit {
    pub message: String,
    /// Byte range of the question to highlight.
    pub highlight: Option<Range<usize>>,
}

impl Hit {
    pub fn new(message: impl Into<String>) -> Hit {
        Hit {
            message: message.into(),
            highlight: None,
        }
    }
}

/// A set-level finding: about one case (its index) or about the whole set.
pub(crate) struct SetHit {
    pub case: Option<usize>,
    pub message: String,
}

static RULES: &[RuleInfo] = &[
    copied_phrase::INFO,
    keyword_easy::INFO,
    contained_long_question::INFO,
    too_short::INFO,
    yes_no::INFO,
    not_a_question::INFO,
    several_questions::INFO,
    refers_to_source::INFO,
    meta_question::INFO,
    answer_in_question::INFO,
    heading_echo::INFO,
    not_standalone::INFO,
    stutter::INFO,
    exact_duplicate::INFO,
    near_duplicate::INFO,
    same_answer_same_source::INFO,
    doc_missing::INFO,
    span_out_of_range::INFO,
    quote_not_in_span::INFO,
    corpus_changed::INFO,
    invalid_case::INFO,
    context_not_found::INFO,
    mislabelled_source::INFO,
    answerable_unanswerable::INFO,
    single_chunk_multi_hop::INFO,
    corpus_answers::INFO,
    multi_hop_one_passage::INFO,
    unsupported_answer::INFO,
    answer_not_in_label::INFO,
    answer_contradicts_label::INFO,
    answers_another_question::INFO,
    answer_points_outside::INFO,
    joined_multi_hop::INFO,
    answer_stitched::INFO,
    answer_about_absence::INFO,
    answer_off_question::INFO,
    uncovered_documents::INFO,
    synthetic_share::INFO,
    missing_types::INFO,
];

/// Every rule, in code order.
pub fn all() -> &'static [RuleInfo] {
    RULES
}

/// The rule with this code (case-insensitive), or with this name.
pub fn explain(code: &str) -> Option<&'static RuleInfo> {
    RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(code) || r.name == code)
}

/// The rule with this code or name, or an error listing every code.
pub fn lookup(code: &str) -> crate::Result<&'static RuleInfo> {
    explain(code).ok_or_else(|| crate::Error::NoSuchRule {
        code: code.to_string(),
        known: RULES.iter().map(|r| r.code).collect::<Vec<_>>().join(", "),
    })
}

/// Refuses a `select` / `ignore` entry of `config` that is no rule's code nor a prefix of one.
pub fn check_codes(config: &AuditConfig) -> crate::Result<()> {
    for code in config.select.iter().chain(&config.ignore) {
        if !RULES.iter().any(|r| r.code.starts_with(code.trim())) {
            return Err(crate::Error::UnknownRule { code: code.clone() });
        }
    }
    Ok(())
}

/// A rule's explanation as one text (name, one-line summary, full doc), for pages and reports
/// that show the rule beside a flagged case.
pub fn explanation(code: &str) -> Option<String> {
    explain(code).map(|r| format!("{} {} — {}\n\n{}", r.code, r.name, r.summary, r.doc))
}

/// The validator's issues of one family, as set hits.
fn issues_on(input: &SetInput<'_>, family: IssueFamily) -> Vec<SetHit> {
    let index: std::collections::HashMap<&str, usize> = input
        .set
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    input
        .issues
        .iter()
        .filter(|i| i.kind.family() == family)
        .map(|i| SetHit {
            case: i.case.as_deref().and_then(|c| index.get(c).copied()),
            message: format!("field `{}`: {}", i.field, i.message),
        })
        .collect()
}

/// The text a case's answer is checked against (RS507, RS508): each label's span as the corpus
/// has it (another tool's label keeps only the start of a long passage as its quote), else its
/// quote, joined by [`crate::wording::answer::labelled_fact`].
pub(crate) fn labelled_fact(case: &Case, cx: &AuditContext) -> String {
    let texts: Vec<String> = case
        .relevant
        .iter()
        .map(|l| {
            cx.corpus
                .as_ref()
                .and_then(|c| c.doc(&l.doc))
                .and_then(|d| {
                    crate::chunk::CharIndex::new(&d.text)
                        .slice(l.start, l.end)
                        .map(str::to_string)
                })
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| l.quote.clone())
        })
        .collect();
    crate::wording::answer::labelled_fact(texts.iter().map(String::as_str))
}

/// What is wrong with a labelled, answered case's answer against its label, as RS507 and RS508
/// read it ([`crate::wording::answer::answer_in_fact`] over [`labelled_fact`]); none for a case
/// with no answer, no label, or an answer its label holds.
pub(crate) fn answer_fault(input: &CaseInput<'_>) -> Option<crate::wording::answer::AnswerFault> {
    let case = input.case;
    let answer = case.answer.as_deref().filter(|a| !a.trim().is_empty())?;
    if case.is_unanswerable() || case.relevant.is_empty() {
        return None;
    }
    let fact = labelled_fact(case, input.cx);
    crate::wording::answer::answer_in_fact(&case.question, answer, &fact, input.language).err()
}

/// The question's words (as [`crate::text::word_count`]).
fn word_count(case: &Case) -> usize {
    crate::text::word_count(&case.question)
}

/// The question's length as the "long enough to judge" thresholds compare it: in English, the
/// unit they were calibrated in, its words; in another language its words or its letters
/// converted ([`crate::text::length_in_words`]), whichever says more.
fn length_in_words(input: &CaseInput<'_>) -> usize {
    if input.language == crate::lang::Language::ENGLISH {
        word_count(input.case)
    } else {
        crate::text::length_in_words(&input.case.question)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_sorted_and_documented() {
        let codes: Vec<&str> = all().iter().map(|r| r.code).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(codes, sorted);
        for r in all() {
            assert!(r.code.len() == 5 && r.code.starts_with("RS"), "{}", r.code);
            let hundreds = ["RS1", "RS2", "RS3", "RS4", "RS5", "RS6"];
            let families = [
                Family::Overlap,
                Family::Wording,
                Family::Duplicates,
                Family::Labels,
                Family::Answerability,
                Family::Coverage,
            ];
            let at = hundreds.iter().position(|h| r.code.starts_with(h));
            assert_eq!(at.map(|i| families[i]), Some(r.family), "{}", r.code);
            assert!(!r.summary.contains('\n'), "{}", r.code);
            for part in ["What it flags", "Why it matters", "Example"] {
                assert!(r.doc.contains(part), "{} lacks {part}", r.code);
            }
        }
        assert_eq!(explain("rs101").unwrap().name, "copied-phrase");
        assert_eq!(explain("near-duplicate").unwrap().code, "RS302");
        assert!(explain("RS999").is_none());
    }
}
