//! `ragsynth calibrate`: asks the model every judge's labelled items, prints kappa per judge and
//! source, and keeps each judge's pooled kappa in the records file the other commands read.

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use ragsynth::calibrate;
use ragsynth::config::ConfigFile;
use ragsynth::judge::calibration::Records;
use ragsynth::prompts::Prompts;
use ragsynth::render::calibrate as render;

use super::with_llm;
use crate::Exit;
use crate::cli::CalibrateArgs;

pub fn run(args: CalibrateArgs, file: &ConfigFile) -> Result<Exit> {
    let items = calibrate::items(&args.options())?;
    let prompts = Prompts::load(args.prompts.as_deref())?;
    let bar = ProgressBar::new(items.len() as u64).with_style(ProgressStyle::with_template(
        "{msg} {wide_bar} {pos}/{len} items, eta {eta}",
    )?);
    bar.set_message("calibrating");
    // The journal is kept per corpus elsewhere; here the items are the "corpus".
    let measured = with_llm(&args.llm, file, None, async |llm| {
        calibrate::run(llm, &prompts, &items, &|| bar.inc(1)).await
    })?;
    bar.finish_and_clear();
    let now = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second()).unwrap_or_default();
    let records = measured.records(now);
    let saved = (!args.dry_run && !records.is_empty()).then(|| args.output.display().to_string());
    if saved.is_some() {
        Records::store(&args.output, records.clone())?;
    }
    if args.json {
        let doc = render::json::report(&measured, &records, saved.as_deref());
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print!("{}", render::text::report(&measured, args.show_misses));
        match &saved {
            Some(path) => println!("kept {} judge(s) in {path}", records.len()),
            None => println!("nothing kept (--dry-run or nothing measured)"),
        }
    }
    Ok(Exit::Ok)
}
