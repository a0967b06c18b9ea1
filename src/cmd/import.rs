//! `ragsynth import`: reads a question file, adds its rows to a test set as real cases
//! (personal data scrubbed, labels anchored or proposed) and prints a summary.

use std::io::{BufWriter, Write};

use anyhow::{Context, Result};
use ragsynth::chunk::Chunking;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::import::{self, Columns, NoteKind, Summary};
use ragsynth::remap::anchor::root_relative_to;
use ragsynth::testset::{CorpusRef, Tracked};

use super::warning;
use crate::Exit;
use crate::cli::ImportArgs;

pub fn run(args: ImportArgs, walk: &WalkOptions) -> Result<Exit> {
    let columns = Columns {
        question: args.question_col.clone(),
        answer: args.answer_col.clone(),
        doc: args.doc_col.clone(),
        quote: args.quote_col.clone(),
        topic: args.topic_col.clone(),
        kind: args.type_col.clone(),
        id: args.id_col.clone(),
    };
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.min_similarity),
        "--min-similarity must be between 0 and 1, not {}",
        args.min_similarity
    );
    let rows = import::read(&args.file, &columns)?;
    // Saved through `Tracked`: what others write into the set meanwhile is kept.
    let mut tracked = Tracked::open_or_new(&args.into)?;
    let exists = tracked.existed();
    let set = &mut tracked.set;
    let corpus_dir = args
        .corpus
        .clone()
        .or_else(|| set.corpus_root(&args.into))
        .with_context(|| {
            if exists {
                format!(
                    "{} has no corpus header; give the corpus with --corpus DIR",
                    args.into.display()
                )
            } else {
                format!(
                    "{} does not exist yet; give the corpus with --corpus DIR to create it",
                    args.into.display()
                )
            }
        })?;
    let corpus = Corpus::load(&corpus_dir, walk.clone())
        .with_context(|| format!("reading corpus {}", corpus_dir.display()))?;
    for s in &corpus.skipped {
        warning(s);
    }
    let fingerprint = corpus.fingerprint();
    match &mut set.corpus {
        None => {
            set.corpus = Some(CorpusRef {
                root: root_relative_to(&args.into, &corpus_dir),
                fingerprint: Some(fingerprint),
                ..CorpusRef::default()
            });
        }
        Some(c) if c.fingerprint.as_ref().is_some_and(|f| *f != fingerprint) => warning(format_args!(
            "the corpus changed since {}'s labels were anchored; new labels point into the corpus as it is now — run `ragsynth remap` to re-anchor the old ones",
            args.into.display()
        )),
        Some(_) => {}
    }
    let chunking = set.chunking.get_or_insert_with(Chunking::default).clone();
    let options = import::Options {
        scrub: !args.no_scrub,
        candidates: args.candidates,
        min_similarity: args.min_similarity,
        source_name: args
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let summary = import::import(set, &rows, &corpus, &chunking, &options)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    write_summary(&mut out, &args, &summary)?;
    if args.dry_run {
        writeln!(out, "dry run: {} not written", args.into.display())?;
    } else if summary.added.is_empty() && exists {
        writeln!(out, "nothing to add; {} left as it was", args.into.display())?;
    } else {
        tracked.save()?;
        writeln!(out, "wrote {}", args.into.display())?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}

fn write_summary(out: &mut impl Write, args: &ImportArgs, s: &Summary) -> Result<()> {
    writeln!(out, "read {} rows from {}", s.rows, args.file.display())?;
    writeln!(
        out,
        "added {} real cases to {}: {} labelled and {} unanswerable (review: accepted), {} with candidate labels (review: needs_label)",
        s.added.len(),
        args.into.display(),
        s.labelled,
        s.unanswerable,
        s.needs_label
    )?;
    for n in &s.notes {
        let text = match &n.kind {
            NoteKind::Duplicate { of } => format!("not added: same question as `{of}`"),
            NoteKind::IdTaken { id } => format!("not added: id `{id}` is already used"),
            NoteKind::EmptyQuestion => "not added: empty question".to_string(),
            NoteKind::QuoteNotFound { doc } => format!(
                "quote not found in {}; added with candidate labels for review",
                doc.as_deref().map_or("the corpus".to_string(), |d| format!(
                    "`{d}` nor elsewhere in the corpus"
                ))
            ),
            NoteKind::QuoteInexact { similarity } => format!(
                "quote matched inexactly (similarity {similarity:.2}); the label quotes the corpus text"
            ),
            NoteKind::OtherDocument { named, found } => {
                format!("quote found in `{found}`, not in `{named}`; labelled `{found}`")
            }
            NoteKind::UnanswerableWithQuote => {
                "typed unanswerable but has a quote; the quote was ignored".to_string()
            }
            NoteKind::UnknownDocument { doc } => {
                format!("document `{doc}` is not in the corpus; candidates come from every document")
            }
        };
        writeln!(out, "{}:{}: {text}", args.file.display(), n.line)?;
    }
    if s.duplicates() > 0 {
        writeln!(out, "{} duplicates not added", s.duplicates())?;
    }
    if s.scrub {
        writeln!(
            out,
            "scrubbed from questions and answers: {} (quotes are corpus text and are not scrubbed)",
            s.scrubbed
        )?;
    } else {
        writeln!(
            out,
            "scrubbing off (--no-scrub): questions and answers written as read"
        )?;
    }
    Ok(())
}
