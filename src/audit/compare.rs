//! Synthetic vs real: the same figures for both halves of a set and a one-line verdict.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{AuditConfig, CaseFigures};
use crate::style::Vocabulary;
use crate::testset::TestSet;
use crate::workspace::ChunkedCorpus;

/// Figures of one half (real or synthetic) of a set; overlap figures over labelled cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profile {
    /// Cases in this half.
    pub cases: usize,
    /// Cases with a labelled source found in the corpus (the overlap figures are over these).
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
    /// One line, with the numbers.
    pub verdict: String,
}

fn profile(
    set: &TestSet,
    figures: &[CaseFigures],
    cfg: &AuditConfig,
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
        let Some(rank) = f.source_rank else { continue };
        p.labelled += 1;
        if let Some(c) = f.containment {
            p.containment += c;
            contained += 1;
        }
        p.copied_run += f.copied_run.unwrap_or(0) as f32;
        if f.runs
            .iter()
            .any(|r| r.tokens >= cfg.copied_run && r.content_tokens >= cfg.copied_run_content)
        {
            p.copied += 1.0;
        }
        if rank == 1 {
            p.rank1 += 1.0;
        }
        p.mrr += 1.0 / rank.max(1) as f32;
    }
    let div = |x: f32, n: usize| if n == 0 { 0.0 } else { x / n as f32 };
    p.words = div(p.words, p.cases);
    p.keywords = div(p.keywords, p.cases);
    p.lowercase = div(p.lowercase, p.cases);
    p.no_question_mark = div(p.no_question_mark, p.cases);
    p.misspelled = div(p.misspelled, p.cases);
    p.mrr = div(p.mrr, p.labelled);
    p.containment = div(p.containment, contained);
    p.copied = div(p.copied, p.labelled);
    p.copied_run = div(p.copied_run, p.labelled);
    p.rank1 = div(p.rank1, p.labelled);
    p
}

/// Compares the halves when both hold labelled cases.
pub(super) fn compare(
    set: &TestSet,
    figures: &[CaseFigures],
    cfg: &AuditConfig,
    chunks: &ChunkedCorpus,
) -> Option<Comparison> {
    // Both halves must hold a case; checked before the corpus's words are read.
    if !set.cases.iter().any(|c| c.is_synthetic()) || set.cases.iter().all(|c| c.is_synthetic()) {
        return None;
    }
    let vocabulary = chunks.vocabulary();
    let real = profile(set, figures, cfg, vocabulary, false);
    let synthetic = profile(set, figures, cfg, vocabulary, true);
    let verdict = verdict(&real, &synthetic, cfg);
    Some(Comparison {
        real,
        synthetic,
        verdict,
    })
}

fn pct(x: f32) -> String {
    format!("{:.0}%", x * 100.0)
}

fn verdict(real: &Profile, syn: &Profile, cfg: &AuditConfig) -> String {
    let words = format!("{:.1} vs {:.1} words per question", syn.words, real.words);
    if real.labelled == 0 || syn.labelled == 0 {
        return format!("no labelled sources on one side to compare overlap; {words}");
    }
    let rank_gap = (syn.rank1 - real.rank1).max(syn.mrr - real.mrr);
    let copy_gap = syn.copied - real.copied;
    const GAP: f32 = crate::style::RANK_GAP;
    if rank_gap >= GAP && rank_gap >= copy_gap {
        format!(
            "synthetic questions are keyword-easier than real ones: {} vs {} find their source at rank 1, MRR {:.2} vs {:.2} ({} vs {} copy a {}-word run; {words})",
            pct(syn.rank1),
            pct(real.rank1),
            syn.mrr,
            real.mrr,
            pct(syn.copied),
            pct(real.copied),
            cfg.copied_run
        )
    } else if copy_gap >= GAP {
        format!(
            "synthetic questions copy their source more than real ones: {} vs {} copy a run of {}+ words ({} vs {} find their source at rank 1; {words})",
            pct(syn.copied),
            pct(real.copied),
            cfg.copied_run,
            pct(syn.rank1),
            pct(real.rank1)
        )
    } else {
        let harder = if syn.rank1 < real.rank1 - GAP || syn.mrr < real.mrr - GAP {
            "synthetic questions are keyword-harder than real ones"
        } else {
            "synthetic and real questions are alike lexically"
        };
        format!(
            "{harder}: {} vs {} find their source at rank 1, MRR {:.2} vs {:.2}, {} vs {} copy a {}-word run; {words}",
            pct(syn.rank1),
            pct(real.rank1),
            syn.mrr,
            real.mrr,
            pct(syn.copied),
            pct(real.copied),
            cfg.copied_run
        )
    }
}
