//! Synthetic vs real: the same figures for both halves of a set and a one-line verdict.
//!
//! Keyword difficulty is read at two grains: the set's chunks, and the corpus's passages (its
//! blank-line paragraphs, see [`crate::workspace::passages`]). A question can find its
//! 1,200-character chunk through the section's words and still miss the paragraph that answers
//! it — as users' questions do — while one written beside the paragraph finds both; a gap at
//! either grain is a gap.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use super::chance::{self, ALPHA, Chance, Row};
use super::{AuditConfig, CaseFigures};
use crate::lang::Language;
use crate::style::Vocabulary;
use crate::testset::TestSet;
use crate::workspace::{ChunkedCorpus, Evidence};

/// Figures of one half (real or synthetic) of a set; overlap figures over labelled cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profile {
    /// Cases in this half.
    pub cases: usize,
    /// Cases with a labelled source found in the corpus, and not labelled by import's proposals
    /// alone (the overlap figures are over these).
    pub labelled: usize,
    /// Mean words per question.
    pub words: f32,
    /// Mean content-word containment.
    pub containment: f32,
    /// Share of labelled questions that copy a run of `copied_run` words (as RS101 counts).
    pub copied: f32,
    /// Mean longest copied run, in words.
    pub copied_run: f32,
    /// Share of labelled questions whose source BM25 ranks first.
    pub rank1: f32,
    /// Mean reciprocal rank of the source over labelled questions.
    pub mrr: f32,
    /// Share of labelled questions whose source passage (a paragraph a label overlaps) BM25
    /// ranks first among all the corpus's passages.
    pub passage_rank1: f32,
    /// Mean reciprocal rank of the source passage over labelled questions.
    pub passage_mrr: f32,
    /// Share of bare keyword queries.
    pub keywords: f32,
    /// Share starting with a lower-case letter.
    pub lowercase: f32,
    /// Share without a question mark.
    pub no_question_mark: f32,
    /// Share with a typo: a word one edit away from a corpus word and not itself one.
    pub misspelled: f32,
    /// Cases per `tags.type`.
    pub types: BTreeMap<String, usize>,
}

/// Synthetic vs real.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Real cases.
    pub real: Profile,
    /// Synthetic cases.
    pub synthetic: Profile,
    /// How often chance alone makes gaps as large as these ([`chance`]).
    pub chance: Chance,
    /// One line, with the numbers.
    pub verdict: String,
}

/// The figures of one half; its rank and copy figures are the means of its `rows`.
fn profile(
    set: &TestSet,
    figures: &[CaseFigures],
    rows: &[Row],
    vocabulary: &Vocabulary,
    synthetic: bool,
) -> Profile {
    let mut p = Profile {
        cases: 0,
        labelled: 0,
        words: 0.0,
        containment: 0.0,
        copied: 0.0,
        copied_run: 0.0,
        rank1: 0.0,
        mrr: 0.0,
        passage_rank1: 0.0,
        passage_mrr: 0.0,
        keywords: 0.0,
        lowercase: 0.0,
        no_question_mark: 0.0,
        misspelled: 0.0,
        types: BTreeMap::new(),
    };
    let mut contained = 0usize;
    for (case, f) in set.cases.iter().zip(figures) {
        if case.is_synthetic() != synthetic {
            continue;
        }
        p.cases += 1;
        p.words += f.words as f32;
        p.keywords += f32::from(u8::from(f.keywords));
        let q = case.question.trim();
        p.lowercase += f32::from(u8::from(
            q.chars()
                .find(|c| c.is_alphabetic())
                .is_some_and(char::is_lowercase),
        ));
        p.no_question_mark += f32::from(u8::from(!q.ends_with(['?', '？'])));
        p.misspelled += f32::from(u8::from(vocabulary.misspelled(q)));
        let kind = case.tags.kind.clone().unwrap_or_else(|| "-".into());
        *p.types.entry(kind).or_insert(0) += 1;
        if f.needed_rank().is_none() || case.labelled_by_keywords() {
            continue;
        }
        p.labelled += 1;
        if let Some(c) = f.containment {
            p.containment += c;
            contained += 1;
        }
        p.copied_run += f.copied_run.unwrap_or(0) as f32;
    }
    let div = |x: f32, n: usize| if n == 0 { 0.0 } else { x / n as f32 };
    p.words = div(p.words, p.cases);
    p.keywords = div(p.keywords, p.cases);
    p.lowercase = div(p.lowercase, p.cases);
    p.no_question_mark = div(p.no_question_mark, p.cases);
    p.misspelled = div(p.misspelled, p.cases);
    p.containment = div(p.containment, contained);
    p.copied_run = div(p.copied_run, p.labelled);
    // The rank and copy figures are the means of the rows the test of chance shuffles.
    let [rank1, mrr, passage_rank1, passage_mrr, copied] =
        chance::means(rows, |i| rows[i].synthetic == synthetic).map(|m| m.unwrap_or(0.0));
    (p.rank1, p.mrr, p.passage_rank1, p.passage_mrr, p.copied) =
        (rank1, mrr, passage_rank1, passage_mrr, copied);
    p
}

/// Whether a question copies a run of its source, as RS101 counts.
fn copies(f: &CaseFigures, cfg: &AuditConfig) -> bool {
    f.runs
        .iter()
        .any(|r| r.tokens >= cfg.copied_run && r.content_tokens >= cfg.copied_run_content)
}

/// Each labelled case's part in the rank and copy figures, for the test of chance.
fn rows(
    set: &TestSet,
    figures: &[CaseFigures],
    passage_ranks: &[Option<usize>],
    cfg: &AuditConfig,
) -> Vec<Row> {
    let found = |rank: usize| (f32::from(u8::from(rank == 1)), 1.0 / rank.max(1) as f32);
    set.cases
        .iter()
        .zip(figures)
        .zip(passage_ranks)
        .filter(|((case, _), _)| !case.labelled_by_keywords())
        .filter_map(|((case, f), passage_rank)| {
            let (chunk_hit, chunk_rr) = found(f.needed_rank()?);
            Some(Row {
                synthetic: case.is_synthetic(),
                chunk_hit,
                chunk_rr,
                passage: passage_rank.map(found),
                copied: f32::from(u8::from(copies(f, cfg))),
            })
        })
        .collect()
}

/// Compares the halves when both hold labelled cases.
pub(super) fn compare(
    set: &TestSet,
    figures: &[CaseFigures],
    languages: &[Language],
    cfg: &AuditConfig,
    chunks: &ChunkedCorpus,
) -> Option<Comparison> {
    // Both halves must hold a case; checked before the corpus's words are read.
    if !set.cases.iter().any(|c| c.is_synthetic()) || set.cases.iter().all(|c| c.is_synthetic()) {
        return None;
    }
    let vocabulary = chunks.vocabulary();
    // Ranked only where a chunk was, so both grains count the same cases; the index is built
    // before the parallel loop that reads it.
    let passage_ranks: Vec<Option<usize>> = if chunks.one_grain() {
        figures.iter().map(CaseFigures::needed_rank).collect()
    } else {
        chunks.passage_bm25();
        set.cases
            .par_iter()
            .zip(figures)
            .zip(languages)
            .map(|((case, f), &language)| {
                f.source_rank.and_then(|_| {
                    let evidence = Evidence::of(case.question_type());
                    chunks.passage_rank(&case.question, language, &case.relevant, evidence)
                })
            })
            .collect()
    };
    let rows = rows(set, figures, &passage_ranks, cfg);
    let real = profile(set, figures, &rows, vocabulary, false);
    let synthetic = profile(set, figures, &rows, vocabulary, true);
    let chance = chance::chance(&rows);
    let verdict = verdict(&real, &synthetic, &chance, cfg);
    Some(Comparison {
        real,
        synthetic,
        chance,
        verdict,
    })
}

fn pct(x: f32) -> String {
    format!("{:.0}%", x * 100.0)
}

fn verdict(real: &Profile, syn: &Profile, chance: &Chance, cfg: &AuditConfig) -> String {
    let words = format!("{:.1} vs {:.1} words per question", syn.words, real.words);
    if real.labelled == 0 || syn.labelled == 0 {
        return format!("no labelled sources on one side to compare overlap; {words}");
    }
    let ranks = format!(
        "{} vs {} find their chunk at rank 1 (MRR {:.2} vs {:.2}), {} vs {} their paragraph (MRR {:.2} vs {:.2})",
        pct(syn.rank1),
        pct(real.rank1),
        syn.mrr,
        real.mrr,
        pct(syn.passage_rank1),
        pct(real.passage_rank1),
        syn.passage_mrr,
        real.passage_mrr
    );
    let copies = format!(
        "{} vs {} copy a {}-word run",
        pct(syn.copied),
        pct(real.copied),
        cfg.copied_run
    );
    // How much easier `a` is than `b` at the grain where it is most: a set whose questions find
    // their chunks as real ones do but their paragraphs far more often is still easier for a
    // paragraph retriever.
    let easier = |a: &Profile, b: &Profile| {
        [
            a.rank1 - b.rank1,
            a.mrr - b.mrr,
            a.passage_rank1 - b.passage_rank1,
            a.passage_mrr - b.passage_mrr,
        ]
        .into_iter()
        .fold(f32::MIN, f32::max)
    };
    let rank_gap = easier(syn, real);
    let harder_gap = easier(real, syn);
    let copy_gap = syn.copied - real.copied;
    const GAP: f32 = crate::style::RANK_GAP;
    // The gap the verdict would name, and how often a random split of the same questions
    // makes one as large.
    let (gap, p) = if rank_gap >= GAP && rank_gap >= copy_gap {
        (Gap::Easier, chance.easier)
    } else if copy_gap >= GAP {
        (Gap::Copied, chance.copied)
    } else if harder_gap > GAP {
        (Gap::Harder, chance.harder)
    } else {
        return format!("synthetic and real questions are alike lexically: {ranks}, {copies}; {words}");
    };
    let p_is = if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    };
    if p >= ALPHA {
        return format!(
            "too few questions to tell synthetic from real lexically: the synthetic part looks {}, \
             but random splits of these {} and {} questions differ as much {:.0}% of the time \
             ({p_is}): {ranks}, {copies}; {words}",
            gap.looks(),
            syn.labelled,
            real.labelled,
            p * 100.0,
        );
    }
    match gap {
        Gap::Easier => format!(
            "synthetic questions are keyword-easier than real ones: {ranks} ({copies}; {words}; {p_is})"
        ),
        Gap::Copied => format!(
            "synthetic questions copy their source more than real ones: {copies} ({ranks}; {words}; {p_is})"
        ),
        Gap::Harder => format!(
            "synthetic questions are keyword-harder than real ones: {ranks}, {copies}; {words}; {p_is}"
        ),
    }
}

/// The gaps a verdict names.
enum Gap {
    Easier,
    Copied,
    Harder,
}

impl Gap {
    fn looks(&self) -> &'static str {
        match self {
            Gap::Easier => "keyword-easier",
            Gap::Copied => "to copy its sources more",
            Gap::Harder => "keyword-harder",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(rank1: f32, mrr: f32, passage_rank1: f32, passage_mrr: f32) -> Profile {
        Profile {
            cases: 20,
            labelled: 20,
            words: 6.0,
            containment: 0.6,
            copied: 0.0,
            copied_run: 1.0,
            rank1,
            mrr,
            passage_rank1,
            passage_mrr,
            keywords: 0.0,
            lowercase: 0.0,
            no_question_mark: 0.0,
            misspelled: 0.0,
            types: BTreeMap::new(),
        }
    }

    /// Chance that tells every gap: what many questions apart get.
    const TOLD: Chance = Chance {
        easier: 0.001,
        copied: 0.001,
        harder: 0.001,
        shuffles: 2000,
    };

    #[test]
    fn a_gap_at_the_paragraph_is_a_gap() {
        let cfg = AuditConfig::default();
        // The sample corpus's demo: alike at the chunk, far apart at the paragraph.
        let real = part(0.46, 0.61, 0.25, 0.38);
        let easy = part(0.50, 0.65, 0.62, 0.76);
        let v = verdict(&real, &easy, &TOLD, &cfg);
        assert!(v.starts_with("synthetic questions are keyword-easier"), "{v}");
        assert!(v.contains("62% vs 25% their paragraph (MRR 0.76 vs 0.38)"), "{v}");
        assert!(v.ends_with("p = 0.001)"), "{v}");
        let alike = part(0.50, 0.65, 0.30, 0.42);
        assert!(verdict(&real, &alike, &TOLD, &cfg).starts_with("synthetic and real questions are alike"));
        let harder = part(0.45, 0.60, 0.05, 0.20);
        assert!(verdict(&real, &harder, &TOLD, &cfg).starts_with("synthetic questions are keyword-harder"));
    }

    #[test]
    fn a_gap_chance_makes_as_often_is_not_called_a_finding() {
        let cfg = AuditConfig::default();
        // The second fresh README demo of 2026-12-05: 10 ranked synthetic questions, 24 real.
        let mut real = part(0.42, 0.57, 0.21, 0.34);
        real.labelled = 24;
        let mut easy = part(0.50, 0.67, 0.40, 0.55);
        easy.labelled = 10;
        let chance = Chance { easier: 0.21, ..TOLD };
        let v = verdict(&real, &easy, &chance, &cfg);
        assert!(
            v.starts_with("too few questions to tell synthetic from real"),
            "{v}"
        );
        assert!(v.contains("looks keyword-easier"), "{v}");
        assert!(
            v.contains("these 10 and 24 questions differ as much 21% of the time (p = 0.210)"),
            "{v}"
        );
        assert!(v.contains("40% vs 21% their paragraph (MRR 0.55 vs 0.34)"), "{v}");
        // A copy gap is told apart from chance by its own figure.
        let mut copying = part(0.42, 0.57, 0.21, 0.34);
        copying.copied = 0.3;
        assert!(
            verdict(&real, &copying, &chance, &cfg).starts_with("synthetic questions copy their source more")
        );
    }
}
