//! `eval --calibration` for a terminal and as JSON: each judge's agreement with a person's
//! marks.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::eval::answers::calibration::Measured;

fn num(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.4}"))
}

/// The agreement as a table.
pub fn text(m: &Measured) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "judges of {} against {} marks in {}",
        crate::terminal::data(&m.per_question),
        m.marks_read,
        crate::terminal::data(&m.marks)
    );
    let _ = writeln!(
        out,
        "\n{:<9} {:>5} {:>6} {:>9} {:>8}  judged by",
        "judge", "n", "agree", "accuracy", "kappa"
    );
    for (who, a) in &m.judges {
        let who = match who {
            Some((model, Some(prompt))) => format!("{model} ({prompt})"),
            Some((model, None)) => model.clone(),
            None => "-".into(),
        };
        let kappa = match (a.n, a.kappa) {
            (0, _) => "-".into(),
            (_, None) => "undef".into(),
            (_, k) => num(k),
        };
        let _ = writeln!(
            out,
            "{:<9} {:>5} {:>6} {:>9} {:>8}  {}",
            a.judge,
            a.n,
            a.agree,
            num(a.accuracy),
            kappa,
            crate::terminal::data(&who)
        );
        if a.no_verdict > 0 || a.changed > 0 {
            let _ = writeln!(
                out,
                "          ({} marks on cases without a verdict now, left out; {} verdicts changed since marked)",
                a.no_verdict, a.changed
            );
        }
    }
    let _ = writeln!(
        out,
        "\nlabel = the verdict when marked right, its opposite when marked wrong; kappa: Cohen's, verdicts vs labels (undef: every verdict and label the same)"
    );
    let _ = writeln!(
        out,
        "saved to {}: answers reports of this test set show it next to each judge's figures",
        crate::terminal::data(&m.saved)
    );
    out
}

/// The agreement as one JSON document.
pub fn json(m: &Measured) -> Value {
    json!({
        "kind": "calibration",
        "per_question": m.per_question,
        "marks": m.marks,
        "marks_read": m.marks_read,
        "judges": m.judges.iter().map(|(who, a)| {
            let mut v = json!(a);
            if let Value::Object(o) = &mut v {
                o.insert("model".into(), json!(who.as_ref().map(|w| &w.0)));
                o.insert("prompt".into(), json!(who.as_ref().and_then(|w| w.1.as_ref())));
            }
            v
        }).collect::<Vec<_>>(),
        "saved": m.saved,
    })
}
