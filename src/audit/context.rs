//! What the audit builds once and every rule reads: the corpus, its chunks under the set's
//! chunking, a BM25 index over the chunks, and per case the overlap figures.

use std::collections::HashMap;
use std::ops::Range;

use rayon::prelude::*;
use serde::Serialize;

use super::AuditConfig;
use super::overlap::{CopiedRun, containment, copied_runs};
use crate::Result;
use crate::chunk::{Chunk, Chunker, Chunking};
use crate::corpus::Corpus;
use crate::index::{Bm25Index, Bm25Params};
use crate::testset::Case;
use crate::text::content_terms;

/// The corpus side of an audit: built once, shared by every case.
pub struct Context {
    /// The corpus, when one was found (without it, overlap and label rules have nothing to
    /// compare against and stay silent).
    pub corpus: Option<Corpus>,
    /// Every chunk, document by document in corpus order.
    pub chunks: Vec<Chunk>,
    /// BM25 over the chunks (position = index into `chunks`).
    pub index: Bm25Index,
    by_doc: HashMap<String, Range<usize>>,
}

impl Context {
    /// Chunks the corpus and indexes the chunks (chunking and term extraction in parallel).
    pub fn new(corpus: Option<Corpus>, chunking: &Chunking) -> Result<Context> {
        let chunker = Chunker::new(chunking.clone())?;
        let per_doc: Vec<Vec<Chunk>> = match &corpus {
            Some(c) => c.docs.par_iter().map(|d| chunker.chunk(d)).collect(),
            None => Vec::new(),
        };
        let mut by_doc = HashMap::new();
        let mut chunks = Vec::new();
        for doc_chunks in per_doc {
            if let Some(first) = doc_chunks.first() {
                by_doc.insert(first.doc.clone(), chunks.len()..chunks.len() + doc_chunks.len());
            }
            chunks.extend(doc_chunks);
        }
        let terms: Vec<Vec<String>> = chunks.par_iter().map(|c| content_terms(&c.text)).collect();
        let index = Bm25Index::from_terms(terms, Bm25Params::default());
        Ok(Context {
            corpus,
            chunks,
            index,
            by_doc,
        })
    }

    /// Indices of the chunks of `doc` that overlap the character span `start..end` (a point
    /// span counts the chunk containing it).
    pub fn chunks_of(&self, doc: &str, start: usize, end: usize) -> Vec<usize> {
        let Some(range) = self.by_doc.get(doc) else {
            return Vec::new();
        };
        range
            .clone()
            .filter(|&i| {
                let c = &self.chunks[i];
                c.start < end.max(start + 1) && start < c.end
            })
            .collect()
    }

    /// Figures for one case (see [`CaseFigures`]). The best other chunk is searched for only
    /// down to `1 / keyword_easy_margin` of the source's score (RS102's question: is any other
    /// chunk that close?); RS501 needs chunks that beat the source, always found.
    pub fn figures(&self, case: &Case, config: &AuditConfig) -> CaseFigures {
        let words = crate::text::words(&case.question).len();
        let mut f = CaseFigures {
            words,
            ..CaseFigures::default()
        };
        if self.chunks.is_empty() {
            return f;
        }
        let q_terms = content_terms(&case.question);
        if case.relevant.is_empty() {
            if let Some(top) = self.index.best(&q_terms).map(|h| h.doc) {
                let chunk = &self.chunks[top];
                f.nearest = Some(Nearest {
                    chunk: chunk.id.clone(),
                    containment: containment(&case.question, |t| self.index.has_term(top, t)).unwrap_or(0.0),
                    copied_run: copied_runs(&case.question, &chunk.text, 1)
                        .first()
                        .map_or(0, |r| r.tokens),
                });
            }
            return f;
        }
        let mut source: Vec<usize> = case
            .relevant
            .iter()
            .flat_map(|l| self.chunks_of(&l.doc, l.start, l.end))
            .collect();
        source.sort_unstable();
        source.dedup();
        if source.is_empty() {
            return f;
        }
        let text: String = source
            .iter()
            .map(|&i| self.chunks[i].text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        f.containment = containment(&case.question, |t| {
            source.iter().any(|&d| self.index.has_term(d, t))
        });
        f.runs = copied_runs(&case.question, &text, 1);
        f.copied_run = Some(f.runs.first().map_or(0, |r| r.tokens));
        let floor = 1.0 / config.keyword_easy_margin.max(1.0);
        let standing = self.index.standing_among(&q_terms, &source, floor);
        f.source_rank = Some(standing.rank);
        f.rank_beyond_depth = standing.beyond_depth;
        f.source_score = Some(standing.score);
        f.best_other = Some(standing.best_other);
        f.best_other_chunk = standing.best_other_doc.map(|d| self.chunks[d].id.clone());
        f
    }
}

/// Overlap figures of one case against its labelled source (the chunks its labels overlap).
#[derive(Debug, Clone, Default, Serialize)]
pub struct CaseFigures {
    /// Words in the question.
    pub words: usize,
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
    /// BM25 score of the best source chunk.
    pub source_score: Option<f32>,
    /// Best BM25 score of any other chunk, exact when above `source_score / keyword_easy_margin`
    /// (0 when no other chunk scores that much).
    pub best_other: Option<f32>,
    /// Id of that chunk.
    pub best_other_chunk: Option<String>,
    /// For a case without labels: the best BM25 chunk and its overlap with the question.
    pub nearest: Option<Nearest>,
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
