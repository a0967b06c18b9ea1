//! generate's checks as data: every reason a candidate can be turned away is a row here, one
//! file each (as the audit's rules are), with a stable code, a name, its scope (the kinds it
//! runs on, what it reads of a language), the stage it runs at, and its documentation — what it
//! catches, why a case it turns away is not right for a test set, an example, a known false
//! alarm. The summary, `--json`, the run's verdicts file and `docs/checks.md` all read this
//! table; `--skip CODE` switches a check off; `ragsynth check SET` runs the checks that read a
//! finished case on any set's cases.
//!
//! Codes share the audit's space (`RS1xx` overlap, `RS2xx` wording, `RS3xx` duplicates, `RS4xx`
//! labels, `RS5xx` answerability) and add `RS7xx` for how a kind builds its case and `RS8xx`
//! for replies that could not be used (outcomes, not checks). Where a check and an audit rule
//! are one definition they share one code and name (`tests/checks_registry.rs` holds them to
//! it). A code never changes meaning; a retired check leaves a gap.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use super::candidate::{Accepted, Kind};
use crate::lang::{Language, Reads};

/// Declares the table: one module per row, and the [`Check`] enum naming each, in code order.
macro_rules! registry {
    ($($module:ident => $variant:ident,)*) => {
        $(pub mod $module;)*

        /// A check (or outcome) of the registry; its row is [`Check::info`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Check {
            $(
                #[doc = concat!("See [`", stringify!($module), "`].")]
                $variant,
            )*
        }

        impl Check {
            /// Every row, in code order.
            pub const ALL: &'static [Check] = &[$(Check::$variant,)*];

            /// Its row.
            pub fn info(self) -> &'static CheckInfo {
                match self {
                    $(Check::$variant => &$module::INFO,)*
                }
            }
        }
    };
}

pub mod bridge;
pub mod sides;

registry! {
    outcome_no_fact => NoFact,
    outcome_malformed_reply => MalformedReply,
    outcome_llm_failed => LlmFailed,
    outcome_quote_not_found => QuoteNotFound,
    outcome_quote_too_short => QuoteTooShort,
    too_short => TooShort,
    not_a_question => NotAQuestion,
    too_long => TooLong,
    several_questions => SeveralQuestions,
    joined_questions => JoinedQuestions,
    stutter => Stutter,
    garbled => Garbled,
    refers_to_source => RefersToSource,
    prompt_words => PromptWords,
    meta_question => MetaQuestion,
    not_standalone => NotStandalone,
    places_in_page => PlacesInPage,
    wrong_language => WrongLanguage,
    asks_comparison => AsksComparison,
    copies_example => CopiesExample,
    off_topic => OffTopic,
    copied_phrase => CopiedPhrase,
    answer_in_question => AnswerInQuestion,
    answer_not_in_label => AnswerNotInLabel,
    answer_contradicts_label => AnswerContradictsLabel,
    answers_another_question => AnswersAnotherQuestion,
    answer_points_outside => AnswerPointsOutside,
    answer_stitched => AnswerStitched,
    answer_about_absence => AnswerAboutAbsence,
    answer_off_question => AnswerOffQuestion,
    answer_repeats => AnswerRepeats,
    asks_outside_label => AsksOutsideLabel,
    why_without_reason => WhyWithoutReason,
    condition_dropped => ConditionDropped,
    half_answer => HalfAnswer,
    corpus_answers => CorpusAnswers,
    exact_duplicate => ExactDuplicate,
    near_duplicate => NearDuplicate,
    same_answer_same_source => SameAnswerSameSource,
    bridge_asked_again => BridgeAskedAgain,
    second_hop_asked_alone => SecondHopAskedAlone,
    keyword_wording => KeywordWording,
    identifier_missing => IdentifierMissing,
    sides_missing => SidesMissing,
    no_value_compared => NoValueCompared,
    bridge_not_asked => BridgeNotAsked,
    bridge_named => BridgeNamed,
    first_hop_unneeded => FirstHopUnneeded,
    answer_from_first_hop => AnswerFromFirstHop,
    answer_not_from_second_hop => AnswerNotFromSecondHop,
    second_hop_first => SecondHopFirst,
    describes_another => DescribesAnother,
    description_misfit => DescriptionMisfit,
    no_description => NoDescription,
    answer_restates_description => AnswerRestatesDescription,
    not_about_neighbour => NotAboutNeighbour,
    neighbour_in_corpus => NeighbourInCorpus,
    asks_only_what_it_is => AsksOnlyWhatItIs,
}

/// A check's row.
#[derive(Debug)]
pub struct CheckInfo {
    /// Stable code, e.g. `RS204`; shared with the audit rule of the same definition.
    pub code: &'static str,
    /// Short kebab-case name, e.g. `several-questions`.
    pub name: &'static str,
    /// One line: what it turns away.
    pub summary: &'static str,
    /// What it catches, why such a case is not right for a test set, an example, a known false
    /// alarm (Markdown).
    pub doc: &'static str,
    /// The kinds it runs on; empty: every kind.
    pub kinds: &'static [Kind],
    /// What it reads of the question's language; a question in a language without that is not
    /// checked by it.
    pub reads: Reads,
    /// When it runs, and on what.
    pub stage: Stage,
    /// Whether an audit rule shares its code (one definition, flagged there, turned away here).
    pub audit: bool,
    /// What a hit does.
    pub action: Action,
    /// The check of one wording alone, where it has one: kinds screen every wording the model
    /// wrote with these before spending another call, and the pipeline holds every wording of a
    /// case to them. `Some(detail)` turns the wording away, the detail saying what it found.
    pub question: Option<QuestionFn>,
    /// The check of the whole case, where it has one (the case with each of its wordings).
    pub case: Option<CaseFn>,
}

/// A check of one wording in its language.
pub type QuestionFn = fn(&str, Language) -> Option<String>;

/// A check of a case with the corpus and the questions before it.
pub type CaseFn = fn(&Accepted, &dyn CaseContext) -> Option<String>;

/// What a case check may read besides the case: the corpus's chunks (their text, the keyword
/// index), the questions before it, the checks left out, and what the corpus says. A run's
/// [`super::context::GenerateContext`] is one; so is the context `ragsynth check` builds.
pub trait CaseContext {
    /// The corpus's chunks, with the keyword index over them.
    fn chunks(&self) -> &crate::workspace::ChunkedCorpus;
    /// The questions before the case (the set's).
    fn existing(&self) -> &exact_duplicate::Dedup;
    /// What a case of `kind` in `language` is checked as.
    fn screen(&self, kind: Kind, language: Language) -> Screen<'_>;
    /// Whether some document says `phrase` (case and white space aside).
    fn corpus_mentions(&self, phrase: &str) -> bool;
    /// Whether `text` names a file the corpus makes up for an example.
    fn names_an_example_file(&self, text: &str) -> bool;
    /// The text of the corpus's document `path`, if it has one.
    fn document(&self, path: &str) -> Option<&str>;
}

/// When a check runs and what it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Not a check: the reply could not be used (no fact to ask about, a reply that does not fit
    /// the schema, a call that kept failing, a quote not in its document). Counted and coded,
    /// never switched off.
    Outcome,
    /// Raised while a kind builds its case from the model's parts (a bridge's description, an
    /// unanswerable's neighbour): it reads what a finished case does not keep, so it runs in
    /// `generate` only. Switched off, the construction goes on as if it had passed.
    Construction,
    /// One wording of the question, alone: a kind screens each wording the model wrote with
    /// these before spending another call, and the pipeline holds every wording to them.
    Question,
    /// The whole case — question, answer, labels, its kind's shape — with the corpus and the
    /// questions before it.
    Case,
    /// The case against the cases accepted before it in the run (or the set).
    Set,
    /// An LLM judge, run last where it is calibrated for the model in use.
    Judge,
}

impl Stage {
    /// Name in docs and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Outcome => "outcome",
            Stage::Construction => "construction",
            Stage::Question => "question",
            Stage::Case => "case",
            Stage::Set => "set",
            Stage::Judge => "judge",
        }
    }

    /// Whether `ragsynth check` can run it on a case of a set.
    pub fn reads_a_case(self) -> bool {
        matches!(self, Stage::Question | Stage::Case | Stage::Set | Stage::Judge)
    }
}

/// What a check's hit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// The candidate is not written.
    Reject,
    /// The case is written with the code as a review hint: measured on data it was not written
    /// from, the check turned away as many right cases as wrong ones, so a person decides.
    Hint,
}

impl Check {
    /// The stable code.
    pub fn code(self) -> &'static str {
        self.info().code
    }

    /// The name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The row with `code` or `name` (either spelling, any case).
    pub fn find(key: &str) -> Option<Check> {
        let key = key.trim();
        Check::ALL.iter().copied().find(|c| {
            let i = c.info();
            i.code.eq_ignore_ascii_case(key) || i.name.eq_ignore_ascii_case(key)
        })
    }

    /// Whether it runs on a case of `kind` in `language`.
    pub fn applies(self, kind: Kind, language: Language) -> bool {
        let i = self.info();
        (i.kinds.is_empty() || i.kinds.contains(&kind)) && i.reads.can_read(language)
    }

    /// Whether it can read a question in `language`.
    pub fn reads_language(self, language: Language) -> bool {
        self.info().reads.can_read(language)
    }
}

/// A candidate turned away: the check, and the candidate as far as it was built (none for an
/// outcome with no reply), for the run's verdicts file, where a person reads what each check
/// turned away.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    /// The check.
    pub check: Check,
    /// The candidate as far as it was built.
    pub draft: Option<Box<Accepted>>,
}

impl Check {
    /// This check's rejection of `draft`.
    pub fn of(self, draft: Accepted) -> Rejected {
        Rejected {
            check: self,
            draft: Some(Box::new(draft)),
        }
    }
}

impl From<Check> for Rejected {
    fn from(check: Check) -> Rejected {
        Rejected { check, draft: None }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code(), self.name())
    }
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// The checks a run leaves out (`--skip`, `[generate] skip`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skip(BTreeSet<Check>);

impl Skip {
    /// Parses codes or names; an unknown one is an error naming it and where to find the list.
    /// Outcomes cannot be skipped: there is no case to go on with.
    pub fn parse<'s>(keys: impl IntoIterator<Item = &'s str>) -> Result<Skip, String> {
        let mut skip = BTreeSet::new();
        for key in keys.into_iter().flat_map(|k| k.split(',')).map(str::trim) {
            if key.is_empty() {
                continue;
            }
            let check = Check::find(key).ok_or_else(|| {
                format!("unknown check '{key}' (codes and names: `ragsynth check --list`, docs/checks.md)")
            })?;
            if check.info().stage == Stage::Outcome {
                return Err(format!(
                    "{check} is an outcome, not a check: it cannot be skipped"
                ));
            }
            skip.insert(check);
        }
        Ok(Skip(skip))
    }

    /// Whether `check` is left out.
    pub fn skips(&self, check: Check) -> bool {
        self.0.contains(&check)
    }

    /// The skipped checks, in code order.
    pub fn iter(&self) -> impl Iterator<Item = Check> + '_ {
        self.0.iter().copied()
    }
}

impl Skip {
    /// No check left out.
    pub fn none() -> &'static Skip {
        static NONE: Skip = Skip(BTreeSet::new());
        &NONE
    }
}

/// What one wording or case is checked as: its kind and language, and the checks left out.
/// Every place that turns a candidate away asks through it, so `--skip` reaches them all.
#[derive(Debug, Clone, Copy)]
pub struct Screen<'a> {
    /// The case's kind.
    pub kind: Kind,
    /// The language it is read in (its passage's).
    pub language: Language,
    /// The checks left out.
    pub skip: &'a Skip,
}

impl<'a> Screen<'a> {
    /// A screen of `kind` in `language` leaving out `skip`.
    pub fn new(kind: Kind, language: Language, skip: &'a Skip) -> Screen<'a> {
        Screen { kind, language, skip }
    }

    /// Whether `check` runs here: it applies to the kind and language, and is not left out.
    /// Whether `check` turns a candidate away here: it rejects (a review hint never does), it
    /// applies to the kind and language, and it is not left out.
    pub fn runs(&self, check: Check) -> bool {
        check.info().action == Action::Reject && self.reads(check)
    }

    /// Whether `check` reads a candidate here (a hint included): it applies to the kind and
    /// language, and is not left out.
    pub fn reads(&self, check: Check) -> bool {
        !self.skip.skips(check) && check.applies(self.kind, self.language)
    }

    /// For a check a kind makes while it builds its case: `Err(check)`, unless left out (then
    /// the construction goes on as if it had passed).
    pub fn fail(&self, check: Check) -> Result<(), Check> {
        if self.skip.skips(check) {
            Ok(())
        } else {
            Err(check)
        }
    }

    /// `Err(check)` when `hit` and the check runs here.
    pub fn when(&self, hit: bool, check: Check) -> Result<(), Check> {
        if hit && self.runs(check) {
            Err(check)
        } else {
            Ok(())
        }
    }

    /// The first wording check, in the registry's order, that turns `question` away.
    pub fn question(&self, question: &str) -> Result<(), Check> {
        self.question_hits(question)
            .next()
            .map_or(Ok(()), |(c, _)| Err(c))
    }

    /// Every wording check that turns `question` away, with what it found.
    pub fn question_hits<'q>(&'q self, question: &'q str) -> impl Iterator<Item = (Check, String)> + 'q {
        Check::ALL
            .iter()
            .copied()
            .filter(|&c| self.runs(c))
            .filter_map(move |c| {
                let run = c.info().question?;
                run(question, self.language).map(|detail| (c, detail))
            })
    }
}

/// Every check of one case that turns it away, with what it found, in the registry's order:
/// each wording check on its question, then each case check. `ragsynth check` reports them all;
/// `generate` stops at the first ([`first_hit`]).
pub fn case_hits<'c>(
    a: &'c Accepted,
    ctx: &'c dyn CaseContext,
    skip: &'c Skip,
) -> impl Iterator<Item = (Check, String)> + 'c {
    hits_of(a, ctx, skip, Action::Reject)
}

/// The review hints a case carries: the hint rows that find something in it (see
/// [`Action::Hint`]), with what they found.
pub fn case_hints<'c>(
    a: &'c Accepted,
    ctx: &'c dyn CaseContext,
    skip: &'c Skip,
) -> impl Iterator<Item = (Check, String)> + 'c {
    hits_of(a, ctx, skip, Action::Hint)
}

/// The rows of `action` that read a case and find something in `a`.
fn hits_of<'c>(
    a: &'c Accepted,
    ctx: &'c dyn CaseContext,
    skip: &'c Skip,
    action: Action,
) -> impl Iterator<Item = (Check, String)> + 'c {
    let screen = Screen::new(a.kind, a.language, skip);
    Check::ALL
        .iter()
        .copied()
        .filter(move |&c| c.info().action == action && screen.reads(c))
        .filter_map(move |c| {
            let info = c.info();
            let by_question = info.question.and_then(|run| run(&a.question, a.language));
            by_question
                .or_else(|| info.case.and_then(|run| run(a, ctx)))
                .map(|detail| (c, detail))
        })
}

/// The first check that turns case `a` away ([`case_hits`]).
pub fn first_hit(a: &Accepted, ctx: &dyn CaseContext, skip: &Skip) -> Option<(Check, String)> {
    case_hits(a, ctx, skip).next()
}

/// The first set check `a` fails against the cases accepted before it: the same answer from
/// the same passages, the same bridge again, or a bridge's second hop asked alone.
pub fn against_accepted(a: &Accepted, accepted: &[Accepted], skip: &Skip) -> Option<Check> {
    let screen = Screen::new(a.kind, a.language, skip);
    accepted.iter().find_map(|b| {
        [
            (
                Check::SameAnswerSameSource,
                same_answer_same_source::repeats(a, b),
            ),
            (Check::BridgeAskedAgain, bridge_asked_again::repeats(a, b)),
            (Check::SecondHopAskedAlone, second_hop_asked_alone::asks(a, b)),
        ]
        .into_iter()
        .find(|&(c, hit)| hit && screen.runs(c))
        .map(|(c, _)| c)
    })
}

/// Which of `accepted` gives way to bridge `a`: a lookup or identifier that asked its second hop
/// ([`second_hop_asked_alone`]); the bridge is the rarer case and costs the most calls.
pub fn gives_way_to(a: &Accepted, accepted: &[Accepted], skip: &Skip) -> Option<usize> {
    accepted.iter().position(|b| {
        Screen::new(b.kind, b.language, skip).runs(Check::SecondHopAskedAlone)
            && second_hop_asked_alone::asks(b, a)
    })
}

/// The answer and its labels' text, when the case has both.
fn answer_and_fact(a: &Accepted) -> Option<(&str, String)> {
    let answer = a.answer.as_deref().filter(|s| !s.trim().is_empty())?;
    (!a.relevant.is_empty()).then(|| (answer, labels_text(&a.relevant)))
}

/// The first fault `want` picks of the answer against its labels' text
/// ([`crate::wording::answer::answer_faults`]); an answer of several sentences is held
/// sentence by sentence too, as a generated answer is read from its label.
fn answer_fault(a: &Accepted, want: Check) -> Option<String> {
    use crate::wording::answer::{answer_faults, sentences};
    let (answer, fact) = answer_and_fact(a)?;
    let whole = std::iter::once(answer);
    let each: Vec<&str> = sentences(answer).collect();
    let parts = whole.chain(each.iter().copied().filter(|_| each.len() >= 2));
    parts
        .flat_map(|part| answer_faults(&a.question, part, &fact, a.language))
        .find(|(_, f)| fault_check(f) == want)
        .map(|(test, f)| format!("{f} ({test})"))
}

/// The labels of a case's last hop (a bridge's second passage), else all of them: the text a
/// question must not copy.
fn last_hop_labels(a: &Accepted) -> Vec<crate::testset::Label> {
    match &a.shape {
        super::candidate::Shape::Bridge { hops, .. } => hops
            .last()
            .map(|h| {
                h.relevant
                    .iter()
                    .filter_map(|&i| a.relevant.get(i).cloned())
                    .collect()
            })
            .unwrap_or_default(),
        _ => a.relevant.clone(),
    }
}

/// The answer row that reports `fault` (the audit's RS507–RS514 read the same faults).
pub fn fault_check(fault: &crate::wording::answer::AnswerFault) -> Check {
    use crate::wording::answer::AnswerFault as F;
    match fault {
        F::NotInFact { .. } => Check::AnswerNotInLabel,
        F::Contradicts { .. } => Check::AnswerContradictsLabel,
        F::PointsOutside { .. } => Check::AnswerPointsOutside,
        F::Stitched { .. } | F::Repeats { .. } | F::CutShort { .. } => Check::AnswerStitched,
        F::AboutAbsence { .. } => Check::AnswerAboutAbsence,
        F::OffQuestion { .. } => Check::AnswerOffQuestion,
    }
}

/// The labels' quotes joined as the audit reads them ([`crate::wording::answer::labelled_fact`]).
pub fn labels_text(labels: &[crate::testset::Label]) -> String {
    crate::wording::answer::labelled_fact(labels.iter().map(|l| l.quote.as_str()))
}

/// Whether `text` says `part`: its words in a row (case aside; "25" is not in "250"), or every
/// content word of it.
pub fn says(text: &str, part: &str, language: Language) -> bool {
    let p = crate::text::words(part);
    if p.is_empty() {
        return false;
    }
    if crate::text::words(text)
        .windows(p.len())
        .any(|w| w == p.as_slice())
    {
        return true;
    }
    let words = language.analyzer();
    let have: std::collections::HashSet<String> = words.content_terms(text).into_iter().collect();
    let need = words.content_terms(part);
    !need.is_empty() && need.iter().all(|t| have.contains(t))
}

/// Whether `answer` is only `thing`: its words are the thing's, or it says the thing and adds
/// at most one content word to it and to `question` ("ISO-8859-1", "edit
/// `/etc/tidepool/agent.toml` on the agent"). One that names the thing and goes on ("Option<T>
/// is a generic enum that holds a value or nothing", "backups fail with TP-507 while restores
/// continue") says something about it; a one-word answer without the thing ("expect") may too.
pub fn is_only(answer: &str, question: &str, thing: &str, language: Language) -> bool {
    let words = language.analyzer();
    let set = |t: &str| {
        words
            .content_terms(t)
            .into_iter()
            .collect::<std::collections::HashSet<String>>()
    };
    let (said, named) = (set(answer), set(thing));
    if said.is_empty() {
        return false;
    }
    let known: std::collections::HashSet<String> = named.union(&set(question)).cloned().collect();
    said.is_subset(&named) || says(answer, thing, language) && said.difference(&known).count() <= 1
}
