//! How the checks read a bridge (a multi-hop case): its question, answer and bridge, the text
//! of its first and last hops, and hop 2's own question where the case records it. One reading
//! for the multi-hop kind's construction (hop facts), the pipeline and `ragsynth check` (hop
//! labels' text), so the three apply one definition. Not a check: the bridge rows
//! (RS712–RS716) read through it.

use std::collections::HashSet;

use super::{is_only, labels_text, says};
use crate::generate::candidate::{Accepted, Shape};
use crate::generate::names::identifiers;
use crate::lang::Language;
use crate::testset::{Hop, Label};
use crate::workspace::{ChunkedCorpus, Evidence};

/// Whether `fact` does not say `answer`, nor most of its content words (an empty answer is not
/// said).
pub(crate) fn not_said_by(answer: &str, fact: &str, language: Language) -> bool {
    let words = language.analyzer();
    let set = |t: &str| words.content_terms(t).into_iter().collect::<HashSet<String>>();
    let answer = answer.trim();
    answer.is_empty() || !says(fact, answer, language) && !mostly(&set(answer), &set(fact))
}

/// Whether hop 1's fact says `answer` and hop 2's does not.
pub(crate) fn said_by_first_only(answer: &str, fact_1: &str, fact_2: &str, language: Language) -> bool {
    let answer = answer.trim();
    says(fact_1, answer, language) && !says(fact_2, answer, language)
}

/// A bridge case as its checks read it — in the construction (hop facts), in the pipeline and
/// in `ragsynth check` (hop labels' text) — so the three read one definition: the question, its
/// answer, the bridge, each hop's text, and hop 2's own question where the case records it.
pub struct BridgeCase<'a> {
    /// The question.
    pub question: &'a str,
    /// The answer.
    pub answer: &'a str,
    /// The thing hop 1 finds and hop 2 is about.
    pub bridge: &'a str,
    /// Hop 1's text.
    pub first: std::borrow::Cow<'a, str>,
    /// The last hop's text.
    pub second: std::borrow::Cow<'a, str>,
    /// Hop 2's own question, naming the bridge.
    pub second_question: Option<&'a str>,
    /// The language it is read in.
    pub language: Language,
}

impl<'a> BridgeCase<'a> {
    /// The bridge of a case with two hops or more, each hop's text its labels'.
    pub fn of(a: &'a Accepted) -> Option<BridgeCase<'a>> {
        let Shape::Bridge { hops, bridge } = &a.shape else {
            return None;
        };
        let (first, last) = (hops.first()?, hops.last()?);
        if hops.len() < 2 {
            return None;
        }
        Some(BridgeCase {
            question: &a.question,
            answer: a.answer.as_deref().unwrap_or(""),
            bridge,
            first: labels_text(&hop_labels(a, first)).into(),
            second: labels_text(&hop_labels(a, last)).into(),
            second_question: Some(last.question.as_str()).filter(|q| !q.trim().is_empty()),
            language: a.language,
        })
    }

    /// The question names the bridge: as written, or every content word of it ([`names`]). One
    /// word it shares is not naming it: a "main word" reading (a capitalised word, or any word of a
    /// name without one) turned away 9 of HotpotQA's 36 people-written bridges (a surname two
    /// people share, "University", "Conference") and was dropped.
    pub fn names_bridge(&self) -> bool {
        names(self.question, self.bridge, self.language)
    }

    /// The question says something only hop 1's text says: it needs that text to find the thing.
    pub fn needs_first_hop(&self) -> bool {
        let words = self.language.analyzer();
        let set = |t: &str| words.content_terms(t).into_iter().collect::<HashSet<String>>();
        let (t1, t2, tq) = (set(&self.first), set(&self.second), set(self.question));
        t1.difference(&t2).any(|t| tq.contains(t))
    }

    /// What is wrong when the answer is not hop 2's: its text does not say it, or the answer is
    /// only the bridge, in hop 2's question's words ("edit `/etc/tidepool/agent.toml` on the
    /// agent": the bridge the question was to hide).
    pub fn answer_not_from_second_hop(&self) -> Option<String> {
        if not_said_by(self.answer, &self.second, self.language) {
            return Some("the last hop's passage does not say the answer".into());
        }
        let only = self
            .second_question
            .is_some_and(|q| is_only(self.answer.trim(), q, self.bridge, self.language));
        only.then(|| "the answer is the bridge itself".into())
    }

    /// What is wrong when hop 1 gives the answer: hop 1's text says it and hop 2's does not, or
    /// three or more of its content words, most of them, are hop 1's and not the bridge's (two
    /// passages about one thing share a word or two: "snapshot", "hold").
    pub fn answer_from_first_hop(&self) -> Option<String> {
        if said_by_first_only(self.answer, &self.first, &self.second, self.language) {
            return Some("the first hop's passage says the answer, the last's does not".into());
        }
        let words = self.language.analyzer();
        let set = |t: &str| words.content_terms(t).into_iter().collect::<HashSet<String>>();
        let (said, t1, own) = (set(self.answer), set(&self.first), set(self.bridge));
        let from_hop_1 = said
            .iter()
            .filter(|t| t1.contains(*t) && !own.contains(*t))
            .count();
        (from_hop_1 >= 3 && 2 * from_hop_1 > said.len())
            .then(|| format!("{from_hop_1} of the answer's words are the first hop's"))
    }

    /// Keyword search reaches the last hop first: the question names a code only its chunk has,
    /// or BM25 ranks its chunk (or paragraph) first ([`reaches_second_first`]).
    pub fn reaches_second_first(&self, a: &Accepted, chunks: &ChunkedCorpus) -> Option<String> {
        let Shape::Bridge { hops, .. } = &a.shape else {
            return None;
        };
        let (first, last) = (hop_labels(a, hops.first()?), hop_labels(a, hops.last()?));
        let text = |labels: &[Label]| chunks.labelled_text(labels);
        if names_hop_2s_code(self.question, self.bridge, &text(&first), &text(&last)) {
            return Some("names a code only the last hop's passage has".into());
        }
        let (chunk, label) = (*chunks.labelled(&last).first()?, last.first()?);
        reaches_second_first(chunks, self.question, self.language, chunk, label)
            .then(|| "keyword search ranks the last hop's passage first".into())
    }
}

/// The labels of one hop of a case.
pub(crate) fn hop_labels(a: &Accepted, hop: &Hop) -> Vec<Label> {
    hop.relevant
        .iter()
        .filter_map(|&i| a.relevant.get(i).cloned())
        .collect()
}

/// Whether `text` names `thing`: as written (any case), or every content word of it, or every
/// part of an identifier spelled out ("field transformation" for `field_transformer`).
pub(crate) fn names(text: &str, thing: &str, language: Language) -> bool {
    let words = language.analyzer();
    let need: HashSet<String> = words.content_terms(thing).into_iter().collect();
    let have: HashSet<String> = words.content_terms(text).into_iter().collect();
    let parts: Vec<&str> = thing
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| p.len() >= 3)
        .collect();
    let spelled: HashSet<String> = words.content_terms(&parts.join(" ")).into_iter().collect();
    crate::text::contains_folded(text, thing)
        || (!need.is_empty() && need.is_subset(&have))
        || (parts.len() >= 2 && spelled.len() >= 2 && spelled.is_subset(&have))
}

/// Whether `question` names an identifier of hop 2's passage that hop 1's does not name and
/// that is not the bridge.
pub(crate) fn names_hop_2s_code(question: &str, thing: &str, passage_1: &str, passage_2: &str) -> bool {
    let same = crate::text::fold_eq;
    let (first, second) = (identifiers(passage_1), identifiers(passage_2));
    identifiers(question).iter().any(|id| {
        second.iter().any(|s| same(s, id)) && !first.iter().any(|f| same(f, id)) && !same(id, thing)
    })
}

/// More than half of `part`'s terms are in `of`.
pub(crate) fn mostly(part: &HashSet<String>, of: &HashSet<String>) -> bool {
    !part.is_empty() && part.iter().filter(|t| of.contains(*t)).count() * 2 > part.len()
}

/// Whether keyword search with the question alone ranks hop 2's chunk first, or the paragraph
/// its label stands in first among the corpus's paragraphs: then a retriever reaches the
/// answer without the first hop, and the question is a lookup in disguise.
pub(crate) fn reaches_second_first(
    chunks: &ChunkedCorpus,
    question: &str,
    language: Language,
    second: usize,
    label: &crate::testset::Label,
) -> bool {
    let chunk_first = chunks
        .bm25()
        .search(question, 1)
        .first()
        .is_some_and(|h| h.doc == second);
    let paragraph_first =
        || chunks.passage_rank(question, language, std::slice::from_ref(label), Evidence::Any) == Some(1);
    // Where each chunk is one paragraph the chunk's rank said it already.
    chunk_first || (!chunks.one_grain() && paragraph_first())
}
