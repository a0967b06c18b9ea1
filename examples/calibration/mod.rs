//! What the two calibration examples share: where the labelled data is, their flags, the
//! connection to the LLM under test, and the agreement figures.

use std::path::PathBuf;

use ragsynth::config::ConfigFile;
use ragsynth::llm::{Llm, LlmSettings};

/// `$RAGSYNTH_SHARED_DATA`, else `../shared/data` beside the checkout.
pub fn data_dir() -> PathBuf {
    std::env::var("RAGSYNTH_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// The value after `name` on the command line.
pub fn flag(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// The model `--llm` names (the default one without it), journaling under `--cache-dir`.
pub async fn connect() -> Llm {
    let settings = LlmSettings {
        cache_dir: flag("--cache-dir").map(PathBuf::from),
        config: ConfigFile::default(),
        ..LlmSettings::default()
    };
    Llm::connect(flag("--llm").as_deref(), settings)
        .await
        .expect("an LLM")
}

/// Accuracy and Cohen's kappa of `(truth, verdict)` pairs.
pub fn agreement(pairs: &[(bool, bool)]) -> (f64, f64) {
    let n = pairs.len() as f64;
    let agree = pairs.iter().filter(|(t, v)| t == v).count() as f64 / n;
    let pt = pairs.iter().filter(|(t, _)| *t).count() as f64 / n;
    let pv = pairs.iter().filter(|(_, v)| *v).count() as f64 / n;
    let chance = pt * pv + (1.0 - pt) * (1.0 - pv);
    let kappa = if chance < 1.0 {
        (agree - chance) / (1.0 - chance)
    } else {
        0.0
    };
    (agree, kappa)
}
