//! Is the reference answer the label's? A case is right only when its answer stands in the text
//! it is labelled with: `generate` turns a candidate away when it does not (`answer_not_in_label`,
//! `answer_contradicts_label`), and the audit flags the case (RS507, RS508) — one definition,
//! [`answer_in_fact`], read lexically, without a model.
//!
//! *In the fact*: what the answer names — a number, a code or option, a name — stands in the
//! fact, and, in a short answer (up to eight content words), at least half of its content words
//! do (it may be reworded; one whose words are mostly elsewhere was not taken from this text; a
//! longer answer explains in words of its own, but in one sentence no part of it between commas
//! brings three content words the fact and the question lack). Words the question already says
//! are the question's, not the answer's claim, and need not be in the fact. A leading "Yes" or
//! "No" is the reply to a yes/no question; what follows it is checked. Numbers are compared as
//! written in digits, and English number words up to ninety-nine count as their digits: a fact
//! that says "thirty days" holds an answer of "30 days" (a small model writes digits).
//!
//! *Not contradicted*: the fact does not present what the answer says as an appearance ("looks
//! like it will copy both strings ..., this statement actually takes ownership of s1"), or as
//! what is not so ("... not merged"), or as the alternative it rejects ("instead of 7 days",
//! "rather than"). The answer contradicts the fact when it restates such a clause — two of its
//! content words, or one of its numbers or names, stand in the clause and nowhere else in the
//! fact, and the answer shares more with that clause than with the rest — without the cue
//! itself (an answer that says "not" does not restate a negated clause as true), and a question
//! that asks for what is not so ("What isn't growth sufficient for?", "What are pharmacists
//! forbidden to do?") is answered by a denied clause. A concession ("although the plan is free,
//! ...") states something true and is no cue.
//!
//! *Naming its referent*: a short English answer does not say "this …" about something the
//! question does not name (`answer_points_outside`, RS510; see [`names_its_referent`]).
//!
//! *To this question*: the answer is not a reason where the question asks what or how, nor a
//! claim the fact limits to another case ("In C++, …") than the question's ("… in Rust?")
//! (`answer_off_question`, RS514; [`off_question`]).
//!
//! *Said, not stitched*: a short answer is not made of the fact's words taken from places
//! apart ("author or resolved manner"; [`stitched`]), no answer says a run of its words twice
//! (the model looped), nor does it say what happens without
//! the thing asked about ("What does --exclude do?" → "If --exclude is not set, …";
//! [`absence`]).
//!
//! A lexical check cannot tell an answer taken from the neighbouring clause of the right
//! sentence ("How did Jonas pay for the Team plan?" → "by deleting the wrong folder"): every
//! word of it is in the fact. That needs a reader: [`crate::judge::answers_request`].

mod absence;
pub mod condition;
mod off_question;
pub mod partial;
pub mod reason;
mod stitched;

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::lang::lists::english;
use crate::lang::{Analyzer, Language, List};
use crate::text::{contains_folded, fold, fold_char, spans, tokens};

/// Why an answer is not the label's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerFault {
    /// Something the answer says is not in the fact: `missing` is a number, code or name it
    /// names, or its content words when most are elsewhere.
    NotInFact {
        /// What the fact lacks, as the answer writes it.
        missing: String,
    },
    /// The answer restates what the fact presents as an appearance, denies or rejects.
    Contradicts {
        /// The cue in the fact: "looks like", "not", "instead of", ...
        cue: String,
        /// The clause the cue governs, as the fact writes it.
        clause: String,
    },
    /// A short answer points at something it does not name ("turns off this check"): cut
    /// from a sentence whose referent stands before it, it tells a reader nothing alone.
    PointsOutside {
        /// The pointing phrase, as the answer writes it ("this check").
        phrase: String,
    },
    /// A short answer joins words the fact says apart ("author or resolved manner").
    Stitched {
        /// The stretch of the fact the answer's words are spread over.
        span: String,
    },
    /// The answer says a run of its words twice: the model looped ("receives count as num
    /// parameter, given parameters, automatically receives count as num parameter").
    Repeats {
        /// The run said twice, as the answer first writes it.
        run: String,
    },
    /// The answer stops inside a phrase ("… on the command line to skip the"): a small model
    /// ran out of words or copied a label cut mid-sentence.
    CutShort {
        /// The answer's last words, as it writes them.
        tail: String,
    },
    /// The answer says what happens without the thing the question asks about.
    AboutAbsence {
        /// The answer's condition ("If --exclude is not set").
        condition: String,
    },
    /// The label gives the answer to another question: a reason where the question asks what
    /// or how, or a claim it limits to another case than the question's ("In C++" for "in Rust").
    OffQuestion {
        /// How, in words.
        why: String,
    },
}

impl std::fmt::Display for AnswerFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerFault::NotInFact { missing } => write!(f, "its label does not say \"{missing}\""),
            AnswerFault::Contradicts { cue, clause } => {
                write!(f, "its label says \"{cue} {clause}\": not what the answer says")
            }
            AnswerFault::PointsOutside { phrase } => {
                write!(f, "the answer says \"{phrase}\" without saying what that is")
            }
            AnswerFault::Stitched { span } => {
                write!(f, "the answer joins words its label says apart: \"{span}\"")
            }
            AnswerFault::Repeats { run } => write!(f, "the answer says \"{run}\" twice"),
            AnswerFault::CutShort { tail } => write!(f, "the answer stops mid-phrase: \"… {tail}\""),
            AnswerFault::AboutAbsence { condition } => {
                write!(
                    f,
                    "the answer says what happens \"{condition}\", not what was asked"
                )
            }
            AnswerFault::OffQuestion { why } => write!(f, "the answer is to another question: {why}"),
        }
    }
}

/// Checks that `answer` stands in `fact` and is not contradicted by it (see the module doc).
/// `fact` is the labelled text: the label's quote (a generated case's fact), or the quotes of all
/// its labels joined.
pub fn answer_in_fact(
    question: &str,
    answer: &str,
    fact: &str,
    language: Language,
) -> Result<(), AnswerFault> {
    static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\(?<\d+-hop>\)?").expect("valid regex"));
    // A generator's marker ("<1-hop>", Ragas) is no claim.
    let unmarked = MARKER.replace_all(answer, "");
    let claim = strip_yes_no(&unmarked);
    if claim.is_empty() {
        return Ok(());
    }
    faults(question, claim, fact, language)
        .next()
        .map_or(Ok(()), |(_, fault)| Err(fault))
}

/// Every fault of `answer` against `fact`, each with the name of the test that found it, in
/// the order [`answer_in_fact`] reads them (it stops at the first; `ragsynth check` reports all,
/// so each test can be measured on its own).
pub fn answer_faults<'a>(
    question: &'a str,
    answer: &'a str,
    fact: &'a str,
    language: Language,
) -> Vec<(&'static str, AnswerFault)> {
    static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\(?<\d+-hop>\)?").expect("valid regex"));
    let unmarked = MARKER.replace_all(answer, "");
    let claim = strip_yes_no(&unmarked);
    if claim.is_empty() {
        return Vec::new();
    }
    faults(question, claim, fact, language).collect()
}

/// One test of an answer against its label, by name.
pub type Part = (
    &'static str,
    fn(&str, &str, &str, Language) -> Result<(), AnswerFault>,
);

/// The tests of a claim against its fact, in order.
pub const PARTS: &[Part] = &[
    ("in-fact", in_fact),
    ("not-contradicted", not_contradicted),
    ("not-negated", not_negated),
    ("not-a-reference", |_, c, f, _| not_a_reference(c, f)),
    ("not-sent-elsewhere", not_sent_elsewhere),
    ("not-only-links", |_, c, f, l| not_only_links(c, f, l)),
    ("not-stitched", stitched::not_stitched),
    ("not-rejoined", |_, c, f, _| stitched::not_rejoined(c, f)),
    ("not-reparented", |_, c, f, l| stitched::not_reparented(c, f, l)),
    ("not-looped", |_, c, f, l| stitched::not_looped(c, f, l)),
    ("not-cut-short", |_, c, f, l| stitched::not_cut_short(c, f, l)),
    ("not-about-absence", |q, c, _, l| {
        absence::not_about_absence(q, c, l)
    }),
    ("not-an-aside", condition::not_an_aside),
    ("names-its-referent", |q, c, _, l| names_its_referent(q, c, l)),
];

/// The faults of a claim (its marker and yes/no taken off), lazily, each with its test's name.
fn faults<'a>(
    question: &'a str,
    claim: &'a str,
    fact: &'a str,
    language: Language,
) -> impl Iterator<Item = (&'static str, AnswerFault)> + 'a {
    PARTS
        .iter()
        .chain(off_question::PARTS)
        .filter_map(move |(name, test)| test(question, claim, fact, language).err().map(|f| (*name, f)))
}

/// A short English answer (up to [`SHORT_ANSWER`] content words) does not point at "the
/// following" block or say what is "as follows": the label stops before it. With "this" or
/// "these" outside code and quotation it must point at something the question names ("this
/// plan" after "the free plan"); otherwise it was cut from a sentence whose referent came
/// before it ("turns off this check and the safe flag explicitly enables it", "available on
/// the registry if this is the functionality you need"), and so must "other" ("do other
/// postprocessing": other than what?). A longer answer explains and may open with "This"; "those"
/// mostly stands for what the question asks about ("Which snapshots …?" → "Those selected by a
/// keep rule").
fn names_its_referent(question: &str, claim: &str, language: Language) -> Result<(), AnswerFault> {
    if language != Language::ENGLISH {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let prose = without_quoted(claim);
    if analyzer.content_terms(&prose).len() > SHORT_ANSWER {
        return Ok(());
    }
    // "Add the following hook to your kakrc": the hook is the block after the label.
    static FOLLOWING: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\b(the following(\s+\w+)?|as follows)\b").expect("valid regex"));
    if let Some(m) = FOLLOWING
        .find(&prose)
        .filter(|m| !contains_folded(question, m.as_str()))
    {
        return Err(AnswerFault::PointsOutside {
            phrase: m.as_str().to_string(),
        });
    }
    let asked: HashSet<String> = analyzer.content_terms(question).into_iter().collect();
    let words = tokens(&prose);
    let asks_other = spans(&fold(question)).any(|w| w == "other");
    for (i, w) in words.iter().enumerate() {
        // "do other postprocessing": other than what the page said before. "Each other", "no
        // other" and "other than …" say it where they stand.
        let said_where_it_stands = words.get(i + 1).is_some_and(|n| n.norm == "than")
            || (i > 0
                && matches!(
                    words[i - 1].norm.as_str(),
                    "each" | "one" | "no" | "any" | "every"
                ));
        let other = w.norm == "other" && !asks_other && !said_where_it_stands;
        if !matches!(w.norm.as_str(), "this" | "these") && !other {
            continue;
        }
        let next = words.get(i + 1);
        let named =
            next.is_some_and(|n| !analyzer.is_stopword(&n.norm) && asked.contains(&analyzer.stem(&n.norm)));
        if !named {
            let phrase = match next {
                Some(n) => format!("{} {}", w.raw, n.raw),
                None => w.raw.to_string(),
            };
            return Err(AnswerFault::PointsOutside { phrase });
        }
    }
    Ok(())
}

/// An answer that is only the target of one of the fact's cross-references ("current_style"
/// from "presented in {doc}`current_style`") names the page that holds the answer, not the
/// answer: it points outside.
fn not_a_reference(claim: &str, fact: &str) -> Result<(), AnswerFault> {
    let said = squash(claim);
    if said.is_empty() {
        return Ok(());
    }
    for target in REFERENCE
        .captures_iter(fact)
        .filter_map(|c| (1..=4).find_map(|i| c.get(i)))
    {
        // A target written "Title <name>" inside a role names the page by its last part.
        let name = target
            .as_str()
            .rsplit(['<', '/'])
            .next()
            .unwrap_or("")
            .trim_end_matches('>');
        if squash(name) == said || squash(target.as_str()) == said {
            return Err(points_outside(claim));
        }
    }
    Ok(())
}

/// MyST roles, reStructuredText roles, Markdown link targets, Sphinx's "Title <target>".
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\{(?:doc|ref|numref|term)\}`([^`]+)`|:(?:doc|ref|numref|term):`([^`]+)`|\]\(([^)\s]+)\)|<([\w./-]+)>")
        .expect("valid regex")
});

/// An answer that sends the reader elsewhere instead of answering: one holding a
/// cross-reference ("read :ref:`setuptools-integration` chapter"), one opening with "see …" or
/// "described in …", or one made only of the fact's cross-reference targets and such words
/// ("described in signals-sending and request_tearing_down", from Flask's "the limitations
/// described in :ref:`signals-sending` and …"). Unless the question asks where: "where is the
/// format described?" is answered by a page. English but for the first.
fn not_sent_elsewhere(
    question: &str,
    claim: &str,
    fact: &str,
    language: Language,
) -> Result<(), AnswerFault> {
    if !crate::text::cross_references(claim).is_empty() {
        return Err(points_outside(claim));
    }
    let asks_where = crate::text::words(question)
        .iter()
        .any(|w| matches!(w.as_str(), "where" | "page" | "section" | "chapter" | "document"));
    if language != Language::ENGLISH || asks_where {
        return Ok(());
    }
    // "method syntax in chapter 5", from "We'll discuss method syntax in Chapter 5": the
    // book's pointer ahead, not the syntax.
    static NUMBERED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\b(?:chapter|section|appendix)\s+\d").expect("valid regex"));
    if NUMBERED.is_match(claim) {
        return Err(points_outside(claim));
    }
    let (sending, elsewhere) = (english(List::Sending), english(List::WrittenElsewhere));
    let opening: Vec<String> = crate::text::words(claim).into_iter().take(2).collect();
    let sends = match opening.as_slice() {
        [first, ..] if matches!(first.as_str(), "see" | "refer") => true,
        [first, second] => {
            elsewhere.contains(&first.as_str()) && matches!(second.as_str(), "in" | "at" | "under" | "by")
        }
        _ => false,
    };
    let analyzer = language.analyzer();
    let spaced = |t: &str| t.replace(['-', '_', '/', '.'], " ");
    let targets: HashSet<String> = REFERENCE
        .captures_iter(fact)
        .filter_map(|c| (1..=4).find_map(|i| c.get(i)))
        .flat_map(|t| analyzer.content_terms(&spaced(t.as_str())))
        .collect();
    let terms = analyzer.content_terms(&spaced(claim));
    let pointing = |t: &String| {
        sending
            .iter()
            .chain(elsewhere)
            .chain(&["section", "page", "chapter"])
            .any(|w| analyzer.stem(w) == *t)
    };
    let only_targets =
        terms.iter().any(|t| targets.contains(t)) && terms.iter().all(|t| targets.contains(t) || pointing(t));
    if sends || only_targets {
        return Err(points_outside(claim));
    }
    Ok(())
}

fn points_outside(claim: &str) -> AnswerFault {
    AnswerFault::PointsOutside {
        phrase: claim.trim().to_string(),
    }
}

/// An answer made only of the texts of the fact's links to other pages, and of words sending the
/// reader there ("read Installation", "Retention policies and Configuration", from "read
/// [Installation](install.md) … should read [Retention policies](retention.md) and
/// [Configuration](configuration.md)"), names where the answer is, not the answer: it points
/// outside. One link text alone without such a word ("Business", from "SSO is included in
/// [Business](pricing.md)") may be the answer. English.
fn not_only_links(claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    static LINK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\[([^\]]+)\]\(([^)\s]+)\)").expect("valid regex"));
    if language != Language::ENGLISH {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let pages: Vec<&str> = LINK
        .captures_iter(fact)
        .filter(|c| !c[2].starts_with("http") && !c[2].starts_with('#'))
        .map(|c| c.get(1).map_or("", |m| m.as_str()))
        .collect();
    if pages.is_empty() {
        return Ok(());
    }
    let linked: HashSet<String> = pages.iter().flat_map(|t| analyzer.content_terms(t)).collect();
    let sending = english(List::Sending);
    let words = crate::text::words(claim);
    let sends = words.iter().any(|w| sending.contains(&w.as_str()));
    let terms = analyzer.content_terms(claim);
    let only_links = !terms.is_empty()
        && terms
            .iter()
            .all(|t| linked.contains(t) || sending.iter().any(|v| analyzer.stem(v) == *t));
    let links_named = pages
        .iter()
        .filter(|p| {
            let t = analyzer.content_terms(p);
            !t.is_empty() && t.iter().all(|x| terms.contains(x))
        })
        .count();
    if only_links && (sends || links_named >= 2) {
        return Err(points_outside(claim));
    }
    Ok(())
}

/// The first code of `question` ([`is_code`]: "p3", "calculate_length", "atom.io") that
/// `fact` does not write (letters and digits compared): a question about `p3` labelled with a
/// sentence about `Point` asks what its label does not say. Capitalised names ("PyCharm"),
/// which a label may leave to its heading, are not read; nor is a number with a short suffix
/// ([`is_suffixed_number`]: "the 2nd century", "7th Avenue"), a quantity a label may give in
/// other words ("at this period").
pub fn code_outside(question: &str, fact: &str) -> Option<String> {
    let held = squash(fact);
    question
        .split(|c: char| c.is_whitespace() || c == '/')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'))
        .find(|w| is_code(w) && !is_suffixed_number(w) && !held.contains(&squash(w)))
        .map(str::to_string)
}

/// A number followed by one or two lower-case letters and nothing else: an ordinal, a decade
/// or a unit ("2nd", "15th", "1950s", "64k"), not a name a reader pastes as code does "p3".
pub fn is_suffixed_number(w: &str) -> bool {
    let digits = w.chars().take_while(char::is_ascii_digit).count();
    let suffix = &w[digits..];
    digits > 0 && (1..=2).contains(&suffix.chars().count()) && suffix.chars().all(char::is_lowercase)
}

/// `text` with its `code` spans and quotations blanked: "this" in a quoted command or in
/// someone's words ("… procedures in this instance") is no pointer of the answer's.
fn without_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<char> = None;
    for c in text.chars() {
        let closes = match open {
            Some('`') => c == '`',
            Some('"') => c == '"',
            Some(_) => c == '”',
            None => false,
        };
        let blank = open.is_some() || matches!(c, '`' | '"' | '“');
        if closes {
            open = None;
        } else if open.is_none() && matches!(c, '`' | '"' | '“') {
            open = Some(c);
        }
        out.push(if blank { ' ' } else { c });
    }
    out
}

/// The distinct content terms of `text`, sorted.
fn distinct_terms(analyzer: &crate::lang::Analyzer, text: &str) -> Vec<String> {
    let mut v = analyzer.content_terms(text);
    v.sort();
    v.dedup();
    v
}

/// Share of `of` found in `within` (1 when `of` is empty).
fn share_in(of: &[String], within: &[String]) -> f32 {
    if of.is_empty() {
        return 1.0;
    }
    of.iter().filter(|t| within.contains(t)).count() as f32 / of.len() as f32
}

/// `text` with the line breaks inside its paragraphs made spaces: documentation is wrapped
/// at a width, and a sentence splitter ends a sentence at every line break ("If we\nhave more
/// than one level of loops, …" would be read as "If we").
fn unwrapped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        match lines.peek() {
            Some(next) if next.trim().is_empty() || line.trim().is_empty() => out.push('\n'),
            Some(_) => out.push(' '),
            None => {}
        }
    }
    out
}

/// The text a case's answer is checked against: its labels' texts, one per line. `generate`
/// and the audit both join them here (a generated label's quote is its span's text).
pub fn labelled_fact<'a>(quotes: impl IntoIterator<Item = &'a str>) -> String {
    quotes.into_iter().collect::<Vec<_>>().join("\n")
}

/// "Yes" and "No" in the languages with a question table, as an answer opens with them.
const YES_NO: &[&str] = &[
    "yes", "no", "sí", "si", "ja", "nein", "sim", "não", "nao", "oui", "non", "是", "不", "否", "对",
];

/// The answer without a leading "Yes" / "No" and the punctuation after it ("No; the agent needs
/// macOS 13" → "the agent needs macOS 13"); empty for an answer that is only that. "No port
/// needs opening" keeps its "No": a determiner, not a reply.
fn strip_yes_no(answer: &str) -> &str {
    let a = answer.trim();
    let first = a.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
    let rest = &a[first.len()..];
    let replies = !first.is_empty() && YES_NO.contains(&fold(first).as_str());
    if replies && (rest.is_empty() || rest.starts_with([',', ';', '.', ':', '!', '—', '–', '，', '。']))
    {
        return rest.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '`' && c != '$' && c != '"');
    }
    a
}

/// Content words (the question's aside) of the longest answer whose wording is checked: a short
/// answer is taken from its fact; a longer one explains, in words of its own.
const SHORT_ANSWER: usize = 8;

/// The answer's numbers, codes and names, then (for a short answer) its content words, must be
/// in the fact.
fn in_fact(question: &str, claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    names_in_fact(question, claim, fact, language)?;
    words_in_fact(question, claim, fact, language)
}

/// The part of [`answer_in_fact`] a paraphrase cannot pass: the numbers, codes and names the
/// answer (a leading "Yes"/"No" aside) gives must stand in `fact` or the question. A person
/// writes an answer in their own words, so this is what the audit holds a real case's answer
/// to (RS507); a generated answer is held to its words too.
pub fn names_in_fact(
    question: &str,
    answer: &str,
    fact: &str,
    language: Language,
) -> Result<(), AnswerFault> {
    let claim = strip_yes_no(answer);
    if claim.is_empty() {
        return Ok(());
    }
    let fact_numbers = numbers(fact, language, true);
    let asked_numbers = numbers(question, language, true);
    for n in numbers(claim, language, false) {
        if !fact_numbers.contains(&n) && !asked_numbers.contains(&n) {
            return Err(AnswerFault::NotInFact { missing: n });
        }
    }
    if let Some(q) = unit_moved(claim, fact, language) {
        return Err(AnswerFault::NotInFact { missing: q });
    }
    let fact_words = squashed_words(fact);
    let asked = squashed_words(question);
    for s in specifics(claim, language) {
        let key = squash(&s);
        let found = fact_words.contains(&key) || squash(fact).contains(&key) || asked.contains(&key);
        if !found {
            return Err(AnswerFault::NotInFact { missing: s });
        }
    }
    Ok(())
}

/// The answer's own words must be the fact's: no word of a code the fact writes whole, most of
/// a short answer's content words, and no part of a one-sentence English answer bringing words
/// of its own.
fn words_in_fact(question: &str, claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    // One sentence is the generator's answer; another tool's explanation in several may name
    // a word the label uses inside a code ("topics" of `default_topics`).
    if let Some(part) = part_of_a_code(claim, question, fact).filter(|_| one_sentence(claim)) {
        return Err(AnswerFault::NotInFact { missing: part });
    }
    let analyzer = language.analyzer();
    let asked_terms: HashSet<String> = analyzer.content_terms(question).into_iter().collect();
    let fact_terms: HashSet<String> = analyzer.content_terms(fact).into_iter().collect();
    let mut own: Vec<String> = analyzer
        .content_terms(claim)
        .into_iter()
        .filter(|t| !asked_terms.contains(t))
        .collect();
    own.sort();
    own.dedup();
    let missing: Vec<&String> = own.iter().filter(|t| !fact_terms.contains(*t)).collect();
    if (2..=SHORT_ANSWER).contains(&own.len()) && missing.len() * 2 > own.len() {
        return Err(AnswerFault::NotInFact {
            missing: surface(claim, &missing, analyzer),
        });
    }
    // English only: the parts are told by English commas and function words.
    if language != Language::ENGLISH {
        return Ok(());
    }
    // A reply of several sentences explains, as other tools' reference answers do ("Ragas
    // offers both LLM-based and computational metrics tailored to …"), and is read as a whole
    // above. One sentence is the generator's answer: a short one adds no claim of its own, a
    // longer one may explain, but a part of it that brings three words of its own was not read
    // from this text ("…, which means the user is logged out or the session has expired" after
    // a label that says only the first clause).
    if !one_sentence(claim) {
        return Ok(());
    }
    let short = spans(claim).count() <= PART_CHECKED_WORDS;
    let floor = if short { 2 } else { LONG_PART_OWN_WORDS };
    match part_of_its_own(claim, &asked_terms, &fact_terms, analyzer, floor) {
        Some(part) => Err(AnswerFault::NotInFact { missing: part }),
        None => Ok(()),
    }
}

/// A word of `claim` that `fact` writes only as a part of a snake_case code, and `question`
/// not at all: "use push_str or push", labelled with a sentence about `push_str` alone, names
/// another method (the rust book's `push` appends one character).
fn part_of_a_code(claim: &str, question: &str, fact: &str) -> Option<String> {
    // A span bare of punctuation but for a code's underscores ([`crate::text::bare`] drops them).
    let bare = |w: &str| fold(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'));
    let fact_words: Vec<String> = spans(fact).map(bare).collect();
    let asked: HashSet<String> = spans(question).map(bare).collect();
    let parts: HashSet<&str> = fact_words
        .iter()
        .filter(|w| w.contains('_') && !w.starts_with('_') && !w.ends_with('_'))
        .flat_map(|w| w.split('_'))
        .filter(|p| p.chars().count() >= 3)
        .collect();
    spans(claim)
        .map(bare)
        .find(|w| parts.contains(w.as_str()) && !fact_words.contains(w) && !asked.contains(w))
}

/// Whether `claim` is one sentence, as the generator's answers are: other tools' reference
/// answers explain in several, and come back to their terms as they go.
pub(super) fn one_sentence(claim: &str) -> bool {
    sentences(claim).nth(1).is_none()
}

/// The sentences of an answer: its lines, cut at each ". ".
pub fn sentences(claim: &str) -> impl Iterator<Item = &str> {
    claim
        .split('\n')
        .flat_map(|line| line.split(". "))
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != ".")
}

/// Words of its own, none in the fact, that make a part of a long answer a claim of its own.
const LONG_PART_OWN_WORDS: usize = 3;

/// Longest answer, in words, whose parts are checked one by one ([`part_of_its_own`]).
pub(super) const PART_CHECKED_WORDS: usize = 20;

/// The first part of `claim` (between commas or semicolons, outside code) that the fact does
/// not say: `floor` or more of its own content words nowhere in the fact, and two in three of
/// its own.
/// An answer of several parts may say its fact in other words, but not add a claim of its own
/// ("restricts what values the `Host` header may be …, ensuring secure communication with the
/// server").
fn part_of_its_own(
    claim: &str,
    asked: &HashSet<String>,
    fact: &HashSet<String>,
    analyzer: &Analyzer,
    floor: usize,
) -> Option<String> {
    let mut parts = Vec::new();
    let (mut start, mut in_code) = (0, false);
    for (i, c) in claim.char_indices() {
        match c {
            '`' => in_code = !in_code,
            ',' | ';' if !in_code => {
                parts.push(&claim[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&claim[start..]);
    parts.into_iter().find_map(|part| {
        let mut own: Vec<String> = analyzer
            .content_terms(part)
            .into_iter()
            .filter(|t| !asked.contains(t))
            .collect();
        own.sort();
        own.dedup();
        let missing = own.iter().filter(|t| !fact.contains(*t)).count();
        (missing >= floor && 3 * missing >= 2 * own.len()).then(|| part.trim().to_string())
    })
}

/// The first amount of `claim` ("0 MiB/s") whose unit the fact gives only to other numbers:
/// from "`\"0\"` means unlimited; e.g. `\"20MiB/s\"`" a small model writes "0 MiB/s", a
/// limit of nothing where the fact says there is none. Units are compared by their first three
/// letters ("day" / "days"); an amount whose unit the fact never writes is reworded, not moved.
fn unit_moved(claim: &str, fact: &str, language: Language) -> Option<String> {
    // A word after a number is a unit in English only where it is no function word ("5 of
    // them"); other languages are not read ("$5.000 al mes").
    if language != Language::ENGLISH {
        return None;
    }
    let analyzer = language.analyzer();
    static AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^A-Za-z0-9_.])(\d+(?:\.\d+)?)[ \-]?([A-Za-z%][A-Za-z%]*(?:/[A-Za-z]+)?)")
            .expect("valid regex")
    });
    let unit = |u: &str| fold(u).chars().take(3).collect::<String>();
    let amounts = |text: &str| -> Vec<(String, String, String)> {
        AMOUNT
            .captures_iter(text)
            .map(|c| {
                (
                    c[1].to_string(),
                    unit(&c[2]),
                    c[0].trim_start_matches(|ch: char| !ch.is_ascii_digit())
                        .to_string(),
                )
            })
            .collect()
    };
    let stated = amounts(fact);
    amounts(claim).into_iter().find_map(|(n, u, written)| {
        if analyzer.is_stopword(&u)
            || spans(&written)
                .nth(1)
                .is_some_and(|w| analyzer.is_stopword(&fold(w)))
        {
            return None;
        }
        let elsewhere = stated.iter().any(|(m, v, _)| *v == u && *m != n);
        let here = stated.iter().any(|(m, v, _)| *v == u && *m == n);
        (elsewhere && !here).then_some(written)
    })
}

/// The words of `text` whose stems are `terms`, as written there, in order.
fn surface(text: &str, terms: &[&String], analyzer: &Analyzer) -> String {
    let words: Vec<&str> = tokens(text)
        .into_iter()
        .filter(|t| terms.iter().any(|term| **term == analyzer.stem(&t.norm)))
        .map(|t| t.raw)
        .collect();
    words.join(" ")
}

/// The numbers of `text` in digits, in the order they stand, each once: each run of digits
/// (thousands separators dropped: "3,000" is "3000"; "2.4.0" stays whole; a list's "1." at a
/// line start is no number), and, when `spelled`, the language's number words up to
/// ninety-nine ("thirty days", "twenty-one"). An answer's numbers are its digits only ("one of
/// the platforms" names no number); a fact's are both, so "30 days" stands in "thirty days".
fn numbers(text: &str, language: Language, spelled: bool) -> Vec<String> {
    // Not inside a code ("Argon2id", "s3"); in any script ("收到了38 份").
    static DIGITS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[^A-Za-z0-9_])(\d+(?:,\d{3})*(?:[.:]\d+)*)").expect("valid regex")
    });
    static MARKER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^\s*\d{1,2}[.)]\s").expect("valid regex"));
    let unlisted = MARKER.replace_all(text, " ");
    let mut out: Vec<String> = Vec::new();
    let mut add = |n: String| {
        if !out.contains(&n) {
            out.push(n);
        }
    };
    for c in DIGITS.captures_iter(&unlisted) {
        if let Some(m) = c.get(1) {
            add(m.as_str().replace(',', ""));
        }
    }
    if spelled && let Some(number_words) = language.number_words() {
        let words: Vec<String> = crate::text::words(&text.replace('-', " "));
        let value = |w: &str| number_words.iter().find(|(n, _)| *n == w).map(|(_, v)| *v);
        let mut i = 0;
        while i < words.len() {
            if let Some(v) = value(&words[i]) {
                let next = words.get(i + 1).and_then(|w| value(w));
                match next {
                    Some(u) if v >= 20 && v % 10 == 0 && u < 10 => {
                        add((v + u).to_string());
                        i += 1;
                    }
                    _ => add(v.to_string()),
                }
            }
            i += 1;
        }
    }
    out
}

/// What an answer names that a reworded answer still writes the same: a code span, a quoted
/// string, an option (`--overwrite`), an identifier (`api.token_ttl`, `tide::prune`), a word
/// mixing letters and digits (`TP-412`, `XChaCha20-Poly1305`) or with a capital inside
/// (`OpenAIEmbeddings`), and a name: a word with a capital that does not open
/// the answer or a sentence of it ("Glacier Vault"; not told in a language that capitalises
/// every noun). Numbers are [`numbers`]'. A plain hyphenated word ("built-in") is wording.
fn specifics(claim: &str, language: Language) -> Vec<String> {
    static MARKED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"`([^`]+)`|"([^"]{2,})"|“([^”]{2,})”|(?:^|\s)(--?[A-Za-z][\w-]*)"#).expect("valid regex")
    });
    let mut out: Vec<String> = MARKED
        .captures_iter(claim)
        .filter_map(|c| (1..=4).find_map(|i| c.get(i)).map(|m| m.as_str().to_string()))
        .collect();
    // "49/month" is a number and a word, not a code.
    for word in claim.split(|c: char| c.is_whitespace() || c == '/') {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        if is_identifier(w) {
            out.push(w.to_string());
        }
    }
    // Two characters are a code when they mix a letter and a digit ("X2", "s3": the rust
    // book's type parameters and variables); shorter marked strings are wording.
    out.retain(|s| {
        let squashed = squash(s);
        s.chars().any(char::is_alphabetic)
            && (squashed.chars().count() >= 3
                || squashed.chars().count() == 2 && squashed.chars().any(|c| c.is_ascii_digit()))
    });
    if !language.capitalises_nouns() {
        let toks = tokens(claim);
        for (i, t) in toks.iter().enumerate() {
            let before = claim[..t.byte].trim_end();
            let opens = i == 0 || before.ends_with(['.', '!', '?', ':', ';', '(']);
            let capital = t.raw.chars().next().is_some_and(char::is_uppercase);
            if !opens && capital && t.raw.chars().count() > 1 && !is_identifier(t.raw) {
                out.push(t.raw.to_string());
            }
        }
    }
    out
}

/// A word that is a code rather than wording: [`is_code`], or a capital after a lower-case
/// letter.
fn is_identifier(w: &str) -> bool {
    is_code(w) || has_inner_capital(w)
}

/// A capital right after a lower-case letter: `DecimalRange`, `getElementById`.
pub fn has_inner_capital(w: &str) -> bool {
    w.chars()
        .zip(w.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase())
}

/// A word that is a code: [`has_code_marks`], or letters mixed with digits ("p3",
/// "calculate_length", "atom.io"). A capital inside ("PyCharm") is a name, not a mark.
pub fn is_code(w: &str) -> bool {
    let letters = w.chars().any(char::is_alphabetic);
    let digits = w.chars().any(|c| c.is_ascii_digit());
    letters && (has_code_marks(w) || digits)
}

/// A word written with a code's marks: `_`, `::` or a `.` inside. Short names with digits
/// ("s1", "s3") are not marked: a question may well say one twice.
pub fn has_code_marks(w: &str) -> bool {
    let inner_dot = w
        .char_indices()
        .any(|(i, c)| c == '.' && i > 0 && i + 1 < w.len());
    w.contains('_') || w.contains("::") || inner_dot
}

/// Lower-cased letters and digits only: "XChaCha20-Poly1305" and "xchacha20 poly1305" alike.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(fold_char)
        .collect()
}

/// Each word of `text` [`squash`]ed.
fn squashed_words(text: &str) -> HashSet<String> {
    spans(text).map(squash).filter(|w| !w.is_empty()).collect()
}

/// What makes the clause after it an appearance, a denial or a rejected alternative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cue {
    /// "looks like", "seems", "appears to": not what happens.
    Appearance,
    /// "not", "no", "never": what is not so.
    Negation,
    /// "instead of", "rather than", "unlike": the alternative that is not taken.
    Rejected,
}

/// English cues and what they mark; other languages have no table yet (the check passes).
fn cues() -> &'static [(Regex, Cue)] {
    static CUES: LazyLock<Vec<(Regex, Cue)>> = LazyLock::new(|| {
        let re = |p: &str| Regex::new(&format!(r"(?i)\b(?:{p})\b")).expect("valid regex");
        vec![
            (
                re(
                    r"looks? like|seems?(?: to)?|appears? to|at first glance|you might (?:think|expect)|might seem",
                ),
                Cue::Appearance,
            ),
            (re(r"instead of|rather than|unlike|as opposed to"), Cue::Rejected),
            (re(r"not|no|never|cannot|no longer|\w+n['’]t"), Cue::Negation),
        ]
    });
    &CUES
}

/// Where the clause a cue governs ends: a comma, semicolon, colon, sentence end, dash, or a
/// "but" / "actually" / "however" that turns it around.
fn clause_end(fact: &str, from: usize) -> usize {
    static END: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)[,;:.!?—–()]\s|[,;:!?—–()]|\.$|\s(?:but|actually|however|yet|instead)\b")
            .expect("valid regex")
    });
    END.find(&fact[from..]).map_or(fact.len(), |m| from + m.start())
}

/// True when `text` carries a cue of `kind` itself: an answer that says "not" does not restate a
/// negated clause as true, one that says "looks like" reports the appearance as one; a question
/// that says "not" asks for what is not so.
fn carries(text: &str, kind: Cue) -> bool {
    cues().iter().any(|(re, k)| *k == kind && re.is_match(text))
}

/// True when a question asks for what is not so ("What are pharmacists forbidden to do?"): its
/// answer restates a denied clause, rightly.
fn denies(question: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(forbid\w*|prohibit\w*|ban(s|ned)?|unable|fail\w*|lack\w*|refus\w*|exclud\w*|avoid\w*|prevent\w*|disallow\w*|without)\b")
            .expect("valid regex")
    });
    RE.is_match(question)
}

/// The answer does not deny what its fact states without a denial: one that says "not", "no",
/// "never", "cannot" (the negation cues) of a fact that says none, to a question that asks
/// nothing in the negative, says the opposite of its label ("Tidepool does not encrypt backups"
/// of "Tidepool encrypts backups"). A fact that denies in other words ("lacks", "fails",
/// "without") counts as denying. A sentence of the answer about its source ("The context does
/// not say how …", a meta reference as RS205 reads one) denies nothing of the fact.
fn not_negated(question: &str, claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    use unicode_segmentation::UnicodeSegmentation;
    let denying = claim
        .split_sentence_bounds()
        .find(|s| carries(s, Cue::Negation) && crate::wording::meta_reference_in(s, language).is_none());
    let Some(sentence) = denying else {
        return Ok(());
    };
    if language != Language::ENGLISH
        || carries(fact, Cue::Negation)
        || carries(question, Cue::Negation)
        || denies(fact)
        || denies(question)
    {
        return Ok(());
    }
    let cue = cues()
        .iter()
        .filter(|(_, k)| *k == Cue::Negation)
        .find_map(|(re, _)| re.find(sentence))
        .map_or_else(String::new, |m| m.as_str().to_string());
    Err(AnswerFault::Contradicts {
        cue,
        clause: claim.to_string(),
    })
}

/// The answer restates no clause the fact presents as an appearance, denies or rejects.
fn not_contradicted(question: &str, claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    if language != Language::ENGLISH {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let answer: HashSet<String> = analyzer.content_terms(claim).into_iter().collect();
    let answer_numbers = numbers(claim, language, false);
    for (re, kind) in cues() {
        if carries(claim, *kind) || carries(question, *kind) || (*kind == Cue::Negation && denies(question)) {
            continue;
        }
        for m in re.find_iter(fact) {
            let end = clause_end(fact, m.end());
            let clause = fact[m.end()..end].trim();
            let rest = format!("{} {}", &fact[..m.start()], &fact[end..]);
            let inside: HashSet<String> = analyzer.content_terms(clause).into_iter().collect();
            let outside: HashSet<String> = analyzer.content_terms(&rest).into_iter().collect();
            let shared_in = answer.intersection(&inside).count();
            let shared_out = answer.intersection(&outside).count();
            let only_in = answer
                .iter()
                .filter(|t| inside.contains(*t) && !outside.contains(*t))
                .count();
            let clause_numbers = numbers(clause, language, true);
            let rest_numbers = numbers(&rest, language, true);
            let number_only_in = answer_numbers
                .iter()
                .any(|n| clause_numbers.contains(n) && !rest_numbers.contains(n));
            if (only_in >= 2 || number_only_in) && shared_in >= shared_out {
                return Err(AnswerFault::Contradicts {
                    cue: m.as_str().to_string(),
                    clause: clause.to_string(),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_denial_of_what_the_fact_states_contradicts_it_but_a_sentence_about_the_source_does_not() {
        let fact = "Tidepool encrypts backups with AES-256 before they leave the host.";
        let q = "How does Tidepool protect backups?";
        let en = Language::ENGLISH;
        assert!(not_negated(q, "Tidepool does not encrypt backups.", fact, en).is_err());
        assert!(not_negated(q, "It encrypts them with AES-256.", fact, en).is_ok());
        let about_source = "It encrypts them with AES-256. The context does not say which mode.";
        assert!(not_negated(q, about_source, fact, en).is_ok());
        let both = "The context does not say which mode. Tidepool does not encrypt backups.";
        assert!(not_negated(q, both, fact, en).is_err());
    }

    #[test]
    fn an_answer_that_is_only_a_cross_reference_points_outside() {
        let fact =
            "Large-scale style preferences presented in {doc}`current_style` are very unlikely to change.";
        let q = "what are the current style preferences for the black code style";
        assert_eq!(
            answer_in_fact(q, "current_style", fact, Language::ENGLISH),
            Err(AnswerFault::PointsOutside {
                phrase: "current_style".into()
            })
        );
        assert_eq!(
            answer_in_fact(q, "very unlikely to change", fact, Language::ENGLISH),
            Ok(())
        );
        let points = |q: &str, answer: &str, fact: &str| {
            matches!(
                answer_in_fact(q, answer, fact, Language::ENGLISH),
                Err(AnswerFault::PointsOutside { .. })
            )
        };
        // A part of a code is another name: the rust book's `push` is not `push_str`.
        let fact = "We can grow a String by using the push_str method to append a string slice, as shown in Listing 8-15.";
        let q = "how can I append a string to a string in Rust";
        assert_eq!(
            answer_in_fact(
                q,
                "use push_str or push to append a string to a string in Rust",
                fact,
                Language::ENGLISH
            ),
            Err(AnswerFault::NotInFact {
                missing: "push".into()
            })
        );
        assert_eq!(
            answer_in_fact(q, "use the push_str method", fact, Language::ENGLISH),
            Ok(())
        );
        // The rust book's pointer ahead is no answer, unless the question asks which chapter.
        let fact = "We’ll discuss method syntax in Chapter 5, but because methods are a common feature in many programming languages, you’ve probably seen them before.";
        assert!(points(
            "what is the syntax for method in Rust",
            "method syntax in chapter 5",
            fact
        ));
        assert!(!points(
            "which chapter discusses method syntax",
            "chapter 5",
            fact
        ));
        // Flask's signals page: the answer only names the sections it points to.
        let fact =
            "Note the limitations described\nin :ref:`signals-sending` and :ref:`request-tearing-down`.";
        let q = "what are the limitations of context-local variables in Flask";
        assert!(points(q, "signals-sending and request-tearing-down", fact));
        // As the page has it (the second is a signal's name) and the model answered.
        let fact = "Note the limitations described\nin :ref:`signals-sending` and the \
                    :data:`~flask.request_tearing_down` signal.";
        assert!(points(
            q,
            "described in signals-sending and request_tearing_down",
            fact
        ));
        // Click's quickstart: the answer is a cross-reference.
        let fact = "I strongly recommend to have a look at the :ref:`setuptools-integration`\nchapter before reading the rest.";
        assert!(points(
            "quickstart setuptools integration",
            "read :ref:`setuptools-integration` chapter",
            fact
        ));
        // Asked where, a place is the answer.
        let fact = "Timestamps are written in the format described in RFC 3339.";
        assert_eq!(
            answer_in_fact(
                "where is the timestamp format described?",
                "described in RFC 3339",
                fact,
                Language::ENGLISH
            ),
            Ok(())
        );
        let fact = "See [the retention page](retention.md) for how long snapshots are kept.";
        assert!(
            answer_in_fact(
                "Where is retention explained?",
                "retention.md",
                fact,
                Language::ENGLISH
            )
            .is_err()
        );
    }

    #[test]
    fn an_answer_pointing_at_the_following_block_points_outside() {
        let q = "what do I add to my kakrc to format with Black?";
        assert_eq!(
            names_its_referent(q, "Add the following hook to your kakrc", Language::ENGLISH),
            Err(AnswerFault::PointsOutside {
                phrase: "the following hook".into()
            })
        );
        // A question about the following steps may be answered so.
        let q = "what do the following steps do";
        assert_eq!(
            names_its_referent(q, "the following steps install the agent", Language::ENGLISH),
            Ok(())
        );
    }

    #[test]
    fn other_than_what_points_outside() {
        // Jinja's, marked wrong twice: other than the sandbox's.
        let q = "what should I do if I want to restrict the output of a rendered template";
        assert_eq!(
            names_its_referent(q, "do other postprocessing", Language::ENGLISH),
            Err(AnswerFault::PointsOutside {
                phrase: "other postprocessing".into()
            })
        );
        for (q, a) in [
            ("what other options does it take", "other options are ignored"),
            ("how do the two hooks relate", "they call each other"),
            ("what else can I use", "any tool other than pip"),
        ] {
            assert_eq!(names_its_referent(q, a, Language::ENGLISH), Ok(()), "{a}");
        }
    }

    #[test]
    fn an_answer_made_of_link_texts_points_outside() {
        // The sample corpus's overview, as the demo of 2026-12-02 answered it.
        let fact = "If you are new to Tidepool, read [Installation](install.md) and then follow \
                    [Your first backup](guides/first-backup.md). Operators planning capacity should \
                    read [Retention policies](retention.md) and [Configuration](configuration.md).";
        let en = Language::ENGLISH;
        for answer in ["read installation", "retention policies and configuration"] {
            assert!(
                matches!(
                    answer_in_fact("tidepool start", answer, fact, en),
                    Err(AnswerFault::PointsOutside { .. })
                ),
                "{answer}"
            );
        }
        // One link text may be the answer itself.
        let fact = "Single sign-on is included in the [Business](pricing.md) plan only.";
        assert_eq!(
            answer_in_fact("which plan includes single sign-on", "Business", fact, en),
            Ok(())
        );
    }

    #[test]
    fn a_code_the_question_names_and_the_label_lacks_is_found() {
        let fact = "In main, we’ve defined a Point that has an i32 for x (with value 5) and an f64 for y (with value 10.4).";
        assert_eq!(
            code_outside("what is the value of p3 in the main function", fact),
            Some("p3".into())
        );
        assert_eq!(
            code_outside("what is the type of x in the Point of main", fact),
            None
        );
        // Names with capitals inside are left to the label's heading; link targets count.
        let fact = "Go to `Preferences or Settings -> Tools -> Black` and configure _Black_ to your liking.";
        assert_eq!(
            code_outside("how do I configure Black in PyCharm/IntelliJ IDEA", fact),
            None
        );
        let fact = "Use [python-black](https://atom.io/packages/python-black).";
        assert_eq!(code_outside("atom.io python-black", fact), None);
        assert_eq!(
            code_outside("what was the population around the 2nd century", fact),
            None
        );
        assert_eq!(code_outside("who lived on 7th Avenue in the 1950s", fact), None);
        assert_eq!(code_outside("what does p2nd hold", fact).as_deref(), Some("p2nd"));
        assert_eq!(
            code_outside("what does BLACK_CACHE_DIR override", "`BLACK_CACHE_DIR` wins."),
            None
        );
    }

    const EN: Language = Language::ENGLISH;

    /// The Rust book, ch08-02 "Storage of UTF-8 Encoded Text with Strings", on `+`.
    const CONCAT: &str = "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.";

    /// The Rust book, ch09-03 "To panic! or Not to panic!": announces an example, gives none.
    const ANNOUNCES: &str = "We’ll work through an example of what we mean in “Encoding States and Behavior as Types” in Chapter 18.";

    #[test]
    fn an_answer_the_fact_calls_an_appearance_contradicts_it() {
        let got = answer_in_fact(
            "What happens when you concatenate two strings in Rust?",
            "The result is a new string that contains the contents of both original strings",
            CONCAT,
            EN,
        );
        assert!(
            matches!(&got, Err(AnswerFault::Contradicts { cue, .. }) if cue == "looks like"),
            "{got:?}"
        );
        for right in [
            "It takes ownership of s1, appends a copy of the contents of s2 and returns the result",
            "s1 is moved into the result; s2 is copied",
        ] {
            assert_eq!(
                answer_in_fact("What does `let s3 = s1 + &s2;` do?", right, CONCAT, EN),
                Ok(()),
                "{right}"
            );
        }
    }

    #[test]
    fn a_part_of_a_short_answer_the_fact_does_not_say_is_not_in_it() {
        // Flask's docs, as the default model answered them (marked wrong by hand); attrs' answer
        // cut to its first parts (the model's ran to 30 words, which are read as a whole).
        let hosts = "When deploying your application, set :data:`TRUSTED_HOSTS` to restrict what\nvalues the ``Host`` header may be.";
        let got = answer_in_fact(
            "what is the purpose of the `TRUSTED_HOSTS` setting",
            "restricts what values the `Host` header may be when deploying your application, ensuring secure communication with the server.",
            hosts,
            EN,
        );
        assert!(
            matches!(&got, Err(AnswerFault::NotInFact { missing }) if missing.starts_with("ensuring secure")),
            "{got:?}"
        );
        let init = "`__attrs_init__` is written and attached to your class *instead* of `__init__`, if *attrs* is told to not write one.";
        let got = answer_in_fact(
            "what is the purpose of `__attrs_init__`",
            "a special method called when an instance of a class is created, used instead of the `__init__` method",
            init,
            EN,
        );
        assert!(matches!(got, Err(AnswerFault::NotInFact { .. })), "{got:?}");
        // A longer reply may explain, but not with a part of three claims of its own (the
        // model's whole answer, marked wrong by hand) …
        let long = "a special method called when an instance of a class is created, used to initialize attributes of the class, instead of the `__init__` method if `attrs` is set,";
        let got = answer_in_fact("what is the purpose of `__attrs_init__`", long, init, EN);
        assert!(
            matches!(&got, Err(AnswerFault::NotInFact { missing }) if missing.starts_with("a special method")),
            "{got:?}"
        );
        // … while one that rewords a part in two words of its own passes.
        let long = "it is the method attrs writes and attaches to your class in place of `__init__`, when attrs is told not to write an `__init__` of its own, so your own init can call it";
        assert_eq!(
            answer_in_fact("what is the purpose of `__attrs_init__`", long, init, EN),
            Ok(())
        );
        // Every part said by the fact, in a list the commas split: kept.
        let app = "``--app`` has three parts: an optional path that sets the current working directory, a Python file or dotted import path, and an optional variable name of the instance or factory.";
        assert_eq!(
            answer_in_fact(
                "what does the `--app` option do",
                "sets the current working directory, Python file or dotted import path, and optional variable name",
                app,
                EN,
            ),
            Ok(())
        );
    }

    #[test]
    fn an_answer_the_fact_does_not_hold_is_not_in_it() {
        let got = answer_in_fact(
            "What is an example of the bad state in error handling?",
            "user entering data in the wrong format",
            ANNOUNCES,
            EN,
        );
        assert!(matches!(got, Err(AnswerFault::NotInFact { .. })), "{got:?}");
        let fact = "Since 2.4.0, `api.token_ttl` now defaults to 24 hours; it was 7 days.";
        let missing = |a: &str| match answer_in_fact("How long do API tokens live?", a, fact, EN) {
            Err(AnswerFault::NotInFact { missing }) => missing,
            other => panic!("{a}: {other:?}"),
        };
        assert_eq!(missing("48 hours"), "48");
        assert_eq!(missing("`api.session_ttl` of 24 hours"), "api.session_ttl");
        assert_eq!(missing("24 hours on the Enterprise plan"), "Enterprise");
        // Two-character codes: the rust book's type parameters, one the label does not name.
        let fact = "The method creates a new Point instance with the x value from the self Point (of type X1) and the y value from the passed-in Point (of type Y2).";
        let got = answer_in_fact(
            "What are the generic types used in Listing 10-11",
            "X1 and Y1 for Point, X2 and Y2 for mixup method signature",
            fact,
            EN,
        );
        assert!(
            matches!(got, Err(AnswerFault::NotInFact { ref missing }) if missing == "Y1"),
            "{got:?}"
        );
        assert_eq!(
            answer_in_fact("What types do x and y take?", "X1 and Y2", fact, EN),
            Ok(())
        );
    }

    #[test]
    fn an_amount_takes_its_unit_from_its_own_number() {
        let fact = "| `agent.bandwidth_limit` | `\"0\"` | Upload limit, e.g. `\"20MiB/s\"`; `\"0\"` means unlimited |";
        assert_eq!(
            answer_in_fact("agent bandwidth limit default", "0 MiB/s", fact, EN),
            Err(AnswerFault::NotInFact {
                missing: "0 MiB/s".into()
            })
        );
        assert_eq!(unit_moved("20 MiB/s", fact, EN), None);
        assert_eq!(unit_moved("5 of them", "5 agents, 3 of them idle", EN), None);
        let es = Language::parse("es").unwrap();
        assert_eq!(
            unit_moved("$5.000 al mes", "$5.000 mensuales; 1.000 al día", es),
            None
        );
        let fact = "Snapshots are kept 7-day on Free and 30 days on Team.";
        assert!(answer_in_fact("free plan retention", "7 days", fact, EN).is_ok());
        assert!(answer_in_fact("team plan retention", "30 days", fact, EN).is_ok());
        // A unit the fact never writes is the answer's own wording.
        assert!(
            answer_in_fact(
                "how long is the grace period",
                "3 days",
                "The grace period is 3 business-days long.",
                EN
            )
            .is_ok()
        );
    }

    #[test]
    fn true_answers_pass_reworded_or_numbered_or_after_yes_or_no() {
        let fact = "On the Community plan, snapshots older than thirty days are forgotten at the next prune.";
        for (q, a) in [
            ("How long are snapshots kept on the Community plan?", "30 days"),
            (
                "How long are snapshots kept on the Community plan?",
                "thirty days",
            ),
            ("When are old Community snapshots forgotten?", "At the next prune"),
            (
                "Are Community snapshots kept for a year?",
                "No; they are forgotten after thirty days",
            ),
            ("Are Community snapshots kept forever?", "No."),
            (
                "What happens to old snapshots on the Community plan?",
                "They are forgotten at the next prune",
            ),
        ] {
            assert_eq!(answer_in_fact(q, a, fact, EN), Ok(()), "{a}");
        }
        let ports = "No port needs to be opened on the machines being backed up.";
        assert_eq!(
            answer_in_fact(
                "Do backed-up machines need a port opened?",
                "No port needs to be opened on them",
                ports,
                EN
            ),
            Ok(())
        );
        assert_eq!(
            answer_in_fact("Do backed-up machines need a port opened?", "No.", ports, EN),
            Ok(())
        );
        assert!(matches!(
            answer_in_fact(
                "Where must a port be opened?",
                "On the machines being backed up",
                ports,
                EN
            ),
            Err(AnswerFault::Contradicts { .. })
        ));
        let ttl = "`api.token_ttl` now defaults to 24 hours instead of 7 days.";
        assert!(matches!(
            answer_in_fact("How long do API tokens live by default?", "7 days", ttl, EN),
            Err(AnswerFault::Contradicts { .. })
        ));
        assert_eq!(
            answer_in_fact("How long do API tokens live by default?", "24 hours", ttl, EN),
            Ok(())
        );
    }

    #[test]
    fn a_concession_is_no_cue_and_the_neighbouring_clause_is_beyond_words() {
        let fact = "Although the Community plan is free, it keeps snapshots for 30 days only.";
        assert_eq!(
            answer_in_fact("What does the Community plan cost?", "It is free", fact, EN),
            Ok(())
        );
        // Every word is in the fact: the judge's case, not this one's.
        assert_eq!(
            answer_in_fact(
                "How did Jonas Øvergaard pay for the Team plan?",
                "by deleting the wrong folder",
                "The Team plan paid for itself the first time someone deleted the wrong folder.",
                EN
            ),
            Ok(())
        );
    }
}
