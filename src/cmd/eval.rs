//! `ragsynth eval`: scores a run against the test set (or TREC qrels), prints the report, writes
//! the per-question file and baseline, and applies the baseline gate.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::eval::{self, Options, Resolver, Rule, Run, baseline, questions};
use ragsynth::fsutil::write_atomic;
use ragsynth::testset::{self, Split, TestSet};

use super::warning;
use crate::Exit;
use crate::cli::{EvalArgs, EvalFormat, SplitArg};

pub fn run(args: EvalArgs, walk: &WalkOptions) -> Result<Exit> {
    if let Some(dest) = &args.export_qrels {
        return export(&args, dest, walk);
    }
    let options = options(&args)?;
    let run_path = args.run.as_ref().context("--run is required")?;

    let qrels = questions::is_qrels(&args.testset);
    let (questions, set, corpus) = if qrels {
        (questions::from_qrels(&args.testset)?, None, None)
    } else {
        let set = testset::load(&args.testset)?;
        let corpus = load_corpus(&args, &set, walk)?;
        (questions::from_testset(&set, corpus.as_ref()), Some(set), corpus)
    };
    let run = Run::load(run_path)?;
    let mut resolver = match &set {
        Some(set) => Some(Resolver::new(corpus.as_ref(), set.chunking.as_ref())?),
        None => None,
    };
    let report = eval::evaluate(&questions, &run, resolver.as_mut(), &options)?;

    if let Some(out) = &args.out {
        let mut lines = Vec::new();
        report.write_questions(&mut lines)?;
        write_atomic(out, &lines)?;
    }
    if let Some(path) = &args.save_baseline {
        let mut json = Vec::new();
        report.write_json(&mut json, None)?;
        write_atomic(path, &json)?;
    }
    let comparison = match &args.baseline {
        Some(path) => Some(baseline::compare(&report, &baseline::load(path)?, args.tolerance)),
        None => None,
    };

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match args.format {
        EvalFormat::Text => {
            write!(out, "{}", report.to_text())?;
            if let Some(c) = &comparison {
                write!(out, "\n{}", c.to_text())?;
            }
        }
        EvalFormat::Json => {
            let comparison = comparison.as_ref().map(|c| c.to_json());
            report.write_json(&mut out, comparison.as_ref().map(|c| ("comparison", c)))?;
        }
    }
    out.flush()?;
    Ok(match comparison {
        Some(c) if c.failed() => Exit::Findings,
        _ => Exit::Ok,
    })
}

fn options(args: &EvalArgs) -> Result<Options> {
    if args.k.is_empty() || args.k.contains(&0) {
        bail!("-k: cutoffs must be positive integers, e.g. -k 1,3,5,10");
    }
    if !(args.min_coverage > 0.0 && args.min_coverage <= 1.0) {
        bail!("--min-coverage must be in (0, 1], got {}", args.min_coverage);
    }
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        bail!("--tolerance must be ≥ 0, got {}", args.tolerance);
    }
    Ok(Options {
        ks: args.k.clone(),
        split: match args.split {
            SplitArg::Dev => Some(Split::Dev),
            SplitArg::Heldout => Some(Split::Heldout),
            SplitArg::All => None,
        },
        rule: Rule {
            min_coverage: args.min_coverage,
            level: args.relevance_level.max(1),
            ..Rule::default()
        },
        skip_missing: args.skip_missing,
    })
}

/// The corpus from `--corpus`, else the test set's `corpus.root` when that directory exists.
fn load_corpus(args: &EvalArgs, set: &TestSet, walk: &WalkOptions) -> Result<Option<Corpus>> {
    let root: Option<PathBuf> = args.corpus.clone().or_else(|| set.corpus_root(&args.testset));
    let Some(root) = root else {
        warning("no corpus (set `corpus.root` or pass --corpus): relevance by span coverage only");
        return Ok(None);
    };
    if args.corpus.is_none() && !root.exists() {
        warning(format_args!(
            "corpus {} not found: relevance by span coverage only (pass --corpus)",
            root.display()
        ));
        return Ok(None);
    }
    let corpus =
        Corpus::load(&root, walk.clone()).with_context(|| format!("reading corpus {}", root.display()))?;
    for s in &corpus.skipped {
        warning(s);
    }
    if let Some(expected) = set.corpus.as_ref().and_then(|c| c.fingerprint.as_deref())
        && expected != corpus.fingerprint()
    {
        warning(format_args!(
            "corpus {} changed since the labels were anchored (fingerprint differs); run `ragsynth remap` if scores look wrong",
            root.display()
        ));
    }
    Ok(Some(corpus))
}

fn export(args: &EvalArgs, dest: &Path, walk: &WalkOptions) -> Result<Exit> {
    if questions::is_qrels(&args.testset) {
        bail!("{} is already TREC qrels", args.testset.display());
    }
    let set = testset::load(&args.testset)?;
    let corpus =
        load_corpus(args, &set, walk)?.context("exporting qrels needs the corpus to derive chunk ids")?;
    let qrels = questions::export_qrels(&set, &corpus)?;
    if dest == Path::new("-") {
        std::io::stdout().lock().write_all(qrels.as_bytes())?;
    } else {
        write_atomic(dest, qrels.as_bytes())?;
        eprintln!(
            "wrote {} qrels line(s) to {}",
            qrels.lines().count(),
            dest.display()
        );
    }
    Ok(Exit::Ok)
}
