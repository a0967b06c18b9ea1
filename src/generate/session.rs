//! One `generate` over an opened workspace, apart from calling the model: what is planned and
//! aimed at before the run ([`prepare`]), and how the accepted candidates become cases of the
//! set after it ([`write`]). The command only adds the LLM, the progress bars and the printing.

use std::path::PathBuf;

use super::candidate::Accepted;
use super::context::RunOptions;
use super::merge::{self, Stamp};
use super::pairs::Pairing;
use super::plan::{self, Mix, Plan};
use super::restyle::{self, StyleChoice};
use super::summary::GenerateSummary;
use crate::Result;
use crate::lang::Language;
use crate::style::Target;
use crate::workspace::{ChunkedCorpus, Workspace};

/// A run's settings: the command line laid over `[generate]` of `ragsynth.toml` over the
/// defaults, checked.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The test set written.
    pub output: PathBuf,
    /// Cases planned.
    pub n: usize,
    /// Shares of question types.
    pub mix: Mix,
    /// The style to write in.
    pub style: StyleChoice,
    /// Share of new cases held out.
    pub heldout: f64,
    /// Template folder overriding the built-in prompts.
    pub prompts: Option<PathBuf>,
    /// `SOURCE_DATE_EPOCH`, when set: the `created` time of every new case.
    pub source_date_epoch: Option<i64>,
    /// Let a multi-hop question join passages in two languages.
    pub cross_language: bool,
    /// The run's options (seed, temperature, rounds, ...).
    pub options: RunOptions,
}

/// A run before any call: the plan, its account, the target style and what the user should
/// hear about the corpus's languages.
pub struct Prepared {
    /// Which chunks get which kind of question.
    pub plan: Plan,
    /// The account, with the planned counts and the target filled in.
    pub summary: GenerateSummary,
    /// The style and difficulty the new questions aim at.
    pub target: Target,
    /// One line per language of the corpus that lacks stopwords, a stemmer or question words.
    pub language_notes: Vec<String>,
}

/// The chunks a run asks about: the corpus must hold a readable document, and a set without a
/// corpus or chunking header gets the workspace's (its new labels point into this corpus).
pub fn chunk(ws: &mut Workspace) -> Result<ChunkedCorpus> {
    if let Some(c) = ws.corpus.as_ref().filter(|c| c.docs.is_empty()) {
        return Err(crate::Error::no_documents(&c.root, c.skipped.len()));
    }
    ws.adopt_header();
    ws.chunk()
}

/// Plans a run over `chunks` of `ws` with `settings`.
pub fn prepare(ws: &Workspace, chunks: &ChunkedCorpus, settings: &Settings) -> Prepared {
    let pairing = Pairing {
        languages: (0..chunks.len()).map(|i| chunks.language_of(i)).collect(),
        cross_language: settings.cross_language,
    };
    let plan = plan::plan_paired(chunks, &pairing, settings.n, &settings.mix, settings.options.seed);
    let mut summary = GenerateSummary::planned(
        &settings.output,
        ws.set.cases.len(),
        &plan,
        settings.options.max_rounds,
    );
    let target = restyle::target(&ws.set, chunks, settings.style);
    summary.target = Some(target.clone());
    Prepared {
        plan,
        summary,
        target,
        language_notes: language_notes(&pairing.languages),
    }
}

/// Writes the accepted candidates as cases of `ws`'s set, each worded to the target; returns
/// whether another writer changed the file meanwhile (the new cases were merged onto it).
/// Nothing accepted, nothing written: a new set is not created, an existing one not touched.
pub fn write(
    ws: &mut Workspace,
    chunks: &ChunkedCorpus,
    mut accepted: Vec<Accepted>,
    prepared: &mut Prepared,
    settings: &Settings,
) -> Result<bool> {
    let summary = &mut prepared.summary;
    summary.restyled = Some(restyle::restyle(
        &mut accepted,
        &prepared.target,
        chunks,
        settings.options.seed,
    ));
    if accepted.is_empty() {
        return Ok(false);
    }
    let mut stamp = Stamp::new(
        summary.llm.model.clone(),
        settings.heldout,
        settings.source_date_epoch,
    )?;
    stamp.style = Some(prepared.target.source.clone());
    let ids = merge::append(&mut ws.set, accepted, &stamp);
    summary.count_heldout(&ws.set, &ids);
    let corpus = ws.corpus.as_ref().ok_or_else(|| {
        crate::Error::Config("generate writes labels only into a set opened with its corpus".into())
    })?;
    merge::check_new_cases(&ws.set, &ids, corpus)?;
    Ok(ws.save()?.merged)
}

/// What each language of the corpus lacks: questions in it are still written and checked,
/// with words compared as written and without its question words.
pub fn language_notes(languages: &[Language]) -> Vec<String> {
    let mut count: std::collections::BTreeMap<Language, usize> = Default::default();
    for &l in languages {
        *count.entry(l).or_default() += 1;
    }
    count
        .into_iter()
        .filter_map(|(l, n)| {
            let mut missing = l.analyzer().missing();
            if !crate::lang::questions::readable(l) {
                missing.push("no question words");
            }
            (!missing.is_empty()).then(|| {
                format!(
                    "{n} chunk(s) in {} ({l}): {}; words are compared as written and questions checked only for their form",
                    l.name(),
                    missing.join(", ")
                )
            })
        })
        .collect()
}
