//! The line `--batch` prints at each poll of a batch.

/// One line on stderr per poll of a batch: how far it is, and at this pace how long it needs.
pub fn line(p: &ragsynth::llm::BatchProgress) {
    let mins = |d: std::time::Duration| format!("{:.1} min", d.as_secs_f64() / 60.0);
    let eta = p.eta.map_or(String::new(), |e| format!(", eta {}", mins(e)));
    let state = match (p.ended, p.resumed) {
        (true, _) => "ended",
        (false, true) => "collecting (submitted by an earlier run)",
        (false, false) => "running",
    };
    eprintln!(
        "batch {}: {state}, {}/{} done, {} failed, {} elapsed{eta}",
        ragsynth::terminal::safe(&p.batch),
        p.done,
        p.requests,
        p.failed,
        mins(p.elapsed)
    );
}
