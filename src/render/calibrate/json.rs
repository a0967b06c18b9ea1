//! A calibration for scripts: one JSON document with the model, the prompts, every row and the
//! records kept.

use serde::Serialize;
use serde_json::{Value, json};

use crate::calibrate::Calibrated;

/// The document; `records` are those kept, `saved` the records file written (none when nothing
/// was kept).
pub fn report(c: &Calibrated, records: &impl Serialize, saved: Option<&str>) -> Value {
    json!({
        "kind": "calibration",
        "model": c.model,
        "prompts": c.prompts,
        "rows": c.rows,
        "records": records,
        "saved": saved,
        "misses": c.misses,
    })
}
