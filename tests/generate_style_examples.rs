//! Real questions of the set reach the model as style examples only when asked for
//! (`--style-examples N`): the default local model copied their subjects, so none is shown by
//! default. The requests are read where the model would read them, at a stub server.

mod review_support;
mod stub_llm;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use review_support::{repo, write_testset};
use stub_llm::Stub;

/// The user messages of every request `generate -n 2 --mix lookup=1` sent, with `extra` flags.
async fn prompts_sent(dir: &Path, extra: &[&str]) -> Vec<String> {
    let set = write_testset(dir);
    let stub = Stub::start(Duration::ZERO).await;
    let out = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .current_dir(dir)
        .arg("generate")
        .arg(repo().join("corpora/docs"))
        .arg("-o")
        .arg(&set)
        .args(["-n", "2", "--mix", "lookup=1", "--max-rounds", "1", "--quiet"])
        .args(["--llm", &stub.spec(), "--no-cache"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let requests = stub.server.received_requests().await.unwrap();
    assert!(!requests.is_empty());
    requests
        .iter()
        .map(|r| {
            let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
            body["messages"].to_string()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn real_questions_are_shown_only_when_asked_for() {
    // The first real question of corpora/questions.csv, as the prompt would quote it.
    let real = "how long are snapshots kept on free plan";

    let dir = tempfile::tempdir().unwrap();
    let default = prompts_sent(dir.path(), &[]).await;
    assert!(
        default
            .iter()
            .all(|p| !p.contains(real) && !p.contains("Questions real users asked")),
        "a real question was shown by default"
    );

    let dir = tempfile::tempdir().unwrap();
    let shown = prompts_sent(dir.path(), &["--style-examples", "6"]).await;
    assert!(
        shown
            .iter()
            .all(|p| p.contains("Questions real users asked") && p.contains(real)),
        "--style-examples 6 did not show the set's six real questions"
    );
}
