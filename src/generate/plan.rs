//! Planning: which chunks get which kind of question. Cases are spread over documents in
//! proportion to their content (largest-remainder apportionment, so no document gets more than
//! its share rounded up) and, inside a document, evenly over its sections. Chunks with too
//! little to ask about — tables of contents, link lists, code-only blocks, fragments — are left
//! out. Every choice is a function of the chunks and the seed, so a rerun plans the same tasks.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::eligible::low_content;
use super::pairs::{Pair, Pairing, find_pairs};
use crate::chunk::Chunk;
use crate::testset::QuestionType;
use crate::{Error, Result};

/// The kind of question a task asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One passage answers it (tagged `lookup`).
    SingleHop,
    /// Two passages of different documents are needed.
    MultiHop,
    /// On topic, but the corpus does not answer it.
    Unanswerable,
}

impl Kind {
    /// All kinds, in report order.
    pub const ALL: [Kind; 3] = [Kind::SingleHop, Kind::MultiHop, Kind::Unanswerable];

    /// The `type` tag written on the case.
    pub fn question_type(self) -> QuestionType {
        match self {
            Kind::SingleHop => QuestionType::Lookup,
            Kind::MultiHop => QuestionType::MultiHop,
            Kind::Unanswerable => QuestionType::Unanswerable,
        }
    }

    /// Name used in reports (the `type` tag).
    pub fn as_str(self) -> &'static str {
        self.question_type().as_str()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Shares of the question kinds, normalised to sum to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Mix {
    /// Single-hop lookups.
    pub lookup: f64,
    /// Multi-hop.
    pub multi_hop: f64,
    /// Unanswerable.
    pub unanswerable: f64,
}

impl Default for Mix {
    fn default() -> Self {
        Mix {
            lookup: 0.6,
            multi_hop: 0.2,
            unanswerable: 0.2,
        }
    }
}

impl FromStr for Mix {
    type Err = Error;

    /// `lookup=0.6,multi_hop=0.2,unanswerable=0.2`; kinds left out get 0; weights are
    /// normalised, so `lookup=3,unanswerable=1` works too.
    fn from_str(s: &str) -> Result<Mix> {
        let mut mix = Mix {
            lookup: 0.0,
            multi_hop: 0.0,
            unanswerable: 0.0,
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || {
                Error::Config(format!(
                    "--mix: `{part}` is not kind=weight (kinds: lookup, multi_hop, unanswerable)"
                ))
            };
            let (k, v) = part.split_once('=').ok_or_else(bad)?;
            let v: f64 = v.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() || v < 0.0 {
                return Err(bad());
            }
            match k.trim() {
                "lookup" | "single_hop" => mix.lookup = v,
                "multi_hop" => mix.multi_hop = v,
                "unanswerable" => mix.unanswerable = v,
                _ => return Err(bad()),
            }
        }
        let total = mix.lookup + mix.multi_hop + mix.unanswerable;
        if total <= 0.0 {
            return Err(Error::Config(format!("--mix `{s}`: the weights sum to zero")));
        }
        Ok(Mix {
            lookup: mix.lookup / total,
            multi_hop: mix.multi_hop / total,
            unanswerable: mix.unanswerable / total,
        })
    }
}

/// One candidate to generate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Task {
    /// Position in the plan; results are merged in this order.
    pub index: usize,
    /// What to ask.
    pub kind: Kind,
    /// Chunks (indices into the chunk list): one, or two for multi-hop.
    pub chunks: Vec<usize>,
    /// For multi-hop: the term linking the chunks.
    pub term: Option<String>,
    /// How many earlier tasks use the same chunks for the same kind: picks other facts of the
    /// chunk and varies the LLM seed.
    pub attempt: u32,
    /// Questions asked for: lookups ask for up to [`LOOKUPS_PER_CALL`] at once (one per fact
    /// of the chunk), the other kinds for one.
    pub questions: u32,
}

/// Lookup questions asked in one call, each on another fact of the same chunk. A local model
/// spends most of a call reading the prompt; two questions per prompt halve that, and more
/// would spend the plan on fewer chunks.
pub const LOOKUPS_PER_CALL: u32 = 2;

impl Task {
    /// A one-chunk task (lookup or unanswerable); `index` is set when the tasks are numbered.
    pub fn on_chunk(kind: Kind, chunk: usize, attempt: u32) -> Task {
        Task {
            index: 0,
            kind,
            chunks: vec![chunk],
            term: None,
            attempt,
            questions: 1,
        }
    }

    /// A lookup task asking for `questions` questions on one chunk.
    pub fn lookups(chunk: usize, attempt: u32, questions: u32) -> Task {
        Task {
            questions,
            ..Task::on_chunk(Kind::SingleHop, chunk, attempt)
        }
    }

    /// A multi-hop task on a pair, asked for the first time.
    pub fn on_pair(pair: &Pair) -> Task {
        Task {
            index: 0,
            kind: Kind::MultiHop,
            chunks: vec![pair.a, pair.b],
            term: Some(pair.term.clone()),
            attempt: 0,
            questions: 1,
        }
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
    /// Chunks with enough content to ask about (indices into the chunk list); top-up rounds
    /// pick from these too.
    #[serde(skip)]
    pub eligible: Vec<usize>,
    /// Which chunks may be paired; top-up rounds pair as the plan did.
    #[serde(skip)]
    pub pairing: Pairing,
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
}

/// A stable 64-bit hash of the seed and some labels.
pub fn stable_hash(seed: u64, parts: &[&str]) -> u64 {
    let mut h = Sha256::new();
    h.update(seed.to_le_bytes());
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    let d = h.finalize();
    u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
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
pub fn plan(chunks: &[Chunk], n: usize, mix: Mix, seed: u64) -> Plan {
    plan_paired(chunks, Pairing::default(), n, mix, seed)
}

/// [`plan`], multi-hop pairs as `pairing` allows.
pub fn plan_paired(chunks: &[Chunk], pairing: Pairing, n: usize, mix: Mix, seed: u64) -> Plan {
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut eligible = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        match low_content(&c.text) {
            Some(r) => *skipped.entry(r.as_str()).or_default() += 1,
            None => eligible.push(i),
        }
    }
    let mut notes = Vec::new();
    let keys = [0u64; 3];
    let counts = apportion(&[mix.lookup, mix.multi_hop, mix.unanswerable], n, &keys);
    let (mut n_single, n_multi, n_unans) = (counts[0], counts[1], counts[2]);
    if eligible.is_empty() {
        if n > 0 {
            notes.push("no chunk has enough content to ask about".to_string());
        }
        return Plan {
            tasks: Vec::new(),
            chunks: chunks.len(),
            skipped,
            notes,
            eligible,
            pairing,
        };
    }

    let mut tasks = Vec::new();
    let multi = pick_pairs(chunks, &eligible, &pairing, n_multi, seed);
    if multi.len() < n_multi {
        let moved = n_multi - multi.len();
        notes.push(format!(
            "only {} multi-hop pair(s) of documents share a rare term; {moved} slot(s) moved to lookup",
            multi.len()
        ));
        n_single += moved;
    }
    tasks.extend(spread(chunks, &eligible, Kind::SingleHop, n_single, seed));
    tasks.extend(multi);
    tasks.extend(spread(chunks, &eligible, Kind::Unanswerable, n_unans, seed));
    for (i, t) in tasks.iter_mut().enumerate() {
        t.index = i;
    }
    Plan {
        tasks,
        chunks: chunks.len(),
        skipped,
        notes,
        eligible,
        pairing,
    }
}

/// Tasks asking `k` questions of `kind` about single chunks: documents in proportion to their
/// eligible text, chunks evenly spaced inside each document from a seeded offset; lookups in
/// groups of [`LOOKUPS_PER_CALL`] per chunk.
fn spread(chunks: &[Chunk], eligible: &[usize], kind: Kind, k: usize, seed: u64) -> Vec<Task> {
    let mut by_doc: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in eligible {
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
    let per_call = per_call(kind) as usize;
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
            tasks.push(Task {
                questions: per_call as u32,
                ..Task::on_chunk(kind, chunk, attempt)
            });
        }
    }
    // The last task asks for what is left when `k` is not a multiple of `per_call`.
    let extra = (tasks.len() * per_call).saturating_sub(k) as u32;
    if let Some(last) = tasks.last_mut() {
        last.questions -= extra;
    }
    tasks
}

/// Questions one task of `kind` asks for at most.
pub fn per_call(kind: Kind) -> u32 {
    match kind {
        Kind::SingleHop => LOOKUPS_PER_CALL,
        Kind::MultiHop | Kind::Unanswerable => 1,
    }
}

/// Multi-hop pairs among `eligible`, best first; among equally good pairs, the seed decides.
pub fn ranked_pairs(chunks: &[Chunk], eligible: &[usize], pairing: &Pairing, seed: u64) -> Vec<Pair> {
    let mut pairs = find_pairs(chunks, eligible, pairing);
    pairs.sort_by(|x, y| {
        y.score.total_cmp(&x.score).then_with(|| {
            let hx = stable_hash(seed, &[&chunks[x.a].id, &chunks[x.b].id]);
            let hy = stable_hash(seed, &[&chunks[y.a].id, &chunks[y.b].id]);
            hx.cmp(&hy)
        })
    });
    pairs
}

/// Up to `k` multi-hop tasks from the best pairs, each chunk used once and each document at
/// most its fair share of times where the pairs allow.
fn pick_pairs(chunks: &[Chunk], eligible: &[usize], pairing: &Pairing, k: usize, seed: u64) -> Vec<Task> {
    if k == 0 {
        return Vec::new();
    }
    let pairs = ranked_pairs(chunks, eligible, pairing, seed);
    let n_docs = pairs
        .iter()
        .flat_map(|p| [chunks[p.a].doc.as_str(), chunks[p.b].doc.as_str()])
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        .max(1);
    let cap = (2 * k).div_ceil(n_docs);
    let mut used_chunk = std::collections::BTreeSet::new();
    let mut per_doc: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tasks = Vec::new();
    for relax in [false, true] {
        for p in &pairs {
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
            tasks.push(Task::on_pair(p));
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
        assert_eq!((m.lookup, m.multi_hop, m.unanswerable), (0.75, 0.0, 0.25));
        assert!(
            "lookup=x"
                .parse::<Mix>()
                .unwrap_err()
                .to_string()
                .contains("lookup=x")
        );
        assert!("bogus=1".parse::<Mix>().is_err());
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
        let p = plan(&chunks, 8, mix, 7);
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
        assert_eq!(plan(&chunks, 8, mix, 7).tasks, p.tasks);
        // Lookups come two to a chunk: 8 questions on 4 chunks, 3 of them in big.md.
        let lookups = plan(&chunks, 8, "lookup=1".parse().unwrap(), 7);
        assert_eq!(lookups.count(Kind::SingleHop), 8);
        assert_eq!(lookups.tasks.len(), 4);
        assert!(lookups.tasks.iter().all(|t| t.questions == 2));
    }

    #[test]
    fn missing_pairs_move_slots_to_lookup() {
        let chunks: Vec<Chunk> = (0..3).map(|n| chunk("one.md", n, &prose("gamma"))).collect();
        let p = plan(&chunks, 5, Mix::default(), 1);
        assert_eq!(p.count(Kind::MultiHop), 0);
        assert_eq!(p.count(Kind::SingleHop), 4);
        assert_eq!(p.count(Kind::Unanswerable), 1);
        assert!(p.notes[0].contains("moved to lookup"));
        // More tasks than chunks: reuses chunks with a new attempt number.
        let p = plan(&chunks, 5, "unanswerable=1".parse().unwrap(), 1);
        assert!(p.tasks.iter().any(|t| t.attempt > 0));
    }
}
