//! Writing accepted candidates into the target test set. Existing cases are never touched (the
//! test-set writer re-emits them byte for byte); new cases are appended after them with fresh
//! ids, tagged synthetic and pending review, and a stable hash of the id decides which go to
//! the held-out split, so the same case always lands on the same side.

use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

use super::plan::{Kind, stable_hash};
use crate::chunk::Chunking;
use crate::corpus::Corpus;
use crate::testset::{Case, CorpusRef, Label, Review, Source, Split, TestSet};

/// A verified candidate, ready to become a case.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted {
    /// Kind of question.
    pub kind: Kind,
    /// The question.
    pub question: String,
    /// Reference answer (none for unanswerable questions).
    pub answer: Option<String>,
    /// Labels, located in the corpus (empty for unanswerable questions).
    pub relevant: Vec<Label>,
    /// Topic tag.
    pub topic: Option<String>,
    /// `name@hash` of the prompt that produced it.
    pub prompt: String,
    /// Chunk ids it was generated from (seeds the id).
    pub from: Vec<String>,
    /// RFC 3339 time its generation answer was journaled, when known.
    pub created: Option<String>,
}

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
}

/// A fresh test set for `corpus`, its root written relative to the file at `out`.
pub fn new_set(out: &Path, corpus: &Corpus, chunking: &Chunking) -> TestSet {
    TestSet {
        corpus: Some(CorpusRef {
            root: crate::workspace::relative_root(out, &corpus.root),
            fingerprint: Some(corpus.fingerprint()),
            extra: Default::default(),
        }),
        chunking: Some(chunking.clone()),
        ..TestSet::default()
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
        case.tags.kind = Some(a.kind.as_str().to_string());
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
    json!({"model": stamp.model, "prompt": prompt, "created": created})
}

/// `root` written relative to the directory holding `file`, with `/` separators.
pub fn relative_root(file: &Path, root: &Path) -> String {
    // A bare file name (`-o set.yaml`) has an empty parent: the working directory.
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (from, to) = (absolute(dir), absolute(root));
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// An absolute, `..`-free form of `p`: symlinks resolved for the part that exists.
fn absolute(p: &Path) -> PathBuf {
    let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut existing = p.clone();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.file_name().map(|n| n.to_os_string()), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize().unwrap_or(existing);
    for name in rest.into_iter().rev() {
        if name == ".." {
            out.pop();
        } else if name != "." {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_root_from_the_output_directory() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpora/docs");
        std::fs::create_dir_all(&corpus).unwrap();
        let out = dir.path().join("output/testset.yaml");
        assert_eq!(relative_root(&out, &corpus), "../corpora/docs");
        assert_eq!(relative_root(&dir.path().join("t.yaml"), &corpus), "corpora/docs");
        assert_eq!(relative_root(&corpus.join("t.yaml"), &corpus), ".");
    }

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
            kind: Kind::SingleHop,
            question: "How do I restore a file?".into(),
            answer: Some("With tide restore.".into()),
            relevant: vec![],
            topic: Some("restore".into()),
            prompt: "single_hop@00000000".into(),
            from: vec!["a.md#0".into()],
            created: Some("2026-02-03T04:05:06Z".into()),
        };
        let mut stamp = Stamp {
            model: "m".into(),
            created: "2026-01-01T00:00:00Z".into(),
            pinned: false,
            heldout: 0.2,
        };
        let ids = append(&mut set, vec![a.clone(), a.clone()], &stamp);
        assert_eq!(set.cases.len(), 3);
        assert_ne!(ids[0], ids[1]);
        let c = &set.cases[1];
        assert!(c.id.starts_with("syn-") && c.is_synthetic());
        assert_eq!(c.review, Some(Review::Pending));
        assert_eq!(c.tags.kind.as_deref(), Some("lookup"));
        assert_eq!(c.provenance.as_ref().unwrap()["prompt"], "single_hop@00000000");
        // The answer's journal time is the case's time, unless a time is pinned.
        assert_eq!(c.provenance.as_ref().unwrap()["created"], "2026-02-03T04:05:06Z");
        stamp.pinned = true;
        append(&mut set, vec![a], &stamp);
        assert_eq!(
            set.cases[3].provenance.as_ref().unwrap()["created"],
            "2026-01-01T00:00:00Z"
        );
    }
}
