//! DeepEval goldens: one JSON list, as `EvaluationDataset.add_goldens_from_json_file` loads it
//! — `input`, `expected_output`, `context` (the labelled passages), `name` (our id) — with
//! the id again, the tags and the
//! case's type (under `evolutions`, where DeepEval's synthesizer records its kind of question)
//! in `additional_metadata`, and `source_file` when every passage comes from one document.

use serde_json::{Value, json};

use super::{ExportCase, FormatInfo, metadata};

pub const INFO: FormatInfo = FormatInfo {
    name: "deepeval",
    extension: "json",
    loader: "deepeval: EvaluationDataset().add_goldens_from_json_file(path)",
    unanswerable: "`context: []`, `additional_metadata.evolutions: [\"unanswerable\"]`",
    write,
};

fn write(cases: &[ExportCase]) -> String {
    let goldens: Vec<Value> = cases.iter().map(golden).collect();
    let mut out = serde_json::to_string_pretty(&goldens).expect("JSON values serialize");
    out.push('\n');
    out
}

fn golden(c: &ExportCase) -> Value {
    let mut meta = metadata(c);
    meta.insert("evolutions".into(), json!([super::ragas::kind(c)]));
    let mut v = json!({"name": c.id, "input": c.question, "context": c.contexts});
    if let Some(a) = &c.answer {
        v["expected_output"] = json!(a);
    }
    if let Some(first) = c.spans.first()
        && c.spans.iter().all(|s| s.doc == first.doc)
    {
        v["source_file"] = json!(first.doc);
    }
    v["additional_metadata"] = Value::Object(meta);
    v
}
