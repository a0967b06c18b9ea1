//! promptfoo: a tests file (`tests: file://tests.json` in a promptfoo config), one test per
//! case: `vars.question` for the prompt, an assertion that grades the answer against the
//! reference (`factuality`) or, for an unanswerable case, asks that the system decline
//! (`llm-rubric`), and our id, tags and the labelled passages in `metadata`. Passages go in
//! metadata, not vars: promptfoo runs a test once per value of a var that holds a list.

use serde_json::{Value, json};

use super::{ExportCase, FormatInfo, metadata};

pub const INFO: FormatInfo = FormatInfo {
    name: "promptfoo",
    extension: "json",
    loader: "promptfoo: `tests: file://<file>` in promptfooconfig.yaml",
    unanswerable: "an `llm-rubric` assertion that the answer declines",
    write,
};

/// The rubric an unanswerable case's answer is graded by.
pub const DECLINES: &str = "The answer says that the documentation does not answer the question, \
and does not invent an answer.";

fn write(cases: &[ExportCase]) -> String {
    let tests: Vec<Value> = cases.iter().map(test).collect();
    let mut out = serde_json::to_string_pretty(&tests).expect("JSON values serialize");
    out.push('\n');
    out
}

fn test(c: &ExportCase) -> Value {
    let assert = if c.unanswerable {
        json!([{"type": "llm-rubric", "value": DECLINES}])
    } else if let Some(a) = &c.answer {
        json!([{"type": "factuality", "value": a}])
    } else {
        json!([])
    };
    let mut meta = metadata(c);
    meta.insert("reference_contexts".into(), json!(c.contexts));
    if let Some(a) = &c.answer {
        meta.insert("reference_answer".into(), json!(a));
    }
    json!({
        "description": c.id,
        "vars": {"question": c.question},
        "assert": assert,
        "metadata": meta,
    })
}
