//! Lexical overlap between a question and its labelled source: the figures that tell a question
//! written while looking at the text from one a user would type. The audit's overlap rules read
//! them, and `generate` turns away a question that copies its source by the same definition
//! ([`copied_phrase`]) as RS101 flags it.
//!
//! Plain containment does not separate them (short real queries are all key terms: 0.72 on
//! TREC DL vs 0.69 for crowd questions on XQuAD), but copied phrases do (a run of 4+ question
//! tokens copied from the passage: 5% of real queries, 31% of crowd questions). So the checks
//! lean on [`copied_runs`] and use containment only together with other signals.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde::Serialize;

use crate::lang::{Analyzer, Language};
use crate::text::tokens;

/// A phrase of the question found verbatim (as consecutive lower-cased words) in the source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopiedRun {
    /// Byte range of the phrase in the question (from its first to the end of its last word).
    pub question: Range<usize>,
    /// Byte range of the phrase in the source.
    pub source: Range<usize>,
    /// Number of words in the run.
    pub tokens: usize,
    /// Number of those words that are not stopwords.
    pub content_tokens: usize,
}

/// Every maximal run of at least `min_len` consecutive question words that also occur
/// consecutively in `source`, longest first, not overlapping each other in the question.
/// Words are [`crate::text::tokens`] (lower-cased, punctuation dropped), so "Refund, within 14
/// days" matches "refund within 14 days".
pub fn copied_runs(question: &str, source: &str, min_len: usize, words: &Analyzer) -> Vec<CopiedRun> {
    let q = tokens(question);
    let s = tokens(source);
    if q.is_empty() || s.is_empty() {
        return Vec::new();
    }
    let mut positions: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, t) in s.iter().enumerate() {
        positions.entry(t.norm.as_str()).or_default().push(j);
    }
    // Longest common substring over words, one question word at a time: `prev[j]` is the length
    // of the common run ending at question word i-1 and source word j.
    let mut prev: HashMap<usize, usize> = HashMap::new();
    let mut candidates: Vec<(usize, usize, usize)> = Vec::new(); // (q_end, s_end, len), ends inclusive
    for (i, t) in q.iter().enumerate() {
        let mut cur: HashMap<usize, usize> = HashMap::new();
        if let Some(js) = positions.get(t.norm.as_str()) {
            for &j in js {
                let len = if j > 0 {
                    prev.get(&(j - 1)).copied().unwrap_or(0) + 1
                } else {
                    1
                };
                cur.insert(j, len);
            }
        }
        // A run that does not continue into this word is maximal.
        for (&j, &len) in &prev {
            if len >= min_len.max(1) && !cur.contains_key(&(j + 1)) {
                candidates.push((i - 1, j, len));
            }
        }
        prev = cur;
    }
    for (&j, &len) in &prev {
        if len >= min_len.max(1) {
            candidates.push((q.len() - 1, j, len));
        }
    }
    candidates.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    // A name the source capitalises inside its sentences is a name however the question
    // writes it: users type "the black code style" of "the _Black_ code style".
    let named = if words.language().capitalises_nouns() {
        vec![false; s.len()]
    } else {
        names(source, &s)
    };
    let mut taken = vec![false; q.len()];
    let mut runs = Vec::new();
    for (qe, se, len) in candidates {
        let qs = qe + 1 - len;
        if taken[qs..=qe].iter().any(|&t| t) {
            continue;
        }
        taken[qs..=qe].iter_mut().for_each(|t| *t = true);
        let ss = se + 1 - len;
        let content_tokens = (0..len)
            .filter(|&k| !words.is_stopword(&q[qs + k].norm) && !named[ss + k])
            .count();
        runs.push(CopiedRun {
            question: q[qs].byte..q[qe].byte + q[qe].raw.len(),
            source: s[ss].byte..s[se].byte + s[se].raw.len(),
            tokens: len,
            content_tokens,
        });
    }
    runs
}

/// Per token of `text`, whether it is a name: written with a capital inside a sentence of its
/// prose (the last character before it that is not a space or a mark of emphasis is a letter, a
/// digit or a comma), or, in a title, a word the prose writes so. A capital that opens a
/// sentence, a line, a list item or a table cell marks no name, and a title's other words (a
/// line whose words are mostly capitalised: "1.2 Issues facing Enterprise Adoption of
/// Blockchain Technology") are its wording. Only the word where it stands counts: "the
/// Scottish National Party" makes no name of "the party is the largest".
fn names(text: &str, tokens: &[crate::text::Token<'_>]) -> Vec<bool> {
    let capital = |t: &crate::text::Token<'_>| t.raw.chars().any(char::is_uppercase);
    let mut named = vec![false; tokens.len()];
    let mut titles = Vec::new();
    let mut prose = HashSet::new();
    let (mut line_start, mut next) = (0, 0);
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let first = next;
        while next < tokens.len() && tokens[next].byte < line_end {
            next += 1;
        }
        let words: Vec<usize> = (first..next)
            .filter(|&i| tokens[i].raw.chars().any(char::is_alphabetic))
            .collect();
        let capitalised = words
            .iter()
            .filter(|&&i| {
                tokens[i]
                    .raw
                    .trim_start_matches(|c: char| !c.is_alphanumeric())
                    .starts_with(char::is_uppercase)
            })
            .count();
        if line.trim_start().starts_with('#') || capitalised * 5 > words.len() * 3 {
            titles.extend(words.into_iter().filter(|&i| capital(&tokens[i])));
        } else {
            for i in words.into_iter().filter(|&i| capital(&tokens[i])) {
                let after_word = text[..tokens[i].byte]
                    .chars()
                    .rev()
                    .find(|c| !c.is_whitespace() && !matches!(c, '_' | '*' | '`' | '"' | '\'' | '“' | '‘'))
                    .is_some_and(|c| c.is_alphanumeric() || c == ',');
                if after_word {
                    named[i] = true;
                    prose.insert(bare(&tokens[i].norm));
                }
            }
        }
        line_start = line_end;
    }
    for i in titles {
        named[i] = prose.contains(bare(&tokens[i].norm));
    }
    named
}

/// A word without the marks of emphasis around it ("_black_" → "black").
fn bare(norm: &str) -> &str {
    norm.trim_matches(|c: char| !c.is_alphanumeric())
}

/// Shortest copied run, in words, that counts as copied wording: RS101's default `copied_run`,
/// and `generate` turns such a question away. Calibrated on TREC DL 2020 real queries against
/// XQuAD crowd questions: runs of 4 words with 3 content words copy 3.8% of real queries and
/// 22.8% of crowd questions; runs of 5 the same 3.8% and only 14.6%. With the names the
/// source capitalises left out of the content words, 4 words still part them best (3.8% vs
/// 12.4%; 5 words 3.8% vs 8.2%).
pub const COPIED_RUN: usize = 4;

/// Content words such a run needs: RS101's default `copied_run_content`.
pub const COPIED_RUN_CONTENT: usize = 3;

/// The first run of `question` copied from `source` that is copied wording at the defaults
/// ([`COPIED_RUN`], [`COPIED_RUN_CONTENT`]), as RS101 reads it: `source` must be what the audit
/// compares against, the text of the chunks the case's labels lie in
/// ([`crate::workspace::ChunkedCorpus::labelled_text`]).
pub fn copied_phrase(question: &str, source: &str, language: Language) -> Option<CopiedRun> {
    copied_runs(question, source, 1, language.analyzer())
        .into_iter()
        .find(|r| is_copied_phrase(question, r, COPIED_RUN, COPIED_RUN_CONTENT, language))
}

/// Whether a copied run is copied wording: at least `min_words` words, `min_content` of them
/// content words, once names and compounds are set apart ([`own_wording`]). In a script
/// without spaces, lengths are characters counted as words at
/// [`Language::copied_chars_per_word`]. RS101 flags such a run; `generate` turns its question
/// away.
pub fn is_copied_phrase(
    question: &str,
    run: &CopiedRun,
    min_words: usize,
    min_content: usize,
    language: Language,
) -> bool {
    let (words, content) = own_wording(question, run.question.clone(), language.analyzer());
    let (words, content) = if language.unspaced() {
        let per_word = language.copied_chars_per_word();
        (as_words(words, per_word), as_words(content, per_word))
    } else {
        (words.min(run.tokens), content.min(run.content_tokens))
    };
    words >= min_words && content >= min_content
}

/// A run's length as a finding says it: "5 words", or "9 characters" in a script without
/// spaces.
pub fn run_length(run: &CopiedRun, language: Language) -> String {
    if language.unspaced() {
        format!("{} characters", run.tokens + 1)
    } else {
        format!("{} words", run.tokens)
    }
}

/// Words a run of `bigrams` character bigrams stands for (n bigrams are n + 1 characters).
fn as_words(bigrams: usize, chars_per_word: f64) -> usize {
    if bigrams == 0 {
        return 0;
    }
    ((bigrams + 1) as f64 / chars_per_word).floor() as usize
}

/// (words, content words) of a copied phrase once names and compounds are set apart: on other
/// tools' sets most 4-word runs that were not lifted wording were a term copied as anyone would
/// type it ("Retrieval-Augmented Generation (RAG)", "a peer-to-peer network"), not phrasing.
pub fn own_wording(question: &str, run: Range<usize>, analyzer: &Analyzer) -> (usize, usize) {
    let (mut words, mut content) = (0, 0);
    let mut prev_end = None;
    for t in tokens(&question[run.clone()]) {
        let start = run.start + t.byte;
        // "peer-to-peer": the parts after a hyphen join the word before.
        let joined = prev_end.is_some_and(|end| question.get(end..start) == Some("-"));
        prev_end = Some(start + t.raw.len());
        if joined {
            continue;
        }
        words += 1;
        // A capital inside the question marks a name, except in a language that capitalises
        // every noun.
        let name =
            start > 0 && t.raw.chars().any(char::is_uppercase) && !analyzer.language().capitalises_nouns();
        if !name && !analyzer.is_stopword(&t.norm) {
            content += 1;
        }
    }
    (words, content)
}

/// The longest copied run (any length ≥ 1), if the question shares any word with the source.
pub fn longest_copied_run(question: &str, source: &str, words: &Analyzer) -> Option<CopiedRun> {
    copied_runs(question, source, 1, words).into_iter().next()
}

/// Share of the question's content terms (stemmed non-stopwords, counted once each) that occur
/// in the source, as told by `in_source`; `None` when the question has no content term.
pub fn containment(question: &str, words: &Analyzer, in_source: impl Fn(&str) -> bool) -> Option<f32> {
    let q: HashSet<String> = words.content_terms(question).into_iter().collect();
    if q.is_empty() {
        return None;
    }
    let found = q.iter().filter(|t| in_source(t)).count();
    Some(found as f32 / q.len() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en() -> &'static Analyzer {
        crate::lang::Language::ENGLISH.analyzer()
    }

    #[test]
    fn finds_the_copied_phrase_and_where_it_is() {
        let q = "Are digital goods Eligible for a refund after download?";
        let s = "Refunds: digital goods are eligible for a refund, within 14 days.";
        let runs = copied_runs(q, s, 4, en());
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(&q[r.question.clone()], "Eligible for a refund");
        assert_eq!(&s[r.source.clone()], "eligible for a refund");
        assert_eq!((r.tokens, r.content_tokens), (4, 2));
        assert_eq!(longest_copied_run(q, s, en()).unwrap().tokens, 4);
        assert_eq!(copied_runs(q, s, 2, en()).len(), 2, "\"digital goods\" too");
    }

    #[test]
    fn a_name_the_source_capitalises_is_no_wording_however_the_question_writes_it() {
        let en_lang = crate::lang::Language::ENGLISH;
        let q = "is the black code style set in stone?";
        let page = "# The Black Code Style\n\nWhile a goal, the\n_Black_ code style isn't set in stone.";
        assert_eq!(copied_phrase(q, page, en_lang), None);
        // A title's words are wording, not names.
        let title =
            "1.2 Issues facing Enterprise Adoption of Blockchain Technology\nThis paper will not cover it.";
        let q = "what are the issues facing enterprise adoption of blockchain technology";
        assert!(copied_phrase(q, title, en_lang).is_some());
        // A capital that opens a sentence, a line or a cell marks no name.
        let s = "Notes. Retention keeps snapshots for thirty days.\n| Retention keeps snapshots |";
        let r = copied_runs("does retention keeps snapshots for thirty days", s, 4, en());
        assert_eq!(r[0].content_tokens, 5);
        // Only the word where it stands: a name elsewhere makes no name of the word here.
        let s = "It beat the Scottish National Party. The party is now the largest in Scotland.";
        let r = copied_runs("which party is now the largest", s, 4, en());
        assert_eq!(r[0].content_tokens, 2, "party, largest");
    }

    #[test]
    fn runs_do_not_overlap_and_come_longest_first() {
        let q = "alpha beta gamma delta and one two three four five";
        let s = "one two three four five. alpha beta gamma delta.";
        let runs = copied_runs(q, s, 3, en());
        let lens: Vec<_> = runs.iter().map(|r| r.tokens).collect();
        assert_eq!(lens, [5, 4]);
        assert!(copied_runs(q, s, 6, en()).is_empty());
        assert!(copied_runs("", s, 1, en()).is_empty());
    }

    #[test]
    fn containment_counts_distinct_stems() {
        let src: HashSet<String> = en()
            .content_terms("Refunds are processed within 14 days")
            .into_iter()
            .collect();
        let in_src = |t: &str| src.contains(t);
        assert_eq!(containment("refund refund days", en(), in_src), Some(1.0));
        assert_eq!(containment("refund shipping", en(), in_src), Some(0.5));
        assert_eq!(containment("what is it", en(), in_src), None);
    }
}
