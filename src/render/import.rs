//! An import summary for people (the only format `import` has): rows read, cases added by
//! kind, one line per row that needs a look, duplicates and scrubbing.

use std::io::{self, Write};
use std::path::Path;

use crate::import::{ImportSummary, NoteKind};

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
    }
}
