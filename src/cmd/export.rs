//! `ragsynth export`: writes the selected cases of a test set in the shape another evaluation
//! tool loads, each context the labelled passage's text, and says what was left out.

use std::io::Write;

use anyhow::Result;
use ragsynth::corpus::WalkOptions;
use ragsynth::export;
use ragsynth::fsutil::write_atomic;
use ragsynth::workspace::{CorpusNeed, OpenOptions, SetSource, Workspace};

use super::{note, warning};
use crate::Exit;
use crate::cli::ExportArgs;

pub fn run(args: ExportArgs, walk: &WalkOptions) -> Result<Exit> {
    let format = export::format(&args.to)?;
    let ws = Workspace::open(
        &args.testset,
        &OpenOptions {
            set: SetSource::ReadOnly,
            corpus: args.corpus.clone(),
            need: CorpusNeed::Optional {
                without: "each label's quote is exported as its context",
            },
            walk: walk.clone(),
            check_fingerprint: true,
            ..OpenOptions::default()
        },
    )?;
    ws.notes.iter().for_each(warning);
    let selected = export::select(&ws.set, ws.corpus.as_ref(), args.selection());
    let bytes = format.write(&selected.cases);
    match &args.output {
        Some(path) => write_atomic(path, bytes.as_bytes())?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes.as_bytes())?;
            out.flush()?;
        }
    }
    if selected.quoted > 0 && ws.corpus.is_some() {
        warning(format!(
            "{} label(s) could not be read from the corpus; their quote was exported instead",
            selected.quoted
        ));
    }
    let unanswerable = selected.cases.iter().filter(|c| c.unanswerable).count();
    let left_out: Vec<String> = selected
        .left_out
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    note(format!(
        "exported {} case(s) ({unanswerable} unanswerable) for {} to {}{}",
        selected.cases.len(),
        format.name,
        args.output
            .as_ref()
            .map_or("standard output".to_string(), |p| p.display().to_string()),
        if left_out.is_empty() {
            String::new()
        } else {
            format!("; left out: {}", left_out.join(", "))
        }
    ));
    if selected.left_out.contains_key("pending") && !args.include_pending {
        note("pending cases are exported with --include-pending once reviewed or on purpose");
    }
    Ok(Exit::Ok)
}
