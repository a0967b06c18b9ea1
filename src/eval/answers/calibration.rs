//! How far to trust each judge: its agreement with a person's marks (`eval --calibration`),
//! and the last measure of each judge kept beside the test set for every later report.
//!
//! A mark says "this verdict was right / wrong"; the person's label is the verdict when right,
//! its opposite when wrong ([`super::marks::Mark::truth`]). The agreement compares the judge's
//! verdict in the per-case file *now* with those labels: accuracy, and Cohen's kappa
//! `κ = (p_o − p_e) / (1 − p_e)`, where `p_o` is the accuracy and `p_e = p_v·p_t + (1−p_v)(1−p_t)`
//! the agreement expected by chance from how often the judge says yes (`p_v`) and the person's
//! label is yes (`p_t`). Right after marking, the verdicts are those the person saw, so
//! `p_o` is the share marked right; when a judge is re-run (another prompt, model), the same
//! labels measure the new verdicts. κ is undefined (`None`) when every verdict and every label
//! is the same value (`p_e = 1`).
//!
//! The records file, `judge-calibration.json` in the test set's folder, holds one entry per
//! (judge, model, prompt): a report shows the kappa of the judge that produced its verdicts, and
//! "not calibrated" when that exact judge was never measured.

use std::path::Path;

use serde::Serialize;

use super::marks::{self, JUDGES, Marks};
use super::per_question::{JudgeId, PerQuestion};
pub use crate::judge::calibration::{FILE_NAME, Record, Records, path_for};
use crate::{Error, Result};

/// One judge measured against the marks.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Agreement {
    /// Judge name.
    pub judge: &'static str,
    /// Marks compared (the case has a verdict of this judge now).
    pub n: usize,
    /// Of which the verdict equals the person's label.
    pub agree: usize,
    /// `agree / n`.
    pub accuracy: Option<f64>,
    /// Cohen's kappa, `None` when undefined.
    pub kappa: Option<f64>,
    /// Its 95% interval.
    pub ci: Option<[f64; 2]>,
    /// Verdicts `true` and labels `true`, as `[[tt, tf], [ft, ff]]` (verdict, then label).
    pub table: [[usize; 2]; 2],
    /// Marks whose case has no verdict of this judge now (left out).
    pub no_verdict: usize,
    /// Marks made on a verdict that differs from the file's now (the judge was re-run).
    pub changed: usize,
}

/// Accuracy and Cohen's kappa of `(verdict, label)` pairs (`judge::calibration::agreement`).
pub fn agreement(pairs: &[(bool, bool)]) -> (Option<f64>, Option<f64>) {
    let a = crate::judge::calibration::agreement(pairs);
    (a.accuracy, a.kappa)
}

/// Each judge's agreement with `marks` over the verdicts of `file`.
pub fn measure(file: &PerQuestion, marks: &Marks) -> Vec<Agreement> {
    JUDGES
        .into_iter()
        .map(|judge| {
            let mut a = Agreement {
                judge,
                ..Agreement::default()
            };
            let mut pairs = Vec::new();
            for m in marks.by_key.values().filter(|m| m.judge == judge) {
                match file.case(&m.id).and_then(|c| c.verdicts[judge]) {
                    None => a.no_verdict += 1,
                    Some(v) => {
                        a.changed += usize::from(v != m.verdict);
                        a.table[usize::from(!v)][usize::from(!m.truth())] += 1;
                        pairs.push((v, m.truth()));
                    }
                }
            }
            a.n = pairs.len();
            a.agree = pairs.iter().filter(|(v, t)| v == t).count();
            let full = crate::judge::calibration::agreement(&pairs);
            (a.accuracy, a.kappa, a.ci) = (full.accuracy, full.kappa, full.ci);
            a
        })
        .collect()
}

/// What `eval --calibration` measured, and where it kept it.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The per-case file.
    pub per_question: String,
    /// Its marks file.
    pub marks: String,
    /// Marks read.
    pub marks_read: usize,
    /// Per judge: who judged (`model`, `prompt`) and the agreement.
    pub judges: Vec<(Option<JudgeId>, Agreement)>,
    /// Where the records were saved.
    pub saved: String,
}

/// Measures each judge of the per-case file `per_question` (written by `eval --answers --out`
/// for the test set at `testset`) against the marks beside it, and keeps a record of each
/// judge that has marks in the records file of the test set, stamped `now`.
pub fn calibrate(testset: &Path, per_question: &Path, now: jiff::Timestamp) -> Result<Measured> {
    let set = crate::testset::load(testset)?;
    let file = PerQuestion::load(per_question)?;
    // The marks must be about this test set's cases.
    if let Some(c) = file.cases.iter().find(|c| set.case(&c.id).is_none()) {
        return Err(Error::Config(format!(
            "{}:{}: case `{}`: no case of {} has this id (is this the per-case file of another test set?)",
            per_question.display(),
            c.line,
            c.id,
            testset.display()
        )));
    }
    let marks_path = marks::path_for(per_question);
    if !marks_path.exists() {
        return Err(Error::Config(format!(
            "{}: no marks yet; mark the verdicts first: ragsynth review --answers {}",
            marks_path.display(),
            per_question.display()
        )));
    }
    let marks = Marks::load(&marks_path, |id| file.case(id).is_some())?;
    let judges: Vec<_> = measure(&file, &marks)
        .into_iter()
        .map(|a| (file.judged_by.of(a.judge), a))
        .collect();
    let records = judges
        .iter()
        .filter(|(_, a)| a.n > 0)
        .filter_map(|(who, a)| {
            let (model, prompt) = who.clone()?;
            Some(Record {
                judge: a.judge.to_string(),
                model,
                prompt,
                n: a.n,
                accuracy: a.accuracy,
                kappa: a.kappa,
                ci: a.ci,
                measured: now,
                marks: marks_path.display().to_string(),
            })
        })
        .collect();
    let saved = path_for(testset);
    Records::store(&saved, records)?;
    Ok(Measured {
        per_question: per_question.display().to_string(),
        marks: marks_path.display().to_string(),
        marks_read: marks.by_key.len(),
        judges,
        saved: saved.display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kappa_by_hand() {
        // 10 pairs: verdict yes 6 times, label yes 5 times, 7 agree.
        let mut pairs = vec![(true, true); 4];
        pairs.extend([(true, false), (true, false)]);
        pairs.push((false, true));
        pairs.extend([(false, false)].repeat(3));
        assert_eq!(pairs.len(), 10);
        let (acc, k) = agreement(&pairs);
        // p_o = 7/10; p_e = 0.6·0.5 + 0.4·0.5 = 0.5; κ = 0.2/0.5 = 0.4.
        assert!((acc.unwrap() - 0.7).abs() < 1e-12);
        assert!((k.unwrap() - 0.4).abs() < 1e-12);
        assert_eq!(agreement(&[(true, true), (true, true)]), (Some(1.0), None));
        assert_eq!(agreement(&[]), (None, None));
    }
}
