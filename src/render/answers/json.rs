//! An evaluation of answers as JSON: the report (also the baseline file, marked `"kind":
//! "answers"`, with the comparison under `comparison`) and JSON Lines with one case each.

use serde_json::{Map, Value, json};

use crate::eval::answers::baseline::{AnswerComparison, KIND, worse};
use crate::eval::answers::report::JudgeFigures;
use crate::eval::answers::{AnswerReport, CaseResult};

/// One case as a JSON object (a line of `--out`, an entry of `questions`).
pub fn case(q: &CaseResult) -> Value {
    let tags: Map<String, Value> = q
        .tags
        .iter()
        .map(|(t, v)| (t.to_string(), Value::from(v.as_str())))
        .collect();
    json!({
        "id": q.id,
        "tags": tags,
        "unanswerable": q.unanswerable,
        "answered": q.answered,
        "correct": q.correct,
        "refused": q.refused,
        "grounded": q.grounded,
        "exact_match": q.exact_match,
        "f1": q.f1,
        "refused_lexical": q.refused_lexical,
        "reasons": q.reasons,
    })
}

fn judges(j: &JudgeFigures) -> Value {
    json!({
        "model": j.model,
        "asked": j.asked,
        "lost": j.lost,
        "prompts": j.prompts,
        "usage": j.usage,
        // Which judges ran with this model, and why the others did not.
        "standing": j.standing,
    })
}

/// The report as one JSON document; also the baseline file format.
pub fn report(
    r: &AnswerReport,
    out: &mut dyn std::io::Write,
    comparison: Option<&Value>,
) -> std::io::Result<()> {
    let f = &r.overall;
    let mut doc = json!({
        "kind": KIND,
        "split": r.split,
        "cases": f.cases,
        "answered": f.answered,
        "unanswerable": f.unanswerable,
        "metrics": f.to_map(),
        "by_tag": r.groups.iter().map(|g| json!({
            "tag": g.tag, "value": g.value, "n": g.figures.cases, "metrics": g.figures.to_map(),
        })).collect::<Vec<_>>(),
        "unanswered": r.unanswered,
        "unanswered_scored_wrong": !r.skip_missing,
        "other_split": r.other_split,
        "judges": r.judges.as_ref().map(judges),
        // Per judge that gave verdicts: its last measured agreement with people, or
        // "not calibrated".
        "calibration": r.calibration.iter().map(|(judge, rec)| (judge.to_string(), match rec {
            Some(rec) => json!(rec),
            None => json!("not calibrated"),
        })).collect::<Map<String, Value>>(),
        "questions": r.questions.iter().map(case).collect::<Vec<_>>(),
    });
    if let (Some(c), Value::Object(m)) = (comparison, &mut doc) {
        m.insert("comparison".into(), c.clone());
    }
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

/// One JSON line per case (the `--out` file): the case's figures and verdicts, and what a
/// person needs to check them without the test set at hand — the question, the references, the
/// system's answer and contexts, and who judged (`judged_by`: the model and each judge's
/// prompt; `null` when only the lexical refusal detector ran).
pub fn questions(r: &AnswerReport, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let judged_by = r
        .judges
        .as_ref()
        .map(|j| json!({"model": j.model, "prompts": j.prompts}));
    for q in &r.questions {
        let mut line = case(q);
        if let Value::Object(m) = &mut line {
            m.insert("question".into(), q.shown.question.clone().into());
            m.insert("references".into(), json!(q.shown.references));
            m.insert("answer".into(), json!(q.shown.answer));
            m.insert("contexts".into(), json!(q.shown.contexts));
            m.insert("judged_by".into(), judged_by.clone().unwrap_or(Value::Null));
        }
        serde_json::to_writer(&mut *out, &line)?;
        writeln!(out)?;
    }
    Ok(())
}

/// A baseline comparison as JSON (the `comparison` key of the report).
pub fn comparison(c: &AnswerComparison) -> Value {
    let delta = |d: &crate::eval::baseline::Delta| json!({"scope": d.scope, "metric": d.metric, "before": d.before, "now": d.after, "change": d.change(), "worse": worse(d, c.tolerance)});
    json!({
        "tolerance": c.tolerance,
        "failed": c.failed(),
        "regressed": c.regressions().into_iter().map(|d| d.metric.clone()).collect::<Vec<_>>(),
        "overall": c.overall.iter().map(delta).collect::<Vec<_>>(),
        "by_tag": c.groups.iter().map(delta).collect::<Vec<_>>(),
        "dropped_questions": c.dropped.iter().map(|q| json!({
            "id": q.id,
            "changes": q.changes.iter().map(|(n, b, a)| json!({"figure": n, "before": b, "now": a})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
