//! Shared by the tests that run the real local llama-server: whether it is installed. Missing
//! means skip (with the reason printed) on a developer machine, and fail where
//! `RAGSYNTH_REQUIRE_LLM=1` (CI) says it must be there.

use ragsynth::llm::llamacpp;

/// Whether the local LLM is installed; panics when it is required but missing.
pub fn local_llm_available() -> bool {
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
