//! `ragsynth audit`: opens the set (ours or a foreign export) with its corpus, runs the rules
//! (and with `--llm` the judged ones), renders the report and turns the findings into an exit
//! code; `--write` stores each case's flags and figures in the set.

use anyhow::{Result, bail};
use ragsynth::audit::{self, AuditContext};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::WalkOptions;
use ragsynth::prompts::Prompts;
use ragsynth::render::audit as render;
use ragsynth::workspace::SetSource;

use super::{calibration, emit, note, open, with_llm};
use crate::Exit;
use crate::cli::AuditArgs;

pub fn run(args: AuditArgs, file: &ConfigFile, walk: &WalkOptions) -> Result<Exit> {
    if let Some(code) = &args.explain {
        println!("{}", render::explain(audit::rules::lookup(code)?));
        return Ok(Exit::Ok);
    }
    let path = args
        .testset
        .as_deref()
        .expect("clap requires it without --explain");
    let cfg = args.config(file)?;
    let options = args.open_options(path, walk)?;
    let mut ws = open(path, &options)?;
    if let (true, SetSource::Export(kind)) = (args.write, options.set) {
        bail!(
            "--write needs a ragsynth test set; {} is a {kind} export",
            path.display()
        );
    }
    audit::check_label_paths(&ws.set, path)?;
    let chunks = ws.chunk()?;
    let cx = AuditContext::from_parts(ws.corpus.take(), chunks);
    let mut report = audit::audit(&ws.set, &cx, &cfg);
    if args.llm.llm.is_some() && !audit::judged::selected(&cfg).is_empty() {
        let prompts = Prompts::load(args.prompts.as_deref())?;
        let known = calibration(path);
        let set = &ws.set;
        let corpus = cx.corpus.as_ref().map(|c| c.root.as_path());
        with_llm(&args.llm, file, corpus, async |llm| {
            audit::judged::judge(&mut report, set, &cx, &cfg, llm, &prompts, &known).await
        })?;
    }
    let shown = render::render(&args.report_format(path), &report, &ws.set, cx.corpus.as_ref());
    emit(args.output.as_deref(), shown.as_bytes())?;
    if args.write {
        let changed = audit::write_back(&mut ws.set, &report, args.write_scope());
        if changed > 0 {
            ws.save()?.notes.iter().for_each(note);
        }
        eprintln!("wrote audit figures into {changed} case(s) of {}", path.display());
    }
    let worst = report.worst();
    Ok(Exit::findings_if(
        args.fail_on.level().is_some_and(|l| worst >= Some(l)),
    ))
}
