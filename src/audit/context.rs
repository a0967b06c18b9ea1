//! What the audit builds once and every rule reads: the corpus, its chunks under the set's
//! chunking with their BM25 index (a [`ChunkedCorpus`] from the workspace core), and per case
//! the overlap figures.

use serde::Serialize;

use super::AuditConfig;
use crate::Result;
use crate::chunk::Chunking;
use crate::corpus::Corpus;
use crate::index::found_rank;
use crate::lang::{self, Language};
use crate::testset::Case;
use crate::wording::overlap::{CopiedRun, containment, copied_runs};
use crate::workspace::{ChunkedCorpus, Evidence};

/// The corpus side of an audit: built once, shared by every case.
pub struct AuditContext {
    /// The corpus, when one was found (without it, overlap and label rules have nothing to
    /// compare against and stay silent).
    pub corpus: Option<Corpus>,
    /// Every chunk, document by document in corpus order, with the BM25 index over them.
    pub chunks: ChunkedCorpus,
}

impl AuditContext {
    /// Chunks the corpus under `chunking` (see [`ChunkedCorpus::new`]).
    pub fn new(corpus: Option<Corpus>, chunking: &Chunking) -> Result<AuditContext> {
        let chunks = ChunkedCorpus::new(corpus.as_ref(), chunking)?;
        Ok(AuditContext::from_parts(corpus, chunks))
    }

    /// A context over chunks the caller already cut from `corpus`.
    pub fn from_parts(corpus: Option<Corpus>, chunks: ChunkedCorpus) -> AuditContext {
        // Every case reads the index: build it here, not lazily inside the parallel loop over
        // cases (a rayon worker waiting there could be handed another case and re-enter it).
        chunks.bm25();
        AuditContext { corpus, chunks }
    }

    /// Indices of the chunks of `doc` that overlap the character span `start..end` (a point
    /// span counts the chunk containing it).
    pub fn chunks_of(&self, doc: &str, start: usize, end: usize) -> Vec<usize> {
        self.chunks.overlapping(doc, start, end)
    }

    /// The language a case's question is read in: told from the question, else its source's
    /// (its labelled chunk's, else the corpus's main language), else from the question with its
    /// answer (see [`lang::detect_question`]).
    pub fn language_of(&self, case: &Case) -> Language {
        let source = case
            .relevant
            .iter()
            .find_map(|l| self.chunks_of(&l.doc, l.start, l.end).first().copied())
            .map(|i| self.chunks.language_of(i))
            .or_else(|| (!self.chunks.is_empty()).then(|| self.chunks.language()));
        lang::detect_question(&case.question, case.answer.as_deref(), source)
    }

    /// Figures for one case (see [`CaseFigures`]), its question read in `language`. The best
    /// other chunk is searched for only down to `1 / keyword_easy_margin` of the source's score
    /// (RS102's question: is any other chunk that close?); RS501 needs chunks that beat the
    /// source, always found.
    pub fn figures(&self, case: &Case, config: &AuditConfig, language: Language) -> CaseFigures {
        let words = crate::text::word_count(&case.question);
        let analyzer = language.analyzer();
        let mut f = CaseFigures {
            words,
            keywords: crate::style::is_keywords(&case.question, language),
            ..CaseFigures::default()
        };
        if self.chunks.is_empty() {
            return f;
        }
        let q_terms = analyzer.content_terms(&case.question);
        let index = self.chunks.bm25();
        if case.relevant.is_empty() {
            // A case whose passages were not found is not unanswerable: no nearest chunk.
            if case.is_unanswerable()
                && let Some(top) = index.best(&q_terms).map(|h| h.doc)
            {
                let chunk = &self.chunks[top];
                f.nearest = Some(Nearest {
                    chunk: chunk.id.clone(),
                    containment: containment(&case.question, analyzer, |t| index.has_term(top, t))
                        .unwrap_or(0.0),
                    copied_run: copied_runs(&case.question, &chunk.text, 1, analyzer)
                        .first()
                        .map_or(0, |r| r.tokens),
                });
            }
            return f;
        }
        let source = self.chunks.labelled(&case.relevant);
        if source.is_empty() {
            return f;
        }
        f.containment = containment(&case.question, analyzer, |t| {
            source.iter().any(|&d| index.has_term(d, t))
        });
        // A multi-hop question reaches its first passage by saying what it says, so its copied
        // runs are read against its last hop's passage (RS101).
        let last_hop = last_hop_labels(case);
        let run_text = self
            .chunks
            .labelled_text(last_hop.as_deref().unwrap_or(&case.relevant));
        f.runs = copied_runs(&case.question, &run_text, 1, analyzer);
        f.copied_run = Some(f.runs.first().map_or(0, |r| r.tokens));
        let floor = 1.0 / config.keyword_easy_margin.max(1.0);
        let standing = index.standing_among(&q_terms, &source, floor);
        f.source_rank = Some(standing.rank);
        f.rank_beyond_depth = standing.beyond_depth;
        f.source_score = Some(standing.score);
        f.best_other = Some(standing.best_other);
        f.best_other_chunk = standing.best_other_doc.map(|d| self.chunks[d].id.clone());
        f.best_other_index = standing.best_other_doc;
        f.source_chunks = source;
        if case.relevant.len() > 1 && Evidence::of(case.question_type()) == Evidence::Every {
            f.every_label_rank = self
                .chunks
                .rank(&case.question, language, &case.relevant, Evidence::Every);
        }
        if let Some(last) = last_hop {
            let hop = self.chunks.labelled(&last);
            let standing = index.standing_among(&q_terms, &hop, floor);
            f.last_hop = Some(HopStanding {
                containment: containment(&case.question, analyzer, |t| {
                    hop.iter().any(|&d| index.has_term(d, t))
                })
                .unwrap_or(0.0),
                rank: standing.rank,
                score: standing.score,
                best_other: standing.best_other,
            });
        }
        f
    }
}

/// A multi-hop case's last hop's labels, when its hops say which they are.
fn last_hop_labels(case: &Case) -> Option<Vec<crate::testset::Label>> {
    let last = case.hops.as_ref()?.last()?;
    let labels: Vec<_> = last
        .relevant
        .iter()
        .filter_map(|&i| case.relevant.get(i).cloned())
        .collect();
    (!labels.is_empty()).then_some(labels)
}

/// Overlap figures of one case against its labelled source (the chunks its labels overlap).
#[derive(Debug, Clone, Default, Serialize)]
pub struct CaseFigures {
    /// Words in the question.
    pub words: usize,
    /// The question is bare keywords (no question word, no auxiliary verb).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub keywords: bool,
    /// Share of the question's distinct content terms found in the source.
    pub containment: Option<f32>,
    /// Longest copied run, in words (0 when no word is shared).
    pub copied_run: Option<usize>,
    /// Copied runs, longest first, not overlapping in the question.
    #[serde(skip)]
    pub runs: Vec<CopiedRun>,
    /// 1-based BM25 rank of the source among all chunks (other chunks of the label excluded),
    /// counted to [`crate::index::RANK_DEPTH`]; beyond it that + 1 with `rank_beyond_depth` set.
    pub source_rank: Option<usize>,
    /// More than [`crate::index::RANK_DEPTH`] chunks outscore the source.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rank_beyond_depth: bool,
    /// For a case that needs every label found (a comparison, a multi-hop question) and has
    /// two or more: the rank by which keyword search has found the last of their chunks. The
    /// comparison of the halves reads it in place of `source_rank`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub every_label_rank: Option<usize>,
    /// BM25 score of the best source chunk.
    pub source_score: Option<f32>,
    /// Best BM25 score of any other chunk, exact when above `source_score / keyword_easy_margin`
    /// (0 when no other chunk scores that much).
    pub best_other: Option<f32>,
    /// Id of that chunk.
    pub best_other_chunk: Option<String>,
    /// That chunk's position among the chunks.
    #[serde(skip)]
    pub best_other_index: Option<usize>,
    /// Positions of the labelled source's chunks.
    #[serde(skip)]
    pub source_chunks: Vec<usize>,
    /// For a case without labels: the best BM25 chunk and its overlap with the question.
    pub nearest: Option<Nearest>,
    /// For a multi-hop case whose hops say which labels are whose: its last hop's passage read
    /// alone (hop 1's passage counts as another chunk there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_hop: Option<HopStanding>,
}

/// How a question stands against one hop's passage.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct HopStanding {
    /// Share of the question's distinct content terms found in the hop's passage.
    pub containment: f32,
    /// 1-based BM25 rank of the passage among all chunks (as [`CaseFigures::source_rank`]).
    pub rank: usize,
    /// BM25 score of the passage.
    pub score: f32,
    /// Best BM25 score of any other chunk (as [`CaseFigures::best_other`]).
    #[serde(skip)]
    pub best_other: f32,
}

impl CaseFigures {
    /// `(source_rank, source_score, best_other)`, when the case has a labelled source.
    pub fn standing(&self) -> Option<(usize, f32, f32)> {
        Some((self.source_rank?, self.source_score?, self.best_other?))
    }

    /// The rank by which keyword search has found what the question needs: every label's
    /// chunk for a case that needs them all, else its best source chunk; beyond the depth when
    /// the source shares no term with the question (see [`found_rank`]).
    pub fn needed_rank(&self) -> Option<usize> {
        self.every_label_rank
            .or_else(|| Some(found_rank(self.source_rank?, self.source_score?)))
    }

    /// What [`answering`](Self::answering) read: "source", or "last hop's passage".
    pub fn answering_source(&self) -> &'static str {
        if self.last_hop.is_some() {
            "last hop's passage"
        } else {
            "source"
        }
    }

    /// What keyword search must not find for free: the passage that answers the question,
    /// `(rank, score, best_other, containment)`. For a multi-hop case with hops that is the last
    /// hop's: the question reaches hop 1 by saying what it says, by design (RS102, RS103).
    pub fn answering(&self) -> Option<(usize, f32, f32, f32)> {
        match self.last_hop {
            Some(h) => Some((h.rank, h.score, h.best_other, h.containment)),
            None => {
                let (rank, score, other) = self.standing()?;
                Some((rank, score, other, self.containment?))
            }
        }
    }
}

/// The chunk BM25 likes best for a question without labels.
#[derive(Debug, Clone, Serialize)]
pub struct Nearest {
    /// Chunk id.
    pub chunk: String,
    /// Share of the question's content terms in it.
    pub containment: f32,
    /// Longest copied run, in words.
    pub copied_run: usize,
}
