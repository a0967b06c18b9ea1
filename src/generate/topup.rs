//! Top-up rounds: replacement tasks for the kinds whose accepted count fell short of the plan.
//! A weak model rejects most candidates; without replacements `-n 20` could write one case.
//!
//! Replacements are a function of the chunks, the seed and every task asked so far — nothing
//! else — so a rerun that replays the earlier rounds from the LLM journal plans the very same
//! replacements and asks nothing new. They go to chunks not yet asked about for that kind first
//! (spread over documents), then back to asked chunks with the next `attempt` (another key
//! sentence and sampling seed). Two-chunk kinds use pairs never asked before first, and a
//! multi-hop pair no second hop asked before (that call is made from hop 2's chunk and the
//! thing alone); then, as often as the kind's row allows (comparisons: three times), the
//! asked pairs that wrote no case again with their next attempt. So no replacement repeats an
//! earlier request.

use std::collections::{BTreeMap, BTreeSet};

use super::candidate::{Kind, Task, stable_hash};
use super::kinds;
use super::pairs::Pair;
use super::plan::Targets;
use crate::chunk::Chunk;

/// Replacement tasks: `short` says how many of each kind are missing; `asked` is every task of
/// the earlier rounds, `settled` the indices of those that wrote a case; `targets` what each
/// kind can be asked about (the plan's). Indices continue after `asked`. Fewer tasks than asked
/// for when a kind has nothing new left (two-chunk kinds).
pub fn replacements(
    chunks: &[Chunk],
    targets: &BTreeMap<Kind, Targets>,
    asked: &[Task],
    settled: &BTreeSet<usize>,
    short: &[(Kind, usize)],
    seed: u64,
) -> Vec<Task> {
    let mut tasks = Vec::new();
    for &(kind, k) in short {
        if k == 0 {
            continue;
        }
        match targets.get(&kind) {
            Some(Targets::Pairs(pairs)) => {
                let asking = kinds::info(kind).layout.pair_asking().unwrap_or((false, 1));
                tasks.extend(new_pairs(pairs, asked, settled, kind, k, asking));
            }
            Some(Targets::Chunks(eligible)) => {
                let per_call = kinds::info(kind).per_call;
                tasks.extend(single_chunk(chunks, eligible, asked, kind, k, per_call, seed));
            }
            None => {}
        }
    }
    for (i, t) in tasks.iter_mut().enumerate() {
        t.index = asked.len() + i;
    }
    tasks
}

/// Whether a task works on material never asked about for its kind (a fresh chunk or pair).
pub fn is_fresh(task: &Task) -> bool {
    task.attempt == 0
}

/// `k` one-chunk tasks of `kind`: each time the chunk asked least often for this kind, in the
/// document whose chunks have been asked least (as a share of its chunks), ties by the seed.
fn single_chunk(
    chunks: &[Chunk],
    eligible: &[usize],
    asked: &[Task],
    kind: Kind,
    k: usize,
    per_call: u32,
    seed: u64,
) -> Vec<Task> {
    if eligible.is_empty() {
        return Vec::new();
    }
    // Next attempt number per chunk (0 = never asked) and tasks per document, for this kind.
    let mut next: BTreeMap<usize, u32> = BTreeMap::new();
    let mut load: BTreeMap<&str, usize> = BTreeMap::new();
    let mut size: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in eligible {
        *size.entry(chunks[i].doc.as_str()).or_default() += 1;
    }
    for t in asked.iter().filter(|t| t.kind == kind) {
        let n = next.entry(t.chunks[0]).or_default();
        *n = (*n).max(t.attempt + 1);
        *load.entry(chunks[t.chunks[0]].doc.as_str()).or_default() += 1;
    }
    let tie: BTreeMap<usize, u64> = eligible
        .iter()
        .map(|&i| (i, stable_hash(seed, &["top-up", kind.as_str(), &chunks[i].id])))
        .collect();
    let per_call = per_call.max(1) as usize;
    let mut tasks = Vec::new();
    for j in 0..k.div_ceil(per_call) {
        let key = |i: usize| {
            let doc = chunks[i].doc.as_str();
            let share = load.get(doc).copied().unwrap_or(0) as f64 / size[doc] as f64;
            (next.get(&i).copied().unwrap_or(0), share, tie[&i], i)
        };
        let best = eligible
            .iter()
            .copied()
            .min_by(|&a, &b| {
                let (ka, kb) = (key(a), key(b));
                ka.0.cmp(&kb.0)
                    .then(ka.1.total_cmp(&kb.1))
                    .then(ka.2.cmp(&kb.2))
                    .then(ka.3.cmp(&kb.3))
            })
            .expect("eligible is not empty");
        let attempt = next.get(&best).copied().unwrap_or(0);
        next.insert(best, attempt + 1);
        *load.entry(chunks[best].doc.as_str()).or_default() += 1;
        let questions = per_call.min(k - j * per_call) as u32;
        tasks.push(Task::on_chunk(kind, best, attempt, questions));
    }
    tasks
}

/// Up to `k` tasks of a two-chunk kind, best first: pairs never asked before — pairs of
/// chunks no task of the kind has used, then pairs reusing a chunk — and, once those run out,
/// the asked pairs that wrote no case again with their next attempt (up to the kind's
/// `attempts`; a pair that wrote one would write it again); each chunk once per round. With
/// `second_alone`, a new pair whose second chunk and term an asked pair had is skipped: its
/// second call would be the same request (on Black's docs, 4 of 9 multi-hop tasks turned away
/// as `bridge_not_asked` were such repeats).
fn new_pairs(
    pairs: &[Pair],
    asked: &[Task],
    settled: &BTreeSet<usize>,
    kind: Kind,
    k: usize,
    (second_alone, attempts): (bool, u32),
) -> Vec<Task> {
    let key = |a: usize, b: usize| (a.min(b), a.max(b));
    // Next attempt per asked pair, and the (second chunk, term, attempt) requests asked.
    let mut next: BTreeMap<(usize, usize), u32> = BTreeMap::new();
    let mut asked_seconds = BTreeSet::new();
    let mut used = BTreeSet::new();
    for t in asked.iter().filter(|t| t.kind == kind && t.chunks.len() == 2) {
        let n = next.entry(key(t.chunks[0], t.chunks[1])).or_default();
        // A pair that wrote a case is done: as if asked every time.
        let done = if settled.contains(&t.index) {
            attempts
        } else {
            t.attempt + 1
        };
        *n = (*n).max(done);
        asked_seconds.insert((t.chunks[1], t.term.clone().unwrap_or_default(), t.attempt));
        used.extend(t.chunks.iter().copied());
    }
    // Asked pairs come back only when no new pair is left at all, not merely none this round.
    let blocked = |p: &Pair| second_alone && asked_seconds.contains(&(p.b, p.term.clone(), 0));
    let new_left = pairs
        .iter()
        .any(|p| !next.contains_key(&key(p.a, p.b)) && !blocked(p));
    let mut this_round = BTreeSet::new();
    let mut tasks = Vec::new();
    for pass in [Pass::Untouched, Pass::Reusing, Pass::Again] {
        if pass == Pass::Again && new_left {
            break;
        }
        for p in pairs {
            if tasks.len() == k {
                return tasks;
            }
            let attempt = next.get(&key(p.a, p.b)).copied().unwrap_or(0);
            if (attempt > 0) != (pass == Pass::Again)
                || attempt >= attempts
                || this_round.contains(&p.a)
                || this_round.contains(&p.b)
                || (second_alone && asked_seconds.contains(&(p.b, p.term.clone(), attempt)))
            {
                continue;
            }
            if pass == Pass::Untouched && (used.contains(&p.a) || used.contains(&p.b)) {
                continue;
            }
            this_round.insert(p.a);
            this_round.insert(p.b);
            let mut task = Task::on_pair(kind, p.a, p.b, &p.term);
            task.attempt = attempt;
            tasks.push(task);
        }
    }
    tasks
}

/// The passes of [`new_pairs`] over the ranked pairs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Pairs never asked, of chunks no task of the kind has used.
    Untouched,
    /// Pairs never asked, reusing a chunk.
    Reusing,
    /// Asked pairs, with their next attempt.
    Again,
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::generate::bridges;
    use crate::generate::pairs::Pairing;
    use crate::generate::plan::{Mix, plan, ranked};

    fn chunk(doc: &str, n: usize, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#{n}"),
            doc: doc.into(),
            start: n * 1000,
            end: n * 1000 + text.chars().count(),
            text: text.into(),
        }
    }

    /// Prose long enough to be eligible; `term` links chunks of different documents.
    fn prose(topic: &str, term: &str) -> String {
        format!(
            "The {topic} setting controls how the agent behaves when a backup runs at night. \
             The default is a safe value, can be changed with {term} in the console, and takes \
             effect at the next scheduled run without restarting the service or the agent."
        )
    }

    fn corpus() -> Vec<Chunk> {
        let mut chunks = Vec::new();
        for n in 0..4 {
            let terms = format!("ZB-10{n} or FQ-20{n}");
            chunks.push(chunk("a.md", n, &prose(&format!("alpha{n}"), &terms)));
        }
        // b.md#n shares one rare term with a.md#n and another with a.md#(n+1)%4: 8 pairs.
        // b.md says more of them than a.md: a second hop says something the first did not.
        for n in 0..4 {
            let terms = format!("ZB-10{n} or FQ-20{}", (n + 1) % 4);
            let text = format!(
                "{} {terms} failures are retried every ten minutes, five times at most.",
                prose(&format!("beta{n}"), &terms)
            );
            chunks.push(chunk("b.md", n, &text));
        }
        for n in 0..2 {
            chunks.push(chunk("c.md", n, &prose(&format!("gamma{n}"), "QX-999")));
        }
        chunks
    }

    /// What makes a request: kind, chunks and attempt (the seed and key sentence follow).
    fn request(t: &Task) -> (Kind, Vec<usize>, u32) {
        let mut c = t.chunks.clone();
        c.sort();
        (t.kind, c, t.attempt)
    }

    #[test]
    fn deterministic_and_fresh_chunks_first() {
        let chunks = corpus();
        let mix: Mix = "unanswerable=1".parse().unwrap();
        let p = plan(&chunks, 3, &mix, 9);
        let short = [(Kind::Unanswerable, 5)];
        let r = replacements(&chunks, &p.targets, &p.tasks, &BTreeSet::new(), &short, 9);
        assert_eq!(
            r,
            replacements(&chunks, &p.targets, &p.tasks, &BTreeSet::new(), &short, 9)
        );
        assert_eq!(r.len(), 5);
        assert_eq!(
            r.iter().map(|t| t.index).collect::<Vec<_>>(),
            (3..8).collect::<Vec<_>>()
        );
        let before: HashSet<usize> = p.tasks.iter().map(|t| t.chunks[0]).collect();
        // 10 chunks, 3 asked: the 5 replacements all go to the 7 never asked, all documents.
        assert!(r.iter().all(|t| is_fresh(t) && !before.contains(&t.chunks[0])));
        let docs: HashSet<&str> = r.iter().map(|t| chunks[t.chunks[0]].doc.as_str()).collect();
        assert_eq!(docs.len(), 3, "{r:?}");
        assert_eq!(r.iter().map(|t| t.chunks[0]).collect::<HashSet<_>>().len(), 5);
        // Another seed may choose others, but is as deterministic.
        let other = replacements(&chunks, &p.targets, &p.tasks, &BTreeSet::new(), &short, 10);
        assert_eq!(
            other,
            replacements(&chunks, &p.targets, &p.tasks, &BTreeSet::new(), &short, 10)
        );
    }

    #[test]
    fn when_every_chunk_was_asked_attempts_move_on_and_nothing_repeats() {
        let chunks = corpus();
        let mix: Mix = "unanswerable=1".parse().unwrap();
        let mut asked = plan(&chunks, 4, &mix, 1).tasks;
        let targets = BTreeMap::from([(Kind::Unanswerable, Targets::Chunks((0..chunks.len()).collect()))]);
        // Three more rounds of 6: 24 lookups over 10 chunks.
        for _ in 0..3 {
            let r = replacements(
                &chunks,
                &targets,
                &asked,
                &BTreeSet::new(),
                &[(Kind::Unanswerable, 6)],
                1,
            );
            assert_eq!(r.len(), 6);
            asked.extend(r);
        }
        let mut seen = HashSet::new();
        for t in &asked {
            assert!(seen.insert(request(t)), "asked twice: {t:?}");
        }
        // Fresh chunks were used up before any chunk got a third attempt.
        let per_chunk = |i: usize| asked.iter().filter(|t| t.chunks[0] == i).count();
        let counts: Vec<usize> = (0..chunks.len()).map(per_chunk).collect();
        assert!(counts.iter().all(|&c| (2..=3).contains(&c)), "{counts:?}");
    }

    #[test]
    fn lookups_are_replaced_two_to_a_chunk() {
        let chunks = corpus();
        let p = plan(&chunks, 3, &"lookup=1".parse().unwrap(), 9);
        assert_eq!(p.tasks.iter().map(|t| t.questions).collect::<Vec<_>>(), [2, 1]);
        let r = replacements(
            &chunks,
            &p.targets,
            &p.tasks,
            &BTreeSet::new(),
            &[(Kind::Lookup, 5)],
            9,
        );
        assert_eq!(r.iter().map(|t| t.questions).collect::<Vec<_>>(), [2, 2, 1]);
        assert_eq!(r.iter().map(|t| t.chunks[0]).collect::<HashSet<_>>().len(), 3);
    }

    #[test]
    fn multi_hop_replacements_are_new_pairs_or_none() {
        let chunks = corpus();
        let eligible: Vec<usize> = (0..chunks.len()).collect();
        let pairs = ranked(&chunks, bridges::find(&chunks, &eligible, &Pairing::default()), 4);
        let targets = BTreeMap::from([(Kind::MultiHop, Targets::Pairs(pairs))]);
        let mix: Mix = "multi_hop=1".parse().unwrap();
        let p = plan(&chunks, 2, &mix, 4);
        assert_eq!(p.count(Kind::MultiHop), 2);
        let mut asked = p.tasks.clone();
        let r = replacements(
            &chunks,
            &targets,
            &asked,
            &BTreeSet::new(),
            &[(Kind::MultiHop, 2)],
            4,
        );
        assert_eq!(r.len(), 2);
        let used: HashSet<usize> = asked.iter().flat_map(|t| t.chunks.clone()).collect();
        // Pairs of untouched chunks come first; the rest may reuse a chunk, never a pair.
        assert!(r[0].chunks.iter().all(|c| !used.contains(c)), "{r:?}");
        asked.extend(r);
        // Keep asking until the pairs run out; no pair is ever asked twice.
        loop {
            let r = replacements(
                &chunks,
                &targets,
                &asked,
                &BTreeSet::new(),
                &[(Kind::MultiHop, 3)],
                4,
            );
            if r.is_empty() {
                break;
            }
            asked.extend(r);
        }
        let mut seen = HashSet::new();
        for t in &asked {
            assert_ne!(chunks[t.chunks[0]].doc, chunks[t.chunks[1]].doc);
            assert!(seen.insert(request(t)), "pair asked twice: {t:?}");
        }
        assert!(asked.len() > 4);
    }

    #[test]
    fn when_the_pairs_run_out_they_are_asked_again_with_the_next_attempt() {
        assert_eq!(attempts(Kind::Comparison), 3);
        let (chunks, pairs, targets) = paired(Kind::Comparison);
        let n_pairs = pairs.len();
        let mut asked: Vec<Task> = Vec::new();
        until_none_left(&chunks, &targets, &mut asked, &BTreeSet::new(), Kind::Comparison);
        // A pair is asked again only once every pair has been asked.
        assert!(asked[..n_pairs].iter().all(is_fresh), "{asked:?}");
        // Every pair as many times as the kind's row says, attempts in order; no request twice.
        assert_eq!(asked.len(), n_pairs * attempts(Kind::Comparison));
        assert_eq!(asked.iter().position(|t| !is_fresh(t)), Some(n_pairs));
        let mut seen = HashSet::new();
        for t in &asked {
            assert!(seen.insert(request(t)), "asked twice: {t:?}");
            let earlier = asked
                .iter()
                .take_while(|u| !std::ptr::eq(*u, t))
                .filter(|u| u.chunks == t.chunks)
                .count();
            assert_eq!(t.attempt as usize, earlier, "{t:?}");
        }
    }

    #[test]
    fn a_pair_that_wrote_a_case_is_not_asked_again() {
        let (chunks, pairs, targets) = paired(Kind::Comparison);
        let mut asked: Vec<Task> = pairs
            .iter()
            .enumerate()
            .map(|(i, p)| Task {
                index: i,
                ..Task::on_pair(Kind::Comparison, p.a, p.b, &p.term)
            })
            .collect();
        // Every pair asked once; the first wrote a case.
        let settled = BTreeSet::from([0]);
        let again = until_none_left(&chunks, &targets, &mut asked, &settled, Kind::Comparison);
        assert!(!again.is_empty());
        assert!(again.iter().all(|t| t.chunks != asked[0].chunks), "{again:?}");
        assert_eq!(again.len(), (pairs.len() - 1) * (attempts(Kind::Comparison) - 1));
    }

    /// How many times top-up asks one pair of `kind` (its row's `attempts`).
    fn attempts(kind: Kind) -> usize {
        kinds::info(kind)
            .layout
            .pair_asking()
            .map_or(1, |(_, n)| n as usize)
    }

    /// The sample corpus's chunks and its bridges as `kind`'s pairs, ranked.
    fn paired(kind: Kind) -> (Vec<Chunk>, Vec<Pair>, BTreeMap<Kind, Targets>) {
        let chunks = corpus();
        let eligible: Vec<usize> = (0..chunks.len()).collect();
        let pairs = ranked(&chunks, bridges::find(&chunks, &eligible, &Pairing::default()), 4);
        let targets = BTreeMap::from([(kind, Targets::Pairs(pairs.clone()))]);
        (chunks, pairs, targets)
    }

    /// Top-up rounds of `kind` after `asked` until nothing is left; the tasks they asked.
    fn until_none_left(
        chunks: &[Chunk],
        targets: &BTreeMap<Kind, Targets>,
        asked: &mut Vec<Task>,
        settled: &BTreeSet<usize>,
        kind: Kind,
    ) -> Vec<Task> {
        let mut new = Vec::new();
        loop {
            let r = replacements(chunks, targets, asked, settled, &[(kind, 3)], 4);
            if r.is_empty() {
                return new;
            }
            new.extend(r.clone());
            asked.extend(r);
        }
    }

    #[test]
    fn a_bridge_is_asked_once() {
        assert_eq!(attempts(Kind::MultiHop), 1);
        let (chunks, _, targets) = paired(Kind::MultiHop);
        let mut asked: Vec<Task> = Vec::new();
        until_none_left(&chunks, &targets, &mut asked, &BTreeSet::new(), Kind::MultiHop);
        assert!(asked.iter().all(is_fresh), "{asked:?}");
    }

    #[test]
    fn a_second_hop_already_asked_is_not_asked_again_through_another_first() {
        // a.md and c.md both name ZB-777; b.md says more of it: two pairs, one second hop.
        let more = "ZB-777 failures are retried every ten minutes, five times at most, then reported.";
        let chunks = vec![
            chunk("a.md", 0, &prose("alpha", "ZB-777")),
            chunk("b.md", 0, &format!("{} {more}", prose("beta", "ZB-777"))),
            chunk("c.md", 0, &prose("gamma", "ZB-777")),
        ];
        let eligible: Vec<usize> = (0..chunks.len()).collect();
        let pairs = ranked(&chunks, bridges::find(&chunks, &eligible, &Pairing::default()), 4);
        let into_b: Vec<&Pair> = pairs.iter().filter(|p| p.b == 1).collect();
        assert_eq!(into_b.len(), 2, "{pairs:?}");
        let targets = BTreeMap::from([(Kind::MultiHop, Targets::Pairs(pairs.clone()))]);
        let first = Task::on_pair(Kind::MultiHop, into_b[0].a, 1, &into_b[0].term);
        let r = replacements(
            &chunks,
            &targets,
            std::slice::from_ref(&first),
            &BTreeSet::new(),
            &[(Kind::MultiHop, 3)],
            4,
        );
        assert!(r.iter().all(|t| t.chunks[1] != 1), "{r:?}");
        // A comparison's second chunk is asked together with its first: no such skip.
        assert!(
            new_pairs(
                &pairs,
                std::slice::from_ref(&first),
                &BTreeSet::new(),
                Kind::MultiHop,
                3,
                (false, 1)
            )
            .iter()
            .any(|t| t.chunks[1] == 1)
        );
    }
}
