//! Finding long passages — another tool's contexts, often whole documents or chunks extracted
//! by a different PDF or HTML converter — anywhere in a corpus, by an index lookup and one
//! local alignment instead of a scan of every document.
//!
//! Text is compared as its *skeleton*: letters and digits only, lower-cased, ligatures spelled
//! out. White space, punctuation, Markdown marks and hyphenation at line ends vanish from the
//! skeleton, so "infor-\nmation", "**information**" and "information" are the same 11 letters,
//! and a converter that split "comprehe nsive" still matches. The index holds the hash of the
//! 12-letter gram starting at every 4th skeleton position of every document. A passage looks up
//! every one of its grams; hits vote for a document and a diagonal (document position − passage
//! position), and the densest stretch of diagonals names where the passage lies. That stretch
//! is then compared with the passage: byte-exact in the original text, equal skeletons, or an
//! anchored edit distance ([`super::align`]) above the similarity threshold.

use memchr::memmem;

use super::align::Anchored;
use super::{Found, Match};
use crate::chunk::CharIndex;
use crate::corpus::Corpus;

/// Letters per indexed gram.
const GRAM: usize = 12;
/// Every how many skeleton positions a document gram is indexed.
const STRIDE: usize = 4;
/// A gram found more often than this is boilerplate and votes for nothing.
const MAX_HITS: usize = 64;

/// A text's skeleton and, per skeleton letter, the character offset it came from.
struct Skeleton {
    chars: Vec<char>,
    map: Vec<u32>,
}

/// Appends the skeleton form of `c` (nothing for white space and punctuation).
fn skeleton_of(c: char, out: &mut impl FnMut(char)) {
    match c {
        '\u{FB00}' => "ff".chars().for_each(out),
        '\u{FB01}' => "fi".chars().for_each(out),
        '\u{FB02}' => "fl".chars().for_each(out),
        '\u{FB03}' => "ffi".chars().for_each(out),
        '\u{FB04}' => "ffl".chars().for_each(out),
        '\u{FB05}' | '\u{FB06}' => "st".chars().for_each(out),
        c if c.is_alphanumeric() => c.to_lowercase().for_each(out),
        _ => {}
    }
}

/// Calls `out(letter, char offset)` for every skeleton letter of `text`. Besides white space
/// and punctuation, two kinds of markup leave no letters: the target of a Markdown link or
/// image (`[text](target)`), which no converter shows, and an HTML tag (`<br>`, `</td>`),
/// which converters put inside table cells. A section dense with links or a table would
/// otherwise read as another text than its extraction.
fn skeleton_walk(text: &str, mut out: impl FnMut(char, usize)) {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '(' && i > 0 && chars[i - 1] == ']' {
            let close = chars[i..].iter().take(400).position(|&c| c == ')' || c == '\n');
            if let Some(k) = close.filter(|&k| chars[i + k] == ')') {
                i += k + 1;
                continue;
            }
        }
        if c == '<'
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == '/')
        {
            let close = chars[i + 1..]
                .iter()
                .take(40)
                .position(|&c| c == '>' || c == '<' || c == '\n');
            if let Some(k) = close.filter(|&k| chars[i + 1 + k] == '>') {
                i += k + 2;
                continue;
            }
        }
        skeleton_of(c, &mut |s| out(s, i));
        i += 1;
    }
}

impl Skeleton {
    fn new(text: &str) -> Skeleton {
        let mut chars = Vec::with_capacity(text.len());
        let mut map = Vec::with_capacity(text.len());
        skeleton_walk(text, |s, i| {
            chars.push(s);
            map.push(i as u32);
        });
        Skeleton { chars, map }
    }
}

fn skeleton_chars(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    skeleton_walk(text, |s, _| out.push(s));
    out
}

fn hash(gram: &[char]) -> u64 {
    gram.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, &c| {
        (h.rotate_left(5) ^ u64::from(c)).wrapping_mul(0x517c_c1b7_2722_0a95)
    })
}

/// A corpus prepared for locating passages.
pub struct CorpusIndex<'c> {
    corpus: &'c Corpus,
    docs: Vec<Skeleton>,
    /// (gram hash, document, skeleton position), sorted.
    grams: Vec<(u64, u32, u32)>,
}

/// Where a passage seems to lie: its document, the stretch that holds it in order and the
/// one that holds it in any order (skeleton ranges), and the diagonal voted most often.
struct Stretch {
    doc: usize,
    ordered: (usize, usize),
    any_order: (usize, usize),
    mode: i64,
}

/// Letters per gram when measuring how much of a passage a stretch holds in any order: short
/// enough that the lines of a table cell, read in another order and with a page header between
/// them, keep most of their grams.
const COVER: usize = 6;

/// The share of the passage's grams that occur anywhere in `region`.
fn gram_coverage(region: &[char], q: &[char]) -> f32 {
    if q.len() < COVER || region.len() < COVER {
        return 0.0;
    }
    let have: rustc_hash::FxHashSet<u64> = region.windows(COVER).map(hash).collect();
    let found = q.windows(COVER).filter(|g| have.contains(&hash(g))).count();
    found as f32 / (q.len() - COVER + 1) as f32
}

/// One vote: the document, the diagonal, and where in the passage it was cast.
#[derive(Clone, Copy)]
struct Hit {
    doc: u32,
    diag: i64,
    at: usize,
}

impl<'c> CorpusIndex<'c> {
    /// Indexes every document of `corpus`.
    pub fn new(corpus: &'c Corpus) -> CorpusIndex<'c> {
        let docs: Vec<Skeleton> = corpus.docs.iter().map(|d| Skeleton::new(&d.text)).collect();
        let mut grams = Vec::new();
        for (d, s) in docs.iter().enumerate() {
            for p in (0..s.chars.len().saturating_sub(GRAM - 1)).step_by(STRIDE) {
                grams.push((hash(&s.chars[p..p + GRAM]), d as u32, p as u32));
            }
        }
        grams.sort_unstable();
        CorpusIndex { corpus, docs, grams }
    }

    /// The corpus indexed.
    pub fn corpus(&self) -> &'c Corpus {
        self.corpus
    }

    /// Documents a tool's file name points at (DeepEval's `source_file`, a Ragas metadata
    /// source): same file stem, compared as letters and digits only, or the same path.
    pub fn docs_named(&self, name: &str) -> Vec<usize> {
        let key = |p: &str| -> String {
            let file = p.rsplit(['/', '\\']).next().unwrap_or(p);
            let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
            skeleton_chars(stem).into_iter().collect()
        };
        let want = key(name);
        self.corpus
            .docs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.path == name || (!want.is_empty() && key(&d.path) == want))
            .map(|(i, _)| i)
            .collect()
    }

    /// Where `passage` is in the corpus: a document index and the span found. Documents in
    /// `prefer` are tried first; a fuzzy match needs `min_similarity`.
    pub fn locate(&self, passage: &str, prefer: &[usize], min_similarity: f32) -> Option<(usize, Found)> {
        let passage = passage.trim();
        let q = skeleton_chars(passage);
        if q.len() < 2 * GRAM {
            return self.short(passage, prefer, min_similarity);
        }
        let hits = self.hits(&q);
        let best = |only: Option<&[usize]>| {
            self.best_stretch(&hits, q.len(), only)
                .and_then(|st| self.compare(passage, &q, &st, min_similarity))
                .filter(|(_, f)| f.similarity >= min_similarity)
        };
        if !prefer.is_empty()
            && let Some(found) = best(Some(prefer))
        {
            return Some(found);
        }
        best(None)
    }

    fn hits(&self, q: &[char]) -> Vec<Hit> {
        let mut hits = Vec::new();
        for at in 0..=q.len() - GRAM {
            let h = hash(&q[at..at + GRAM]);
            let from = self.grams.partition_point(|g| g.0 < h);
            let to = from + self.grams[from..].partition_point(|g| g.0 == h);
            if to - from > MAX_HITS {
                continue;
            }
            for &(_, doc, p) in &self.grams[from..to] {
                hits.push(Hit {
                    doc,
                    diag: i64::from(p) - at as i64,
                    at,
                });
            }
        }
        hits
    }

    /// The document and stretch with the most votes on diagonals within a passage length of
    /// each other (one occurrence, however reordered), with the diagonal voted most often.
    fn best_stretch(&self, hits: &[Hit], len: usize, only: Option<&[usize]>) -> Option<Stretch> {
        let mut hits: Vec<Hit> = hits
            .iter()
            .copied()
            .filter(|h| only.is_none_or(|o| o.contains(&(h.doc as usize))))
            .collect();
        hits.sort_unstable_by_key(|h| (h.doc, h.diag));
        let width = (len as i64).max(64);
        let mut best: Option<(usize, usize, usize)> = None; // (votes, from, to) in `hits`
        let mut from = 0;
        for to in 0..hits.len() {
            while hits[from].doc != hits[to].doc || hits[to].diag - hits[from].diag > width {
                from += 1;
            }
            if best.is_none_or(|b| to + 1 - from > b.0) {
                best = Some((to + 1 - from, from, to + 1));
            }
        }
        let (_, from, to) = best?;
        let stretch = &hits[from..to];
        let doc = stretch[0].doc as usize;
        let skel_len = self.docs[doc].chars.len() as i64;
        let mode = stretch
            .chunk_by(|a, b| a.diag == b.diag)
            .max_by_key(|run| run.len())
            .map(|run| run[0].diag)?;
        // The passage in order: hits near the main diagonal (drift from inserted or dropped
        // text allowed up to an eighth of it).
        let drift = (len as i64 / 8).max(64);
        let mut near: Vec<&Hit> = stretch
            .iter()
            .filter(|h| (h.diag - mode).abs() <= drift)
            .collect();
        near.sort_unstable_by_key(|h| h.at);
        // A lone gram that also occurs just before or after the passage ("Retention policies"
        // above "A retention policy") jumps to another diagonal between neighbouring hits
        // than an edit could: such hits are left off the ends.
        let jumps = |a: &Hit, b: &Hit| (b.diag - a.diag).abs() > (b.at as i64 - a.at as i64).abs() / 2 + 4;
        let (mut lo_i, mut hi_i) = (0, near.len().checked_sub(1)?);
        while lo_i < hi_i && jumps(near[lo_i], near[lo_i + 1]) {
            lo_i += 1;
        }
        while hi_i > lo_i && jumps(near[hi_i - 1], near[hi_i]) {
            hi_i -= 1;
        }
        let (first, last) = (near[lo_i], near[hi_i]);
        let start = first.diag.clamp(0, skel_len) as usize;
        let end = (last.diag + len as i64).clamp(start as i64, skel_len) as usize;
        // The passage in any order: every document position voted for.
        let lo = stretch
            .iter()
            .map(|h| h.diag + h.at as i64)
            .min()?
            .clamp(0, skel_len) as usize;
        let hi = stretch
            .iter()
            .map(|h| h.diag + h.at as i64 + GRAM as i64)
            .max()?
            .clamp(0, skel_len) as usize;
        Some(Stretch {
            doc,
            ordered: (start, end),
            any_order: (lo.min(start), hi.max(end)),
            mode,
        })
    }

    /// Compares the passage with the stretch found: exactly, by skeleton, by edit distance,
    /// then — for text another converter laid out in another order, such as the columns of a
    /// table read down instead of across — by the share of the passage's 8-letter grams the
    /// stretch holds, when the stretch is at most three times the passage (a two-column table
    /// row holds the other column between the lines of this one).
    fn compare(
        &self,
        passage: &str,
        q: &[char],
        st: &Stretch,
        min_similarity: f32,
    ) -> Option<(usize, Found)> {
        let doc = st.doc;
        let text = &self.corpus.docs[doc].text;
        let s = &self.docs[doc];
        if let Some(b) = memmem::find(text.as_bytes(), passage.as_bytes()) {
            let idx = CharIndex::new(text);
            let start = idx.char_of(b);
            return Some((
                doc,
                found(start, start + passage.chars().count(), 1.0, Match::Exact),
            ));
        }
        let span = |from: usize, to: usize| (s.map[from] as usize, s.map[to - 1] as usize + 1);
        if st.mode >= 0 && (st.mode as usize + q.len()) <= s.chars.len() {
            let m = st.mode as usize;
            if s.chars[m..m + q.len()] == *q {
                let (a, b) = span(m, m + q.len());
                return Some((doc, found(a, b, 1.0, Match::Normalized)));
            }
        }
        let (start, end) = st.ordered;
        let mut best = None;
        if end > start {
            let region = &s.chars[start..end];
            let distance = Anchored::new(region, q).distance(0..region.len());
            let similarity = 1.0 - distance as f32 / region.len().max(q.len()) as f32;
            let (a, b) = span(start, end);
            best = Some((doc, found(a, b, similarity, Match::Fuzzy)));
            if similarity >= min_similarity {
                return best;
            }
        }
        let (lo, hi) = st.any_order;
        if hi > lo && hi - lo <= q.len() * 3 {
            let coverage = gram_coverage(&s.chars[lo..hi], q);
            if best.is_none_or(|(_, f)| coverage > f.similarity) {
                let (a, b) = span(lo, hi);
                best = Some((doc, found(a, b, coverage, Match::Fuzzy)));
            }
        }
        best
    }

    /// A passage too short to index: the word-level search of [`super::locate`], preferred
    /// documents first.
    fn short(&self, passage: &str, prefer: &[usize], min_similarity: f32) -> Option<(usize, Found)> {
        let search = |docs: &mut dyn Iterator<Item = usize>| {
            docs.filter_map(|d| {
                super::locate(&self.corpus.docs[d].text, passage, None, min_similarity).map(|f| (d, f))
            })
            .max_by(|a, b| a.1.similarity.total_cmp(&b.1.similarity).then(b.0.cmp(&a.0)))
        };
        search(&mut prefer.iter().copied()).or_else(|| search(&mut (0..self.corpus.docs.len())))
    }
}

fn found(start: usize, end: usize, similarity: f32, how: Match) -> Found {
    Found {
        start,
        end,
        similarity,
        how,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{DocKind, Document};

    fn corpus(docs: &[(&str, &str)]) -> Corpus {
        Corpus {
            docs: docs
                .iter()
                .map(|(p, t)| Document {
                    path: p.to_string(),
                    text: t.to_string(),
                    kind: DocKind::Markdown,
                    sha256: String::new(),
                })
                .collect(),
            ..Corpus::default()
        }
    }

    const POLICY: &str = "# Retention\n\nSnapshots are kept for **thirty days** on the free plan. After that the \
        archive tier moves them to cold storage, where they stay for ten years unless a legal hold applies.\n";

    #[test]
    fn exact_skeleton_and_fuzzy_matches_with_their_spans() {
        let c = corpus(&[
            (
                "other.md",
                "Nothing about storage here at all, only invoices and billing.",
            ),
            ("policy.md", POLICY),
        ]);
        let idx = CorpusIndex::new(&c);
        let (d, f) = idx
            .locate("archive tier moves them to cold storage", &[], 0.8)
            .unwrap();
        assert_eq!((d, f.how), (1, Match::Exact));
        // Another converter: markup gone, a line-end hyphen, a split word.
        let extracted = "Snapshots are kept for thirty days on the free plan. After that the ar-\nchive tier mo ves them to cold storage";
        let (d, f) = idx.locate(extracted, &[], 0.8).unwrap();
        assert_eq!((d, f.how), (1, Match::Normalized));
        let span: String = POLICY.chars().skip(f.start).take(f.end - f.start).collect();
        assert!(
            span.starts_with("Snapshots") && span.ends_with("cold storage"),
            "{span}"
        );
        // A reworded passage: fuzzy, still in the right place.
        let reworded = "Snapshots are retained for thirty days on the free plan. After that the archive tier moves them into cold storage";
        let (d, f) = idx.locate(reworded, &[], 0.8).unwrap();
        assert_eq!((d, f.how), (1, Match::Fuzzy));
        assert!(f.similarity > 0.85, "{}", f.similarity);
        assert!(
            idx.locate(
                "A passage about quarterly revenue and marketing budgets that is nowhere",
                &[],
                0.8
            )
            .is_none()
        );
    }

    #[test]
    fn a_table_read_down_its_columns_is_found_and_a_paraphrase_is_not() {
        let left = [
            "Escape of water from any fixed water tank or pipe",
            "Theft or attempted theft by forcible entry",
            "Storm or flood damage to the buildings",
            "Subsidence heave or landslip of the site",
        ];
        let right = [
            "Damage caused by wear and tear or gradual deterioration",
            "Loss when the home is left unoccupied",
            "Damage to gates hedges and fences",
            "Damage caused by coastal or river erosion",
        ];
        let rows: String = left
            .iter()
            .zip(right)
            .map(|(l, r)| format!("| {l} | {r} |\n"))
            .collect();
        let doc = format!(
            "# Buildings\n\n| What is covered | What is not covered |\n|---|---|\n{rows}\nClaims are paid within 30 days.\n"
        );
        let c = corpus(&[
            ("policy.md", &doc),
            ("other.md", "Invoices are sent monthly to the billing contact."),
        ]);
        let idx = CorpusIndex::new(&c);
        // A PDF extractor reads the left column, then the right one.
        let extracted = format!(
            "What is covered\n{}\nWhat is not covered\n{}",
            left.join("\n"),
            right.join("\n")
        );
        let (d, f) = idx.locate(&extracted, &[], 0.8).expect("found in any order");
        assert_eq!((d, f.how), (0, Match::Fuzzy));
        assert!(f.similarity >= 0.8, "{}", f.similarity);
        let paraphrase = "Water escaping from tanks, thefts with forced entry, storms and floods, and subsidence are \
            covered, while wear, unoccupied homes, garden fences and erosion are not.";
        assert!(idx.locate(paraphrase, &[], 0.8).is_none());
    }

    #[test]
    fn a_heading_that_repeats_the_first_words_is_left_out_of_the_span() {
        let doc = "# Retention policies\n\nA retention policy decides which snapshots a repository \
                   keeps, and prune deletes the chunks that no snapshot references any more.\n";
        let c = corpus(&[("retention.md", doc)]);
        let idx = CorpusIndex::new(&c);
        let passage = "A retention policy determines which snapshots a repository keeps, and prune \
                       deletes the chunks that no snapshot references any more.";
        let (_, f) = idx.locate(passage, &[], 0.8).unwrap();
        let span: String = doc.chars().skip(f.start).take(f.end - f.start).collect();
        assert!(span.starts_with("A retention policy decides"), "{span}");
    }

    #[test]
    fn link_targets_are_not_text() {
        let doc = "Read [Part 2: Basic Evaluation Workflow](https://example.org/blog/basic-evaluation-workflow/) \
            and [Part 3: Evaluating RAG Systems](https://example.org/blog/evaluating-rag-systems/)<br>next week.";
        let c = corpus(&[("blog.md", doc)]);
        let idx = CorpusIndex::new(&c);
        let (_, f) = idx
            .locate(
                "Read Part 2: Basic Evaluation Workflow and Part 3: Evaluating RAG Systems next week.",
                &[],
                0.8,
            )
            .unwrap();
        assert_eq!((f.how, f.start), (Match::Normalized, 0));
    }

    #[test]
    fn file_names_narrow_the_search() {
        let c = corpus(&[("docs/sample_policy.md", POLICY), ("copy.md", POLICY)]);
        let idx = CorpusIndex::new(&c);
        assert_eq!(idx.docs_named("evaluation/data/Sample-Policy.pdf"), [0]);
        assert_eq!(idx.docs_named("copy.md"), [1]);
        let (d, _) = idx
            .locate("Snapshots are kept for thirty days on the free plan", &[1], 0.8)
            .unwrap();
        assert_eq!(d, 1);
    }
}
