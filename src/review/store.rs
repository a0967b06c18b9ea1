//! The test set being reviewed, and how one decision is written back.
//!
//! Every decision is saved at once through [`Tracked::save`] (atomic; untouched cases keep
//! their bytes). The file's content hash is the *version* a page's decisions are checked
//! against. If someone else changed the file on disk meanwhile, the decision is merged onto the
//! file as it is now; only a change to the same field of the same case refuses it, and the
//! store then reloads what is on disk so the page can show that instead of overwriting it.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::view::REASON_FIELD;
use crate::testset::{self, QuestionType, Review, TestSet, Tracked};
use crate::{Error, Result};

/// What a reviewer decided about one case.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Decision {
    /// Keep it as it is.
    Accept,
    /// Drop it (it stays in the file, marked, so it is not generated again).
    Reject {
        /// Why, in the reviewer's words.
        #[serde(default)]
        reason: Option<String>,
    },
    /// Keep it with these fields changed (status `edited`; `accepted` if nothing changed).
    Edit {
        /// New question.
        question: String,
        /// New reference answer (empty: none).
        #[serde(default)]
        answer: Option<String>,
        /// New question type.
        #[serde(rename = "type", default)]
        kind: Option<String>,
        /// New topic (empty: none).
        #[serde(default)]
        topic: Option<String>,
    },
    /// Undo: back to `pending`.
    Pending,
}

/// Why a decision was not saved.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// The file changed on disk (or in another tab) since the page loaded it.
    #[error("{0}")]
    Conflict(String),
    /// No case has this id.
    #[error("no case with id `{0}`")]
    NotFound(String),
    /// The decision itself is unusable (empty question, unknown type).
    #[error("{0}")]
    Invalid(String),
    /// Reading or writing the file failed.
    #[error(transparent)]
    Failed(#[from] Error),
}

/// A test set loaded for review.
#[derive(Debug)]
pub struct Store {
    tracked: Tracked,
}

/// A decision that was saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    /// When the file had changed on disk, what was merged (the page should reload the list).
    pub merged: Option<String>,
}

impl From<Tracked> for Store {
    /// Reviews a set already read.
    fn from(tracked: Tracked) -> Store {
        Store { tracked }
    }
}

impl Store {
    /// Loads the test set at `path`.
    pub fn open(path: &Path) -> Result<Store> {
        Ok(Store::from(Tracked::open(path)?))
    }

    /// The set as loaded (plus the decisions saved since).
    pub fn set(&self) -> &TestSet {
        &self.tracked.set
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.tracked.path()
    }

    /// Hash of the file as this store last read or wrote it.
    pub fn version(&self) -> &str {
        self.tracked.version().unwrap_or_default()
    }

    /// Applies a decision made on a page that saw `seen_version`, and saves the file.
    ///
    /// Refused with [`Refused::Conflict`] when the page's version is stale. When the file
    /// changed on disk (a `generate` or `audit --write` finished, an editor saved), the decision
    /// is merged onto the file as it is now; only when the other writer changed the same field
    /// of the same case is it refused, and the store then reloads the file.
    pub fn decide(&mut self, id: &str, seen_version: &str, decision: &Decision) -> Result<Decided, Refused> {
        if seen_version != self.version() {
            return Err(Refused::Conflict(
                "the test set was changed from another page; reloading".into(),
            ));
        }
        let case = self
            .tracked
            .set
            .case_mut(id)
            .ok_or_else(|| Refused::NotFound(id.to_string()))?;
        let before = case.clone();
        apply(case, decision)?;
        match self.tracked.save() {
            Ok(saved) => Ok(Decided {
                merged: saved.merged.then(|| {
                    let mut note = format!(
                        "{} had changed on disk; your decision was saved next to those changes",
                        self.path().display()
                    );
                    for n in &saved.notes {
                        note.push_str("; ");
                        note.push_str(n);
                    }
                    note
                }),
            }),
            Err(Error::Conflict { message, .. }) => Err(Refused::Conflict(match self.reload() {
                Ok(()) => format!(
                    "{} was changed on disk: {message}. The page now shows the new content; your last decision was not saved",
                    self.path().display()
                ),
                Err(e) => format!(
                    "{} was changed on disk and no longer loads ({e}); nothing was saved",
                    self.path().display()
                ),
            })),
            Err(e) => {
                if let Some(c) = self.tracked.set.case_mut(id) {
                    *c = before;
                }
                Err(e.into())
            }
        }
    }

    /// Reads the file again, replacing what is in memory.
    pub fn reload(&mut self) -> Result<()> {
        self.tracked = Tracked::open(self.tracked.path())?;
        Ok(())
    }
}

/// Changes the case's review fields (and, for an edit, the edited fields) and nothing else.
fn apply(case: &mut testset::Case, decision: &Decision) -> Result<(), Refused> {
    let non_empty = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    match decision {
        Decision::Accept => {
            case.review = Some(Review::Accepted);
            case.extra.shift_remove(REASON_FIELD);
        }
        Decision::Reject { reason } => {
            case.review = Some(Review::Rejected);
            match non_empty(reason) {
                Some(r) => {
                    case.extra.insert(REASON_FIELD.into(), Value::String(r));
                }
                None => {
                    case.extra.shift_remove(REASON_FIELD);
                }
            }
        }
        Decision::Edit {
            question,
            answer,
            kind,
            topic,
        } => {
            let question = question.trim();
            if question.is_empty() {
                return Err(Refused::Invalid("the question cannot be empty".into()));
            }
            let kind = non_empty(kind);
            if let Some(k) = &kind
                && QuestionType::parse(k).is_none()
                && case.tags.kind.as_ref() != Some(k)
            {
                return Err(Refused::Invalid(format!(
                    "unknown question type `{k}`: use lookup, identifier, comparison, multi_hop or unanswerable"
                )));
            }
            let (answer, topic) = (non_empty(answer), non_empty(topic));
            let changed = case.question != question
                || case.answer != answer
                || case.tags.kind != kind
                || case.tags.topic != topic;
            case.question = question.to_string();
            case.answer = answer;
            case.tags.kind = kind;
            case.tags.topic = topic;
            case.review = Some(if changed { Review::Edited } else { Review::Accepted });
            case.extra.shift_remove(REASON_FIELD);
        }
        Decision::Pending => {
            case.review = Some(Review::Pending);
            case.extra.shift_remove(REASON_FIELD);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: &str = "ragsynth: 1
cases:
  - id: real-1
    question:   how long are snapshots kept   # odd spacing survives
    relevant: []
    tags: {type: lookup, source: real}
  - id: syn-1
    question: What is the retention of snapshots?
    answer: 30 days.
    relevant: []
    tags: {type: lookup, topic: retention, source: synthetic}
    review: pending
    custom: keep me
";

    fn store() -> (tempfile::TempDir, Store) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("set.yaml");
        std::fs::write(&p, SET).unwrap();
        let s = Store::open(&p).unwrap();
        (d, s)
    }

    #[test]
    fn a_rejection_changes_only_that_case_and_keeps_unknown_fields() {
        let (_d, mut s) = store();
        let v = s.version().to_string();
        s.decide(
            "syn-1",
            &v,
            &Decision::Reject {
                reason: Some(" too literal ".into()),
            },
        )
        .unwrap();
        let text = std::fs::read_to_string(s.path()).unwrap();
        let (head, _) = SET.split_at(SET.find("  - id: syn-1").unwrap());
        assert!(text.starts_with(head), "{text}");
        assert!(text.contains("review: rejected"));
        assert!(text.contains("review_reason: too literal"));
        assert!(text.contains("custom: keep me"));
        assert_ne!(s.version(), v);
    }

    #[test]
    fn an_edit_sets_edited_and_an_unchanged_edit_is_an_accept() {
        let (_d, mut s) = store();
        let edit = |q: &str| Decision::Edit {
            question: q.into(),
            answer: Some("30 days.".into()),
            kind: Some("lookup".into()),
            topic: Some("retention".into()),
        };
        let v = s.version().to_string();
        s.decide("syn-1", &v, &edit("What is the retention of snapshots?"))
            .unwrap();
        assert_eq!(s.set().case("syn-1").unwrap().review, Some(Review::Accepted));
        let v = s.version().to_string();
        s.decide("syn-1", &v, &edit("How long are snapshots kept?"))
            .unwrap();
        let c = s.set().case("syn-1").unwrap();
        assert_eq!(c.review, Some(Review::Edited));
        assert_eq!(c.question, "How long are snapshots kept?");
        let v = s.version().to_string();
        let bad = s.decide("syn-1", &v, &edit("  "));
        assert!(matches!(bad, Err(Refused::Invalid(_))));
        let bad = s.decide(
            "syn-1",
            &v,
            &Decision::Edit {
                question: "q?".into(),
                answer: None,
                kind: Some("riddle".into()),
                topic: None,
            },
        );
        assert!(matches!(bad, Err(Refused::Invalid(_))));
    }

    #[test]
    fn a_change_on_disk_elsewhere_is_merged_with_and_kept() {
        let (_d, mut s) = store();
        let v = s.version().to_string();
        let changed = SET
            .replace("30 days.", "Thirty days.")
            .replace("custom: keep me", "custom: keep me\n    audit: {flags: [RS101]}");
        std::fs::write(s.path(), &changed).unwrap();
        let saved = s.decide("real-1", &v, &Decision::Accept).unwrap();
        assert!(saved.merged.is_some());
        let text = std::fs::read_to_string(s.path()).unwrap();
        assert!(text.contains("Thirty days.") && text.contains("RS101"), "{text}");
        let set = testset::load(s.path()).unwrap();
        assert_eq!(set.case("real-1").unwrap().review, Some(Review::Accepted));
        assert_eq!(
            s.set().case("syn-1").unwrap().answer.as_deref(),
            Some("Thirty days.")
        );
    }

    #[test]
    fn a_change_on_disk_to_the_same_field_refuses_the_save_and_reloads() {
        let (_d, mut s) = store();
        let v = s.version().to_string();
        let changed = SET.replace("review: pending", "review: rejected");
        std::fs::write(s.path(), &changed).unwrap();
        let r = s.decide("syn-1", &v, &Decision::Accept);
        let Err(Refused::Conflict(m)) = r else {
            panic!("{r:?}")
        };
        assert!(
            m.contains("`syn-1` field `review`") && m.contains("rejected"),
            "{m}"
        );
        assert_eq!(std::fs::read_to_string(s.path()).unwrap(), changed);
        assert_eq!(s.set().case("syn-1").unwrap().review, Some(Review::Rejected));
        // The page's old version is stale now too; with the new one the save goes through.
        assert!(matches!(
            s.decide("syn-1", &v, &Decision::Accept),
            Err(Refused::Conflict(_))
        ));
        let v = s.version().to_string();
        s.decide("syn-1", &v, &Decision::Accept).unwrap();
        assert!(
            std::fs::read_to_string(s.path())
                .unwrap()
                .contains("review: accepted")
        );
    }

    #[test]
    fn unknown_ids_are_refused() {
        let (_d, mut s) = store();
        let v = s.version().to_string();
        assert!(matches!(
            s.decide("nope", &v, &Decision::Accept),
            Err(Refused::NotFound(_))
        ));
    }
}
