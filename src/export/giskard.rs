//! Giskard RAGET's `QATestset`: JSON Lines as `QATestset.load` reads them — `id`, `question`,
//! `reference_answer`, `reference_context` (the passages as Giskard writes them, `Document N:`
//! blocks), `conversation_history` and `metadata` with Giskard's `question_type` and `topic`,
//! beside our tags.

use serde_json::{Value, json};

use super::{ExportCase, FormatInfo, metadata};

pub const INFO: FormatInfo = FormatInfo {
    name: "giskard",
    extension: "jsonl",
    loader: "giskard: giskard.rag.QATestset.load(path)",
    unanswerable: "`question_type: out of scope`, an empty `reference_context`",
    write,
};

fn write(cases: &[ExportCase]) -> String {
    super::lines(cases.iter().map(sample))
}

fn sample(c: &ExportCase) -> Value {
    let context = c
        .contexts
        .iter()
        .enumerate()
        .map(|(i, t)| format!("Document {}: {t}", i + 1))
        .collect::<Vec<_>>()
        .join("\n\n");
    let mut meta = metadata(c);
    meta.insert("question_type".into(), json!(question_type(c)));
    meta.insert("topic".into(), json!(c.topic.as_deref().unwrap_or("Others")));
    if let Some(s) = c.spans.first() {
        meta.insert("seed_document_id".into(), json!(s.doc));
    }
    json!({
        "id": c.id,
        "question": c.question,
        "reference_answer": c.answer.as_deref().unwrap_or(""),
        "reference_context": context,
        "conversation_history": [],
        "metadata": meta,
    })
}

/// Giskard's name for the kind of question: its out-of-scope questions are our unanswerable
/// ones, its "double" questions ask two things at once as our multi-hop ones do.
fn question_type(c: &ExportCase) -> &'static str {
    if c.unanswerable {
        return "out of scope";
    }
    match c.kind.as_deref() {
        Some("multi_hop") => "double",
        Some("comparison") => "complex",
        _ => "simple",
    }
}
