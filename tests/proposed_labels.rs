//! A real question that `import` labelled with its own keyword search's best chunk (a
//! `candidate` label nobody confirmed) stands first by construction: ranked again by keyword
//! search, it says nothing of how hard the question is. Neither generate's style target nor the
//! audit's comparison of the halves counts its rank; its wording still counts.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use ragsynth::chunk::Chunking;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::generate::restyle::{self, StyleChoice};
use ragsynth::testset::{self, TestSet};
use ragsynth::workspace::ChunkedCorpus;

/// Paragraphs a real question asks about in other words than theirs, and two it copies.
const DOCS: &[(&str, &str)] = &[
    (
        "restore.md",
        "# Restore\n\nA restore writes files back to the paths they were backed up from unless a target folder is given.\n\nExisting files are kept unless the overwrite option says otherwise.\n",
    ),
    (
        "schedule.md",
        "# Schedule\n\nThe agent starts a backup every night at two in the morning, agent local time.\n\nA missed run starts when the machine wakes up.\n",
    ),
    (
        "keys.md",
        "# Keys\n\nEvery repository is encrypted with its own key, derived from the passphrase with Argon2id.\n\nLosing the passphrase loses the data: support cannot recover it.\n",
    ),
    (
        "retention.md",
        "# Retention\n\nSnapshots are kept for thirty days on the free plan and for a year on paid plans.\n\nPruning frees the space of snapshots past their retention.\n",
    ),
    (
        "webhooks.md",
        "# Webhooks\n\nEach delivery carries a signature header computed over the body with the endpoint secret.\n\nFailed deliveries are retried five times with exponential backoff.\n",
    ),
];

/// Real cases: (question, doc, quote, proposed by import).
const REAL: &[(&str, &str, &str, bool)] = &[
    (
        "where do recovered files end up",
        "restore.md",
        "A restore writes files back",
        false,
    ),
    (
        "what time does the nightly job run",
        "schedule.md",
        "The agent starts a backup",
        false,
    ),
    (
        "forgot my password can you get it back",
        "keys.md",
        "Losing the passphrase loses the data",
        false,
    ),
    (
        "how long are old versions kept",
        "retention.md",
        "Snapshots are kept for thirty days",
        false,
    ),
    (
        "how do i know a webhook is genuine",
        "webhooks.md",
        "Each delivery carries a signature",
        false,
    ),
    (
        "failed deliveries retried five times exponential backoff",
        "webhooks.md",
        "Failed deliveries are retried",
        true,
    ),
    (
        "missed run starts when the machine wakes up",
        "schedule.md",
        "A missed run starts",
        true,
    ),
];

fn write(dir: &Path, with_proposed: bool) -> TestSet {
    let corpus = dir.join("corpus");
    fs::create_dir_all(&corpus).unwrap();
    for (name, text) in DOCS {
        fs::write(corpus.join(name), text).unwrap();
    }
    let mut cases = String::new();
    for (i, (question, doc, quote, proposed)) in REAL.iter().enumerate() {
        if *proposed && !with_proposed {
            continue;
        }
        let text = DOCS.iter().find(|(n, _)| n == doc).unwrap().1;
        let start = text[..text.find(quote).unwrap()].chars().count();
        let end = start + quote.chars().count();
        let candidate = if *proposed {
            ", candidate: {rank: 1, score: 9.5}"
        } else {
            ""
        };
        cases.push_str(&format!(
            "  - id: real-{i}\n    question: \"{question}\"\n    relevant:\n      - {{doc: {doc}, start: {start}, end: {end}, quote: \"{quote}\"{candidate}}}\n    tags: {{source: real}}\n    review: {}\n",
            if *proposed { "needs_label" } else { "accepted" }
        ));
    }
    // One synthetic case, so that the audit compares the halves.
    let text = DOCS[0].1;
    let quote = "Existing files are kept";
    let start = text[..text.find(quote).unwrap()].chars().count();
    cases.push_str(&format!(
        "  - id: syn-0\n    question: \"are existing files kept on restore\"\n    relevant:\n      - {{doc: restore.md, start: {start}, end: {}, quote: \"{quote}\"}}\n    tags: {{type: lookup, source: synthetic}}\n    review: pending\n",
        start + quote.chars().count()
    ));
    let yaml = format!("ragsynth: 1\ncorpus:\n  root: corpus\ncases:\n{cases}");
    let path = dir.join("testset.yaml");
    fs::write(&path, yaml).unwrap();
    testset::load(&path).unwrap()
}

fn chunks(dir: &Path) -> ChunkedCorpus {
    let corpus = Corpus::load(&dir.join("corpus"), WalkOptions::default()).unwrap();
    ChunkedCorpus::new(Some(&corpus), &Chunking::default()).unwrap()
}

#[test]
fn the_style_target_ranks_no_question_by_the_label_keyword_search_proposed() {
    let (plain, with) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let without_set = write(plain.path(), false);
    let with_set = write(with.path(), true);
    let a = restyle::target(&without_set, &chunks(plain.path()), StyleChoice::Auto).figures;
    let b = restyle::target(&with_set, &chunks(with.path()), StyleChoice::Auto).figures;
    // The two proposed cases count as questions (their wording is real) ...
    assert_eq!((a.questions, b.questions), (5, 7));
    assert!(a.words != b.words, "{a:?} {b:?}");
    // ... but not among the ranked ones: the rank figures are the confirmed five's.
    assert_eq!((a.labelled, b.labelled), (5, 5));
    assert_eq!((a.rank1, a.mrr), (b.rank1, b.mrr));
    assert_eq!((a.passage_rank1, a.passage_mrr), (b.passage_rank1, b.passage_mrr));
}

#[test]
fn the_audit_compares_the_halves_without_the_proposed_labels() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), true);
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .current_dir(dir.path())
        .args(["audit", "testset.yaml", "--format", "json", "--fail-on", "never"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let real = &report["summary"]["comparison"]["real"];
    assert_eq!(real["cases"], 7, "{real}");
    assert_eq!(real["labelled"], 5, "{real}");
}
