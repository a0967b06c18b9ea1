//! `ragsynth calibrate`: measures every LLM judge ([`crate::judge::kinds::JUDGES`]) with the
//! model in use against labelled items whose truth a person or a public data set gives, and
//! keeps Cohen's kappa per judge in the records file `generate`, `audit` and `eval --answers`
//! read (`judge::calibration`): a judge runs only where its kappa clears the bar.
//!
//! The items come from two kinds of source, one file each: [`marks`], the hand marks that ship
//! with ragsynth (cases generation wrote on public documentation, marked right or wrong by a
//! person, `benches/correctness/`), always; and [`squad`], labelled public data in SQuAD's
//! format when the user names it (`--squad`: SQuAD 2.0's look-alike unanswerable questions for
//! the answerability judge, crowd answers for the others). Each source builds, per judge, items
//! that alternate true and false where it can, so `--limit` keeps them balanced; [`ask`] asks
//! the judge each item's question exactly as the commands do (the same request builders), so the
//! kappa measured is the kappa of the judge that runs.

pub mod ask;
pub mod marks;
pub mod squad;

use std::collections::BTreeMap;
use std::path::PathBuf;

use futures::{StreamExt, TryStreamExt, stream};
use serde::Serialize;

use crate::judge::calibration::{Agreement, KAPPA_BAR, Record, agreement};
use crate::judge::kinds::JUDGES;
use crate::llm::{Llm, LlmError};
use crate::prompts::Prompts;
use crate::{Error, Result};

/// One labelled question for one judge.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The judge it is for (a name in [`JUDGES`]).
    pub judge: &'static str,
    /// Where it comes from (`hand marks`, a file name).
    pub source: String,
    /// The question.
    pub question: String,
    /// The answer judged (the case's or the system's); empty for `answerable`.
    pub answer: String,
    /// Reference answers (`correct`).
    pub references: Vec<String>,
    /// The passages shown (`answerable`, `supported`, `grounded`), or the fact (`answers`).
    pub passages: Vec<String>,
    /// The right verdict.
    pub truth: bool,
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Judges to measure (empty: all).
    pub judges: Vec<String>,
    /// Items per judge and source at most.
    pub limit: usize,
    /// Items per judge and source skipped first (to measure on items a wording was not tuned on).
    pub offset: usize,
    /// SQuAD-format files (or folders of them) to draw items from besides the hand marks.
    pub squad: Vec<PathBuf>,
    /// Draw items from the shipped hand marks.
    pub hand_marks: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            judges: Vec::new(),
            limit: DEFAULT_LIMIT,
            offset: 0,
            squad: Vec::new(),
            hand_marks: true,
        }
    }
}

/// Items per judge and source unless `--limit` says otherwise: the size the built-in table was
/// measured at.
pub const DEFAULT_LIMIT: usize = 60;

/// The items `options` selects, from every source, each source's judges in [`JUDGES`] order.
pub fn items(options: &Options) -> Result<Vec<Item>> {
    for j in &options.judges {
        if !JUDGES.iter().any(|k| k.name == j) {
            return Err(Error::Config(format!(
                "--judge {j}: no such judge; the judges are {}",
                JUDGES.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    if !options.hand_marks && options.squad.is_empty() {
        return Err(Error::Config(
            "--no-hand-marks leaves no data: name SQuAD-format data with --squad".into(),
        ));
    }
    let mut sources = Vec::new();
    if options.hand_marks {
        sources.push(marks::items());
    }
    for path in squad::files(&options.squad)? {
        sources.push(squad::items(&path)?);
    }
    let wanted = |j: &str| options.judges.is_empty() || options.judges.iter().any(|w| w == j);
    let mut out = Vec::new();
    for source in sources {
        for judge in JUDGES.iter().filter(|j| wanted(j.name)) {
            out.extend(
                source
                    .iter()
                    .filter(|it| it.judge == judge.name)
                    .skip(options.offset)
                    .take(options.limit)
                    .cloned(),
            );
        }
    }
    Ok(out)
}

/// One judge on one source (or on all, `source: "all"`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Judge name.
    pub judge: &'static str,
    /// Source name, or `all`.
    pub source: String,
    /// Accuracy, kappa and its interval over the items with a verdict.
    pub agreement: Agreement,
    /// Verdicts "yes".
    pub says_yes: usize,
    /// Items whose truth is "yes".
    pub truly_yes: usize,
    /// Items whose reply stayed malformed (no verdict).
    pub lost: usize,
    /// For the pooled row (`all`), what is kept: whether the judge runs with this model
    /// (kappa at least [`KAPPA_BAR`]).
    pub runs: Option<bool>,
}

/// An item the judge got wrong, for `--show-misses`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Miss {
    /// Judge name.
    pub judge: &'static str,
    /// Source.
    pub source: String,
    /// The question.
    pub question: String,
    /// The answer judged.
    pub answer: String,
    /// The right verdict (the judge said the opposite).
    pub truth: bool,
}

/// What a calibration measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibrated {
    /// `provider:model`.
    pub model: String,
    /// Each judge's prompt id.
    pub prompts: BTreeMap<&'static str, String>,
    /// Per judge: one row per source, then `all` (what the record keeps).
    pub rows: Vec<Row>,
    /// Wrong verdicts.
    pub misses: Vec<Miss>,
    /// The kappa from which a judge runs.
    pub bar: f64,
}

impl Calibrated {
    /// One record per judge measured: the `all` row, stamped `now`.
    pub fn records(&self, now: jiff::Timestamp) -> Vec<Record> {
        self.rows
            .iter()
            .filter(|r| r.source == "all" && r.agreement.n > 0)
            .map(|r| {
                let data: Vec<String> = self
                    .rows
                    .iter()
                    .filter(|s| s.judge == r.judge && s.source != "all")
                    .map(|s| format!("{} ({})", s.source, s.agreement.n))
                    .collect();
                Record {
                    judge: r.judge.to_string(),
                    model: self.model.clone(),
                    prompt: self.prompts.get(r.judge).cloned(),
                    n: r.agreement.n,
                    accuracy: r.agreement.accuracy,
                    kappa: r.agreement.kappa,
                    ci: r.agreement.ci,
                    measured: now,
                    marks: format!("ragsynth calibrate: {}", data.join(", ")),
                }
            })
            .collect()
    }
}

/// Asks `llm` every item's question, `on_verdict` hearing of each answer, and measures each
/// judge per source and over all of them. A reply that stays malformed is counted as lost; an
/// LLM error that stops a run (no key, the provider down after every retry) stops this too:
/// what was answered is journaled, so a rerun pays only for the rest.
pub async fn run(
    llm: &Llm,
    prompts: &Prompts,
    items: &[Item],
    on_verdict: &(dyn Fn() + Sync),
) -> std::result::Result<Calibrated, LlmError> {
    let context = llm.context_tokens().unwrap_or(crate::judge::DEFAULT_CONTEXT);
    let verdicts: Vec<(usize, Option<bool>)> = stream::iter(items.iter().enumerate())
        .map(|(i, item)| async move {
            let v = ask::verdict(llm, prompts, context, item).await?;
            on_verdict();
            Ok::<_, LlmError>((i, v))
        })
        .buffer_unordered(llm.concurrency().max(1))
        .try_collect()
        .await?;
    // (judge's position, source) → (verdict, truth) pairs and lost replies.
    let mut by: BTreeMap<(usize, &str), Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let order = |j: &str| JUDGES.iter().position(|k| k.name == j).unwrap_or(usize::MAX);
    let mut sources: Vec<&str> = Vec::new();
    for (i, v) in verdicts {
        let it = &items[i];
        if !sources.contains(&it.source.as_str()) {
            sources.push(&it.source);
        }
        for key in [(order(it.judge), it.source.as_str()), (order(it.judge), "all")] {
            let e = by.entry(key).or_default();
            match v {
                Some(v) => e.0.push((v, it.truth)),
                None => e.1 += 1,
            }
        }
        if v.is_some_and(|v| v != it.truth) {
            misses.push(Miss {
                judge: it.judge,
                source: it.source.clone(),
                question: it.question.clone(),
                answer: it.answer.clone(),
                truth: it.truth,
            });
        }
    }
    let mut rows = Vec::new();
    for judge in JUDGES {
        let j = order(judge.name);
        for source in sources.iter().copied().chain(["all"]) {
            if let Some((pairs, lost)) = by.get(&(j, source)) {
                let agreement = agreement(pairs);
                rows.push(Row {
                    judge: judge.name,
                    source: source.to_string(),
                    says_yes: pairs.iter().filter(|(v, _)| *v).count(),
                    truly_yes: pairs.iter().filter(|(_, t)| *t).count(),
                    lost: *lost,
                    runs: (source == "all").then(|| agreement.kappa.is_some_and(|k| k >= KAPPA_BAR)),
                    agreement,
                });
            }
        }
    }
    Ok(Calibrated {
        model: llm.id(),
        prompts: JUDGES.iter().map(|j| (j.name, prompts.id(j.template))).collect(),
        rows,
        misses,
        bar: KAPPA_BAR,
    })
}

/// One judge's `(verdict, truth)` pairs on one source, and its replies lost.
type Tally = (Vec<(bool, bool)>, usize);

/// Items alternating true and false from two lists, the longer one's rest at the end.
fn alternate(yes: Vec<Item>, no: Vec<Item>) -> Vec<Item> {
    let mut out = Vec::with_capacity(yes.len() + no.len());
    let (mut y, mut n) = (yes.into_iter(), no.into_iter());
    loop {
        match (y.next(), n.next()) {
            (None, None) => return out,
            (a, b) => out.extend(a.into_iter().chain(b)),
        }
    }
}

/// Replies that decline, as systems word them; the second half are not in the lexical
/// detector's list, so the refusal judge is measured on wordings the detector misses.
pub const REFUSALS: &[&str] = &[
    "I don't know.",
    "The provided context does not mention this.",
    "I cannot answer that from the documents.",
    "There is not enough information to answer.",
    "Sorry, that isn't something these passages tell me.",
    "The sources are silent on this point.",
    "That detail is missing from what I was given.",
    "I have nothing in my documents about that.",
];

/// Whether one answer holds the other (lower case): then one is no wrong answer for the
/// other's question.
fn overlaps(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    a.contains(&b) || b.contains(&a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_limited_per_judge_and_source_and_names_are_checked() {
        let options = Options {
            judges: vec!["answers".into(), "refused".into()],
            limit: 6,
            offset: 2,
            squad: Vec::new(),
            hand_marks: true,
        };
        let items = items(&options).unwrap();
        assert_eq!(items.len(), 12, "{items:#?}");
        assert!(items.iter().all(|i| i.source == "hand marks"));
        assert_eq!(items.iter().filter(|i| i.judge == "answers").count(), 6);
        // Alternating from the start, the offset kept even: three true, three false.
        assert_eq!(
            items.iter().filter(|i| i.judge == "refused" && i.truth).count(),
            3
        );
        let all = super::items(&Options::default()).unwrap();
        assert!(all.len() >= 6 * DEFAULT_LIMIT - 10, "{}", all.len());
        let bad = Options {
            judges: vec!["nonsense".into()],
            ..Options::default()
        };
        assert!(
            super::items(&bad)
                .unwrap_err()
                .to_string()
                .contains("answerable, supported")
        );
    }

    #[test]
    fn records_keep_the_pooled_row_and_name_the_data() {
        let row = |source: &str, n| Row {
            judge: "answers",
            source: source.into(),
            agreement: Agreement {
                n,
                accuracy: Some(0.9),
                kappa: Some(0.8),
                ci: Some([0.6, 1.0]),
            },
            says_yes: 1,
            truly_yes: 1,
            lost: 0,
            runs: None,
        };
        let c = Calibrated {
            model: "openai:m".into(),
            prompts: [("answers", "judge_answers@1".to_string())].into(),
            rows: vec![row("hand marks", 10), row("x.json", 20), row("all", 30)],
            misses: Vec::new(),
            bar: KAPPA_BAR,
        };
        let r = c.records(jiff::Timestamp::UNIX_EPOCH);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].n, r[0].kappa, r[0].ci), (30, Some(0.8), Some([0.6, 1.0])));
        assert_eq!(r[0].prompt.as_deref(), Some("judge_answers@1"));
        assert_eq!(r[0].marks, "ragsynth calibrate: hand marks (10), x.json (20)");
    }

    #[test]
    fn alternation_keeps_the_rest() {
        let it = |truth| Item {
            judge: "correct",
            source: "s".into(),
            question: String::new(),
            answer: String::new(),
            references: Vec::new(),
            passages: Vec::new(),
            truth,
        };
        let out = alternate(vec![it(true); 3], vec![it(false)]);
        let truths: Vec<bool> = out.iter().map(|i| i.truth).collect();
        assert_eq!(truths, [true, false, true, true]);
    }
}
