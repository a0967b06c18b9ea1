//! One system's answers scored: per case ([`CaseResult`]), and averaged overall and per tag
//! value ([`Figures`]) like the retrieval report. `crate::render::answers` renders it.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::calibration::{self, Record, Records};
use super::marks::JUDGES;
use crate::judge::calibration::Calibration;
use crate::llm::Usage;

/// One case's outcome.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CaseResult {
    /// Case id.
    pub id: String,
    /// Tags, as `(tag, value)`.
    pub tags: Vec<(&'static str, String)>,
    /// True when the corpus does not answer the question (the right output is a refusal).
    pub unanswerable: bool,
    /// False when the answers file has no line for the case.
    pub answered: bool,
    /// SQuAD exact match, best over the references; `None` for an answerable case without a
    /// reference answer.
    pub exact_match: Option<f64>,
    /// SQuAD token F1, like `exact_match`.
    pub f1: Option<f64>,
    /// Did the answer decline? The judge's verdict when it gave one, else the lexical
    /// detector's; `None` when unanswered.
    pub refused: Option<bool>,
    /// The lexical detector's verdict (kept next to the judge's to show where they differ).
    pub refused_lexical: Option<bool>,
    /// Does the answer agree with the reference? (answerable cases, judge only; a refusal is
    /// a miss without asking).
    pub correct: Option<bool>,
    /// Is every claim of the answer in the given contexts? (judge only; `None` without
    /// contexts and for a refusal, which claims nothing).
    pub grounded: Option<bool>,
    /// The judges' short reasons, by judge (`correct`, `refused`, `grounded`).
    pub reasons: BTreeMap<&'static str, String>,
    /// The case's question, references, the system's answer and contexts: what a person needs
    /// to check the verdicts (`review --answers`).
    pub shown: Shown,
}

/// What a case asked and what the system answered, kept so the per-case file can be reviewed
/// on its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    /// The question.
    pub question: String,
    /// The reference answers (none for an unanswerable case).
    pub references: Vec<String>,
    /// The system's answer; `None` when unanswered.
    pub answer: Option<String>,
    /// The contexts the answer was given with, when the line gave them.
    pub contexts: Option<Vec<String>>,
}

impl CaseResult {
    /// Did the system do the right thing about answering at all: refuse an unanswerable
    /// question, not refuse an answerable one? `None` when unanswered.
    pub fn refusal_right(&self) -> Option<bool> {
        self.refused.map(|r| r == self.unanswerable)
    }
}

/// Averages over a group of cases; a figure is `None` when no case of the group has it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figures {
    /// Cases in the group.
    pub cases: usize,
    /// Of which the answers file answers.
    pub answered: usize,
    /// Mean SQuAD exact match (cases with a reference; unanswerable ones have the empty one).
    pub exact_match: Option<f64>,
    /// Mean SQuAD token F1, over the same cases.
    pub f1: Option<f64>,
    /// Cases with a reference (those averaged in `exact_match`, `f1`).
    pub with_reference: usize,
    /// Unanswerable cases.
    pub unanswerable: usize,
    /// Share of unanswerable cases refused (higher is better).
    pub refused_unanswerable: Option<f64>,
    /// Answerable cases.
    pub answerable: usize,
    /// Share of answerable cases refused (lower is better).
    pub refused_answerable: Option<f64>,
    /// Share of answerable cases judged correct.
    pub correct: Option<f64>,
    /// Answerable cases with a `correct` verdict.
    pub judged_correct: usize,
    /// Share of judged answers that are grounded in their contexts.
    pub grounded: Option<f64>,
    /// Cases with a `grounded` verdict.
    pub judged_grounded: usize,
}

/// Figures where a drop is a regression unless named here (a rise is).
pub const LOWER_IS_BETTER: &[&str] = &["refused_answerable"];

fn mean(values: impl Iterator<Item = f64>) -> (Option<f64>, usize) {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    ((n > 0).then(|| sum / n as f64), n)
}

fn share(values: impl Iterator<Item = bool>) -> (Option<f64>, usize) {
    mean(values.map(|b| f64::from(u8::from(b))))
}

impl Figures {
    /// The figures of `cases`. An unanswered case counts as not refused, not correct and
    /// scores 0 on exact match and F1 (it is in `exact_match` already, see
    /// [`super::score`]).
    pub fn of<'a>(cases: impl Iterator<Item = &'a CaseResult> + Clone) -> Figures {
        let answerable = cases.clone().filter(|c| !c.unanswerable);
        let unanswerable = cases.clone().filter(|c| c.unanswerable);
        let (exact_match, with_reference) = mean(cases.clone().filter_map(|c| c.exact_match));
        let (f1, _) = mean(cases.clone().filter_map(|c| c.f1));
        let (refused_unanswerable, n_unanswerable) = share(unanswerable.map(|c| c.refused.unwrap_or(false)));
        let (refused_answerable, n_answerable) =
            share(answerable.clone().map(|c| c.refused.unwrap_or(false)));
        let (correct, judged_correct) = share(answerable.filter_map(|c| c.correct));
        let (grounded, judged_grounded) = share(cases.clone().filter_map(|c| c.grounded));
        Figures {
            cases: cases.clone().count(),
            answered: cases.filter(|c| c.answered).count(),
            exact_match,
            f1,
            with_reference,
            unanswerable: n_unanswerable,
            refused_unanswerable,
            answerable: n_answerable,
            refused_answerable,
            correct,
            judged_correct,
            grounded,
            judged_grounded,
        }
    }

    /// The figures that exist, by name, in display order (also the baseline's keys).
    pub fn named(&self) -> Vec<(&'static str, f64)> {
        [
            ("exact_match", self.exact_match),
            ("f1", self.f1),
            ("correct", self.correct),
            ("refused_unanswerable", self.refused_unanswerable),
            ("refused_answerable", self.refused_answerable),
            ("grounded", self.grounded),
        ]
        .into_iter()
        .filter_map(|(n, v)| Some((n, v?)))
        .collect()
    }

    /// [`Figures::named`] as a JSON object.
    pub fn to_map(&self) -> Map<String, Value> {
        self.named()
            .into_iter()
            .map(|(n, v)| (n.to_string(), Value::from(v)))
            .collect()
    }
}

/// The figures of one tag value.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Tag name (`type`, `topic`, `source`, `split`).
    pub tag: String,
    /// Tag value.
    pub value: String,
    /// Its figures.
    pub figures: Figures,
}

/// What the LLM judges did.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeFigures {
    /// `provider:model`.
    pub model: String,
    /// The prompt of each judge, `name@hash` (a calibration holds for one prompt).
    pub prompts: BTreeMap<&'static str, String>,
    /// Requests per judge (`correct`, `refused`, `grounded`).
    pub asked: BTreeMap<&'static str, usize>,
    /// Of which the reply stayed malformed (the verdict is missing; `refused` falls back to the
    /// lexical detector).
    pub lost: BTreeMap<&'static str, usize>,
    /// Calls, cache hits, tokens and cost.
    pub usage: Usage,
    /// Each judge's standing with the model: `calibrated` ones ran, the others did not.
    pub standing: Vec<Calibration>,
}

/// A whole evaluation of answers.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerReport {
    /// Split scored (`all` when none).
    pub split: String,
    /// Overall figures.
    pub overall: Figures,
    /// Per tag value, sorted by tag then value.
    pub groups: Vec<Group>,
    /// Cases of the split the answers file does not answer (scored as wrong unless skipped).
    pub unanswered: Vec<String>,
    /// True when unanswered cases were left out of the figures.
    pub skip_missing: bool,
    /// Answers to cases of another split (ignored).
    pub other_split: usize,
    /// Every scored case, in set order.
    pub questions: Vec<CaseResult>,
    /// The judges, when they ran.
    pub judges: Option<JudgeFigures>,
    /// The last measured agreement with people of each judge that gave verdicts (`None`: not
    /// calibrated); see [`AnswerReport::attach_calibration`].
    pub calibration: Vec<(&'static str, Option<Record>)>,
}

impl AnswerReport {
    /// Averages `questions` overall and per tag.
    pub fn build(
        questions: Vec<CaseResult>,
        split: String,
        skip_missing: bool,
        other_split: usize,
    ) -> AnswerReport {
        let mut report = AnswerReport {
            split,
            overall: Figures::default(),
            groups: Vec::new(),
            unanswered: questions
                .iter()
                .filter(|q| !q.answered)
                .map(|q| q.id.clone())
                .collect(),
            skip_missing,
            other_split,
            questions,
            judges: None,
            calibration: Vec::new(),
        };
        report.refigure();
        report
    }

    /// Puts into the report the last measure of each judge that gave its verdicts (the lexical
    /// refusal detector when no LLM judged), from the records file of the test set at
    /// `testset`. When that file does not load, every judge is put as not calibrated and the
    /// error returned.
    pub fn attach_calibration(&mut self, testset: &Path) -> crate::Result<()> {
        let loaded = Records::load(&calibration::path_for(testset));
        let records = loaded.as_ref().cloned().unwrap_or_default();
        self.calibration = match &self.judges {
            Some(j) => JUDGES
                .into_iter()
                .map(|judge| {
                    let prompt = j.prompts.get(judge).map(String::as_str);
                    (judge, records.find(judge, &j.model, prompt).cloned())
                })
                .collect(),
            None => vec![("refused", records.find("refused", "lexical", None).cloned())],
        };
        loaded.map(drop)
    }

    /// Recomputes the figures from the cases (after the judges changed them).
    pub fn refigure(&mut self) {
        let counted = |q: &&CaseResult| q.answered || !self.skip_missing;
        self.overall = Figures::of(self.questions.iter().filter(counted));
        let mut by_tag: BTreeMap<(&str, &str), Vec<&CaseResult>> = BTreeMap::new();
        for q in self.questions.iter().filter(counted) {
            for (tag, value) in &q.tags {
                by_tag.entry((tag, value)).or_default().push(q);
            }
        }
        self.groups = by_tag
            .into_iter()
            .map(|((tag, value), cases)| Group {
                tag: tag.to_string(),
                value: value.to_string(),
                figures: Figures::of(cases.into_iter()),
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, unanswerable: bool, em: Option<f64>, refused: Option<bool>) -> CaseResult {
        CaseResult {
            id: id.into(),
            tags: vec![(
                "type",
                if unanswerable { "unanswerable" } else { "lookup" }.into(),
            )],
            unanswerable,
            answered: refused.is_some(),
            exact_match: em,
            f1: em,
            refused,
            ..CaseResult::default()
        }
    }

    #[test]
    fn figures_by_hand() {
        let cases = vec![
            case("a", false, Some(1.0), Some(false)),
            case("b", false, Some(0.0), Some(true)),
            case("c", false, None, Some(false)),
            case("u1", true, Some(1.0), Some(true)),
            case("u2", true, Some(0.0), None),
        ];
        let r = AnswerReport::build(cases.clone(), "dev".into(), false, 0);
        // EM over a, b, u1, u2 (c has no reference): (1 + 0 + 1 + 0) / 4.
        assert_eq!((r.overall.exact_match, r.overall.with_reference), (Some(0.5), 4));
        // u2 is unanswered: counted, not refused. Refused 1 of 2 unanswerable, 1 of 3
        // answerable.
        assert_eq!(r.overall.refused_unanswerable, Some(0.5));
        assert_eq!(r.overall.refused_answerable, Some(1.0 / 3.0));
        assert_eq!(r.overall.correct, None, "no judge, no figure");
        assert_eq!(r.unanswered, ["u2"]);
        let un = r.groups.iter().find(|g| g.value == "unanswerable").unwrap();
        assert_eq!((un.figures.cases, un.figures.exact_match), (2, Some(0.5)));

        // Skipping the unanswered leaves u2 out of every figure.
        let r = AnswerReport::build(cases, "dev".into(), true, 0);
        assert_eq!(r.overall.refused_unanswerable, Some(1.0));
        assert_eq!(r.overall.exact_match, Some(2.0 / 3.0));
    }
}
