//! promptfoo: a tests file (`tests: file://tests.json` in a promptfoo config), one test per
//! case: `vars.question` for the prompt, an assertion that grades the answer against the
//! reference (`factuality`) or, for an unanswerable case, asks that the system decline
//! (`llm-rubric`), and our id, tags and the labelled passages in `metadata`. Passages go in
//! metadata, not vars: promptfoo runs a test once per value of a var that holds a list.
//!
//! promptfoo treats some strings as more than text: a value starting with `file://` is loaded
//! (a `.js` or `.py` file is run), one starting with `package:` runs a package's function, and
//! values are rendered as Nunjucks templates with the environment in reach. A question
//! imported from someone else's file may be any of these, so every string of a test goes
//! through [`inert`] (a WORD JOINER inside each opener: the same words to a person, plain text
//! to promptfoo); `ragsynth import` takes the joiners out again.

use serde_json::{Value, json};

use super::{ExportCase, FormatInfo, metadata};
use crate::testset::foreign::promptfoo::inert;

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
    let mut test = json!({
        "description": c.id,
        "vars": {"question": c.question},
        "assert": assert,
        "metadata": meta,
    });
    plain(&mut test);
    test
}

/// Every string in `v` made [`inert`] (keys are never loaded or rendered, values may be).
fn plain(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let std::borrow::Cow::Owned(safe) = inert(s) {
                *s = safe;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain),
        Value::Object(fields) => fields.values_mut().for_each(plain),
        _ => {}
    }
}
