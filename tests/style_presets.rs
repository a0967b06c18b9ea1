//! The `--style` presets are measurements, not guesses: this re-measures them on the public
//! data they came from (`../shared/data`) and fails when a preset's figures drift from what the
//! data says. `search` and `chat`: the 54 judged TREC DL 2020 queries against their BM25 pool
//! (one passage per document, relevant = grade 2 or more); `formal`: XQuAD's English crowd
//! questions against their paragraphs. Skips with its reason when the data is absent.

mod xquad_data;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ragsynth::chunk::Chunking;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::generate::restyle::{self, Measured};
use ragsynth::lang::Language;
use ragsynth::style::Figures;
use ragsynth::style::{self, Preset};
use ragsynth::testset::Label;
use ragsynth::workspace::{ChunkedCorpus, Evidence};
use serde_json::Value;

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("RAGSYNTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    dir.join("msmarco-dl20/qrels.dl20-passage.txt")
        .is_file()
        .then_some(dir)
}

/// The queries of DL20 with judged passages, each with its relevant passages as labels over a
/// corpus of the whole BM25 pool, and the pool's chunks.
fn dl20(data: &Path, out: &Path) -> (Vec<(String, Vec<Label>)>, ChunkedCorpus) {
    let mut relevant: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in std::fs::read_to_string(data.join("msmarco-dl20/qrels.dl20-passage.txt"))
        .unwrap()
        .lines()
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() == 4 && f[3].parse::<u32>().unwrap() >= 2 {
            relevant
                .entry(f[0].to_string())
                .or_default()
                .insert(f[2].to_string());
        }
    }
    let pool: Value = serde_json::from_str(
        &std::fs::read_to_string(data.join("msmarco-dl20/bm25_top100_dl20.json")).unwrap(),
    )
    .unwrap();
    let corpus_dir = out.join("corpus");
    std::fs::create_dir_all(&corpus_dir).unwrap();
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut queries = Vec::new();
    for q in pool.as_array().unwrap() {
        let hits = q["hits"].as_array().unwrap();
        let qid = hits[0]["qid"].to_string();
        for h in hits {
            texts.insert(
                h["docid"].as_str().unwrap().to_string(),
                h["content"].as_str().unwrap().to_string(),
            );
        }
        let Some(rel) = relevant.get(&qid) else { continue };
        let labels: Vec<Label> = rel
            .iter()
            .filter(|d| texts.contains_key(*d))
            .map(|d| xquad_data::whole(&format!("{d}.txt"), &texts[d], ""))
            .collect();
        if !labels.is_empty() {
            queries.push((q["query"].as_str().unwrap().to_string(), labels));
        }
    }
    for (id, text) in &texts {
        std::fs::write(corpus_dir.join(format!("{id}.txt")), text).unwrap();
    }
    let corpus = Corpus::load(&corpus_dir, WalkOptions::default()).unwrap();
    let chunks = ChunkedCorpus::new(Some(&corpus), &Chunking::default()).unwrap();
    (queries, chunks)
}

fn measure(questions: &[(String, Vec<Label>)], chunks: &ChunkedCorpus) -> Figures {
    let measured: Vec<Measured> = questions
        .iter()
        .map(|(q, labels)| Measured::of(q, Language::ENGLISH, chunks, labels, Evidence::Any))
        .collect();
    let mut f = restyle::figures(&measured.iter().collect::<Vec<_>>());
    let vocabulary = chunks.vocabulary();
    let typos = questions.iter().filter(|(q, _)| vocabulary.misspelled(q)).count();
    f.misspelled = Some(typos as f32 / questions.len() as f32);
    f
}

fn assert_near(preset: Preset, got: &Figures) {
    let want = style::preset(preset).figures;
    eprintln!("{}: measured {got:?}", preset.as_str());
    let close = |a: f32, b: f32, tol: f32| (a - b).abs() <= tol;
    assert!(
        close(got.words, want.words, 0.3),
        "{}: words {} vs {}",
        preset.as_str(),
        got.words,
        want.words
    );
    for (name, a, b) in [
        ("lowercase", got.lowercase, want.lowercase),
        ("no_question_mark", got.no_question_mark, want.no_question_mark),
        ("keywords", got.keywords, want.keywords),
        ("rank1", got.rank1.unwrap(), want.rank1.unwrap()),
        ("mrr", got.mrr.unwrap(), want.mrr.unwrap()),
        ("misspelled", got.misspelled.unwrap(), want.misspelled.unwrap()),
    ] {
        assert!(
            close(a, b, 0.05),
            "{}: {name} {a:.3} vs the preset's {b:.3}",
            preset.as_str()
        );
    }
}

#[test]
fn the_search_and_chat_presets_are_what_dl20_measures() {
    let Some(data) = shared() else {
        eprintln!("skipped: no shared data (set RAGSYNTH_SHARED_DATA or provide ../shared/data)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (queries, chunks) = dl20(&data, dir.path());
    // 52 of the 54 judged queries have a passage of grade 2 or more in their pool.
    assert_eq!(
        queries.len(),
        52,
        "the judged DL20 queries with a relevant passage in the pool"
    );
    assert_near(Preset::Search, &measure(&queries, &chunks));
    // Chat: the queries worded as questions (opening with a question word), as typed.
    let chat: Vec<(String, Vec<Label>)> = queries
        .iter()
        .filter(|(q, _)| style::opens_with_question_word(q, Language::ENGLISH))
        .cloned()
        .collect();
    assert_near(Preset::Chat, &measure(&chat, &chunks));
}

#[test]
fn the_formal_preset_is_what_xquad_measures() {
    let Some(xquad) = xquad_data::dir() else {
        eprintln!("skipped: no shared data (set RAGSYNTH_SHARED_DATA or provide ../shared/data)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let set_path = xquad_data::convert(&xquad, "en", dir.path());
    let set = ragsynth::testset::load(&set_path).unwrap();
    let corpus = Corpus::load(&dir.path().join("corpus"), WalkOptions::default()).unwrap();
    let chunks = ChunkedCorpus::new(Some(&corpus), &Chunking::default()).unwrap();
    let questions: Vec<(String, Vec<Label>)> = set
        .cases
        .iter()
        .map(|c| (c.question.clone(), c.relevant.clone()))
        .collect();
    assert_near(Preset::Formal, &measure(&questions, &chunks));
}
