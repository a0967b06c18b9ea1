//! Where a command's results go: a report to standard output or a file, a side file written
//! atomically, and the connected LLM a command runs with.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use ragsynth::config::ConfigFile;
use ragsynth::fsutil::write_atomic;
use ragsynth::judge::calibration::Known;
use ragsynth::llm::{BatchObserver, Llm, LlmError, LlmSettings};

use crate::cli::LlmArgs;

/// Writes a report to `output` (atomically) or, without one, to standard output.
pub fn emit(output: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match output {
        Some(file) => {
            write_atomic(file, bytes)?;
            eprintln!("wrote the report to {}", file.display());
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Writes what `fill` renders into `path` (atomically), when a path is given.
pub fn save(path: Option<&Path>, fill: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<()> {
    if let Some(path) = path {
        let mut bytes = Vec::new();
        fill(&mut bytes)?;
        write_atomic(path, &bytes)?;
    }
    Ok(())
}

/// Runs `work` with the LLM `args` name, on a runtime of its own: a local server is stopped
/// after, whatever `work` returns. `corpus` is what the run works on (it picks the default
/// journal).
pub fn with_llm<T>(
    args: &LlmArgs,
    config: &ConfigFile,
    corpus: Option<&Path>,
    work: impl AsyncFnOnce(&Llm) -> Result<T, LlmError>,
) -> Result<T> {
    let settings = LlmSettings {
        corpus: corpus.map(Path::to_path_buf),
        on_batch: Some(BatchObserver(std::sync::Arc::new(crate::progress::batch_line))),
        ..args.settings(config)
    };
    tokio::runtime::Runtime::new()?.block_on(async {
        let llm = Llm::connect(args.llm.as_deref(), settings).await?;
        let result = work(&llm).await;
        llm.shutdown().await;
        Ok(result?)
    })
}

/// How far the judges are trusted for the set at `set`: the records file beside it and the
/// built-in table. A broken file must not stop the run: it is warned about, and only the
/// built-in table is used.
pub fn calibration(set: &Path) -> Known {
    Known::beside(set).unwrap_or_else(|e| {
        super::warning(format_args!("{e}; only the built-in calibrations are used"));
        Known::built_in()
    })
}
