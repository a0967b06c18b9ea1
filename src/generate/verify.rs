//! Checks a candidate must pass before it is written, and the reasons it can fail. The LLM is
//! not trusted for offsets: its quote is searched for in the document (exactly, then ignoring
//! white space and case, then fuzzily) and the label's span and quote are set from where the
//! text really is. Questions that repeat an existing or a new question are dropped.

use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

use serde::Serialize;

use crate::chunk::Chunk;
use crate::corpus::Document;
use crate::lang::{self, Language};
use crate::locate::locate;
use crate::testset::Label;
use crate::text::words;
use crate::wording::{self, answer, duplicates, form, overlap, standalone};

/// Why a candidate was not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    /// The chunk has no sentence or table row to ask about.
    NoFact,
    /// Empty, a single word, or a paragraph rather than a question.
    NotAQuestion,
    /// Two questions in one, or a question followed by more text.
    SeveralQuestions,
    /// Says the same eight words twice ("What is X, and what is Y, and what is X?"), or the
    /// same few twice in a row ("… designed for designed for").
    RepeatsItself,
    /// Names the product of the prompts' worked example, which the corpus does not, or a file
    /// the page makes up for its own example ("what does `tool.py --help` return").
    CopiesExample,
    /// Refers to what the writer was shown ("the passage", "the given text", "fact 1", "the
    /// documentation"): meaningless to a user, who has seen none of it.
    MetaReference,
    /// Names a thing of the text no name resolves ("What does the function return?"), or leans
    /// on an earlier turn or a pronoun it never explains ("What is its purpose?"): the audit's
    /// RS209.
    NotStandalone,
    /// Gives its own answer away: every content word of the answer is in the question.
    RestatesAnswer,
    /// Copies a long run of words from its source: keyword search finds it for free.
    CopiesSource,
    /// Shares no content word with the sentence it was asked about: not about the passage.
    OffTopic,
    /// Not written in its passage's language.
    WrongLanguage,
    /// The quote is empty or shorter than a few words.
    QuoteTooShort,
    /// The quote is not in the source document, not even approximately.
    QuoteNotFound,
    /// Same question (after normalisation) as an existing or an earlier new one.
    Duplicate,
    /// Nearly the same words as an existing or an earlier new question.
    NearDuplicate,
    /// An "unanswerable" question the corpus answers.
    CorpusAnswers,
    /// An "unanswerable" question about a neighbour the corpus does mention.
    NeighbourInCorpus,
    /// An "unanswerable" question that does not ask about its neighbour (or still names the
    /// thing it replaces).
    NotAboutNeighbour,
    /// The two facts of a "multi-hop" pair say much the same (or one chunk has none): asked
    /// nothing.
    SameFacts,
    /// A "multi-hop" question one of its passages answers alone.
    SingleChunkAnswers,
    /// A "multi-hop" question that asks only what one of its passages says.
    AsksOnePart,
    /// A "multi-hop" question that is two questions joined by "and" ("… and how can I fix
    /// it"): two lookups, not a bridge (the audit's RS511).
    JoinedQuestions,
    /// A part of the answer that its fact does not say.
    UnsupportedAnswer,
    /// The answer names a number, code or name its label does not hold, or most of its words
    /// are elsewhere (the audit's RS507).
    AnswerNotInLabel,
    /// The answer restates what its label calls an appearance, denies or rejects ("looks like
    /// it will copy both strings ... actually takes ownership"; the audit's RS508).
    AnswerContradictsLabel,
    /// A short answer that points at what it does not name ("turns off this check"; the
    /// audit's RS510).
    AnswerPointsOutside,
    /// A short answer joins words its label says apart ("author or resolved manner"; the
    /// audit's RS512).
    AnswerStitched,
    /// The answer says what happens without the thing asked about ("What does --exclude do?"
    /// → "If --exclude is not set, …"; the audit's RS513).
    AnswerAboutAbsence,
    /// The label gives the answer to another question: a reason where the question asks what
    /// or how, or a claim it limits to another case than the question's ("In C++, …" for "…
    /// in Rust?"; the audit's RS514).
    AnswerOffQuestion,
    /// The question names a code its label does not hold ("what is the value of p3 …"
    /// labelled with a sentence about `Point`): it asks about something else.
    AsksOutsideLabel,
    /// A why-question whose label gives no reason, or a reason that is not its answer or
    /// explains something else ("why does Rust use generics?" of "Because Rust compiles
    /// generic code …, we pay no runtime cost"). Generate only: see
    /// [`crate::wording::answer::reason`].
    WhyWithoutReason,
    /// The label gives the answer only under a condition ("If `required=True`, …") that the
    /// question leaves out: a false generality. Generate only: see
    /// [`crate::wording::answer::condition`].
    ConditionDropped,
    /// A question asking what a thing is, does or is for, answered by a few words of what its
    /// label says of it ("what does Click aim to do" → "quick and fun"). Generate only: see
    /// [`crate::wording::answer::partial`].
    HalfAnswer,
    /// A lookup's bare keywords point at other chunks before their own ("black formatter" for
    /// one sentence of an editor's page): they ask for a topic, not for the fact.
    KeywordsTooVague,
    /// Answering the question from the label, the judge ([`crate::judge::answers_request`])
    /// finds another answer: the neighbouring clause of the right sentence ("How did Jonas pay
    /// for the Team plan?" → "by deleting the wrong folder"; the audit's RS509).
    AnswersAnotherQuestion,
    /// A one-fact question (a lookup's, an identifier's) that asks how two things differ or
    /// compare: one fact rarely says both sides, and the model's answer makes up the other (7
    /// of 8 such lookups marked by hand were wrong). Comparisons are their own kind.
    AsksComparison,
    /// An "identifier" question that does not give its identifier as written (or whose label
    /// does not hold it).
    IdentifierMissing,
    /// A "comparison" question that does not name both things, or a side whose label does not
    /// hold its thing and its value.
    SidesMissing,
    /// A comparison side whose value names its own thing as code ("You can also pass a file
    /// … using the `--ignore-revs-file` option"): the fact's sentence, not a value of an
    /// attribute the two things share.
    NoValueCompared,
    /// A "multi-hop" candidate whose hop-2 question does not name the bridge: there is no
    /// place for hop 1's description (asked about `api.max_page_size`, the model asked "What is
    /// the maximum number of items … in a single API call?").
    BridgeNotAsked,
    /// A "multi-hop" candidate whose hop 1 gave no description of the bridge: none, one naming
    /// it, a likeness, or a thing of another kind.
    NoDescription,
    /// A "multi-hop" candidate whose description does not fit where the bridge stood in hop 2's
    /// question (it lands inside a noun phrase).
    DescriptionMisfit,
    /// A "multi-hop" question that still names its bridge: the first hop is not needed.
    BridgeNamed,
    /// A "multi-hop" question that says nothing only hop 1's fact says: its description comes
    /// from hop 2's passage, so the first hop is not needed.
    FirstHopUnneeded,
    /// A "multi-hop" question for which keyword search ranks the second hop's passage first:
    /// a lookup in disguise.
    SecondHopFirst,
    /// A "multi-hop" question whose description of its bridge, asked of hop 1's fact, picks out
    /// something else: the judge's copy does not name the bridge, or names more ("the magic to
    /// add to the list of known Python magics" for Jupyter Notebooks).
    DescribesAnother,
    /// The model's reply did not fit the schema after the allowed retries.
    MalformedReply,
    /// The request kept failing (timeouts, server errors) after the allowed retries.
    LlmFailed,
}

impl Rejection {
    /// Name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Rejection::NoFact => "no_fact",
            Rejection::NotAQuestion => "not_a_question",
            Rejection::SeveralQuestions => "several_questions",
            Rejection::RepeatsItself => "repeats_itself",
            Rejection::CopiesExample => "copies_example",
            Rejection::MetaReference => "meta_reference",
            Rejection::NotStandalone => "not_standalone",
            Rejection::RestatesAnswer => "restates_answer",
            Rejection::CopiesSource => "copies_source",
            Rejection::OffTopic => "off_topic",
            Rejection::WrongLanguage => "wrong_language",
            Rejection::QuoteTooShort => "quote_too_short",
            Rejection::QuoteNotFound => "quote_not_found",
            Rejection::Duplicate => "duplicate",
            Rejection::NearDuplicate => "near_duplicate",
            Rejection::CorpusAnswers => "corpus_answers",
            Rejection::NeighbourInCorpus => "neighbour_in_corpus",
            Rejection::NotAboutNeighbour => "not_about_neighbour",
            Rejection::SameFacts => "same_facts",
            Rejection::SingleChunkAnswers => "single_chunk_answers",
            Rejection::AsksOnePart => "asks_one_part",
            Rejection::JoinedQuestions => "joined_questions",
            Rejection::UnsupportedAnswer => "unsupported_answer",
            Rejection::AnswerNotInLabel => "answer_not_in_label",
            Rejection::AnswerContradictsLabel => "answer_contradicts_label",
            Rejection::AnswerPointsOutside => "answer_points_outside",
            Rejection::AnswerStitched => "answer_stitched",
            Rejection::AnswerAboutAbsence => "answer_about_absence",
            Rejection::AnswerOffQuestion => "answer_off_question",
            Rejection::AsksOutsideLabel => "asks_outside_label",
            Rejection::WhyWithoutReason => "why_without_reason",
            Rejection::ConditionDropped => "condition_dropped",
            Rejection::HalfAnswer => "half_answer",
            Rejection::KeywordsTooVague => "keywords_too_vague",
            Rejection::AnswersAnotherQuestion => "answers_another_question",
            Rejection::AsksComparison => "asks_comparison",
            Rejection::IdentifierMissing => "identifier_missing",
            Rejection::SidesMissing => "sides_missing",
            Rejection::NoValueCompared => "no_value_compared",
            Rejection::BridgeNotAsked => "bridge_not_asked",
            Rejection::NoDescription => "no_description",
            Rejection::DescriptionMisfit => "description_misfit",
            Rejection::BridgeNamed => "bridge_named",
            Rejection::FirstHopUnneeded => "first_hop_unneeded",
            Rejection::SecondHopFirst => "second_hop_first",
            Rejection::DescribesAnother => "describes_another",
            Rejection::MalformedReply => "malformed_reply",
            Rejection::LlmFailed => "llm_failed",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Similarity a fuzzy quote match needs (normalised edit similarity of the best window). Small
/// models paraphrase a word or two of what they "copy"; below this the text is not the source.
pub const QUOTE_MIN_SIMILARITY: f32 = 0.8;

/// Fewest words a quote needs to support anything.
pub const QUOTE_MIN_WORDS: usize = 3;

/// Checks the question's form: 3 to 40 words, ending in `?` or opening like a question (the
/// audit's RS201, RS203 and RS204 read the same [`form`] table), no reference to what its writer
/// was shown (RS205, RS206), and it stands alone (RS209); returns the trimmed question. A weak
/// question (yes/no, some copied words) passes: the auditor flags those; this only turns away
/// what is not a usable question at all.
/// The question must be in `language` (its passage's): one the detector reliably places in
/// another is turned away.
pub fn check_question(question: &str, language: Language) -> Result<String, Rejection> {
    let shown = as_shown(question);
    let q = shown.trim().trim_matches('"').trim();
    let n = crate::text::word_count(q);
    if words(q).is_empty()
        || !(form::MIN_WORDS..=form::MAX_WORDS).contains(&n)
        || !form::reads_as_question(q, language)
        || (language == Language::ENGLISH && form::code_as_a_kind(q))
    {
        return Err(Rejection::NotAQuestion);
    }
    // Two questions in one ("What is X? How does it affect Y?"), or a question followed by
    // more text ("… ? The answer is …").
    if form::questions_asked(q) > 1 {
        return Err(Rejection::SeveralQuestions);
    }
    if repeats_itself(&words(q)) || repeats_a_code(q) || form::stutters(q) {
        return Err(Rejection::RepeatsItself);
    }
    let meta =
        wording::meta_reference_in(q, language).is_some() || wording::meta_question_in(q, language).is_some();
    if meta || prompt_words().is_match(q) {
        return Err(Rejection::MetaReference);
    }
    if standalone::not_standalone(q, language).is_some() {
        return Err(Rejection::NotStandalone);
    }
    if language == Language::ENGLISH && names_a_section(q) {
        return Err(Rejection::MetaReference);
    }
    // Or two joined by "and" ("What is X, and how can it be fixed?"): a case's answer comes
    // from one fact and answers one of them (the multi-hop turns these away first, as
    // joined_questions).
    if form::joined_question(q, language).is_some() {
        return Err(Rejection::SeveralQuestions);
    }
    if lang::detect_question(q, None, Some(language)) != language {
        return Err(Rejection::WrongLanguage);
    }
    Ok(q.to_string())
}

/// `question` with its Sphinx and MyST roles as the built page shows them, which is what a
/// user pastes: "what is the purpose of the :attr:`~ParamType.name` attribute" (Click's docs,
/// copied by the model) reads "… the `ParamType.name` attribute" ([`names::shown_name`]).
fn as_shown(question: &str) -> std::borrow::Cow<'_, str> {
    static ROLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r":([a-z:]+):`([^`<]*?)\s*(?:<[^`>]*>)?`|\{([a-z:]+)\}`([^`<]*?)\s*(?:<[^`>]*>)?`")
            .expect("valid regex")
    });
    ROLE.replace_all(question, |c: &regex::Captures<'_>| {
        let role = c.get(1).or(c.get(3)).map_or("", |m| m.as_str());
        let inner = c.get(2).or(c.get(4)).map_or("", |m| m.as_str()).trim();
        // A section's or page's title is words; anything else is code.
        if matches!(role, "ref" | "doc" | "term" | "numref") {
            inner.to_string()
        } else {
            format!("`{}`", crate::generate::names::shown_name(inner))
        }
    })
}

/// Whether a question places its subject in the page's outline ("what does `--filter` do in
/// the file collection and discovery section"): the writer saw the headings, a user asks about
/// the thing. Generate only: a real user may name a section of a contract, and the audit's
/// meta-reference rule leaves that be.
fn names_a_section(question: &str) -> bool {
    section().is_match(question)
}

/// A place in the page's outline: "in the file collection and discovery section".
fn section() -> &'static Regex {
    static SECTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(in|from|under)\s+the\s+(?:[\w`'-]+\s+){1,6}(section|subsection|paragraph)s?\b")
            .expect("valid regex")
    });
    &SECTION
}

/// `question` without the place in the page's outline it ends on ("what does the `--diff`
/// option do in the basics section?" → "what does the `--diff` option do?"); none where it
/// names no such place or names it elsewhere. For a question whose subject is named, so the
/// place adds nothing a user would say (a multi-hop's second hop, which names its bridge).
pub fn outline_dropped(question: &str) -> Option<String> {
    let place = section().find_iter(question).last()?;
    let mark = question[place.end()..].trim();
    if !mark.trim_start_matches(['?', '？']).is_empty() {
        return None;
    }
    let rest = question[..place.start()]
        .trim_end()
        .trim_end_matches(',')
        .trim_end();
    (!rest.is_empty() && !names_a_section(rest)).then(|| format!("{rest}{mark}"))
}

/// The question a user asks of a code where the model copied the fact's table row instead
/// ("--check: exit with code 1 if any file would be reformatted", or the flag alone): "What
/// does `--check` do?". For a flag, an option key or another code; none for anything else, and
/// outside English. Black's CLI rows gave two hop-2 questions and one unanswerable so.
pub fn copied_row_asked(question: &str, code: &str, language: Language) -> Option<String> {
    if language != Language::ENGLISH || crate::generate::names::shape(code).is_none() {
        return None;
    }
    let q = question.trim();
    let rest = q
        .strip_prefix(code)
        .or_else(|| q.strip_prefix(&format!("`{code}`")))?
        .trim_start();
    let copied = rest.is_empty() || rest.starts_with([':', '(', '-', '\u{2013}', '\u{2014}']);
    (copied && !q.ends_with('?')).then(|| format!("What does `{code}` do?"))
}

/// Checks a search query's form ([`form::reads_as_query`]: 3 to 10 words, one line, keywords or
/// a question, not a sentence), no reference to what its writer was shown; returns it trimmed,
/// without a question mark.
pub fn check_query(query: &str, language: Language) -> Result<String, Rejection> {
    let q = query
        .trim()
        .trim_matches('"')
        .trim()
        .trim_end_matches(['?', '？'])
        .trim();
    if !form::reads_as_query(q, language) {
        return Err(Rejection::NotAQuestion);
    }
    if crate::wording::meta_reference_in(q, language).is_some() || prompt_words().is_match(q) {
        return Err(Rejection::MetaReference);
    }
    if form::stutters(q) {
        return Err(Rejection::RepeatsItself);
    }
    if lang::detect_question(q, None, Some(language)) != language {
        return Err(Rejection::WrongLanguage);
    }
    Ok(q.to_string())
}

/// Consecutive words a question says twice when it repeats a part (small models joining two
/// questions repeat the first): eight, because a joined question's parallel lead ("what is the
/// configuration option for S3 …, and what is the configuration option for OIDC …") repeats six.
const REPEAT: usize = 8;

/// Whether some run of [`REPEAT`] consecutive words stands twice in `words`.
fn repeats_itself(words: &[String]) -> bool {
    let mut seen = HashSet::new();
    words.windows(REPEAT).any(|w| !seen.insert(w))
}

/// Whether `question` names the same code twice ("the differences between both the ``attr``
/// namespace and `attrs.exceptions` and `attrs.exceptions`"): a question compares or asks
/// about a code once; twice, a small model lost its thread.
fn repeats_a_code(question: &str) -> bool {
    let mut seen = HashSet::new();
    question
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-'))
        .filter(|w| w.starts_with("--") || answer::has_code_marks(w))
        .any(|w| !seen.insert(w.to_lowercase()))
}

/// Words of the generation prompts that a question repeating them leaks: a user never saw a
/// "fact 2", a "key sentence" or "the documentation".
fn prompt_words() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(facts?\s*[ab1-9]\b|(the|this|that|these|given|provided|above)\s+(facts?|statements?|documentation|sentences?|topic|information)\b|(given|provided|above|following)\s+(code(\s+snippet)?|snippets?|examples?|listings?|programs?|output)\b|code snippet|key sentence|neighbou?r|answer_\w+|question_\w+|according to|based on the|mentioned (above|in))",
        )
        .expect("valid regex")
    })
}

/// Rejects a question that gives its answer away (RS207's definition) or copies a phrase of
/// `source` ([`overlap::copied_phrase`]: [`overlap::COPIED_RUN`] words in a row,
/// [`overlap::COPIED_RUN_CONTENT`] of them content words, as RS101 counts at its defaults).
/// `source` must be what the audit compares against — the text of the chunks the label lies in
/// ([`crate::workspace::ChunkedCorpus::labelled_text`]); a fact alone is shorter, and a
/// question that copies the rest of its chunk would pass here and be flagged there.
pub fn check_wording(
    question: &str,
    answer: &str,
    source: &str,
    language: Language,
) -> Result<(), Rejection> {
    if wording::restates_answer_in(question, answer, language) {
        return Err(Rejection::RestatesAnswer);
    }
    if overlap::copied_phrase(question, source, language).is_some() {
        return Err(Rejection::CopiesSource);
    }
    Ok(())
}

/// Rejects an answer its labels do not hold or contradict ([`answer::answer_in_fact`] over the
/// labels' text, as RS507 and RS508 read it): call it with the labels the case will be written
/// with ([`label_for`] gives each the document's own text as its quote).
pub fn check_answer(
    question: &str,
    answer: &str,
    labels: &[Label],
    language: Language,
) -> Result<(), Rejection> {
    answer_in_label(question, answer, &labels_text(labels), language)
}

/// The labels' quotes joined as the audit reads them ([`answer::labelled_fact`]).
pub fn labels_text(labels: &[Label]) -> String {
    answer::labelled_fact(labels.iter().map(|l| l.quote.as_str()))
}

/// [`check_answer`] over the labels' text `fact`.
fn answer_in_label(question: &str, answer: &str, fact: &str, language: Language) -> Result<(), Rejection> {
    match answer::answer_in_fact(question, answer, fact, language) {
        Ok(()) => Ok(()),
        Err(answer::AnswerFault::NotInFact { .. }) => Err(Rejection::AnswerNotInLabel),
        Err(answer::AnswerFault::Contradicts { .. }) => Err(Rejection::AnswerContradictsLabel),
        Err(answer::AnswerFault::PointsOutside { .. }) => Err(Rejection::AnswerPointsOutside),
        Err(
            answer::AnswerFault::Stitched { .. }
            | answer::AnswerFault::Repeats { .. }
            | answer::AnswerFault::CutShort { .. },
        ) => Err(Rejection::AnswerStitched),
        Err(answer::AnswerFault::AboutAbsence { .. }) => Err(Rejection::AnswerAboutAbsence),
        Err(answer::AnswerFault::OffQuestion { .. }) => Err(Rejection::AnswerOffQuestion),
    }
}

/// Rejects a question and answer that the labels' text `fact` ([`labels_text`]) does not
/// bear out, first fault first: the question names a code `fact` lacks
/// ([`answer::code_outside`]); the answer is not `fact`'s ([`check_answer`]); a why-question's
/// `fact` gives no reason for it ([`answer::reason::gives_the_reason`]); the question leaves
/// out the condition under which `fact` gives the answer, unless the condition names one of
/// `sides` ([`answer::condition::states_the_condition`]); a broad question is answered by a
/// fragment of `fact` ([`answer::partial::answers_in_full`]); an answer of several sentences
/// holds in each ([`each_sentence_held`]). The last four are generate's only.
pub fn check_against_label(
    question: &str,
    answer: &str,
    fact: &str,
    language: Language,
    sides: &[&str],
) -> Result<(), Rejection> {
    if answer::code_outside(question, fact).is_some() {
        return Err(Rejection::AsksOutsideLabel);
    }
    answer_in_label(question, answer, fact, language)?;
    each_sentence_held(question, answer, fact, language)?;
    answer::reason::gives_the_reason(question, answer, fact, language)
        .map_err(|_| Rejection::WhyWithoutReason)?;
    answer::condition::states_the_condition(question, answer, fact, language, sides)
        .map_err(|_| Rejection::ConditionDropped)?;
    answer::partial::answers_in_full(question, answer, fact, language).map_err(|_| Rejection::HalfAnswer)
}

/// The generator's answer is read from its label, so each of its sentences is held to the
/// label as a one-sentence answer is. The audit reads another tool's answer of several
/// sentences as an explanation in words of its own; the default model wrote "The exit_code
/// attribute is a property that holds the exit code of the program when a ClickException is
/// raised. This is useful for applications that need…" of a label that says only that the
/// program exits with `ClickException.exit_code`.
fn each_sentence_held(question: &str, answer: &str, fact: &str, language: Language) -> Result<(), Rejection> {
    let sentences: Vec<&str> = answer::sentences(answer).collect();
    if sentences.len() < 2 {
        return Ok(());
    }
    sentences
        .iter()
        .try_for_each(|s| answer_in_label(question, s, fact, language))
}

/// Rejects an answer that says the same run of [`REPEAT`] words twice ("used with virtualenv,
/// disables command when not in use, only usable with virtualenv, disables command when not in
/// use, …"): a small model's output looping until its length cap, which no reviewer keeps.
pub fn check_answer_form(answer: &str) -> Result<(), Rejection> {
    if repeats_itself(&words(answer)) {
        return Err(Rejection::RepeatsItself);
    }
    Ok(())
}

/// Rejects a one-fact question that asks how two things differ or compare ("what is the
/// difference between frozen and unfrozen dict classes", "how does X compare to Y"). English.
pub fn check_one_sided(question: &str, language: Language) -> Result<(), Rejection> {
    static COMPARES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\bdiffer(ence|ences|ent from|s from|)\b.*\b(and|from|to|vs\.?|versus)\b|\bcompared?\b.*\b(to|with|and)\b|\bvs\.?\s|\bversus\b")
            .expect("valid regex")
    });
    if language == Language::ENGLISH && COMPARES.is_match(question) {
        return Err(Rejection::AsksComparison);
    }
    Ok(())
}

/// Last words of a title that say it is a page ("Template Designer Documentation", "Windows
/// Console Notes"): the rest of it names the page all the same.
const PAGE_WORDS: [&str; 8] = [
    "documentation",
    "docs",
    "guide",
    "reference",
    "manual",
    "notes",
    "tutorial",
    "handbook",
];

/// Where `question` starts to place its thing in a heading of its label's page ("what does
/// sys.argv do in Windows Console Notes?"), as a byte offset of its " in …": the prompt shows
/// the model where the fact stands, and a user who has not seen the page does not name it so.
/// A heading counts written as such (its capitals kept); a page's title also by the words
/// before its page word, in any case ("… in the template designer", 7 of Jinja's 25 cases).
/// One the page `say`s as a name is not counted: "… in GitHub Actions" names a product its
/// page talks about.
pub fn heading_tail(question: &str, headings: &[String], say: impl Fn(&str) -> bool) -> Option<usize> {
    let asked = question.trim_end().trim_end_matches(['?', '.', '!']).trim_end();
    // Lower case only where it keeps every byte offset (it does for the scripts headings use).
    let lower = Some(asked.to_lowercase()).filter(|l| l.len() == asked.len());
    let tail_of = |name: &str, any_case: bool| -> Option<usize> {
        [
            " in ",
            " in the ",
            " in the context of ",
            " in the context of the ",
        ]
        .iter()
        .map(|lead| format!("{lead}{name}"))
        .filter_map(|t| {
            if asked.ends_with(t.as_str()) {
                Some(asked.len() - t.len())
            } else if any_case {
                let (l, lt) = (lower.as_ref()?, t.to_lowercase());
                let at = asked.len().checked_sub(lt.len())?;
                (l.ends_with(&lt) && asked.is_char_boundary(at)).then_some(at)
            } else {
                None
            }
        })
        .min()
    };
    headings
        .iter()
        .filter_map(|h| {
            let h = h.trim();
            let capitalised = h.chars().next().is_some_and(char::is_uppercase);
            let whole = (capitalised && h.chars().count() >= 3 && !say(h))
                .then(|| tail_of(h, false))
                .flatten();
            let words: Vec<&str> = h.split_whitespace().collect();
            let titled = words.len() >= 3
                && capitalised
                && PAGE_WORDS.contains(&words[words.len() - 1].to_lowercase().as_str());
            let stem = titled
                .then(|| words[..words.len() - 1].join(" "))
                .filter(|stem| !say(stem));
            let by_title = stem.and_then(|stem| {
                [
                    tail_of(h, true),
                    tail_of(&stem, true),
                    tail_of(&format!("{stem} page"), true),
                ]
                .into_iter()
                .flatten()
                .min()
            });
            [whole, by_title].into_iter().flatten().min()
        })
        .min()
}

/// `question` without the heading it ends in at `at` ([`heading_tail`]), its mark kept:
/// "what does sys.argv do in Windows Console Notes?" → "what does sys.argv do?".
pub fn without_heading_tail(question: &str, at: usize) -> String {
    let kept = question[..at].trim_end();
    let mark = question
        .trim_end()
        .chars()
        .last()
        .filter(|c| ['?', '.', '!'].contains(c));
    match mark {
        Some(m) => format!("{kept}{m}"),
        None => kept.to_string(),
    }
}

/// Whether `page` writes `heading` as written (its capitals) on a line other than a heading that
/// starts with it (Markdown's "# " marks aside): a name its text uses, not only its outline.
/// "Template Designer" is said by no line of Jinja's page but its title's.
pub fn page_says(page: &str, heading: &str) -> bool {
    page.lines().any(|line| {
        !line.trim().trim_start_matches('#').trim().starts_with(heading) && line.contains(heading)
    })
}

/// The product the templates' worked examples are about: a question naming it copied the
/// example, unless the corpus is about a product of that name.
pub const EXAMPLE_PRODUCT: &str = "nimbus";

/// Rejects a question that names the worked example's product while `source` does not.
pub fn check_not_example(question: &str, source: &str) -> Result<(), Rejection> {
    let named = |t: &str| words(t).iter().any(|w| w == EXAMPLE_PRODUCT);
    if named(question) && !named(source) {
        return Err(Rejection::CopiesExample);
    }
    Ok(())
}

/// Checks that `question` shares at least one content word (stemmed, not a stop word) with
/// one of `sources`: a question with none is about something else than its passage.
pub fn check_on_topic(question: &str, sources: &[&str], language: Language) -> Result<(), Rejection> {
    let words = language.analyzer();
    let asked: HashSet<String> = words.content_terms(question).into_iter().collect();
    let shared = sources
        .iter()
        .any(|s| words.content_terms(s).iter().any(|t| asked.contains(t)));
    if shared { Ok(()) } else { Err(Rejection::OffTopic) }
}

/// Whether `text` says `part`: its words in a row (case aside; "25" is not in "250"), or every
/// content word of it.
pub fn says(text: &str, part: &str, language: Language) -> bool {
    let p = words(part);
    if p.is_empty() {
        return false;
    }
    if words(text).windows(p.len()).any(|w| w == p.as_slice()) {
        return true;
    }
    let words = language.analyzer();
    let have: HashSet<String> = words.content_terms(text).into_iter().collect();
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
    let set = |t: &str| words.content_terms(t).into_iter().collect::<HashSet<String>>();
    let (said, named) = (set(answer), set(thing));
    if said.is_empty() {
        return false;
    }
    let known: HashSet<String> = named.union(&set(question)).cloned().collect();
    said.is_subset(&named) || says(answer, thing, language) && said.difference(&known).count() <= 1
}

/// Locates `quote` in `doc` (preferring the occurrence nearest `near`) and builds the label from
/// where it was found; `chunks` are the document's chunks, for the informative chunk id.
pub fn label_for(doc: &Document, quote: &str, near: usize, chunks: &[&Chunk]) -> Result<Label, Rejection> {
    let quote = quote.trim();
    if words(quote).len() < QUOTE_MIN_WORDS {
        return Err(Rejection::QuoteTooShort);
    }
    let found = locate(&doc.text, quote, Some(near), QUOTE_MIN_SIMILARITY).ok_or(Rejection::QuoteNotFound)?;
    let text: String = doc
        .text
        .chars()
        .skip(found.start)
        .take(found.end - found.start)
        .collect();
    let chunk = chunks
        .iter()
        .filter(|c| c.start < found.end && found.start < c.end)
        .max_by_key(|c| {
            (
                found.end.min(c.end) - found.start.max(c.start),
                std::cmp::Reverse(c.start),
            )
        })
        .map(|c| c.id.clone());
    Ok(Label {
        doc: doc.path.clone(),
        start: found.start,
        end: found.end,
        quote: text,
        chunk,
        grade: None,
        extra: Default::default(),
    })
}

/// Questions seen so far, to turn repeats away by the audit's definitions
/// ([`crate::wording::duplicates`]: RS301's words, RS302's similarity, at a lower threshold).
#[derive(Debug, Default, Clone)]
pub struct Dedup {
    exact: HashSet<String>,
    shingles: Vec<HashSet<u64>>,
}

impl Dedup {
    /// Checks `question` against everything added; does not add it.
    pub fn check(&self, question: &str) -> Result<(), Rejection> {
        if self.exact.contains(&duplicates::normalized(question)) {
            return Err(Rejection::Duplicate);
        }
        let s = duplicates::shingles(question);
        if self
            .shingles
            .iter()
            .any(|o| duplicates::similarity(o, &s) >= duplicates::GENERATE_NEAR_DUPLICATE)
        {
            return Err(Rejection::NearDuplicate);
        }
        Ok(())
    }

    /// Remembers `question`.
    pub fn add(&mut self, question: &str) {
        self.exact.insert(duplicates::normalized(question));
        self.shingles.push(duplicates::shingles(question));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_or_wording_that_stutters_is_turned_away() {
        // TREC DL 2020's bridge, its description run into the words after the bridge: the kind
        // composes it, then reads it with `check_question`.
        assert_eq!(
            check_question(
                "what was the type of rifle that the new trigger is designed for designed for",
                Language::ENGLISH
            ),
            Err(Rejection::RepeatsItself)
        );
        // A keyword wording is dropped the same way, and its plain sibling kept.
        assert_eq!(
            check_query("alpine hall of fame of fame photos", Language::ENGLISH),
            Err(Rejection::RepeatsItself)
        );
        assert_eq!(
            check_query("alpine hall of fame photos", Language::ENGLISH).as_deref(),
            Ok("alpine hall of fame photos")
        );
    }

    #[test]
    fn a_question_placed_in_its_page_heading_leans_on_the_page() {
        let headings = |hs: &[&str]| hs.iter().map(|h| h.to_string()).collect::<Vec<_>>();
        let q = "what does sys.argv do in Windows Console Notes?";
        for page in [
            "Windows Console Notes\n=====\n\nWe also now extract unicode parameters from `sys.argv`.",
            "# Windows Console Notes\n\nWe also now extract unicode parameters from `sys.argv`.",
        ] {
            let at = heading_tail(q, &headings(&["Windows Console Notes"]), |h| page_says(page, h));
            assert_eq!(at, q.find(" in Windows"), "{page}");
            assert_eq!(without_heading_tail(q, at.unwrap()), "what does sys.argv do?");
        }
        // Said on its page as a name, a heading is one the user may know; elsewhere in the
        // question, or in lower case, it is the user's own words.
        let page = "# GitHub Actions\n\nBlack's action runs on GitHub Actions with --check.";
        let q = "what does --check do in GitHub Actions";
        assert!(heading_tail(q, &headings(&["GitHub Actions"]), |h| page_says(page, h)).is_none());
        assert!(
            heading_tail(
                "what is the upload limit in scheduled backups",
                &headings(&["Scheduled backups"]),
                |_| false
            )
            .is_none()
        );
        let q = "does sys.argv hold unicode in Windows Console Notes mode";
        assert!(heading_tail(q, &headings(&["Windows Console Notes"]), |_| false).is_none());
    }

    #[test]
    fn a_page_title_is_placed_by_the_words_before_its_page_word_in_any_case() {
        // Jinja's templates.rst, "Template Designer Documentation": 7 of 25 cases ended so.
        let title = vec!["Template Designer Documentation".to_string(), "Loops".to_string()];
        let page =
            "Template Designer Documentation\n===\n\nfor other template designers to read\n\nLoops\n---";
        let say = |h: &str| page_says(page, h);
        for (q, kept) in [
            (
                "how do I use loops recursively in the template designer",
                "how do I use loops recursively",
            ),
            (
                "what does loop.depth1 mean in the Template Designer documentation",
                "what does loop.depth1 mean",
            ),
            (
                "what does 'loop.depth' mean in the Template Designer?",
                "what does 'loop.depth' mean?",
            ),
            (
                "what is loop.index in the context of the template designer page",
                "what is loop.index",
            ),
        ] {
            let at = heading_tail(q, &title, say);
            assert_eq!(
                at.map(|at| without_heading_tail(q, at)).as_deref(),
                Some(kept),
                "{q}"
            );
        }
        // A section heading in lower case is the user's own words; so is a title's stem the
        // page writes as a name (its capitals kept) outside its own line.
        assert!(heading_tail("how do I break out of loops in the loops", &title, say).is_none());
        let named = "Template Designer Documentation\n===\n\nOpen the Template Designer first.";
        let q = "how do I use loops recursively in the template designer";
        assert!(heading_tail(q, &title, |h| page_says(named, h)).is_none());
        // Two words are a name, not a page: "API Reference" has no title stem to place in.
        let api = vec!["API Reference".to_string()];
        assert!(heading_tail("what does Environment do in the API", &api, |_| false).is_none());
    }

    #[test]
    fn a_question_reads_roles_as_the_page_shows_them() {
        let en = Language::ENGLISH;
        // Click's docs, copied by the model.
        assert_eq!(
            check_question("what is the purpose of the :attr:`~ParamType.name` attribute", en).as_deref(),
            Ok("what is the purpose of the `ParamType.name` attribute")
        );
        assert_eq!(
            check_question(
                "what does :func:`~flask.url_for` return in :ref:`Blueprints <blueprints>`?",
                en
            )
            .as_deref(),
            Ok("what does `url_for` return in Blueprints?")
        );
    }
    use crate::corpus::DocKind;

    fn doc(text: &str) -> Document {
        Document {
            path: "guide.md".into(),
            text: text.into(),
            kind: DocKind::Markdown,
            sha256: String::new(),
        }
    }

    #[test]
    fn a_question_placed_in_the_pages_outline_is_a_meta_reference() {
        let q = "what does the `--filter` do in the file collection and discovery section";
        assert_eq!(
            check_question(q, Language::ENGLISH),
            Err(Rejection::MetaReference)
        );
        for q in [
            "Which section of the act covers refunds?",
            "what does `--filter` do when collecting files",
        ] {
            assert!(!names_a_section(q), "{q}");
        }
    }

    #[test]
    fn a_copied_row_becomes_the_question_a_user_asks_of_its_code() {
        let en = Language::ENGLISH;
        let question = "What does `--check` do?";
        let asked = Some(question.to_string());
        let row = "--check: exit with code 1 if any file would be reformatted";
        assert_eq!(copied_row_asked(row, "--check", en), asked);
        assert_eq!(copied_row_asked("--check (print nothing)", "--check", en), asked);
        assert_eq!(copied_row_asked("`--check`", "--check", en), asked);
        assert!(check_question(question, en).is_ok());
        // A question already, a plain name, another code first, another language: left alone.
        assert_eq!(copied_row_asked("--check: what does it do?", "--check", en), None);
        assert_eq!(copied_row_asked("Black: the formatter", "Black", en), None);
        assert_eq!(copied_row_asked("--diff: print a diff", "--check", en), None);
        assert_eq!(
            copied_row_asked(row, "--check", Language::parse("de").unwrap()),
            None
        );
    }

    #[test]
    fn a_trailing_place_in_the_outline_comes_off() {
        assert_eq!(
            outline_dropped("What does the `--diff` option do in the basics section?").as_deref(),
            Some("What does the `--diff` option do?")
        );
        assert_eq!(
            outline_dropped("what does `--filter` do, under the file discovery subsection").as_deref(),
            Some("what does `--filter` do")
        );
        for q in [
            // Placed mid-question, or no place at all: left as it is.
            "What does the `--diff` option in the basics section print?",
            "Which section of the act covers refunds?",
            "What does the `--diff` option do?",
        ] {
            assert_eq!(outline_dropped(q), None, "{q}");
        }
        let dropped = outline_dropped("What does the `--diff` option do in the basics section?").unwrap();
        assert!(check_question(&dropped, Language::ENGLISH).is_ok());
    }

    #[test]
    fn question_form() {
        assert_eq!(
            check_question("  How do I restore files?  ", Language::ENGLISH).unwrap(),
            "How do I restore files?"
        );
        assert_eq!(
            check_question("Restore?", Language::ENGLISH),
            Err(Rejection::NotAQuestion)
        );
        assert_eq!(
            check_question("Which port does it use", Language::ENGLISH),
            Ok("Which port does it use".into())
        );
        // Not a question at all, though it talks about one.
        assert_eq!(
            check_question(
                "The answer to the question 'How do I back up a database?',",
                Language::ENGLISH
            ),
            Err(Rejection::NotAQuestion)
        );
        assert_eq!(
            check_question(
                "How do I back up? Use dumps. Why? Because files change?",
                Language::ENGLISH
            ),
            Err(Rejection::SeveralQuestions)
        );
        // Joined by "and": the rust book run's wrong lookup, its answer one sentence.
        assert_eq!(
            check_question(
                "what is a common issue with Rust code and how can it be addressed?",
                Language::ENGLISH
            ),
            Err(Rejection::SeveralQuestions)
        );
        // The attrs run of 2026-12-02: one code twice.
        assert_eq!(
            check_question(
                "what are the differences between both the ``attr`` namespace and `attrs.exceptions` and `attrs.exceptions`",
                Language::ENGLISH
            ),
            Err(Rejection::RepeatsItself)
        );
        assert!(check_question("How do `--include` and `--exclude` differ?", Language::ENGLISH).is_ok());
        assert_eq!(
            check_question(
                "What is a security incident? How can it affect the agent?",
                Language::ENGLISH
            ),
            Err(Rejection::SeveralQuestions)
        );
        assert_eq!(
            check_question(
                "What is the minimum macOS version the agent supports, and what is the issue with tags, and what is the minimum macOS version the agent supports?",
                Language::ENGLISH
            ),
            Err(Rejection::RepeatsItself)
        );
        assert_eq!(
            check_question(
                "What is the configuration option for S3-compatible storage, and what is the configuration option for OpenID Connect?",
                Language::ENGLISH
            ),
            Err(Rejection::SeveralQuestions)
        );
        for meta in [
            "What does the passage say about keys?",
            "According to fact 2, which port does the server use?",
            "What is the purpose of the recovery kit in the given text?",
            "What is the key sentence about TP-412 and how can it be resolved?",
            "What are the labels used in the documentation?",
            "what does the `wont_work` variable represent in the given code snippet",
        ] {
            assert_eq!(
                check_question(meta, Language::ENGLISH),
                Err(Rejection::MetaReference),
                "{meta}"
            );
        }
        assert!(check_question("How is a lock used in the context of a prune?", Language::ENGLISH).is_ok());
    }

    #[test]
    fn wording_that_gives_the_answer_away_or_copies_the_source() {
        let src = "Periods are counted in the server's local time zone, not in UTC.";
        assert_eq!(
            check_wording(
                "What time zone is used to count periods in the server's local time zone?",
                "the server's local time zone",
                src,
                Language::ENGLISH
            ),
            Err(Rejection::RestatesAnswer)
        );
        assert_eq!(
            check_wording(
                "Are periods counted in the server's local time zone?",
                "Yes",
                src,
                Language::ENGLISH
            ),
            Err(Rejection::CopiesSource)
        );
        assert_eq!(
            check_wording(
                "Which clock decides when a retention period ends?",
                "local time",
                src,
                Language::ENGLISH
            ),
            Ok(())
        );
    }

    #[test]
    fn on_topic_needs_a_shared_content_word() {
        let s = "The agent encrypts every chunk with XChaCha20-Poly1305 before upload.";
        assert_eq!(
            check_on_topic("Which cipher encrypts uploads?", &[s], Language::ENGLISH),
            Ok(())
        );
        assert_eq!(
            check_on_topic(
                "How often should I empty the grinder tray?",
                &[s],
                Language::ENGLISH
            ),
            Err(Rejection::OffTopic)
        );
    }

    #[test]
    fn label_span_comes_from_where_the_quote_is() {
        let d = doc("# Keys\n\nThe agent encrypts every chunk with XChaCha20-Poly1305 before upload.\n");
        let c = Chunk {
            id: "guide.md#0".into(),
            doc: "guide.md".into(),
            start: 0,
            end: d.text.chars().count(),
            text: d.text.clone(),
        };
        // Case and white space differ from the source: the label carries the source's text.
        let l = label_for(
            &d,
            "the agent  encrypts every chunk with xchacha20-poly1305",
            0,
            &[&c],
        )
        .unwrap();
        assert_eq!(l.quote, "The agent encrypts every chunk with XChaCha20-Poly1305");
        assert_eq!(&d.text[l.start..l.end], l.quote);
        assert_eq!(l.chunk.as_deref(), Some("guide.md#0"));
        // One word changed: found fuzzily, label still exact text of the source.
        let l = label_for(
            &d,
            "The agent encrypts each chunk with XChaCha20-Poly1305 before upload",
            0,
            &[&c],
        )
        .unwrap();
        assert!(d.text.contains(&l.quote));
        assert_eq!(label_for(&d, "Keys", 0, &[&c]), Err(Rejection::QuoteTooShort));
        assert_eq!(
            label_for(&d, "Snapshots are pruned every Sunday night", 0, &[&c]),
            Err(Rejection::QuoteNotFound)
        );
    }

    #[test]
    fn questions_about_a_thing_the_reader_was_not_shown_do_not_stand_alone() {
        for q in [
            "What is the return type of the function?",
            "What does the function return?",
            "What is its purpose?",
        ] {
            assert_eq!(
                check_question(q, Language::ENGLISH),
                Err(Rejection::NotStandalone),
                "{q}"
            );
        }
        assert!(
            check_question(
                "What does the `read_to_string` function return?",
                Language::ENGLISH
            )
            .is_ok()
        );
    }

    #[test]
    fn an_answer_that_loops_is_turned_away() {
        // Black's docs, an unanswerable's lookup reply.
        let looped = "used with virtualenv, disables command when not in use, only usable with virtualenv, disables command when not in use, only usable with virtualenv, disables the";
        assert_eq!(check_answer_form(looped), Err(Rejection::RepeatsItself));
        // Parallel halves repeat a few words, not eight.
        let parallel =
            "get either an Ok value that contains a username or an Err value that contains an io::Error";
        assert_eq!(check_answer_form(parallel), Ok(()));
    }

    #[test]
    fn each_sentence_of_an_answer_is_held_to_the_label() {
        // Click's: the second sentence is the model's own.
        let fact = "If a :exc:`ClickException` is raised, invoke the :meth:`ClickException.show` method \
                    on it to display it and then exit the program with :attr:`ClickException.exit_code`.";
        let q = "what is the exit_code attribute of ClickException?";
        let long = "The exit_code attribute holds the exit code of the program when a ClickException is \
                    raised. This is useful for applications that need to report their status to scripts.";
        assert_eq!(
            check_against_label(q, long, fact, Language::ENGLISH, &[]),
            Err(Rejection::AnswerNotInLabel)
        );
        let held = "The program exits with it. That is when a ClickException is raised and shown.";
        assert_eq!(check_against_label(q, held, fact, Language::ENGLISH, &[]), Ok(()));
    }

    #[test]
    fn answers_their_label_does_not_hold_or_contradicts_are_turned_away() {
        let label = |quote: &str| Label::spanning("book.md", 0, quote);
        // The Rust book, ch08-02: `+` only looks like it copies both strings.
        let concat = label(
            "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.",
        );
        assert_eq!(
            check_answer(
                "What happens when you concatenate two strings in Rust?",
                "The result is a new string that contains the contents of both original strings",
                std::slice::from_ref(&concat),
                Language::ENGLISH
            ),
            Err(Rejection::AnswerContradictsLabel)
        );
        // The Rust book, ch09-03: a sentence that announces an example and gives none.
        let announces = label(
            "We’ll work through an example of what we mean in “Encoding States and Behavior as Types” in Chapter 18.",
        );
        assert_eq!(
            check_answer(
                "What is an example of the bad state in error handling?",
                "user entering data in the wrong format",
                &[announces],
                Language::ENGLISH
            ),
            Err(Rejection::AnswerNotInLabel)
        );
        assert_eq!(
            check_answer(
                "What does `let s3 = s1 + &s2;` do with s1?",
                "It takes ownership of s1",
                &[concat],
                Language::ENGLISH
            ),
            Ok(())
        );
        // Black's docs (the correctness benchmark): an answer cut after its referent.
        let fast = label(
            "Black checks that the reformatted code still produces a valid AST that is equivalent to the original. `--fast` turns off this check and the safe flag explicitly enables it.",
        );
        assert_eq!(
            check_answer(
                "what does the `--fast` flag do",
                "turns off this check and the safe flag explicitly enables it",
                std::slice::from_ref(&fast),
                Language::ENGLISH
            ),
            Err(Rejection::AnswerPointsOutside)
        );
        assert_eq!(
            check_answer(
                "what does the `--fast` flag do",
                "turns off the check that the reformatted code produces an equivalent AST",
                &[fast],
                Language::ENGLISH
            ),
            Ok(())
        );
    }

    #[test]
    fn duplicates_exact_and_near() {
        let mut d = Dedup::default();
        d.add("How long are snapshots kept on the free plan?");
        assert_eq!(
            d.check("how long are snapshots kept on the FREE plan"),
            Err(Rejection::Duplicate)
        );
        assert_eq!(
            d.check("How long are snapshots kept on the free tier?"),
            Err(Rejection::NearDuplicate)
        );
        assert_eq!(d.check("Which ports does the server need?"), Ok(()));
    }
}
