//! What the page shows of a case: a light summary for the list, filters and plots, and the full
//! detail (passages, quote, copied words, audit) for the case being reviewed. The server and the
//! static export build the same values, so both pages render them with the same code.

use serde::Serialize;
use serde_json::{Map, Value};

use super::highlight::{Mark, copied};
use crate::chunk::CharIndex;
use crate::corpus::Corpus;
use crate::index::RANK_DEPTH;
use crate::locate::{DEFAULT_MIN_SIMILARITY, locate};
use crate::testset::{Case, Review};
use crate::workspace::Evidence;

/// The case field a rejection reason is stored in (next to `review`).
pub const REASON_FIELD: &str = "review_reason";

/// Characters of context shown before and after a labelled span.
const CONTEXT_CHARS: usize = 240;

/// Explains an audit rule code in a sentence or two (`None` when the code is unknown).
pub type Explain = fn(&str) -> Option<String>;

/// A case in the list: enough to filter, count and plot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseSummary {
    /// Case id.
    pub id: String,
    /// The question.
    pub question: String,
    /// `tags.type`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// `tags.topic`.
    pub topic: Option<String>,
    /// `real` or `synthetic`.
    pub source: &'static str,
    /// Review status (`pending` when absent on a synthetic case, `accepted` on a real one).
    pub review: &'static str,
    /// Why it was rejected, when a reviewer said so.
    pub reason: Option<String>,
    /// `dev` or `heldout`.
    pub split: &'static str,
    /// Audit rule codes flagged on it.
    pub flags: Vec<String>,
    /// Review hints generate wrote (check codes that found something and turned nothing away):
    /// the cases a reviewer should read first.
    pub hints: Vec<String>,
    /// `audit.overlap`, when audit wrote a number there.
    pub overlap: Option<f64>,
    /// Documents of its labels.
    pub docs: Vec<String>,
    /// Line in the file.
    pub line: Option<usize>,
}

/// One flagged rule on a case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Flag {
    /// Rule code, e.g. `RS101`.
    pub code: String,
    /// The finding's own message, when audit stored one.
    pub message: Option<String>,
    /// What the rule checks, from the explainer.
    pub explanation: Option<String>,
}

/// A labelled passage with its quote and copied words marked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Passage {
    /// Document path.
    pub doc: String,
    /// Label span start (characters).
    pub start: usize,
    /// Label span end.
    pub end: usize,
    /// Chunk id, when the label has one.
    pub chunk: Option<String>,
    /// False when the document is not in the loaded corpus (or no corpus was loaded): the text
    /// shown is then the label's quote.
    pub in_corpus: bool,
    /// Text of the span (or the quote).
    pub text: String,
    /// Up to a few lines of context before the span.
    pub before: String,
    /// Up to a few lines of context after the span.
    pub after: String,
    /// Where the quote is in `text` (characters), when found.
    pub quote: Option<(usize, usize)>,
    /// Words of `text` the question copies.
    pub marks: Vec<Mark>,
}

/// Everything the review card shows of one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseDetail {
    /// The list fields.
    #[serde(flatten)]
    pub summary: CaseSummary,
    /// Reference answer.
    pub answer: Option<String>,
    /// Words of the question copied from the passages.
    pub question_marks: Vec<Mark>,
    /// Longest run of question tokens copied from one passage.
    pub longest_run: usize,
    /// Labelled passages.
    pub passages: Vec<Passage>,
    /// Flagged rules with explanations.
    pub flag_details: Vec<Flag>,
    /// The rest of `audit` (figures such as overlap, copied_run, source_rank).
    pub audit: Map<String, Value>,
    /// How the case was built, one line each, for the reviewer to check against the sources:
    /// its identifier, compared sides, bridge and hops, difficulty and a typo put in on purpose.
    pub made: Vec<String>,
    /// `provenance`, as stored.
    pub provenance: Option<Value>,
}

/// The review status the page works with.
pub fn status(case: &Case) -> Review {
    match case.review {
        Some(r) => r,
        None if case.is_synthetic() => Review::Pending,
        None => Review::Accepted,
    }
}

/// Where a case stands in the order a reviewer reads a set: 0 for a synthetic case waiting
/// for review (what the page and the audit report exist for), 1 for any other case waiting
/// for a person (a real question without a confirmed label), 2 for the rest.
pub fn review_rank(case: &Case) -> u8 {
    match status(case) {
        Review::Pending if case.is_synthetic() => 0,
        Review::Pending | Review::NeedsLabel => 1,
        _ => 2,
    }
}

/// `cases` in review order ([`review_rank`]); within a rank, the cases generate's checks left
/// review hints on first (the likeliest wrong, most hints first), then set order.
pub fn in_review_order(cases: &[Case]) -> Vec<&Case> {
    let mut ordered: Vec<&Case> = cases.iter().collect();
    ordered.sort_by_key(|c| (review_rank(c), std::cmp::Reverse(c.hints.len())));
    ordered
}

/// Rule codes in `audit.flags`: plain strings, or objects with a `code`.
fn flags(case: &Case) -> Vec<Flag> {
    let Some(list) = case
        .audit
        .as_ref()
        .and_then(|a| a.get("flags"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|f| match f {
            Value::String(code) => Some(Flag {
                code: code.clone(),
                message: None,
                explanation: None,
            }),
            Value::Object(o) => Some(Flag {
                code: o.get("code")?.as_str()?.to_string(),
                message: o.get("message").and_then(Value::as_str).map(str::to_string),
                explanation: None,
            }),
            _ => None,
        })
        .collect()
}

/// `audit.overlap` as a number: the value itself, or an object's `containment`.
fn overlap(case: &Case) -> Option<f64> {
    let v = case.audit.as_ref()?.get("overlap")?;
    v.as_f64()
        .or_else(|| v.get("containment").and_then(Value::as_f64))
}

/// The list entry of a case.
pub fn summary(case: &Case) -> CaseSummary {
    let mut docs: Vec<String> = case.relevant.iter().map(|l| l.doc.clone()).collect();
    docs.dedup();
    CaseSummary {
        id: case.id.clone(),
        question: case.question.clone(),
        kind: case.tags.kind.clone(),
        topic: case.tags.topic.clone(),
        source: if case.is_synthetic() { "synthetic" } else { "real" },
        review: status(case).as_str(),
        reason: case
            .extra
            .get(REASON_FIELD)
            .and_then(Value::as_str)
            .map(str::to_string),
        split: case.split().as_str(),
        flags: flags(case).into_iter().map(|f| f.code).collect(),
        hints: case.hints.clone(),
        overlap: overlap(case),
        docs,
        line: case.line(),
    }
}

/// The full card of a case. Document text comes only from `corpus` (already in memory), never
/// from a path read off the case.
pub fn detail(case: &Case, corpus: Option<&Corpus>, explain: Option<Explain>) -> CaseDetail {
    let passages: Vec<Passage> = case.relevant.iter().map(|l| passage(l, corpus)).collect();
    let texts: Vec<&str> = passages.iter().map(|p| p.text.as_str()).collect();
    // The question is read in its own language, its passages' when it cannot be told.
    let source = crate::lang::detect_document(&texts.join("\n\n"));
    let language = crate::lang::detect_question(&case.question, case.answer.as_deref(), Some(source));
    let c = copied(&case.question, &texts, language);
    let passages = passages
        .into_iter()
        .zip(c.passages)
        .map(|(p, marks)| Passage { marks, ..p })
        .collect();
    let flag_details = flags(case)
        .into_iter()
        .map(|f| Flag {
            explanation: explain.and_then(|e| e(&f.code)),
            ..f
        })
        .collect();
    let mut audit = match &case.audit {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    audit.shift_remove("flags");
    CaseDetail {
        summary: summary(case),
        answer: case.answer.clone(),
        question_marks: c.question,
        longest_run: c.longest_run,
        passages,
        flag_details,
        audit,
        made: made(case),
        provenance: case.provenance.clone(),
    }
}

/// The lines of [`CaseDetail::made`]. Sources are numbered as the card lists them.
fn made(case: &Case) -> Vec<String> {
    let sources = |relevant: &[usize]| match relevant {
        [] => String::new(),
        [one] => format!(" (source {})", one + 1),
        many => {
            let n: Vec<String> = many.iter().map(|i| (i + 1).to_string()).collect();
            format!(" (sources {})", n.join(", "))
        }
    };
    let mut lines = Vec::new();
    if !case.hints.is_empty() {
        lines.push(format!(
            "Review hints: generate's checks {} found something here that turns no case away by \
             itself; read this case first (what each looks for: docs/checks.md).",
            case.hints.join(", ")
        ));
    }
    if let Some(id) = &case.identifier {
        lines.push(format!(
            "Asks about the identifier `{id}`, given as users paste it."
        ));
    }
    for (i, side) in case.sides.iter().flatten().enumerate() {
        let value = side
            .value
            .as_deref()
            .map(|v| format!(": {v}"))
            .unwrap_or_default();
        lines.push(format!(
            "Side {}: {}{value}{}",
            i + 1,
            side.name,
            sources(&side.relevant)
        ));
    }
    if let Some(bridge) = &case.bridge {
        lines.push(format!(
            "Bridge: {bridge}, which the first hop finds and the question describes without naming."
        ));
    }
    for (i, hop) in case.hops.iter().flatten().enumerate() {
        let asked = if hop.question.is_empty() {
            "(no question of its own)"
        } else {
            &hop.question
        };
        let answer = hop
            .answer
            .as_deref()
            .map(|a| format!(" → {a}"))
            .unwrap_or_default();
        lines.push(format!(
            "Hop {}: {asked}{answer}{}",
            i + 1,
            sources(&hop.relevant)
        ));
    }
    if let Some(d) = &case.difficulty {
        if let Some(rank) = d.source_rank {
            let within = d
                .containment
                .map(|c| format!("; {:.0}% of its content words are in the source", c * 100.0))
                .unwrap_or_default();
            // A question that needs every label is found when the last of them is.
            let every = case.relevant.len() > 1 && Evidence::of(case.question_type()) == Evidence::Every;
            let (source, paragraph) = if every {
                ("the last of its sources", "the last of their paragraphs")
            } else {
                ("its source", "its paragraph")
            };
            let paragraph = d
                .passage_rank
                .map(|p| format!(", {paragraph} {} among the passages", ranked(p)))
                .unwrap_or_default();
            lines.push(format!(
                "Keyword search (BM25 over the chunks) ranks {source} {}{paragraph}{within}.",
                ranked(rank)
            ));
        }
        if let Some(typo) = &d.typo {
            lines.push(format!(
                "Typo put in on purpose, as the real questions have them: {typo}. Keep it unless it changes the meaning."
            ));
        }
    }
    lines
}

/// A rank as a reviewer reads it: "12th", or "below 1000" where the index stops counting.
fn ranked(n: usize) -> String {
    if n > RANK_DEPTH {
        format!("below {RANK_DEPTH}")
    } else {
        ordinal(n)
    }
}

/// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn passage(label: &crate::testset::Label, corpus: Option<&Corpus>) -> Passage {
    let doc = corpus.and_then(|c| c.doc(&label.doc));
    let span = doc.and_then(|d| {
        let idx = CharIndex::new(&d.text);
        let text = idx.slice(label.start, label.end)?;
        let before_start = label.start.saturating_sub(CONTEXT_CHARS);
        let after_end = (label.end + CONTEXT_CHARS).min(idx.char_len());
        let before = idx.slice(before_start, label.start).unwrap_or_default();
        let after = idx.slice(label.end, after_end).unwrap_or_default();
        Some((
            text.to_string(),
            trim_context_start(before, before_start == 0),
            trim_context_end(after, after_end == idx.char_len()),
        ))
    });
    let in_corpus = span.is_some();
    let (text, before, after) = span.unwrap_or_else(|| (label.quote.clone(), String::new(), String::new()));
    let quote = locate(&text, &label.quote, None, DEFAULT_MIN_SIMILARITY).map(|f| (f.start, f.end));
    Passage {
        doc: label.doc.clone(),
        start: label.start,
        end: label.end,
        chunk: label.chunk.clone(),
        in_corpus,
        text,
        before,
        after,
        quote,
        marks: Vec::new(),
    }
}

/// Context before a span starts at a word boundary (unless it is the document's start).
fn trim_context_start(s: &str, whole: bool) -> String {
    if whole {
        return s.to_string();
    }
    match s.find(char::is_whitespace) {
        Some(i) => format!("…{}", &s[i..]),
        None => s.to_string(),
    }
}

/// Context after a span ends at a word boundary (unless it is the document's end).
fn trim_context_end(s: &str, whole: bool) -> String {
    if whole {
        return s.to_string();
    }
    match s.rfind(char::is_whitespace) {
        Some(i) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{DocKind, Document};
    use crate::testset::{Label, Source};

    fn corpus() -> Corpus {
        Corpus {
            root: "/nowhere".into(),
            docs: vec![Document {
                path: "a.md".into(),
                text: "Intro line.\nAgents only open outgoing connections. No port needs to be opened on the agent.\nEnd.".into(),
                kind: DocKind::Markdown,
                sha256: String::new(),
            }],
            ..Corpus::default()
        }
    }

    fn case() -> Case {
        let mut c = Case::new("syn-1", "Do agents open outgoing connections only?");
        c.tags.source = Some(Source::Synthetic);
        c.relevant.push(Label {
            doc: "a.md".into(),
            start: 12,
            end: 90,
            quote: "No port needs to be opened".into(),
            chunk: None,
            grade: None,
            extra: Map::new(),
        });
        c.audit = Some(
            serde_json::json!({"flags": ["RS101", {"code": "RS201", "message": "yes/no"}], "overlap": 0.8}),
        );
        c
    }

    #[test]
    fn detail_marks_quote_and_copied_words_inside_the_span() {
        let d = detail(&case(), Some(&corpus()), Some(|c| Some(format!("about {c}"))));
        let p = &d.passages[0];
        assert!(p.in_corpus);
        assert!(p.text.starts_with("Agents only open outgoing connections."));
        let chars: Vec<char> = p.text.chars().collect();
        let (qs, qe) = p.quote.unwrap();
        assert_eq!(
            chars[qs..qe].iter().collect::<String>(),
            "No port needs to be opened"
        );
        assert_eq!(d.longest_run, 3);
        assert_eq!(p.before, "Intro line.\n");
        assert_eq!(d.summary.review, "pending");
        assert_eq!(d.summary.flags, ["RS101", "RS201"]);
        assert_eq!(d.summary.overlap, Some(0.8));
        assert_eq!(d.flag_details[1].message.as_deref(), Some("yes/no"));
        assert_eq!(d.flag_details[0].explanation.as_deref(), Some("about RS101"));
        assert!(!d.audit.contains_key("flags"));
    }

    #[test]
    fn the_card_says_how_a_multi_hop_case_was_built_and_what_was_meant() {
        use crate::testset::{Difficulty, Hop};
        let mut c = case();
        c.tags.kind = Some("multi_hop".into());
        c.relevant.push(c.relevant[0].clone());
        let hop = |q: &str, a: &str, i: usize| Hop {
            question: q.into(),
            answer: Some(a.into()),
            relevant: vec![i],
            extra: Map::new(),
        };
        c.bridge = Some("TP-507".into());
        c.hops = Some(vec![
            hop(
                "what code do backups fail with when the reserve is full",
                "TP-507",
                0,
            ),
            hop("what does TP-507 mean", "the storage reserve is full", 1),
        ]);
        c.difficulty = Some(Difficulty {
            source_rank: Some(12),
            passage_rank: Some(31),
            containment: Some(0.67),
            typo: Some("schedule → schedhle".into()),
            ..Default::default()
        });
        assert_eq!(
            detail(&c, None, None).made,
            [
                "Bridge: TP-507, which the first hop finds and the question describes without naming.",
                "Hop 1: what code do backups fail with when the reserve is full → TP-507 (source 1)",
                "Hop 2: what does TP-507 mean → the storage reserve is full (source 2)",
                "Keyword search (BM25 over the chunks) ranks the last of its sources 12th, the last of their paragraphs 31st among the passages; 67% of its content words are in the source.",
                "Typo put in on purpose, as the real questions have them: schedule → schedhle. Keep it unless it changes the meaning.",
            ]
        );
        assert!(detail(&case(), None, None).made.is_empty());
        // A one-label question is found by its source; one that shares no word with it is not.
        let mut lookup = case();
        lookup.difficulty = Some(Difficulty {
            source_rank: Some(crate::index::RANK_DEPTH + 1),
            passage_rank: Some(2),
            ..Default::default()
        });
        assert_eq!(
            detail(&lookup, None, None).made,
            [
                "Keyword search (BM25 over the chunks) ranks its source below 1000, its paragraph 2nd among the passages."
            ]
        );
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 13, 21, 112].map(ordinal),
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "112th"
            ]
        );
    }

    #[test]
    fn without_the_document_the_quote_is_shown() {
        let d = detail(&case(), None, None);
        assert!(!d.passages[0].in_corpus);
        assert_eq!(d.passages[0].text, "No port needs to be opened");
        assert_eq!(d.passages[0].quote, Some((0, 26)));
    }

    #[test]
    fn a_case_with_review_hints_says_so_on_its_card_and_in_the_list() {
        let mut c = case();
        assert!(summary(&c).hints.is_empty());
        assert!(
            !detail(&c, None, None)
                .made
                .iter()
                .any(|l| l.starts_with("Review hints"))
        );
        c.hints = vec!["RS101".into(), "RS716".into()];
        assert_eq!(summary(&c).hints, ["RS101", "RS716"]);
        let made = detail(&c, None, None).made;
        assert!(
            made[0].starts_with("Review hints: generate's checks RS101, RS716"),
            "{made:?}"
        );
    }

    #[test]
    fn pending_synthetic_cases_come_first_then_other_waiting_ones_then_the_rest() {
        let make = |id: &str, source: Option<Source>, review: Option<Review>| {
            let mut c = Case::new(id, "q");
            c.tags.source = source;
            c.review = review;
            c
        };
        let cases = [
            make("real", Some(Source::Real), Some(Review::Accepted)),
            make("needs", Some(Source::Real), Some(Review::NeedsLabel)),
            make("syn-done", Some(Source::Synthetic), Some(Review::Accepted)),
            make("syn-1", Some(Source::Synthetic), Some(Review::Pending)),
            make("untagged", None, None),
            make("syn-2", Some(Source::Synthetic), None),
        ];
        let order: Vec<&str> = in_review_order(&cases).iter().map(|c| c.id.as_str()).collect();
        assert_eq!(order, ["syn-1", "syn-2", "needs", "real", "syn-done", "untagged"]);
        // A pending case with review hints comes before the other pending ones.
        let mut hinted = cases.to_vec();
        hinted[5].hints = vec!["RS101".into()];
        let order: Vec<&str> = in_review_order(&hinted).iter().map(|c| c.id.as_str()).collect();
        assert_eq!(order, ["syn-2", "syn-1", "needs", "real", "syn-done", "untagged"]);
    }

    #[test]
    fn real_cases_without_review_count_as_accepted() {
        let c = Case::new("r1", "q");
        assert_eq!(summary(&c).review, "accepted");
        assert_eq!(summary(&c).source, "real");
    }
}
