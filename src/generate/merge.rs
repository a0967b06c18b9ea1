//! Writing accepted candidates into the target test set. Existing cases are never touched (the
//! test-set writer re-emits them byte for byte); new cases are appended after them with fresh
//! ids, tagged synthetic and pending review, and a stable hash of the id decides which go to
//! the held-out split, so the same case always lands on the same side.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{Value, json};

pub use super::candidate::Accepted;
use super::candidate::{RunError, Shape, stable_hash};
use crate::Error;
use crate::corpus::Corpus;
use crate::llm::Llm;
use crate::testset::{self, Case, Review, Severity, Source, Split, TestSet};

/// What every new case records about how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamp {
    /// LLM id (`provider:model`).
    pub model: String,
    /// RFC 3339 time of the run: a case's `created` when its answer's journal time is unknown
    /// (no journal), or always when `pinned`.
    pub created: String,
    /// `created` was fixed from outside (`SOURCE_DATE_EPOCH`) and overrides journal times.
    pub pinned: bool,
    /// Share of new cases marked `split: heldout`.
    pub heldout: f64,
    /// The style the questions were written to (`real` or a preset's name), when known.
    pub style: Option<String>,
}

impl Stamp {
    /// The stamp of a run that ends now: `created` is `source_date_epoch` when given (seconds;
    /// the reproducible-builds convention, pinned: it then stamps every new case), else now,
    /// to the second, which only stamps cases whose answer has no journal time (`--no-cache`).
    /// Otherwise a case's time is when its answer was journaled, so a resumed run writes what
    /// an uninterrupted one does.
    pub fn new(model: String, heldout: f64, source_date_epoch: Option<i64>) -> crate::Result<Stamp> {
        let secs = source_date_epoch.unwrap_or_else(|| jiff::Timestamp::now().as_second());
        let created = jiff::Timestamp::from_second(secs)
            .map_err(|e| Error::Config(format!("SOURCE_DATE_EPOCH {secs}: {e}")))?;
        Ok(Stamp {
            model,
            created: created.to_string(),
            pinned: source_date_epoch.is_some(),
            heldout,
            style: None,
        })
    }
}

/// Appends the accepted candidates as new cases; returns their ids.
pub fn append(set: &mut TestSet, accepted: Vec<Accepted>, stamp: &Stamp) -> Vec<String> {
    let mut ids = Vec::new();
    for a in accepted {
        let seed = format!("{}\n{}\n{}", a.kind, a.question, a.from.join("\n"));
        let id = set.fresh_id("syn", &seed);
        let mut case = Case::new(id.clone(), a.question);
        case.answer = a.answer;
        case.relevant = a.relevant;
        match a.shape {
            Shape::Plain => {}
            Shape::Identifier(id) => case.identifier = Some(id),
            Shape::Comparison(sides) => case.sides = Some(sides),
            Shape::Bridge { hops, bridge } => {
                case.hops = Some(hops);
                case.bridge = Some(bridge);
            }
        }
        case.tags.kind = Some(a.kind.as_str().to_string());
        if let Some(rank) = a.difficulty.as_ref().and_then(|d| d.source_rank) {
            case.tags.difficulty = Some(super::restyle::tag(rank).to_string());
        }
        case.difficulty = a.difficulty;
        case.hints = a.hints.iter().map(|c| c.to_string()).collect();
        case.tags.topic = a.topic;
        case.tags.source = Some(Source::Synthetic);
        case.review = Some(Review::Pending);
        case.split = Some(split_of(&id, stamp.heldout));
        let created = match a.created {
            Some(t) if !stamp.pinned => t,
            _ => stamp.created.clone(),
        };
        case.provenance = Some(provenance(stamp, &a.prompt, &created));
        set.cases.push(case);
        ids.push(id);
    }
    ids
}

/// `heldout` for a stable `share` of ids, `dev` for the rest.
pub fn split_of(id: &str, share: f64) -> Split {
    let bucket = stable_hash(0, &["split", id]) % 10_000;
    if (bucket as f64) < share * 10_000.0 {
        Split::Heldout
    } else {
        Split::Dev
    }
}

fn provenance(stamp: &Stamp, prompt: &str, created: &str) -> Value {
    let mut p = json!({"model": stamp.model, "prompt": prompt, "created": created});
    if let Some(style) = &stamp.style {
        p["style"] = json!(style);
    }
    p
}

/// Checks the new cases `ids` of `set` against the test-set invariants. Every new case must
/// satisfy them, so a failure is a bug, not bad input; the error lists every problem.
pub fn check_new_cases(set: &TestSet, ids: &[String], corpus: &Corpus) -> crate::Result<()> {
    let new: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let bad: Vec<String> = testset::validate(set, Some(corpus))
        .into_iter()
        .filter(|i| i.severity == Severity::Error && i.case.as_deref().is_some_and(|c| new.contains(c)))
        .map(|i| i.to_string())
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    Err(Error::Config(format!(
        "generated cases fail validation (nothing written): {}",
        bad.join("; ")
    )))
}

/// What to tell the user when a run stopped: the LLM's error, or, for a provider that is down,
/// that nothing was written and how to resume. Nothing is written, accepted cases of earlier
/// rounds included: every answer is in the journal, so the same command resumes where the run
/// stopped and writes what an uninterrupted run would (writing part of the cases now would
/// make the rerun reject those as duplicates of themselves).
pub fn stopped(llm: &Llm, output: &Path, error: RunError) -> String {
    let RunError::ProviderDown { count, last } = error else {
        return error.to_string();
    };
    let resume = match llm.journal_path() {
        Some(j) => format!(
            "the answers received so far are journaled in {}; rerun the same command to resume without asking them again",
            j.display()
        ),
        None => "with --no-cache the answers received were not kept".to_string(),
    };
    format!(
        "{} looks down: {count} candidates in a row failed after all retries (last: {last}); stopped, \
         nothing written to {}; {resume}",
        llm.id(),
        output.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_stable_and_near_the_share() {
        let ids: Vec<String> = (0..2000).map(|i| format!("syn-{i:08x}")).collect();
        let held = ids
            .iter()
            .filter(|id| split_of(id, 0.2) == Split::Heldout)
            .count();
        assert!((300..500).contains(&held), "{held}");
        assert!(ids.iter().all(|id| split_of(id, 0.0) == Split::Dev));
        assert_eq!(split_of("syn-1", 0.2), split_of("syn-1", 0.2));
    }

    #[test]
    fn appended_cases_are_tagged_and_ids_do_not_collide() {
        let mut set = TestSet::default();
        set.cases.push(Case::new("real-1", "how do i restore"));
        let a = Accepted {
            kind: crate::generate::candidate::Kind::Lookup,
            question: "How do I restore a file?".into(),
            phrasings: Vec::new(),
            answer: Some("With tide restore.".into()),
            relevant: vec![],
            topic: Some("restore".into()),
            prompt: "lookup@00000000".into(),
            from: vec!["a.md#0".into()],
            created: Some("2026-02-03T04:05:06Z".into()),
            shape: Shape::Plain,
            language: crate::lang::Language::ENGLISH,
            difficulty: None,
            hints: Vec::new(),
        };
        let mut stamp = Stamp {
            model: "m".into(),
            created: "2026-01-01T00:00:00Z".into(),
            pinned: false,
            heldout: 0.2,
            style: None,
        };
        let ids = append(&mut set, vec![a.clone(), a.clone()], &stamp);
        assert_eq!(set.cases.len(), 3);
        assert_ne!(ids[0], ids[1]);
        let c = &set.cases[1];
        assert!(c.id.starts_with("syn-") && c.is_synthetic());
        assert_eq!(c.review, Some(Review::Pending));
        assert_eq!(c.tags.kind.as_deref(), Some("lookup"));
        assert_eq!(c.provenance.as_ref().unwrap()["prompt"], "lookup@00000000");
        // The answer's journal time is the case's time, unless a time is pinned.
        assert_eq!(c.provenance.as_ref().unwrap()["created"], "2026-02-03T04:05:06Z");
        stamp.pinned = true;
        append(&mut set, vec![a], &stamp);
        assert_eq!(
            set.cases[3].provenance.as_ref().unwrap()["created"],
            "2026-01-01T00:00:00Z"
        );
    }

    #[test]
    fn a_pinned_time_stamps_every_case_and_now_only_those_without_one() {
        let pinned = Stamp::new("m".into(), 0.2, Some(1_700_000_000)).unwrap();
        assert_eq!(pinned.created, "2023-11-14T22:13:20Z");
        assert!(pinned.pinned);
        let now = Stamp::new("m".into(), 0.2, None).unwrap();
        assert!(!now.pinned && now.created.ends_with('Z'), "{}", now.created);
        assert!(Stamp::new("m".into(), 0.2, Some(i64::MAX)).is_err());
    }
}
