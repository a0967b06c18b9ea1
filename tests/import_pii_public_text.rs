//! The scrubber on public text that holds no personal data: real search queries (TREC DL 2020)
//! and Wikipedia paragraphs with their questions (XQuAD). Every replacement there is a false
//! positive, so this measures how much ordinary text — years, populations, scores, versions —
//! the scrubber would damage. Skips when the shared data is absent.

use std::path::PathBuf;

use ragsynth::pii;

fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("RAGSYNTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    dir.is_dir().then_some(dir)
}

#[test]
fn public_text_without_personal_data_is_left_untouched() {
    let Some(data) = shared_data() else {
        eprintln!("skipped: no shared data (set RAGSYNTH_SHARED_DATA)");
        return;
    };
    let mut texts: Vec<String> = Vec::new();
    let topics = std::fs::read_to_string(data.join("msmarco-dl20/topics.dl20.txt")).unwrap();
    texts.extend(
        topics
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(_, q)| q.to_string()),
    );
    let queries = texts.len();
    let xquad: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data.join("xquad/xquad.en.json")).unwrap()).unwrap();
    for article in xquad["data"].as_array().unwrap() {
        for para in article["paragraphs"].as_array().unwrap() {
            texts.push(para["context"].as_str().unwrap().to_string());
            for qa in para["qas"].as_array().unwrap() {
                texts.push(qa["question"].as_str().unwrap().to_string());
            }
        }
    }
    let chars: usize = texts.iter().map(|t| t.chars().count()).sum();
    let mut hits = Vec::new();
    for t in &texts {
        for f in pii::find(t) {
            hits.push(format!("{:?}: {:?}", f.kind, &t[f.range]));
        }
    }
    eprintln!(
        "{} texts ({queries} DL20 queries, {} XQuAD paragraphs and questions, {chars} chars): {} replacements",
        texts.len(),
        texts.len() - queries,
        hits.len()
    );
    for h in &hits {
        eprintln!("  {h}");
    }
    assert!(texts.len() > 1000);
    assert!(hits.is_empty(), "{hits:?}");
}
