//! End to end against the real local model: ragsynth starts `llama-server` with SmolLM2, asks
//! for a structured answer, gets a valid one, and stops the server. Skipped (with a reason) when
//! the server or model is not installed, unless `RAGSYNTH_REQUIRE_LLM=1`.

use std::time::Duration;

use ragsynth::llm::{ChatRequest, Llm, LlmError, LlmSettings, llamacpp};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
struct Capital {
    city: String,
    confident: bool,
}

/// Whether the local LLM is installed; panics when it is required but missing.
fn local_llm_available() -> bool {
    let (bin, model) = (llamacpp::server_binary(None), llamacpp::model_file(None));
    if bin.is_file() && model.is_file() {
        return true;
    }
    let reason = format!(
        "local LLM not installed ({} / {}): run `bash scripts/install-llm.sh`",
        bin.display(),
        model.display()
    );
    assert!(
        std::env::var("RAGSYNTH_REQUIRE_LLM").as_deref() != Ok("1"),
        "{reason}"
    );
    eprintln!("skipping: {reason}");
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_llama_server_gives_a_valid_structured_answer() {
    if !local_llm_available() {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let settings = LlmSettings {
        cache_dir: Some(cache.path().to_path_buf()),
        timeout: Some(Duration::from_secs(120)),
        // The server is local: a failure after shutdown should show at once.
        max_retries: Some(1),
        backoff_base: Some(Duration::from_millis(10)),
        ..LlmSettings::default()
    };
    let t = std::time::Instant::now();
    let llm = Llm::connect(Some("llamacpp"), settings).await.unwrap();
    eprintln!("llama-server up in {:?}", t.elapsed());
    assert_eq!(llm.id(), "llamacpp:SmolLM2-135M-Instruct.Q4_1");
    assert_eq!(llm.context_tokens(), Some(ragsynth::llm::DEFAULT_LOCAL_CONTEXT));
    assert_eq!(llm.concurrency(), 2);

    let mut req = ChatRequest::new(
        "e2e",
        "You answer geography questions as JSON.",
        "What is the capital of France?",
    );
    req.max_tokens = 64;
    let t = std::time::Instant::now();
    let reply = llm.structured::<Capital>(&req).await.unwrap();
    eprintln!("answer in {:?}: {reply:?}", t.elapsed());
    assert!(!reply.cached);
    // The schema is enforced by the server's grammar; whether a 135M model gets Paris right is
    // not this layer's business.
    assert!(
        !reply.value.city.trim().is_empty() || !reply.value.confident,
        "{reply:?}"
    );
    let u = llm.usage();
    assert_eq!((u.calls, u.rejected), (1, 0));
    assert!(u.prompt_tokens > 0 && u.completion_tokens > 0, "{u:?}");
    assert_eq!(u.cost_usd, Some(0.0));

    // Replayed from the journal, and a prompt that cannot fit is refused without a call.
    assert!(llm.structured::<Capital>(&req).await.unwrap().cached);
    let long = ChatRequest::new("e2e", "s", "word ".repeat(20_000));
    let e = llm.structured::<Capital>(&long).await.unwrap_err();
    assert!(
        matches!(e, LlmError::Rejected { .. }) && e.to_string().contains("context"),
        "{e}"
    );
    assert_eq!(llm.usage().calls, 1);

    llm.shutdown().await;
    let after = llm
        .structured::<Capital>(&ChatRequest::new("e2e", "s", "Capital of Spain?"))
        .await;
    assert!(after.is_err(), "the server should be gone after shutdown");
}

#[tokio::test]
async fn a_missing_model_names_the_install_command() {
    let e = Llm::connect(
        Some("llamacpp:/nonexistent/model.gguf"),
        LlmSettings {
            no_cache: true,
            ..LlmSettings::default()
        },
    )
    .await
    .unwrap_err();
    assert!(e.is_fatal(), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.starts_with("llamacpp:") && msg.contains("install-llm.sh"),
        "{msg}"
    );
}
