//! `ragsynth eval --calibration`: each answer judge's agreement with a person's marks, printed
//! and kept beside the test set for later reports.

use std::io::Write;

use anyhow::{Context, Result, bail};
use ragsynth::eval::answers::calibration::{self, Record, Records};
use ragsynth::eval::answers::marks::{self, Marks};
use ragsynth::eval::answers::per_question::PerQuestion;
use ragsynth::render::answers::calibration as render;

use crate::Exit;
use crate::cli::{EvalArgs, EvalFormat};

pub fn run(args: &EvalArgs) -> Result<Exit> {
    let path = args.calibration.as_deref().context("--calibration is required")?;
    if args.format == EvalFormat::Html {
        bail!("--calibration prints text or json, not html");
    }
    let set = ragsynth::testset::load(&args.testset)?;
    let file = PerQuestion::load(path)?;
    // The marks must be about this test set's cases.
    if let Some(c) = file.cases.iter().find(|c| set.case(&c.id).is_none()) {
        bail!(
            "{}:{}: case `{}`: no case of {} has this id (is this the per-case file of another test set?)",
            path.display(),
            c.line,
            c.id,
            args.testset.display()
        );
    }
    let marks_path = marks::path_for(path);
    if !marks_path.exists() {
        bail!(
            "{}: no marks yet; mark the verdicts first: ragsynth review --answers {}",
            marks_path.display(),
            path.display()
        );
    }
    let marks = Marks::load(&marks_path, |id| file.case(id).is_some())?;
    let agreements = calibration::measure(&file, &marks);
    let now = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second()).unwrap_or_default();
    let judges: Vec<_> = agreements
        .into_iter()
        .map(|a| (file.judged_by.of(a.judge), a))
        .collect();
    let records: Vec<Record> = judges
        .iter()
        .filter(|(_, a)| a.n > 0)
        .filter_map(|(who, a)| {
            let (model, prompt) = who.clone()?;
            Some(Record {
                judge: a.judge.to_string(),
                model,
                prompt,
                n: a.n,
                accuracy: a.accuracy,
                kappa: a.kappa,
                measured: now,
                marks: marks_path.display().to_string(),
            })
        })
        .collect();
    let saved = calibration::path_for(&args.testset);
    Records::store(&saved, records)?;
    let (per_question, marks_shown, saved_shown) = (
        path.display().to_string(),
        marks_path.display().to_string(),
        saved.display().to_string(),
    );
    let measured = render::Measured {
        per_question: &per_question,
        marks: &marks_shown,
        marks_read: marks.by_key.len(),
        judges,
        saved: &saved_shown,
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        EvalFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&render::json(&measured))?)?,
        _ => write!(out, "{}", render::text(&measured))?,
    }
    out.flush()?;
    Ok(Exit::Ok)
}
