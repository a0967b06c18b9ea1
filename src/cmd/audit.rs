//! `ragsynth audit`: loads the set (ours or a foreign export), builds the corpus context,
//! runs the rules, prints the report and turns the findings into an exit code.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{Context as _, Result, bail};
use ragsynth::audit::{self, AuditConfig, Context, Severity, WriteScope, foreign, report};
use ragsynth::config::ConfigFile;
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::llm::Llm;
use ragsynth::prompts::Prompts;
use ragsynth::testset::Tracked;

use super::{note, warning};
use crate::Exit;
use crate::cli::{AuditArgs, AuditFormat, FailOn, FromFormat};

pub fn run(args: AuditArgs, config: Option<&Path>, walk: &WalkOptions) -> Result<Exit> {
    if let Some(code) = &args.explain {
        let Some(rule) = audit::rules::explain(code) else {
            let codes: Vec<&str> = audit::rules::all().iter().map(|r| r.code).collect();
            bail!("unknown rule `{code}`; rules: {}", codes.join(", "));
        };
        println!(
            "{} {} ({})\n\n{}\n\n{}",
            rule.code, rule.name, rule.severity, rule.summary, rule.doc
        );
        return Ok(Exit::Ok);
    }
    let path = args
        .testset
        .as_deref()
        .expect("clap requires it without --explain");
    let file = ConfigFile::load(config)?;
    let mut cfg: AuditConfig = file.section("audit")?;
    cfg.select.extend(args.select.iter().cloned());
    cfg.ignore.extend(args.ignore.iter().cloned());
    for code in cfg.select.iter().chain(&cfg.ignore) {
        if !audit::rules::all()
            .iter()
            .any(|r| r.code.starts_with(code.trim()))
        {
            bail!("`{code}` matches no rule code (see `ragsynth audit --explain RS101`)");
        }
    }

    let kind = match args.from {
        FromFormat::Auto => foreign::detect(path)?,
        FromFormat::Ragsynth => foreign::Kind::Ragsynth,
        FromFormat::Ragas => foreign::Kind::Ragas,
        FromFormat::Deepeval => foreign::Kind::DeepEval,
        FromFormat::Giskard => foreign::Kind::Giskard,
        FromFormat::Csv => foreign::Kind::Plain,
    };
    let native = kind == foreign::Kind::Ragsynth;
    // Saved through `Tracked` with --write: review decisions made meanwhile are kept.
    let mut tracked = if native { Some(Tracked::open(path)?) } else { None };
    let corpus_root = args
        .corpus
        .clone()
        .or_else(|| tracked.as_ref().and_then(|t| t.set.corpus_root(path)));
    let corpus = match &corpus_root {
        Some(root) => {
            if !root.exists() {
                bail!("corpus {} does not exist (pass --corpus DIR)", root.display());
            }
            let c = Corpus::load(root, walk.clone())
                .with_context(|| format!("reading corpus {}", root.display()))?;
            for s in &c.skipped {
                warning(s);
            }
            Some(c)
        }
        None => None,
    };
    let imported = match &tracked {
        Some(_) => None,
        None => {
            let imported = foreign::load(path, kind, corpus.as_ref())?;
            for w in &imported.warnings {
                warning(w);
            }
            if args.write {
                bail!(
                    "--write needs a ragsynth test set; {} is a {kind} export",
                    path.display()
                );
            }
            Some(imported.set)
        }
    };
    let set = match (&tracked, &imported) {
        (Some(t), _) => &t.set,
        (None, Some(set)) => set,
        (None, None) => unreachable!("a set is either native or imported"),
    };
    audit::check_label_paths(set, path)?;
    let chunking = set.chunking.clone().unwrap_or_default();
    let cx = Context::new(corpus, &chunking)?;
    let mut report = audit::audit(set, &cx, &cfg);
    if args.llm.llm.is_some() && !audit::judged::selected(&cfg).is_empty() {
        let prompts = Prompts::load(args.prompts.as_deref())?;
        let runtime = tokio::runtime::Runtime::new()?;
        runtime.block_on(async {
            let llm = Llm::connect(args.llm.llm.as_deref(), args.llm.settings(&file)).await?;
            for n in llm.notes() {
                warning(n);
            }
            let result = audit::judged::judge(&mut report, set, &cx, &cfg, &llm, &prompts).await;
            llm.shutdown().await;
            anyhow::Ok(result?)
        })?;
    }

    let rendered = match args.format {
        AuditFormat::Json => format!("{}\n", report::json(&report)),
        AuditFormat::Text => {
            let color = args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none();
            let opts = report::TextOptions {
                color,
                max_per_rule: args.max_per_rule,
            };
            let mut text = report::text(&report, set, opts);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        AuditFormat::Html => {
            // The page reads flags and figures from each case's `audit` field: fill them in a
            // copy, whatever --write says, so the file on disk is untouched.
            let mut shown = set.clone();
            audit::write_back(&mut shown, &report, WriteScope::All);
            let title = format!("ragsynth audit of {}", path.display());
            ragsynth::review::static_html_with(
                &shown,
                cx.corpus.as_ref(),
                Some(audit::rules::explanation),
                &title,
            )
        }
    };
    match &args.output {
        Some(file) => {
            ragsynth::fsutil::write_atomic(file, rendered.as_bytes())?;
            eprintln!("wrote the report to {}", file.display());
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            out.write_all(rendered.as_bytes())?;
            out.flush()?;
        }
    }

    if args.write
        && let Some(tracked) = tracked.as_mut()
    {
        let scope = if args.write_real {
            WriteScope::All
        } else {
            WriteScope::Synthetic
        };
        let changed = audit::write_back(&mut tracked.set, &report, scope);
        if changed > 0 {
            let saved = tracked.save()?;
            for n in &saved.notes {
                note(n);
            }
        }
        eprintln!("wrote audit figures into {changed} case(s) of {}", path.display());
    }

    let fail = match args.fail_on {
        FailOn::Info => Some(Severity::Info),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Error => Some(Severity::Error),
        FailOn::Never => None,
    };
    Ok(match (fail, report.worst()) {
        (Some(level), Some(worst)) if worst >= level => Exit::Findings,
        _ => Exit::Ok,
    })
}
