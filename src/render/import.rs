//! An import summary for people (the only format `import` has): rows read, cases added by
//! kind, one line per row that needs a look, duplicates and scrubbing; for another tool's set,
//! how its contexts were located and how its question types were mapped.

use std::io::{self, Write};
use std::path::Path;

use crate::import::{Because, ForeignSummary, ImportSummary, NoteKind};
use crate::terminal::data;

/// Writes the summary of importing `file` into `into`.
pub fn text(out: &mut dyn Write, s: &ImportSummary, file: &Path, into: &Path) -> io::Result<()> {
    writeln!(out, "read {} rows from {}", s.rows, file.display())?;
    writeln!(
        out,
        "added {} real cases to {}: {} labelled and {} unanswerable (review: accepted), {} with candidate labels (review: needs_label)",
        s.added.len(),
        into.display(),
        s.labelled,
        s.unanswerable,
        s.needs_label
    )?;
    for n in &s.notes {
        writeln!(out, "{}:{}: {}", file.display(), n.line, note(&n.kind))?;
    }
    if s.duplicates() > 0 {
        writeln!(out, "{} duplicates not added", s.duplicates())?;
    }
    if s.scrub {
        writeln!(
            out,
            "scrubbed from questions and answers: {} (quotes are corpus text and are not scrubbed)",
            s.scrubbed
        )
    } else {
        writeln!(
            out,
            "scrubbing off (--no-scrub): questions and answers written as read"
        )
    }
}

/// Writes the summary of importing another tool's set `file` into `into`.
pub fn foreign_text(out: &mut dyn Write, s: &ForeignSummary, file: &Path, into: &Path) -> io::Result<()> {
    let st = &s.stats;
    writeln!(
        out,
        "read {} cases from {} as {}",
        s.cases,
        file.display(),
        s.format
    )?;
    writeln!(
        out,
        "added {} cases to {}: {} synthetic (review: pending), {} real",
        s.added.len(),
        into.display(),
        s.synthetic,
        s.added.len() - s.synthetic
    )?;
    if !s.taken.is_empty() {
        writeln!(
            out,
            "{} cases not added: their ids are already in the set",
            s.taken.len()
        )?;
    }
    let pct = |n: usize| {
        if st.passages == 0 {
            0.0
        } else {
            100.0 * n as f64 / st.passages as f64
        }
    };
    writeln!(
        out,
        "contexts: {} of {} located ({:.0}%): {} exact, {} normalised, {} fuzzy",
        st.located(),
        st.passages,
        pct(st.located()),
        st.exact,
        st.normalized,
        st.fuzzy
    )?;
    if !st.unlocated.is_empty() {
        writeln!(
            out,
            "{} not found, kept with their text under `unlocated` (audit rule RS406):",
            st.unlocated.len()
        )?;
        for (id, n) in &st.unlocated {
            writeln!(out, "  case `{id}`: context #{n}")?;
        }
    }
    for (raw, ours) in &st.type_names {
        writeln!(out, "type `{raw}` -> {ours}")?;
    }
    if st.multi_hop.0 > 0 {
        writeln!(
            out,
            "multi-hop cases: {}, with {:.1} labels each",
            st.multi_hop.0,
            st.multi_hop.1 as f64 / st.multi_hop.0 as f64
        )?;
    }
    if s.scrubbed.total() > 0 {
        writeln!(out, "scrubbed from real questions and answers: {}", s.scrubbed)?;
    }
    Ok(())
}

fn note(kind: &NoteKind) -> String {
    match kind {
        NoteKind::Duplicate { of } => format!("not added: same question as `{of}`"),
        NoteKind::IdTaken { id } => format!("not added: id `{id}` is already used"),
        NoteKind::EmptyQuestion => "not added: empty question".to_string(),
        NoteKind::QuoteNotFound { doc } => format!(
            "quote not found in {}; added with candidate labels for review",
            doc.as_deref().map_or("the corpus".to_string(), |d| format!(
                "`{d}` nor elsewhere in the corpus"
            ))
        ),
        NoteKind::QuoteInexact { similarity } => {
            format!("quote matched inexactly (similarity {similarity:.2}); the label quotes the corpus text")
        }
        NoteKind::OtherDocument { named, found } => {
            format!("quote found in `{found}`, not in `{named}`; labelled `{found}`")
        }
        NoteKind::UnanswerableWithQuote => {
            "typed unanswerable but has a quote; the quote was ignored".to_string()
        }
        NoteKind::UnknownDocument { doc } => {
            format!("document `{doc}` is not in the corpus; candidates come from every document")
        }
        NoteKind::Unanswerable { because } => format!(
            "added as unanswerable (relevant: [], type unanswerable): {}",
            match because {
                Because::Type => "typed so".to_string(),
                Because::Column(c) => format!("its `{c}` column says the corpus does not answer it"),
                Because::EmptyRelevant => "its `relevant` list is empty".to_string(),
                Because::Answer(a) => format!("its answer \"{}\" says the docs do not have it", data(a)),
            }
        ),
        NoteKind::LabelAdded { to } => {
            format!("same question as `{to}` with another quote: added as another label of it")
        }
        NoteKind::LabelNotFound { to, doc } => format!(
            "same question as `{to}` with another quote, not found in {}: no label added",
            doc.as_deref().map_or("the corpus".to_string(), |d| format!(
                "`{d}` nor elsewhere in the corpus"
            ))
        ),
        NoteKind::AnswerNotInQuote { missing } => format!(
            "warning: the answer says \"{}\", which its quote does not hold; widen the quote to the \
             text that says it (or add a row with the same question and a second quote)",
            data(missing)
        ),
    }
}
