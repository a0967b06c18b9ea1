//! How far to trust each LLM judge: its agreement with labelled data or with a person's marks,
//! as Cohen's kappa per (judge, model, prompt id). Two sources, the person's own first: the
//! records `ragsynth calibrate` and `eval --calibration` keep in `judge-calibration.json` beside
//! a test set, and the table [`MEASURED`] of what `ragsynth calibrate` measured for the built-in
//! prompts on the default model. A judge below [`KAPPA_BAR`], or never measured with that model
//! and prompt, is uncalibrated: `generate`, `audit` and `eval --answers` do not run it, and
//! their summaries say why ([`Calibration::why`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsutil::{DirLock, write_atomic};
use crate::llm::Llm;
use crate::prompts::Prompts;
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
    /// Its 95% confidence interval (absent in records written before intervals were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci: Option<[f64; 2]>,
    /// When it was measured.
    pub measured: jiff::Timestamp,
    /// The marks file it was measured on (`eval --calibration`), or the data (`calibrate`).
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

/// What we measured for the built-in prompts on the default model (`ragsynth calibrate --llm
/// llamacpp --squad <SQuAD 2.0 dev, "Normans"> --no-hand-marks` reproduces it within sampling error:
/// `scripts/calibrate-judges.sh`). A prompt changed since (another id) is not in it: re-measure
/// and update the row.
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
    Stored {
        judge: "correct",
        model: DEFAULT_MODEL,
        prompt: "judge_correct@e805b1df",
        n: 40,
        kappa: 0.75,
        data: "SQuAD 2.0 Normans: right answers and another question's answer, items 1-40",
        measured: "2026-12-01",
    },
    Stored {
        judge: "refused",
        model: DEFAULT_MODEL,
        prompt: "judge_refused@f970094b",
        n: 40,
        kappa: 0.95,
        data: "SQuAD 2.0 Normans: refusals in eight wordings, right and made-up answers, items 41-80",
        measured: "2026-12-01",
    },
    Stored {
        judge: "grounded",
        model: DEFAULT_MODEL,
        prompt: "judge_grounded@7aa91d2d",
        n: 40,
        kappa: 0.95,
        data: "SQuAD 2.0 Normans: right answers and made-up ones with the paragraph, items 41-80",
        measured: "2026-12-01",
    },
];

/// The model the table was measured on.
const DEFAULT_MODEL: &str = "llamacpp:Qwen2.5-Coder-1.5B-Instruct.Q4_K_M";

/// A judge's standing for one run: measured where, how well, and whether it runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// Judge name.
    pub judge: String,
    /// `provider:model` that gives (or would give) the verdicts.
    pub model: String,
    /// The prompt id it is given.
    pub prompt: String,
    /// Cohen's kappa of that (model, prompt), `None` when never measured.
    pub kappa: Option<f64>,
    /// Items it was measured on.
    pub n: usize,
    /// Where the kappa comes from: `built-in` or the records file's path.
    pub source: Option<String>,
    /// `kappa >= KAPPA_BAR`: the judge runs.
    pub calibrated: bool,
    /// Why it runs or does not, for a summary ([`Calibration::why`]).
    pub why: String,
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

    /// One line on whether the judge runs: `ran: κ 0.73 on 80 items (built-in)`, or `not run:
    /// not calibrated for openai:gpt-4o-mini: run `ragsynth calibrate --llm openai:gpt-4o-mini``.
    pub fn line(&self) -> String {
        if self.calibrated {
            format!("{}: ran, {}", self.judge, self.why)
        } else {
            format!("{}: not run, {}", self.judge, self.why)
        }
    }

    /// Why the judge runs or not, naming the command that would measure it (`calibrate`).
    fn explain(&mut self, calibrate: &str) {
        let source = self.source.clone().unwrap_or_default();
        self.why = match self.kappa {
            Some(k) if self.calibrated => format!("κ {k:.2} on {} items ({source})", self.n),
            Some(k) => format!(
                "κ {k:.2} with {} is below the bar {KAPPA_BAR} ({} items, {source}); `{calibrate}` re-measures it",
                self.model, self.n
            ),
            None if self.source.is_some() => format!(
                "κ undefined with {} ({} items, {source}): every verdict or every label was the same; run `{calibrate}`",
                self.model, self.n
            ),
            None => format!("not calibrated for {}: run `{calibrate}`", self.model),
        };
    }
}

/// The calibrations a run can draw on: the person's records beside the test set, and
/// [`MEASURED`].
#[derive(Debug, Clone, Default)]
pub struct Known {
    records: Records,
    file: Option<PathBuf>,
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
            file: Some(file),
        })
    }

    /// The records file this reads, if any.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The standing of `judge` as run by `model` with `prompt` (see [`standing`]).
    pub fn of(&self, judge: &str, model: &str, prompt: &str) -> Calibration {
        standing(
            judge,
            model,
            prompt,
            &self.records,
            self.file.as_deref().unwrap_or(Path::new(FILE_NAME)),
        )
    }

    /// The standing of judge `name` ([`super::kinds::JUDGES`]) run by `llm` with the template
    /// `prompts` holds for it; [`Calibration::why`] names the `calibrate` command that would
    /// measure it into this file.
    pub fn judge(&self, name: &str, llm: &Llm, prompts: &Prompts) -> Calibration {
        let info = super::kinds::named(name);
        let mut c = self.of(name, &llm.id(), &prompts.id(info.template));
        let out = match &self.file {
            Some(f) if f.as_path() != Path::new(DEFAULT_FILE) => format!(" -o {}", f.display()),
            _ => String::new(),
        };
        c.explain(&format!("ragsynth calibrate --llm {}{out}", llm.spec()));
        c
    }
}

/// The records file `calibrate` writes unless told otherwise: beside the default test set.
pub const DEFAULT_FILE: &str = "output/judge-calibration.json";

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
    let mut c = Calibration {
        judge: judge.into(),
        model: model.into(),
        prompt: prompt.into(),
        kappa,
        n,
        source,
        calibrated: kappa.is_some_and(|k| k >= KAPPA_BAR),
        why: String::new(),
    };
    c.explain(&format!("ragsynth calibrate --llm {model}"));
    c
}

/// Agreement of a judge's verdicts with the truth.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Agreement {
    /// Pairs compared.
    pub n: usize,
    /// Share of verdicts equal to the truth.
    pub accuracy: Option<f64>,
    /// Cohen's kappa, `None` when undefined (every verdict and every label the same value).
    pub kappa: Option<f64>,
    /// 95% confidence interval of kappa: `κ ± 1.96·SE`, with Cohen's large-sample
    /// `SE = √(p_o(1−p_o) / (n(1−p_e)²))`, clipped to [−1, 1].
    pub ci: Option<[f64; 2]>,
}

/// Accuracy and Cohen's kappa of `(verdict, truth)` pairs: `κ = (p_o − p_e) / (1 − p_e)`, where
/// `p_o` is the accuracy and `p_e = p_v·p_t + (1−p_v)(1−p_t)` the agreement expected by chance
/// from how often the verdict (`p_v`) and the truth (`p_t`) are yes.
pub fn agreement(pairs: &[(bool, bool)]) -> Agreement {
    if pairs.is_empty() {
        return Agreement::default();
    }
    let n = pairs.len() as f64;
    let share = |f: &dyn Fn(&(bool, bool)) -> bool| pairs.iter().filter(|p| f(p)).count() as f64 / n;
    let po = share(&|(v, t)| v == t);
    let (pv, pt) = (share(&|p| p.0), share(&|p| p.1));
    let pe = pv * pt + (1.0 - pv) * (1.0 - pt);
    let kappa = (pe < 1.0 - 1e-12).then(|| (po - pe) / (1.0 - pe));
    let ci = kappa.map(|k| {
        let se = (po * (1.0 - po) / (n * (1.0 - pe).powi(2))).sqrt();
        [(k - 1.96 * se).max(-1.0), (k + 1.96 * se).min(1.0)]
    });
    Agreement {
        n: pairs.len(),
        accuracy: Some(po),
        kappa,
        ci,
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
                ci: None,
                measured: jiff::Timestamp::UNIX_EPOCH,
                marks: "m.jsonl".into(),
            }],
        };
        let measured = standing("answerable", "openai:gpt-4o", &prompt, &mine, file);
        assert!(measured.calibrated && measured.kappa == Some(0.8), "{measured:?}");
        assert_eq!(measured.why, "κ 0.80 on 40 items (judge-calibration.json)");
        assert_eq!(
            other.why,
            "not calibrated for openai:gpt-4o: run `ragsynth calibrate --llm openai:gpt-4o`"
        );
        assert!(
            built.why.starts_with("κ 0.05 with llamacpp:") && built.why.contains("below the bar 0.6"),
            "{}",
            built.why
        );
        assert!(
            other
                .line()
                .starts_with("answerable: not run, not calibrated for")
        );
    }

    #[test]
    fn kappa_and_its_interval() {
        // 40 pairs: 18 yes/yes, 2 yes/no, 4 no/yes, 16 no/no.
        let mut pairs = vec![(true, true); 18];
        pairs.extend(vec![(true, false); 2]);
        pairs.extend(vec![(false, true); 4]);
        pairs.extend(vec![(false, false); 16]);
        let a = agreement(&pairs);
        assert_eq!((a.n, a.accuracy), (40, Some(0.85)));
        // p_e = 0.5·0.55 + 0.5·0.45 = 0.5, κ = (0.85 − 0.5) / 0.5 = 0.7.
        let k = a.kappa.unwrap();
        assert!((k - 0.7).abs() < 1e-9, "{k}");
        // SE = √(0.85·0.15 / (40·0.25)) = 0.1129.
        let [lo, hi] = a.ci.unwrap();
        assert!((lo - (0.7 - 1.96 * 0.112_916)).abs() < 1e-4 && (hi - (0.7 + 1.96 * 0.112_916)).abs() < 1e-4);
        assert_eq!(agreement(&[(true, true), (true, true)]).kappa, None);
        assert_eq!(agreement(&[]).n, 0);
    }
}
