//! How near-duplicate similarity ([`ragsynth::wording::duplicates`]) spreads over questions
//! that are all different asks: XQuAD's crowd questions (SQuAD JSON). For each question, its
//! highest similarity to an earlier one; prints every pair from 0.5 up (1.0 is an exact repeat)
//! and how many questions reach each threshold — what `generate` (0.6) and RS302 (0.8) would
//! turn away or flag. docs/benchmarks.md quotes it.
//!
//!   cargo run --example near_duplicate_pairs -- ../shared/data/xquad/xquad.en.json

use ragsynth::wording::duplicates::{shingles, similarity};

const THRESHOLDS: [f32; 5] = [0.5, 0.6, 0.7, 0.8, 0.9];

fn questions(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for p in v["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|a| a["paragraphs"].as_array().into_iter().flatten())
    {
        for q in p["qas"].as_array().into_iter().flatten() {
            out.extend(q["question"].as_str().map(str::to_string));
        }
    }
    out
}

fn main() {
    let path = std::env::args().nth(1).expect("a SQuAD-format JSON file");
    let qs = questions(&path);
    let sets: Vec<_> = qs.iter().map(|q| shingles(q)).collect();
    let mut reach = [0usize; THRESHOLDS.len()];
    for i in 0..qs.len() {
        let best = (0..i)
            .map(|j| (similarity(&sets[i], &sets[j]), j))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((sim, j)) = best else { continue };
        for (n, t) in reach.iter_mut().zip(THRESHOLDS) {
            *n += usize::from(sim >= t);
        }
        if sim >= THRESHOLDS[0] {
            println!("{sim:.2} | {} | {}", qs[i].trim(), qs[j].trim());
        }
    }
    let shares: Vec<String> = THRESHOLDS
        .iter()
        .zip(reach)
        .map(|(t, n)| format!(">= {t}: {n}"))
        .collect();
    println!(
        "{} questions; with an earlier one at {}",
        qs.len(),
        shares.join(", ")
    );
}
