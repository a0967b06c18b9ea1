//! Checks a candidate must pass before it is written, and the reasons it can fail. The LLM is
//! not trusted for offsets: its quote is searched for in the document (exactly, then ignoring
//! white space and case, then fuzzily) and the label's span and quote are set from where the
//! text really is. Questions that repeat an existing or a new question are dropped.

use std::collections::{BTreeSet, HashSet};
use std::fmt;

use serde::Serialize;

use crate::chunk::Chunk;
use crate::corpus::Document;
use crate::lang::{self, Language, questions};
use crate::locate::locate;
use crate::testset::Label;
use crate::text::words;

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
    /// Says the same eight words twice ("What is X, and what is Y, and what is X?").
    RepeatsItself,
    /// Names the product of the prompts' worked example, which the corpus does not.
    CopiesExample,
    /// Refers to what the writer was shown ("the passage", "the given text", "fact 1", "the
    /// documentation"): meaningless to a user, who has seen none of it.
    MetaReference,
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
    /// A part of the answer that its fact does not say.
    UnsupportedAnswer,
    /// An "identifier" question that does not give its identifier as written (or whose label
    /// does not hold it).
    IdentifierMissing,
    /// A "comparison" question that does not name both things, or a side whose label does not
    /// hold its thing and its value.
    SidesMissing,
    /// A "multi-hop" question that names its bridge (the first hop is not needed), or whose
    /// description of it does not come from the first hop's fact.
    BridgeNamed,
    /// A "multi-hop" question for which keyword search ranks the second hop's passage first:
    /// a lookup in disguise.
    SecondHopFirst,
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
            Rejection::UnsupportedAnswer => "unsupported_answer",
            Rejection::IdentifierMissing => "identifier_missing",
            Rejection::SidesMissing => "sides_missing",
            Rejection::BridgeNamed => "bridge_named",
            Rejection::SecondHopFirst => "second_hop_first",
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

/// Words a question may open with when it does not end in `?`.
const QUESTION_OPENERS: &[&str] = &[
    "what", "which", "how", "when", "where", "who", "whom", "whose", "why", "can", "could", "does", "do",
    "did", "is", "are", "was", "were", "should", "will", "would", "may", "has", "have",
];

/// Checks the question's form: 3 to 40 words, ending in `?` or opening with a question word, and
/// no reference to what its writer was shown; returns the trimmed question. A weak question
/// (yes/no, some copied words) passes: the auditor flags those; this only turns away what is not
/// a usable question at all.
/// The question must be in `language` (its passage's): one the detector reliably places in
/// another is turned away.
pub fn check_question(question: &str, language: Language) -> Result<String, Rejection> {
    let q = question.trim().trim_matches('"').trim();
    let w = words(q);
    let n = crate::text::word_count(q);
    if w.is_empty() || !(3..=40).contains(&n) {
        return Err(Rejection::NotAQuestion);
    }
    let opener = w[0].to_lowercase();
    let opens = match questions::wording(language) {
        Some(t) if language != Language::ENGLISH => t.opens_question(q),
        _ => QUESTION_OPENERS.contains(&opener.as_str()),
    };
    if !q.ends_with(['?', '？']) && !opens {
        return Err(Rejection::NotAQuestion);
    }
    // Two questions in one ("What is X? How does it affect Y?"), or a question followed by
    // more text ("… ? The answer is …").
    if q.split(['?', '？']).filter(|p| words(p).len() >= 2).count() > 1 {
        return Err(Rejection::SeveralQuestions);
    }
    if repeats_itself(&w) {
        return Err(Rejection::RepeatsItself);
    }
    if crate::wording::meta_reference_in(q, language).is_some() || prompt_words().is_match(q) {
        return Err(Rejection::MetaReference);
    }
    if lang::detect_question(q, None, Some(language)) != language {
        return Err(Rejection::WrongLanguage);
    }
    Ok(q.to_string())
}

/// Checks a search query's form: 2 to 10 words, one line, not a sentence (no full stop), no
/// reference to what its writer was shown; returns it trimmed, without a question mark.
pub fn check_query(query: &str, language: Language) -> Result<String, Rejection> {
    let q = query
        .trim()
        .trim_matches('"')
        .trim()
        .trim_end_matches(['?', '？'])
        .trim();
    let n = crate::text::word_count(q);
    if !(2..=10).contains(&n) || q.contains(['\n', '.']) && q.ends_with('.') {
        return Err(Rejection::NotAQuestion);
    }
    if crate::wording::meta_reference_in(q, language).is_some() || prompt_words().is_match(q) {
        return Err(Rejection::MetaReference);
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

/// Words of the generation prompts that a question repeating them leaks: a user never saw a
/// "fact 2", a "key sentence" or "the documentation".
fn prompt_words() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(facts?\s*[ab1-9]\b|(the|this|that|these|given|provided|above)\s+(facts?|statements?|documentation|sentences?|topic|information)\b|key sentence|neighbou?r|answer_\w+|question_\w+|according to|based on the|mentioned (above|in))",
        )
        .expect("valid regex")
    })
}

/// Consecutive words copied from its fact from which a question is turned away: a question
/// written beside its source copies phrases (16% of crowd questions copy 5 or more words, 6% of
/// real queries do), and a set of them flatters keyword search. The audit's RS101 counts such
/// runs.
pub const COPY_LIMIT: usize = 5;

/// Content words such a run needs (RS101's default): a name or a term copied whole ("the Hyde
/// Park Day School", "a peer-to-peer network") is what anyone would type, not lifted wording.
pub const COPY_CONTENT: usize = 3;

/// Rejects a question that gives its answer away or copies [`COPY_LIMIT`] or more words of
/// `source` in a row ([`COPY_CONTENT`] of them content words, as the audit's RS101 counts).
pub fn check_wording(
    question: &str,
    answer: &str,
    source: &str,
    language: Language,
) -> Result<(), Rejection> {
    if crate::wording::restates_answer_in(question, answer, language) {
        return Err(Rejection::RestatesAnswer);
    }
    let copied = crate::audit::overlap::copied_runs(question, source, 1, language.analyzer())
        .iter()
        .any(|r| crate::audit::overlap::is_copied_phrase(question, r, COPY_LIMIT, COPY_CONTENT, language));
    if copied {
        return Err(Rejection::CopiesSource);
    }
    Ok(())
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

/// Jaccard similarity of word-bigram sets at or above which two questions are near-duplicates.
pub const NEAR_DUPLICATE_JACCARD: f64 = 0.6;

/// Questions seen so far, normalised, to reject repeats.
#[derive(Debug, Default, Clone)]
pub struct Dedup {
    exact: HashSet<String>,
    shingles: Vec<BTreeSet<String>>,
}

impl Dedup {
    /// Checks `question` against everything added; does not add it.
    pub fn check(&self, question: &str) -> Result<(), Rejection> {
        let norm = words(question).join(" ");
        if self.exact.contains(&norm) {
            return Err(Rejection::Duplicate);
        }
        let s = shingles(question);
        if self
            .shingles
            .iter()
            .any(|o| jaccard(o, &s) >= NEAR_DUPLICATE_JACCARD)
        {
            return Err(Rejection::NearDuplicate);
        }
        Ok(())
    }

    /// Remembers `question`.
    pub fn add(&mut self, question: &str) {
        self.exact.insert(words(question).join(" "));
        self.shingles.push(shingles(question));
    }
}

/// Word bigrams of the lower-cased words (the single word for one-word questions).
fn shingles(text: &str) -> BTreeSet<String> {
    let w = words(text);
    if w.len() < 2 {
        return w.into_iter().collect();
    }
    w.windows(2).map(|p| format!("{} {}", p[0], p[1])).collect()
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let inter = a.intersection(b).count();
    let union = a.len() + b.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert!(
            check_question(
                "What is the configuration option for S3-compatible storage, and what is the configuration option for OpenID Connect?",
                Language::ENGLISH
            )
            .is_ok()
        );
        for meta in [
            "What does the passage say about keys?",
            "According to fact 2, which port does the server use?",
            "What is the purpose of the recovery kit in the given text?",
            "What is the key sentence about TP-412 and how can it be resolved?",
            "What are the labels used in the documentation?",
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
