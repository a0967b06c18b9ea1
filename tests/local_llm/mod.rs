//! Shared by the tests that run the real local llama-server: whether it and a model are
//! installed. Missing means skip (with the reason printed) on a developer machine, and fail where
//! `RAGSYNTH_REQUIRE_LLM=1` (CI) says it must be there.

use std::path::Path;

use ragsynth::llm::llamacpp;

/// Whether llama-server and SmolLM2 (the plumbing tests' model) are installed; panics when
/// required but missing.
#[allow(dead_code)]
pub fn local_llm_available() -> bool {
    model_available("smollm2")
}

/// Whether llama-server and the installed model `name` are there; panics when required but
/// missing.
#[allow(dead_code)]
pub fn model_available(name: &str) -> bool {
    let (bin, model) = (
        llamacpp::server_binary(None),
        llamacpp::model_file(Some(Path::new(name))),
    );
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
