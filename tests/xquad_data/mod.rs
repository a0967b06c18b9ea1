//! XQuAD (`../shared/data/xquad`) as ragsynth test sets, for the tests that calibrate or check
//! the audit on it, and the two helpers they build sets with.

use std::path::{Path, PathBuf};

use ragsynth::chunk::Chunking;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::testset::{self, Case, CorpusRef, Label, Source, TestSet};
use serde_json::{Map, Value};

/// The XQuAD folder of the shared data (`RAGSYNTH_SHARED_DATA`, else `../shared/data`), when
/// it is there.
pub fn dir() -> Option<PathBuf> {
    let dir = std::env::var_os("RAGSYNTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
        .join("xquad");
    dir.join("xquad.zh.json").is_file().then_some(dir)
}

/// XQuAD in `lang` as a test set in `out` (`out/corpus/` and `out/testset.jsonl`, returned):
/// one document per paragraph, each question labelled with its whole paragraph (the answer as
/// quote), all tagged synthetic — written beside their source.
pub fn convert(data: &Path, lang: &str, out: &Path) -> PathBuf {
    std::fs::create_dir_all(out.join("corpus")).unwrap();
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(data.join(format!("xquad.{lang}.json"))).unwrap())
            .unwrap();
    let mut cases = Vec::new();
    for (a, article) in v["data"].as_array().unwrap().iter().enumerate() {
        for (p, para) in article["paragraphs"].as_array().unwrap().iter().enumerate() {
            let ctx = para["context"].as_str().unwrap();
            let doc = format!("a{a:02}-p{p:02}.txt");
            std::fs::write(out.join("corpus").join(&doc), ctx).unwrap();
            for qa in para["qas"].as_array().unwrap() {
                let answer = qa["answers"][0]["text"].as_str().unwrap();
                let mut c = Case::new(
                    format!("xquad-{}", qa["id"].as_str().unwrap()),
                    qa["question"].as_str().unwrap(),
                );
                c.answer = Some(answer.to_string());
                c.relevant.push(whole(&doc, ctx, answer));
                c.tags.source = Some(Source::Synthetic);
                cases.push(c);
            }
        }
    }
    write_set(out, cases)
}

/// A label spanning the whole of `text` (document `doc`), with `quote` as its quote.
pub fn whole(doc: &str, text: &str, quote: &str) -> Label {
    Label {
        doc: doc.into(),
        start: 0,
        end: text.chars().count(),
        quote: quote.into(),
        chunk: None,
        grade: None,
        extra: Map::new(),
    }
}

/// Saves `cases` as `dir/testset.jsonl` over the corpus `dir/corpus` (its fingerprint and the
/// default chunking in the header); returns the path.
pub fn write_set(dir: &Path, cases: Vec<Case>) -> PathBuf {
    let corpus = Corpus::load(&dir.join("corpus"), WalkOptions::default()).unwrap();
    let mut set = TestSet::default();
    set.corpus = Some(CorpusRef {
        root: "corpus".into(),
        fingerprint: Some(corpus.fingerprint()),
        extra: Map::new(),
    });
    set.chunking = Some(Chunking::default());
    set.cases = cases;
    let path = dir.join("testset.jsonl");
    testset::save(&set, &path).unwrap();
    path
}
