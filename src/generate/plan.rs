//! Planning: which chunks get which kind of question. Each kind's share of the plan comes from
//! the mix; each kind's tasks are laid on the chunks its row of the [`kinds`] table can ask
//! about. One-chunk kinds are spread over documents in proportion to their content
//! (largest-remainder apportionment, so no document gets more than its share rounded up) and,
//! inside a document, evenly over its sections; two-chunk kinds take the best pairs, each chunk
//! once. Chunks with too little to ask about — tables of contents, link lists, code-only
//! blocks, fragments — are left out. Every choice is a function of the chunks and the seed, so
//! a rerun plans the same tasks.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

use serde::Serialize;

use super::candidate::{Kind, Task, stable_hash};
use super::eligible::low_content;
use super::kind::Layout;
use super::kinds::{self, FALLBACK, KINDS};
use super::pairs::{Pair, Pairing};
use crate::chunk::Chunk;
use crate::{Error, Result};

/// Shares of the question kinds, normalised to sum to 1; a kind left out has none.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mix(BTreeMap<Kind, f64>);

impl Mix {
    /// The share of `kind`.
    pub fn share(&self, kind: Kind) -> f64 {
        self.0.get(&kind).copied().unwrap_or(0.0)
    }
}

impl Default for Mix {
    /// Every kind at its row's default share.
    fn default() -> Self {
        Mix(KINDS.iter().map(|k| (k.kind, k.default_share)).collect())
    }
}

impl FromStr for Mix {
    type Err = Error;

    /// `lookup=0.6,multi_hop=0.2,unanswerable=0.2`: kinds by their tag names; kinds left out
    /// get 0; weights are normalised, so `lookup=3,unanswerable=1` works too.
    fn from_str(s: &str) -> Result<Mix> {
        let mut mix = BTreeMap::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || {
                Error::Config(format!(
                    "--mix: `{part}` is not kind=weight (kinds: {})",
                    kinds::names()
                ))
            };
            let (k, v) = part.split_once('=').ok_or_else(bad)?;
            let v: f64 = v.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() || v < 0.0 {
                return Err(bad());
            }
            let kind = Kind::parse(k.trim()).and_then(kinds::find).ok_or_else(bad)?.kind;
            mix.insert(kind, v);
        }
        let total: f64 = mix.values().sum();
        if total <= 0.0 {
            return Err(Error::Config(format!("--mix `{s}`: the weights sum to zero")));
        }
        mix.values_mut().for_each(|v| *v /= total);
        Ok(Mix(mix))
    }
}

/// What a kind's tasks can be asked about, found once and kept for the top-up rounds.
#[derive(Debug, Clone, PartialEq)]
pub enum Targets {
    /// One-chunk kinds: the chunks (indices into the chunk list).
    Chunks(Vec<usize>),
    /// Two-chunk kinds: the pairs, best first.
    Pairs(Vec<Pair>),
}

impl Targets {
    /// How many there are.
    pub fn len(&self) -> usize {
        match self {
            Targets::Chunks(c) => c.len(),
            Targets::Pairs(p) => p.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The plan.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    /// Tasks in order.
    pub tasks: Vec<Task>,
    /// Chunks considered.
    pub chunks: usize,
    /// Chunks left out, by reason.
    pub skipped: BTreeMap<&'static str, usize>,
    /// Notes for the user (e.g. no multi-hop pairs, slots moved to lookup).
    pub notes: Vec<String>,
    /// Chunks with enough content to ask about (indices into the chunk list).
    #[serde(skip)]
    pub eligible: Vec<usize>,
    /// Each planned kind's targets; top-up rounds pick from these too.
    #[serde(skip)]
    pub targets: BTreeMap<Kind, Targets>,
}

impl Plan {
    /// Questions planned of a kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.tasks
            .iter()
            .filter(|t| t.kind == kind)
            .map(|t| t.questions as usize)
            .sum()
    }

    /// Calls per kind one pass of the plan makes when every check runs.
    pub fn calls_by_kind(&self) -> Vec<(Kind, u64)> {
        KINDS
            .iter()
            .map(|k| {
                let tasks = self.tasks.iter().filter(|t| t.kind == k.kind).count() as u64;
                (k.kind, tasks * k.calls_per_task)
            })
            .collect()
    }

    /// LLM requests a run makes at most over `max_rounds` rounds: every round asks at most the
    /// planned number of tasks of each kind, each with every check, so the bound is
    /// `max_rounds` times one pass (re-asks of malformed answers come on top).
    pub fn worst_case_calls(&self, max_rounds: u32) -> u64 {
        let one_pass: u64 = self.calls_by_kind().iter().map(|(_, n)| n).sum();
        one_pass * u64::from(max_rounds.max(1))
    }
}

/// Splits `n` into integer parts proportional to `weights` (largest remainder; ties by `keys`).
/// Each part is the exact share rounded down or up, never more.
pub fn apportion(weights: &[f64], n: usize, keys: &[u64]) -> Vec<usize> {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || n == 0 {
        return vec![0; weights.len()];
    }
    let exact: Vec<f64> = weights.iter().map(|w| w / total * n as f64).collect();
    let mut parts: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| {
        let ra = exact[a] - exact[a].floor();
        let rb = exact[b] - exact[b].floor();
        rb.total_cmp(&ra).then(keys[a].cmp(&keys[b]))
    });
    let left = n - parts.iter().sum::<usize>();
    for &i in order.iter().take(left) {
        parts[i] += 1;
    }
    parts
}

/// Plans `n` tasks over `chunks` with the given mix.
pub fn plan(chunks: &[Chunk], n: usize, mix: &Mix, seed: u64) -> Plan {
    plan_paired(chunks, &Pairing::default(), n, mix, seed)
}

/// [`plan`], with each chunk's language and whether passages of two languages may be joined.
pub fn plan_paired(chunks: &[Chunk], pairing: &Pairing, n: usize, mix: &Mix, seed: u64) -> Plan {
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut eligible = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        match low_content(&c.text) {
            Some(r) => *skipped.entry(r.as_str()).or_default() += 1,
            None => eligible.push(i),
        }
    }
    let mut notes = Vec::new();
    let shares: Vec<f64> = KINDS.iter().map(|k| mix.share(k.kind)).collect();
    let mut counts = apportion(&shares, n, &vec![0; KINDS.len()]);
    let mut plan = Plan {
        tasks: Vec::new(),
        chunks: chunks.len(),
        skipped,
        notes: Vec::new(),
        eligible,
        targets: BTreeMap::new(),
    };
    if plan.eligible.is_empty() {
        if n > 0 {
            plan.notes
                .push("no chunk has enough content to ask about".to_string());
        }
        return plan;
    }
    // Kinds with too few targets give their slots to the fallback kind, so they are planned
    // first and the fallback last.
    let fallback = KINDS
        .iter()
        .position(|k| k.kind == FALLBACK)
        .expect("the fallback has a row");
    let mut order: Vec<usize> = (0..KINDS.len()).filter(|&i| i != fallback).collect();
    order.push(fallback);
    let mut by_kind: Vec<Vec<Task>> = vec![Vec::new(); KINDS.len()];
    for i in order {
        let info = KINDS[i];
        if counts[i] == 0 {
            continue;
        }
        let targets = match info.layout {
            Layout::Chunk { targets } => Targets::Chunks(targets(chunks, &plan.eligible, pairing)),
            Layout::Pair { pairs, .. } => {
                Targets::Pairs(ranked(chunks, pairs(chunks, &plan.eligible, pairing), seed))
            }
        };
        let tasks = match &targets {
            Targets::Chunks(c) => spread(chunks, c, info.kind, counts[i], info.per_call, seed),
            Targets::Pairs(p) => pick_pairs(chunks, p, info.kind, counts[i]),
        };
        let planned: usize = tasks.iter().map(|t| t.questions as usize).sum();
        if planned < counts[i] && info.kind != FALLBACK {
            let moved = counts[i] - planned;
            let needs = match info.layout {
                Layout::Pair { needs, .. } => needs,
                Layout::Chunk { .. } => "chunk(s) can carry one",
            };
            notes.push(format!(
                "only {} {needs}; {moved} {} slot(s) moved to {FALLBACK}",
                targets.len(),
                info.kind
            ));
            counts[fallback] += moved;
        }
        plan.targets.insert(info.kind, targets);
        by_kind[i] = tasks;
    }
    plan.tasks = by_kind.into_iter().flatten().collect();
    for (i, t) in plan.tasks.iter_mut().enumerate() {
        t.index = i;
    }
    plan.notes = notes;
    plan
}

/// Tasks asking `k` questions of `kind`, `per_call` at a time, about the chunks `targets`:
/// documents in proportion to their text, chunks evenly spaced inside each document from a
/// seeded offset.
fn spread(chunks: &[Chunk], targets: &[usize], kind: Kind, k: usize, per_call: u32, seed: u64) -> Vec<Task> {
    let mut by_doc: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in targets {
        by_doc.entry(chunks[i].doc.as_str()).or_default().push(i);
    }
    let docs: Vec<(&str, Vec<usize>)> = by_doc.into_iter().collect();
    let weights: Vec<f64> = docs
        .iter()
        .map(|(_, cs)| cs.iter().map(|&i| chunks[i].len() as f64).sum())
        .collect();
    let keys: Vec<u64> = docs
        .iter()
        .map(|(d, _)| stable_hash(seed, &[kind.as_str(), d]))
        .collect();
    // Tasks, not questions, are spread: two lookups to a chunk, so that a call asks two.
    let per_call = per_call.max(1) as usize;
    let counts = apportion(&weights, k.div_ceil(per_call), &keys);
    let mut tasks = Vec::new();
    for ((doc, cs), count) in docs.iter().zip(counts) {
        if count == 0 {
            continue;
        }
        let offset = (stable_hash(seed, &[kind.as_str(), doc, "offset"]) % 1000) as f64 / 1000.0;
        for j in 0..count {
            let pos = ((j as f64 + offset) * cs.len() as f64 / count as f64).floor() as usize;
            let chunk = cs[pos.min(cs.len() - 1)];
            let attempt = tasks.iter().filter(|t: &&Task| t.chunks[0] == chunk).count() as u32;
            tasks.push(Task::on_chunk(kind, chunk, attempt, per_call as u32));
        }
    }
    // The last task asks for what is left when `k` is not a multiple of `per_call`.
    let extra = (tasks.len() * per_call).saturating_sub(k) as u32;
    if let Some(last) = tasks.last_mut() {
        last.questions -= extra;
    }
    tasks
}

/// `pairs` best first; among equally good pairs, the seed decides.
pub fn ranked(chunks: &[Chunk], mut pairs: Vec<Pair>, seed: u64) -> Vec<Pair> {
    pairs.sort_by(|x, y| {
        y.score.total_cmp(&x.score).then_with(|| {
            let hx = stable_hash(seed, &[&chunks[x.a].id, &chunks[x.b].id]);
            let hy = stable_hash(seed, &[&chunks[y.a].id, &chunks[y.b].id]);
            hx.cmp(&hy)
        })
    });
    pairs
}

/// Up to `k` tasks of `kind` from the best of `pairs`, each chunk used once and each document
/// at most its fair share of times where the pairs allow.
fn pick_pairs(chunks: &[Chunk], pairs: &[Pair], kind: Kind, k: usize) -> Vec<Task> {
    if k == 0 {
        return Vec::new();
    }
    let n_docs = pairs
        .iter()
        .flat_map(|p| [chunks[p.a].doc.as_str(), chunks[p.b].doc.as_str()])
        .collect::<BTreeSet<_>>()
        .len()
        .max(1);
    let cap = (2 * k).div_ceil(n_docs);
    let mut used_chunk = BTreeSet::new();
    let mut per_doc: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tasks = Vec::new();
    for relax in [false, true] {
        for p in pairs {
            if tasks.len() == k {
                break;
            }
            let (da, db) = (chunks[p.a].doc.as_str(), chunks[p.b].doc.as_str());
            if used_chunk.contains(&p.a) || used_chunk.contains(&p.b) {
                continue;
            }
            if !relax
                && (per_doc.get(da).copied().unwrap_or(0) >= cap
                    || per_doc.get(db).copied().unwrap_or(0) >= cap)
            {
                continue;
            }
            used_chunk.insert(p.a);
            used_chunk.insert(p.b);
            *per_doc.entry(da).or_default() += 1;
            *per_doc.entry(db).or_default() += 1;
            tasks.push(Task::on_pair(kind, p.a, p.b, &p.term));
        }
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(doc: &str, n: usize, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#{n}"),
            doc: doc.into(),
            start: n * 1000,
            end: n * 1000 + text.chars().count(),
            text: text.into(),
        }
    }

    fn prose(topic: &str) -> String {
        format!(
            "The {topic} setting controls how the agent behaves when a backup runs at night. \
             It defaults to a safe value, can be changed in the console, and takes effect at \
             the next scheduled run without restarting the service or the agent itself."
        )
    }

    #[test]
    fn mix_parses_and_normalises() {
        let m: Mix = "lookup=3, unanswerable=1".parse().unwrap();
        assert_eq!(
            (
                m.share(Kind::Lookup),
                m.share(Kind::MultiHop),
                m.share(Kind::Unanswerable)
            ),
            (0.75, 0.0, 0.25)
        );
        assert!(
            "lookup=x"
                .parse::<Mix>()
                .unwrap_err()
                .to_string()
                .contains("lookup=x")
        );
        assert!("bogus=1".parse::<Mix>().is_err());
        // One name per kind: the tag.
        assert!("single_hop=1".parse::<Mix>().is_err());
        assert!("lookup=0".parse::<Mix>().is_err());
    }

    #[test]
    fn apportion_is_proportional_and_never_exceeds_the_rounded_up_share() {
        let parts = apportion(&[8.0, 1.0, 1.0], 5, &[0, 1, 2]);
        assert_eq!(parts.iter().sum::<usize>(), 5);
        assert_eq!(parts[0], 4);
        let parts = apportion(&[1.0; 7], 3, &[5, 4, 3, 2, 1, 0, 6]);
        assert_eq!(parts, [0, 0, 0, 1, 1, 1, 0]);
    }

    #[test]
    fn plan_covers_documents_in_proportion_and_is_deterministic() {
        let mut chunks = Vec::new();
        for n in 0..6 {
            chunks.push(chunk("big.md", n, &prose(&format!("alpha{n}"))));
        }
        for n in 0..2 {
            chunks.push(chunk("small.md", n, &prose(&format!("beta{n}"))));
        }
        chunks.push(chunk("toc.md", 0, "- [A](a.md)\n- [B](b.md)\n"));
        let mix: Mix = "unanswerable=1".parse().unwrap();
        let p = plan(&chunks, 8, &mix, 7);
        assert_eq!(p.tasks.len(), 8);
        let big = p
            .tasks
            .iter()
            .filter(|t| chunks[t.chunks[0]].doc == "big.md")
            .count();
        assert_eq!(big, 6);
        assert_eq!(p.skipped.get("links"), Some(&1));
        // Evenly spread: every chunk of big.md once.
        let mut used: Vec<usize> = p.tasks.iter().map(|t| t.chunks[0]).collect();
        used.sort();
        used.dedup();
        assert_eq!(used.len(), 8);
        assert_eq!(plan(&chunks, 8, &mix, 7).tasks, p.tasks);
        // Lookups come two to a chunk: 8 questions on 4 chunks, 3 of them in big.md.
        let lookups = plan(&chunks, 8, &"lookup=1".parse().unwrap(), 7);
        assert_eq!(lookups.count(Kind::Lookup), 8);
        assert_eq!(lookups.tasks.len(), 4);
        assert!(lookups.tasks.iter().all(|t| t.questions == 2));
    }

    #[test]
    fn missing_pairs_move_slots_to_lookup() {
        let chunks: Vec<Chunk> = (0..3).map(|n| chunk("one.md", n, &prose("gamma"))).collect();
        let p = plan(&chunks, 5, &Mix::default(), 1);
        assert_eq!(p.count(Kind::MultiHop), 0);
        assert_eq!(p.count(Kind::Lookup), 4);
        assert_eq!(p.count(Kind::Unanswerable), 1);
        assert!(p.notes[0].contains("moved to lookup"));
        // More tasks than chunks: reuses chunks with a new attempt number.
        let p = plan(&chunks, 5, &"unanswerable=1".parse().unwrap(), 1);
        assert!(p.tasks.iter().any(|t| t.attempt > 0));
    }
}
