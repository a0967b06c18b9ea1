//! Ragas ≥ 0.2: JSON Lines of `SingleTurnSample`s, as `EvaluationDataset.from_jsonl` loads
//! them — `user_input`, `reference`, `reference_contexts` — plus `synthesizer_name` (the case's
//! type, as Ragas' own test sets name their kind of question), our `id` and a `metadata`
//! object, which Ragas' loader passes over and `ragsynth import` reads back.

use serde_json::{Value, json};

use super::{ExportCase, FormatInfo, lines, metadata};

pub const INFO: FormatInfo = FormatInfo {
    name: "ragas",
    extension: "jsonl",
    loader: "ragas: EvaluationDataset.from_jsonl(path)",
    unanswerable: "`reference_contexts: []`, `synthesizer_name: unanswerable`",
    write,
};

fn write(cases: &[ExportCase]) -> String {
    lines(cases.iter().map(sample))
}

fn sample(c: &ExportCase) -> Value {
    let mut v = json!({
        "user_input": c.question,
        "reference_contexts": c.contexts,
    });
    if let Some(a) = &c.answer {
        v["reference"] = json!(a);
    }
    v["synthesizer_name"] = json!(kind(c));
    v["id"] = json!(c.id);
    v["metadata"] = Value::Object(metadata(c));
    v
}

/// The case's type, `unanswerable` whenever no passage answers it.
pub(super) fn kind(c: &ExportCase) -> &str {
    if c.unanswerable {
        "unanswerable"
    } else {
        c.kind.as_deref().unwrap_or("lookup")
    }
}
