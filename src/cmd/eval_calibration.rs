//! `ragsynth eval --calibration`: each answer judge's agreement with a person's marks, printed
//! and kept beside the test set for later reports.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use ragsynth::eval::answers::calibration;
use ragsynth::render::answers::calibration as render;

use crate::Exit;
use crate::cli::EvalArgs;

pub fn run(args: &EvalArgs, per_question: &Path) -> Result<Exit> {
    let json = args.calibration_json()?;
    let now = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second()).unwrap_or_default();
    let measured = calibration::calibrate(&args.testset, per_question, now)?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&render::json(&measured))?)?;
    } else {
        write!(out, "{}", render::text(&measured))?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
