//! How far to trust each LLM judge: its agreement with labelled data or with a person's marks,
//! as Cohen's kappa per (judge, model, prompt id). Two sources, the person's own first: the
//! records `eval --calibration` keeps in `judge-calibration.json` beside a test set, and the
//! table [`MEASURED`] of what we measured for the built-in prompts on the default model
//! (`scripts/calibrate-judges.sh`, `scripts/calibrate-answer-judges.sh` re-measure it). A judge
//! below [`KAPPA_BAR`], or never measured with that model and prompt, is uncalibrated: its
//! verdicts are shown as such and do not fail an audit.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsutil::{DirLock, write_atomic};
use crate::{Error, Result};

/// The kappa from which a judge's verdicts are trusted (the usual bar for agreement beyond
/// chance: 0 is chance, 1 perfect).
pub const KAPPA_BAR: f64 = 0.6;

/// The records file's name, in the test set's folder.
pub const FILE_NAME: &str = "judge-calibration.json";

/// The last measure of one judge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Judge name.
    pub judge: String,
    /// `provider:model`, or `lexical` for the refusal detector.
    pub model: String,
    /// The judge's prompt id (`None` for the lexical detector).
    pub prompt: Option<String>,
    /// Marks compared.
    pub n: usize,
    /// Accuracy.
    pub accuracy: Option<f64>,
    /// Cohen's kappa (`None`: undefined).
    pub kappa: Option<f64>,
    /// When it was measured.
    pub measured: jiff::Timestamp,
    /// The marks file it was measured on.
    pub marks: String,
}

impl Record {
    /// One line for a report: `κ 0.75, accuracy 0.90 (n 40, 2026-12-01)`.
    pub fn summary(&self) -> String {
        let kappa = self.kappa.map_or("undefined".into(), |k| format!("{k:.2}"));
        let accuracy = self.accuracy.map_or("-".into(), |a| format!("{a:.2}"));
        let day = self.measured.to_string();
        let day = day.get(..10).unwrap_or(&day);
        format!("κ {kappa}, accuracy {accuracy} (n {}, {day})", self.n)
    }
}

/// Every record of a test set's folder.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Records {
    /// Format version (1).
    pub ragsynth_calibration: u32,
    /// The records.
    pub records: Vec<Record>,
}

/// The records file of the test set at `testset`.
pub fn path_for(testset: &Path) -> PathBuf {
    testset.with_file_name(FILE_NAME)
}

impl Records {
    /// Reads `path`; no file: no records.
    pub fn load(path: &Path) -> Result<Records> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Records::default()),
            Err(e) => return Err(Error::io(path, e)),
        };
        serde_json::from_str(&text).map_err(|e| Error::Parse {
            path: path.to_path_buf(),
            line: Some(e.line()),
            column: Some(e.column()),
            message: e.to_string(),
        })
    }

    /// The record of `judge` as run by `model` with `prompt`.
    pub fn find(&self, judge: &str, model: &str, prompt: Option<&str>) -> Option<&Record> {
        self.records
            .iter()
            .find(|r| r.judge == judge && r.model == model && r.prompt.as_deref() == prompt)
    }

    /// Replaces the records of the same (judge, model, prompt) with `new` in the file at
    /// `path` as it is on disk now (folder locked, written atomically).
    pub fn store(path: &Path, new: Vec<Record>) -> Result<Records> {
        let dir = path.parent().unwrap_or(Path::new(""));
        let _lock = DirLock::acquire(dir);
        let mut records = Records::load(path)?;
        records.ragsynth_calibration = 1;
        for r in new {
            records
                .records
                .retain(|o| !(o.judge == r.judge && o.model == r.model && o.prompt == r.prompt));
            records.records.push(r);
        }
        let mut text = serde_json::to_string_pretty(&records).expect("records serialize");
        text.push('\n');
        write_atomic(path, text.as_bytes())?;
        Ok(records)
    }
}

/// One judge as we measured it: the built-in prompt on a model, against labelled public data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stored {
    /// Judge name (`answerable`, `supported`, `correct`, `refused`, `grounded`).
    pub judge: &'static str,
    /// `provider:model`.
    pub model: &'static str,
    /// The prompt id (`name@<8 hex>`) of the built-in template measured.
    pub prompt: &'static str,
    /// Items compared.
    pub n: usize,
    /// Cohen's kappa on items the wording was not tuned on.
    pub kappa: f64,
    /// The data, and which items.
    pub data: &'static str,
    /// When (`YYYY-MM-DD`).
    pub measured: &'static str,
}

/// What we measured for the built-in prompts on the default model. A prompt changed since
/// (another id) is not in it: re-measure with the scripts and update the row.
pub const MEASURED: &[Stored] = &[
    Stored {
        judge: "answerable",
        model: DEFAULT_MODEL,
        prompt: "judge_answerable@65d98256",
        n: 60,
        kappa: 0.05,
        data: "SQuAD 2.0 Normans, questions 1-60 with their paragraph",
        measured: "2026-12-01",
    },
    Stored {
        judge: "supported",
        model: DEFAULT_MODEL,
        prompt: "judge_supported@55a19ac8",
        n: 60,
        kappa: 0.67,
        data: "SQuAD 2.0 Normans, right and other answers, items 1-60",
        measured: "2026-12-01",
    },
    Stored {
        judge: "answers",
        model: DEFAULT_MODEL,
        prompt: "judge_answers@10bd3f33",
        n: 80,
        kappa: 0.73,
        data: "XQuAD en articles 24-47 and SQuAD 2.0 Normans, questions 21-40 of each, with their own answer's sentence and another question's",
        measured: "2026-12-01",
    },
];

/// The model the table was measured on.
const DEFAULT_MODEL: &str = "llamacpp:Qwen2.5-Coder-1.5B-Instruct.Q4_K_M";

/// A judge's standing for one run: measured where, how well, and whether it is trusted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// Judge name.
    pub judge: String,
    /// `provider:model` that gave the verdicts.
    pub model: String,
    /// The prompt id it was given.
    pub prompt: String,
    /// Cohen's kappa of that (model, prompt), `None` when never measured.
    pub kappa: Option<f64>,
    /// Items it was measured on.
    pub n: usize,
    /// Where the kappa comes from: `built-in` or the records file's path.
    pub source: Option<String>,
    /// `kappa >= KAPPA_BAR`.
    pub calibrated: bool,
}

impl Calibration {
    /// `judge answerable uncalibrated (κ 0.05, n 60, built-in)` and the like, for a note.
    pub fn summary(&self) -> String {
        let state = if self.calibrated {
            "calibrated"
        } else {
            "uncalibrated"
        };
        match (self.kappa, &self.source) {
            (Some(k), Some(source)) => format!(
                "{} judge {state} with {} ({}): κ {k:.2} on {} items ({source}; the bar is {KAPPA_BAR})",
                self.judge, self.model, self.prompt, self.n
            ),
            _ => format!(
                "{} judge {state} with {} ({}): never measured with this model and prompt",
                self.judge, self.model, self.prompt
            ),
        }
    }
}

/// The calibrations a run can draw on: the person's records beside the test set, and
/// [`MEASURED`].
#[derive(Debug, Clone, Default)]
pub struct Known {
    records: Records,
    file: PathBuf,
}

impl Known {
    /// Only what we measured ([`MEASURED`]).
    pub fn built_in() -> Known {
        Known::default()
    }

    /// The records beside the test set at `testset` (none when the file does not exist), and
    /// [`MEASURED`].
    pub fn beside(testset: &Path) -> Result<Known> {
        let file = path_for(testset);
        Ok(Known {
            records: Records::load(&file)?,
            file,
        })
    }

    /// The standing of `judge` as run by `model` with `prompt` (see [`standing`]).
    pub fn of(&self, judge: &str, model: &str, prompt: &str) -> Calibration {
        standing(judge, model, prompt, &self.records, &self.file)
    }
}

/// The standing of `judge` as run by `model` with `prompt`: the person's record in `user`
/// first, then [`MEASURED`].
pub fn standing(judge: &str, model: &str, prompt: &str, user: &Records, user_file: &Path) -> Calibration {
    let from_user = user
        .find(judge, model, Some(prompt))
        .map(|r| (r.kappa, r.n, user_file.display().to_string()));
    let built_in = || {
        MEASURED
            .iter()
            .find(|m| m.judge == judge && m.model == model && m.prompt == prompt)
            .map(|m| (Some(m.kappa), m.n, "built-in".to_string()))
    };
    let (kappa, n, source) = match from_user.or_else(built_in) {
        Some((k, n, s)) => (k, n, Some(s)),
        None => (None, 0, None),
    };
    Calibration {
        judge: judge.into(),
        model: model.into(),
        prompt: prompt.into(),
        kappa,
        n,
        source,
        calibrated: kappa.is_some_and(|k| k >= KAPPA_BAR),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompts::Prompts;

    #[test]
    fn the_table_names_the_built_in_prompts() {
        // A built-in template changed without re-measuring leaves its row behind: the judge
        // then shows as never measured, so the table must follow the template.
        let p = Prompts::load(None).unwrap();
        for m in MEASURED {
            let name = m.prompt.split('@').next().unwrap();
            assert_eq!(m.prompt, p.id(name), "re-measure {} and update MEASURED", m.judge);
        }
    }

    #[test]
    fn the_persons_record_wins_and_the_bar_decides() {
        let p = Prompts::load(None).unwrap();
        let prompt = p.id("judge_answerable");
        let none = Records::default();
        let file = Path::new("judge-calibration.json");
        let built = standing("answerable", DEFAULT_MODEL, &prompt, &none, file);
        assert!(
            !built.calibrated && built.source.as_deref() == Some("built-in"),
            "{built:?}"
        );
        assert!(built.summary().contains("uncalibrated"), "{}", built.summary());
        let other = standing("answerable", "openai:gpt-4o", &prompt, &none, file);
        assert_eq!((other.kappa, other.calibrated), (None, false));
        let mine = Records {
            ragsynth_calibration: 1,
            records: vec![Record {
                judge: "answerable".into(),
                model: "openai:gpt-4o".into(),
                prompt: Some(prompt.clone()),
                n: 40,
                accuracy: Some(0.9),
                kappa: Some(0.8),
                measured: jiff::Timestamp::UNIX_EPOCH,
                marks: "m.jsonl".into(),
            }],
        };
        let measured = standing("answerable", "openai:gpt-4o", &prompt, &mine, file);
        assert!(measured.calibrated && measured.kappa == Some(0.8), "{measured:?}");
    }
}
