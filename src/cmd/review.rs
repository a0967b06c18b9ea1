//! `ragsynth review`: serves the review page until Ctrl-C.

use anyhow::{Context, Result};
use ragsynth::corpus::WalkOptions;
use ragsynth::review::{ServeOptions, serve, serve_answers};

use super::note;
use super::page::announce;
use crate::Exit;
use crate::cli::ReviewArgs;

pub fn run(args: ReviewArgs, walk: &WalkOptions) -> Result<Exit> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    if let Some(path) = &args.answers {
        return runtime.block_on(answers(&args, path));
    }
    let testset = args.testset.clone().context("a test set is required")?;
    runtime.block_on(async {
        let opts = ServeOptions {
            corpus: args.corpus.clone(),
            bind: args.bind,
            port: args.port,
            explain: Some(ragsynth::audit::rules::explanation),
            walk: walk.clone(),
            ..ServeOptions::new(&testset)
        };
        // Each error names its file or address already.
        let server = serve(opts).await?;
        server.notes().iter().for_each(note);
        let (cases, pending, needs_label) = server.counts();
        let headline = format!(
            "Reviewing {} ({cases} cases: {pending} pending, {needs_label} needing a label) at {}",
            testset.display(),
            server.url()
        );
        announce(
            &args,
            "change the test set",
            &headline,
            "every decision is saved at once",
            &server.url(),
        );
        server
            .run(async { tokio::signal::ctrl_c().await.unwrap_or_default() })
            .await?;
        Ok(Exit::Ok)
    })
}

/// `review --answers`: the judged-answers page.
async fn answers(args: &ReviewArgs, path: &std::path::Path) -> Result<Exit> {
    let server = serve_answers(path.to_path_buf(), args.bind, args.port).await?;
    let (cases, verdicts, marked) = server.counts();
    let headline = format!(
        "Reviewing the verdicts of {} ({cases} cases, {verdicts} verdicts, {marked} marked) at {}",
        path.display(),
        server.url()
    );
    let saved = format!(
        "every mark is saved at once into {}",
        server.marks_path().display()
    );
    announce(args, "mark the verdicts", &headline, &saved, &server.url());
    server
        .run(async { tokio::signal::ctrl_c().await.unwrap_or_default() })
        .await?;
    Ok(Exit::Ok)
}
