//! Our own flat JSON Lines, for a team's scripts: one object per case with the question, the
//! answer, the labelled passages' text and places, and the tags at the top level. `import`
//! reads it back as a question file with contexts.

use serde_json::{Value, json};

use super::{ExportCase, FormatInfo};

pub const INFO: FormatInfo = FormatInfo {
    name: "jsonl",
    extension: "jsonl",
    loader: "any JSON Lines reader: {id, question, answer, contexts, spans, type, ...}",
    unanswerable: "`contexts: []`, `unanswerable: true`",
    write,
};

fn write(cases: &[ExportCase]) -> String {
    super::lines(cases.iter().map(record))
}

fn record(c: &ExportCase) -> Value {
    let mut v = json!({"id": c.id, "question": c.question});
    if let Some(a) = &c.answer {
        v["answer"] = json!(a);
    }
    v["contexts"] = json!(c.contexts);
    v["spans"] = json!(c.spans);
    v["unanswerable"] = json!(c.unanswerable);
    if c.unanswerable {
        v["type"] = json!("unanswerable");
    } else if let Some(t) = &c.kind {
        v["type"] = json!(t);
    }
    for (k, f) in [("topic", &c.topic), ("source", &c.source), ("split", &c.split)] {
        if let Some(x) = f {
            v[k] = json!(x);
        }
    }
    v["review"] = json!(c.review);
    let obj = v.as_object_mut().expect("an object");
    for (k, x) in &c.tags {
        obj.entry(k.clone()).or_insert_with(|| x.clone());
    }
    v
}
