//! A corpus cut into chunks once, for every command: the chunks in corpus order, each
//! document's run of them, and the BM25 index over them, built the first time it is asked for.
//!
//! Labels are tied to chunks here and nowhere else: [`ChunkedCorpus::overlapping`] (the chunks
//! a span touches), [`ChunkedCorpus::holding`] (the one chunk that best stands for a span) and
//! [`ChunkedCorpus::label_chunk`] (the chunk id a label derives under this chunking).

use std::collections::HashMap;
use std::ops::{Deref, Range};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::Result;
use crate::chunk::{CharIndex, Chunk, Chunker, Chunking};
use crate::corpus::Corpus;
use crate::index::{Bm25Index, Bm25Params};
use crate::lang::{self, Language};
use crate::testset::{Label, QuestionType};

use super::passages::Passages;

/// Every chunk of a corpus under one chunking, with per-document lookup and a lazily built
/// BM25 index. Dereferences to the chunks, in corpus order (a chunk's position is its index in
/// [`ChunkedCorpus::bm25`]).
#[derive(Debug, Clone)]
pub struct ChunkedCorpus {
    chunking: Chunking,
    chunks: Vec<Chunk>,
    by_doc: HashMap<String, Range<usize>>,
    /// Each chunk's language (see [`ChunkedCorpus::language_of`]).
    languages: Vec<Language>,
    /// The corpus's main language.
    language: Language,
    bm25: OnceLock<Bm25Index>,
    vocabulary: OnceLock<crate::style::Vocabulary>,
    /// The documents' blank-line paragraphs, and BM25 over them built on first use.
    passages: Passages,
    passage_bm25: OnceLock<Bm25Index>,
    /// Whether each chunk is one passage (see [`Passages::one_per_chunk`]).
    one_grain: OnceLock<bool>,
}

impl ChunkedCorpus {
    /// Chunks every document of `corpus` (in parallel); no corpus gives no chunks.
    pub fn new(corpus: Option<&Corpus>, chunking: &Chunking) -> Result<ChunkedCorpus> {
        let chunker = Chunker::new(chunking.clone())?;
        let per_doc: Vec<(Vec<Chunk>, Vec<Language>)> = match corpus {
            Some(c) => {
                // Told here, before the parallel loop: the detection runs on rayon itself.
                let doc_languages: Vec<Language> = (0..c.docs.len()).map(|i| c.language_of(i)).collect();
                c.docs
                    .par_iter()
                    .zip(doc_languages.par_iter())
                    .map(|(d, &doc_language)| {
                        let chunks = chunker.chunk(d);
                        let languages = chunks
                            .iter()
                            .map(|ch| chunk_language(&ch.text, doc_language, c.language.is_some()))
                            .collect();
                        (chunks, languages)
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let mut passages = Passages::default();
        for d in corpus.map_or(&[][..], |c| &c.docs[..]) {
            passages.push_doc(&d.path, &d.text);
        }
        let mut by_doc = HashMap::new();
        let mut chunks = Vec::new();
        let mut languages = Vec::new();
        for (doc_chunks, doc_languages) in per_doc {
            if let Some(first) = doc_chunks.first() {
                by_doc.insert(first.doc.clone(), chunks.len()..chunks.len() + doc_chunks.len());
            }
            chunks.extend(doc_chunks);
            languages.extend(doc_languages);
        }
        Ok(ChunkedCorpus {
            chunking: chunking.clone(),
            chunks,
            by_doc,
            languages,
            language: corpus.map_or(Language::ENGLISH, Corpus::main_language),
            bm25: OnceLock::new(),
            vocabulary: OnceLock::new(),
            passages,
            passage_bm25: OnceLock::new(),
            one_grain: OnceLock::new(),
        })
    }

    /// The chunking the chunks were cut under.
    pub fn chunking(&self) -> &Chunking {
        &self.chunking
    }

    /// The language chunk `i` is read in.
    pub fn language_of(&self, i: usize) -> Language {
        self.languages.get(i).copied().unwrap_or(self.language)
    }

    /// The corpus's main language (what a query of no known language is read in).
    pub fn language(&self) -> Language {
        self.language
    }

    /// The words of the chunks, to tell a typo from a word the corpus has; built on first use
    /// (generate's style target and restyle, and the audit's comparison, all read it).
    pub fn vocabulary(&self) -> &crate::style::Vocabulary {
        self.vocabulary
            .get_or_init(|| crate::style::Vocabulary::of(self.chunks.iter().map(|c| c.text.as_str())))
    }

    /// BM25 over the chunks (position = index into the chunks), built on first use with each
    /// chunk's terms in its own language, extracted in parallel. A parallel loop that reads it should
    /// call this once before it starts: the build itself runs on rayon, and a worker blocked
    /// on it inside such a loop could be handed another item that asks for it again.
    pub fn bm25(&self) -> &Bm25Index {
        self.bm25.get_or_init(|| {
            let terms: Vec<Vec<String>> = self
                .chunks
                .par_iter()
                .enumerate()
                .map(|(i, c)| self.language_of(i).analyzer().content_terms(&c.text))
                .collect();
            Bm25Index::from_terms(terms, Bm25Params::default()).in_language(self.language)
        })
    }

    /// Positions of the chunks of `doc`.
    pub fn range_of(&self, doc: &str) -> Range<usize> {
        self.by_doc.get(doc).cloned().unwrap_or(0..0)
    }

    /// The chunks of `doc`, in order (none when it is not in the corpus).
    pub fn of_doc(&self, doc: &str) -> &[Chunk] {
        &self.chunks[self.range_of(doc)]
    }

    /// Positions of the chunks of `doc` that overlap the character span `start..end` (a point
    /// span counts the chunk containing it).
    pub fn overlapping(&self, doc: &str, start: usize, end: usize) -> Vec<usize> {
        self.range_of(doc)
            .filter(|&i| {
                let c = &self.chunks[i];
                c.start < end.max(start + 1) && start < c.end
            })
            .collect()
    }

    /// Positions of the chunks `labels` lie in (each once, in corpus order): a case's labelled
    /// source, as the audit's overlap figures read it.
    pub fn labelled(&self, labels: &[Label]) -> Vec<usize> {
        let mut source: Vec<usize> = labels
            .iter()
            .flat_map(|l| self.overlapping(&l.doc, l.start, l.end))
            .collect();
        source.sort_unstable();
        source.dedup();
        source
    }

    /// The text of the chunks `labels` lie in ([`ChunkedCorpus::labelled`]), joined by a blank
    /// line: what a question's copied runs are counted against, by the audit (RS101) and by
    /// `generate` alike.
    pub fn labelled_text(&self, labels: &[Label]) -> String {
        self.labelled(labels)
            .iter()
            .map(|&i| self.chunks[i].text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// The chunk of `doc` a character span belongs to: the first that holds all of it, else
    /// the one that overlaps it most (the earlier one on a tie); `None` when none touches it.
    pub fn holding(&self, doc: &str, start: usize, end: usize) -> Option<&Chunk> {
        holding(self.of_doc(doc), start, end)
    }

    /// The BM25 rank among all chunks at which keyword search has found `evidence` of the
    /// chunks `labels` lie in, for `question` read in `language`; `None` when no label lies in
    /// a chunk.
    pub fn rank(
        &self,
        question: &str,
        language: Language,
        labels: &[Label],
        evidence: Evidence,
    ) -> Option<usize> {
        let terms = language.analyzer().content_terms(question);
        rank_among(self.bm25(), &terms, labels, evidence, |ls| self.labelled(ls))
    }

    /// How keyword search finds the source of a question labelled `labels`, as the audit
    /// measures it: its [`rank`](Self::rank), and the share of the question's distinct content
    /// terms that the labelled chunks hold. `None` when no label lies in a chunk.
    pub fn difficulty(
        &self,
        question: &str,
        language: Language,
        labels: &[Label],
        evidence: Evidence,
    ) -> Option<(usize, f32)> {
        let rank = self.rank(question, language, labels, evidence)?;
        let source = self.labelled(labels);
        let index = self.bm25();
        let mut terms = language.analyzer().content_terms(question);
        terms.sort();
        terms.dedup();
        let held = terms
            .iter()
            .filter(|t| source.iter().any(|&d| index.has_term(d, t)))
            .count();
        let containment = if terms.is_empty() {
            0.0
        } else {
            held as f32 / terms.len() as f32
        };
        Some((rank, containment))
    }

    /// Whether each chunk is one passage, so that a passage's rank is its chunk's (a corpus
    /// chunked by paragraph, or of paragraphs shorter than a chunk each cut alone).
    pub fn one_grain(&self) -> bool {
        *self.one_grain.get_or_init(|| {
            self.passages
                .one_per_chunk(&self.chunks, |doc| self.range_of(doc))
        })
    }

    /// BM25 over the documents' passages (their blank-line paragraphs, see
    /// [`super::passages`]), built on first use; each passage's terms in the language of the
    /// chunk it starts in. A parallel loop that ranks passages should call this once before it
    /// starts (see [`ChunkedCorpus::bm25`]).
    pub fn passage_bm25(&self) -> &Bm25Index {
        self.passage_bm25.get_or_init(|| {
            let texts = self.passages.texts(&self.chunks, |doc| self.range_of(doc));
            let terms: Vec<Vec<String>> = texts
                .par_iter()
                .map(|(text, home)| self.language_of(*home).analyzer().content_terms(text))
                .collect();
            Bm25Index::from_terms(terms, Bm25Params::default()).in_language(self.language)
        })
    }

    /// The BM25 rank, among all the corpus's passages, at which `evidence` of the passages the
    /// labels overlap has been found (a label's other passages are no competitors of it): how
    /// keyword search finds the paragraph the answer stands in, not only its chunk. `None` when
    /// no label lies in a passage.
    pub fn passage_rank(
        &self,
        question: &str,
        language: Language,
        labels: &[Label],
        evidence: Evidence,
    ) -> Option<usize> {
        if self.one_grain() {
            return self.rank(question, language, labels, evidence);
        }
        let terms = language.analyzer().content_terms(question);
        rank_among(self.passage_bm25(), &terms, labels, evidence, |ls| {
            self.passages.labelled(ls)
        })
    }

    /// The chunk `label` derives under this chunking (`text` indexes its document): the chunk
    /// that holds the whole span (a label spanning a chunk names that chunk), else the one
    /// that holds — or overlaps most — the quote.
    pub fn label_chunk(&self, text: &CharIndex<'_>, label: &Label) -> Option<&Chunk> {
        let chunks = self.of_doc(&label.doc);
        chunks
            .iter()
            .find(|c| c.start <= label.start && label.end <= c.end)
            .or_else(|| {
                let (start, end) = quote_range(text, label);
                holding(chunks, start, end)
            })
    }
}

impl Deref for ChunkedCorpus {
    type Target = [Chunk];
    fn deref(&self) -> &[Chunk] {
        &self.chunks
    }
}

/// Which of a question's labels keyword search must find before the question is answered.
/// Ranking only the best of them flatters a question that needs two passages: a comparison
/// that names both things, or a multi-hop question that describes its bridge in hop 1's
/// words, finds one side first and counts as found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// Any one: each label answers the question alone (a fact quoted twice, judged
    /// alternatives).
    Any,
    /// Every one: a comparison's two sides, a multi-hop question's hops.
    Every,
}

impl Evidence {
    /// What a question of `kind` needs found.
    pub fn of(kind: Option<QuestionType>) -> Evidence {
        match kind {
            Some(QuestionType::Comparison | QuestionType::MultiHop) => Evidence::Every,
            _ => Evidence::Any,
        }
    }

    /// The rank by which this evidence of `labels` is found, given the items a group of labels
    /// covers and the rank of the best of a group of items; `None` when no label covers one.
    fn rank(
        self,
        labels: &[Label],
        covers: impl Fn(&[Label]) -> Vec<usize>,
        rank: impl Fn(&[usize]) -> usize,
    ) -> Option<usize> {
        match self {
            Evidence::Any => Some(covers(labels)).filter(|s| !s.is_empty()).map(|s| rank(&s)),
            Evidence::Every => labels
                .iter()
                .map(|l| covers(std::slice::from_ref(l)))
                .filter(|s| !s.is_empty())
                .map(|s| rank(&s))
                .max(),
        }
    }
}

/// See [`ChunkedCorpus::holding`]; `chunks` are one document's.
/// The language a chunk is read in: its document's, unless its text is written in another
/// script than its document's language (a Chinese passage in an English manual), then its own.
/// Comparing scripts is cheap; telling two languages of one script apart per chunk would cost
/// the audit of a large corpus more than the rest of its reading. A configured language holds
/// everywhere.
fn chunk_language(text: &str, doc_language: Language, configured: bool) -> Language {
    if configured || doc_language.writes(whatlang::detect_script(text)) {
        return doc_language;
    }
    lang::detect(text).unwrap_or(doc_language)
}

/// The rank at which keyword search with `terms` over `index` has found `evidence` of the
/// items `covers` gives for the labels (a label's other items are no competitors of it).
fn rank_among(
    index: &Bm25Index,
    terms: &[String],
    labels: &[Label],
    evidence: Evidence,
    covers: impl Fn(&[Label]) -> Vec<usize>,
) -> Option<usize> {
    evidence.rank(labels, covers, |group| {
        index.standing_among(terms, group, 1.0).found_rank()
    })
}

fn holding(chunks: &[Chunk], start: usize, end: usize) -> Option<&Chunk> {
    if let Some(c) = chunks.iter().find(|c| c.start <= start && end <= c.end) {
        return Some(c);
    }
    let overlap = |c: &Chunk| c.end.min(end).saturating_sub(c.start.max(start));
    chunks
        .iter()
        .enumerate()
        .filter(|(_, c)| overlap(c) > 0)
        .min_by_key(|(i, c)| (std::cmp::Reverse(overlap(c)), *i))
        .map(|(_, c)| c)
}

/// Where the label's quote sits: its first occurrence inside the span, else the whole span.
fn quote_range(text: &CharIndex<'_>, label: &Label) -> (usize, usize) {
    let quote = label.quote.as_str();
    if let Some(span) = text.slice(label.start, label.end)
        && !quote.is_empty()
        && let Some(b) = span.find(quote)
    {
        let start = label.start + span[..b].chars().count();
        return (start, start + quote.chars().count());
    }
    (label.start, label.end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{DocKind, Document};

    fn chunk(n: usize, start: usize, end: usize) -> Chunk {
        Chunk {
            id: format!("d.md#{n}"),
            doc: "d.md".into(),
            start,
            end,
            text: String::new(),
        }
    }

    fn corpus(text: String) -> Corpus {
        Corpus {
            docs: vec![Document {
                path: "d.txt".into(),
                text,
                kind: DocKind::Text,
                sha256: String::new(),
            }],
            ..Corpus::default()
        }
    }

    #[test]
    fn containing_chunk_wins_then_largest_overlap() {
        let chunks = [chunk(0, 0, 100), chunk(1, 90, 200), chunk(2, 190, 300)];
        assert_eq!(holding(&chunks, 95, 99).unwrap().id, "d.md#0");
        assert_eq!(holding(&chunks, 150, 195).unwrap().id, "d.md#1");
        assert_eq!(holding(&chunks, 180, 290).unwrap().id, "d.md#2");
        assert!(holding(&chunks, 300, 310).is_none());
    }

    #[test]
    fn a_label_spanning_a_chunk_names_that_chunk() {
        let text = (0..40)
            .map(|i| format!("Sentence number {i} is here. "))
            .collect::<String>();
        let corpus = corpus(text);
        let chunking = Chunking {
            size: 120,
            overlap: 40,
            ..Chunking::default()
        };
        let chunked = ChunkedCorpus::new(Some(&corpus), &chunking).unwrap();
        let chunks = chunked.of_doc("d.txt");
        let idx = CharIndex::new(&corpus.docs[0].text);
        let c = &chunks[2];
        // The chunk's first words also end the chunk before it (the overlap).
        let quote: String = c.text.chars().take(12).collect();
        assert!(chunks[1].text.contains(&quote));
        let mut label = Label {
            doc: "d.txt".into(),
            start: c.start,
            end: c.end,
            quote: quote.clone(),
            chunk: None,
            grade: None,
            extra: Default::default(),
        };
        assert_eq!(
            chunked.label_chunk(&idx, &label).map(|c| c.id.as_str()),
            Some(c.id.as_str())
        );
        label.end = label.start + quote.chars().count();
        assert_eq!(
            chunked.label_chunk(&idx, &label).map(|c| c.id.as_str()),
            Some(chunks[1].id.as_str())
        );
    }

    #[test]
    fn a_question_needing_both_labels_is_found_when_the_last_is() {
        let paragraphs = [
            "The Team plan costs 120 euros a year and includes five seats.",
            "The Business plan costs 400 euros a year and includes audit log export.",
            "The price of a plan is shown on the pricing page, with its price per seat.",
            "Every plan price is billed in euros; a price change applies at renewal.",
        ];
        let text = paragraphs.join("\n\n");
        let corpus = corpus(text.clone());
        let chunked = ChunkedCorpus::new(Some(&corpus), &Chunking::default()).unwrap();
        assert!(!chunked.one_grain(), "one chunk holds the four paragraphs");
        let label = |p: &str| {
            let start = text[..text.find(p).unwrap()].chars().count();
            Label {
                doc: "d.txt".into(),
                start,
                end: start + p.chars().count(),
                quote: p.into(),
                chunk: None,
                grade: None,
                extra: Default::default(),
            }
        };
        let labels = [label(paragraphs[0]), label(paragraphs[1])];
        let q = "how does the Team plan price compare";
        let rank = |evidence| chunked.passage_rank(q, Language::ENGLISH, &labels, evidence);
        assert_eq!(rank(Evidence::Any), Some(1));
        // The Business plan's paragraph says neither "team" nor "price": both price paragraphs
        // come before it.
        assert_eq!(rank(Evidence::Every), Some(4));
        assert_eq!(Evidence::of(Some(QuestionType::Comparison)), Evidence::Every);
        assert_eq!(Evidence::of(Some(QuestionType::Identifier)), Evidence::Any);
        // A question that shares no word with any paragraph finds nothing, not its source first.
        let none = chunked.passage_rank("zxqv wrpt", Language::ENGLISH, &labels[..1], Evidence::Any);
        assert_eq!(none, Some(crate::index::RANK_DEPTH + 1));
    }

    #[test]
    fn documents_keep_their_runs_and_the_index_their_positions() {
        let corpus = corpus("Refunds take fourteen days. ".repeat(100));
        let chunked = ChunkedCorpus::new(Some(&corpus), &Chunking::default()).unwrap();
        assert_eq!(chunked.range_of("d.txt"), 0..chunked.len());
        assert!(chunked.of_doc("other.md").is_empty());
        assert_eq!(chunked.overlapping("d.txt", 0, 0), vec![0]);
        assert_eq!(chunked.bm25().len(), chunked.len());
        assert!(ChunkedCorpus::new(None, &Chunking::default()).unwrap().is_empty());
    }
}
