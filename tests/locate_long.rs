//! A long context that does not match the corpus exactly is located in time close to linear in
//! its length (it used to take the square: 32 KB in 31 s, 100 KB in over 3 minutes), with the
//! right span. The speed target itself lives in `scripts/bench-safety.sh`; the bound here only
//! tells linear from quadratic, with a wide margin for a loaded machine.

use std::sync::mpsc;
use std::time::Duration;

use ragsynth::locate::{Match, locate};
use rand::{Rng, SeedableRng};

/// `n` characters of prose-like text from a fixed vocabulary (seeded, so always the same).
pub fn prose(n: usize, seed: u64) -> String {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let vocab: Vec<String> = (0..4000)
        .map(|_| {
            let len = rng.random_range(2..10);
            (0..len).map(|_| rng.random_range(b'a'..=b'z') as char).collect()
        })
        .collect();
    let mut s = String::with_capacity(n + 16);
    while s.len() < n {
        s.push_str(&vocab[rng.random_range(0..vocab.len())]);
        s.push(if rng.random_range(0..12) == 0 { '.' } else { ' ' });
        if s.ends_with('.') {
            s.push(' ');
        }
    }
    s.truncate(n);
    s
}

/// `text` with one word in every ~`every` characters replaced.
pub fn reworded(text: &str, every: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut since = 0;
    for word in text.split_inclusive(' ') {
        since += word.len();
        if since >= every {
            since = 0;
            out.push_str("changed ");
        } else {
            out.push_str(word);
        }
    }
    out
}

#[test]
fn a_64_kb_reworded_context_is_found_where_it_is_in_linear_time() {
    let doc = prose(150_000, 7);
    let (from, to) = (20_000, 84_000);
    let context = reworded(&doc[from..to], 700);
    assert!(!doc.contains(&context));
    let (tx, rx) = mpsc::channel();
    let worker = doc.clone();
    std::thread::spawn(move || {
        let _ = tx.send(locate(&worker, &context, None, 0.8));
    });
    let found = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("locating a 64 KB context took over a minute: quadratic again?")
        .expect("found");
    assert_eq!(found.how, Match::Fuzzy);
    assert!(found.similarity > 0.95, "{found:?}");
    // The span starts and ends within a word or two of where the context came from.
    assert!(
        found.start.abs_diff(from) < 30 && found.end.abs_diff(to) < 30,
        "{found:?}"
    );
}
