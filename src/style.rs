//! How a set's questions are written: their length, case, punctuation, opening, whether they
//! are bare keywords, whether they carry typos. Real users type "team plan yearly price" and
//! "whats the encrytion cipher"; a generator writes "What is the yearly price of the Team
//! plan?". `generate` measures the real part of a set (or takes a named [`Preset`] measured
//! from public real queries) and writes its questions to match; `audit` prints both side by
//! side. A leaf: it reads words and nothing of the commands.

use std::collections::HashSet;

use serde::Serialize;

use crate::lang::{Language, questions};
use crate::text::words;

/// The style of a group of questions: shares are 0 to 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Style {
    /// Questions measured.
    pub questions: usize,
    /// Words per question: mean and quartiles.
    pub words: Spread,
    /// Share that starts with a lower-case letter.
    pub lowercase: f32,
    /// Share without a question mark.
    pub no_question_mark: f32,
    /// Share that opens with a question word ("how", "what", "qué").
    pub question_word: f32,
    /// Share of bare keywords: no question word and no auxiliary verb anywhere.
    pub keywords: f32,
    /// Share with a word one letter away from a word of the corpus and not itself in it (a
    /// typo), when a vocabulary was given.
    pub misspelled: Option<f32>,
}

/// A distribution's mean and quartiles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Spread {
    /// Mean.
    pub mean: f32,
    /// First quartile.
    pub p25: f32,
    /// Median.
    pub median: f32,
    /// Third quartile.
    pub p75: f32,
}

impl Spread {
    /// The spread of `values` (all zero when empty).
    pub fn of(values: &[f32]) -> Spread {
        if values.is_empty() {
            return Spread::default();
        }
        let mut v = values.to_vec();
        v.sort_by(f32::total_cmp);
        let at = |q: f32| {
            let pos = q * (v.len() - 1) as f32;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            v[lo] + (v[hi] - v[lo]) * (pos - lo as f32)
        };
        Spread {
            mean: v.iter().sum::<f32>() / v.len() as f32,
            p25: at(0.25),
            median: at(0.5),
            p75: at(0.75),
        }
    }
}

/// How far apart two parts' rank-1 shares or MRRs may be and still read as alike: the audit
/// calls the synthetic part keyword-easier from this gap on (when chance rarely makes it), and
/// generate's style target is met only within it, so that what generate calls met the audit
/// does not flag.
pub const RANK_GAP: f32 = 0.10;

/// English question words: a question opening with one asks, with or without its `?`.
const QUESTION_WORDS: &[&str] = &[
    "what", "which", "how", "when", "where", "who", "whom", "whose", "why", "whats", "what's", "hows",
    "how's", "where's", "wheres",
];

/// English auxiliaries and modals: a query holding none of them (and no question word) is bare
/// keywords.
const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "do", "does", "did", "can", "could", "should", "would", "will",
    "shall", "may", "might", "must", "has", "have", "had", "isn't", "aren't", "doesn't", "don't", "can't",
    "won't", "cannot",
];

/// Whether `question` opens with a question word of `language`.
pub fn opens_with_question_word(question: &str, language: Language) -> bool {
    let w = words(question);
    let Some(first) = w.first() else { return false };
    if language == Language::ENGLISH {
        return QUESTION_WORDS.contains(&first.as_str());
    }
    questions::question_words(language).contains(&first.as_str())
}

/// Whether `question` is bare keywords: no question word and (in English) no auxiliary verb
/// anywhere ("team plan yearly price", "restore overwrite existing files by default?").
pub fn is_keywords(question: &str, language: Language) -> bool {
    let w = words(question);
    if w.is_empty() {
        return false;
    }
    let asks = |x: &String| {
        if language == Language::ENGLISH {
            QUESTION_WORDS.contains(&x.as_str()) || AUXILIARIES.contains(&x.as_str())
        } else {
            questions::question_words(language).contains(&x.as_str())
        }
    };
    !w.iter().any(asks)
}

/// The words of a corpus, to tell a typo from a word: a word of a question that is not in the
/// vocabulary but one slip of the fingers away from a longer word that is.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    words: HashSet<String>,
    /// Words of five letters or more: the ones a typo is told against.
    long: Vec<String>,
}

impl Vocabulary {
    /// The words of `texts`, lower-cased.
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vocabulary {
        let mut words_seen = HashSet::new();
        for t in texts {
            for w in words(t) {
                words_seen.insert(w);
            }
        }
        let mut long: Vec<String> = words_seen
            .iter()
            .filter(|w| w.chars().count() >= 5 && w.chars().all(char::is_alphabetic))
            .cloned()
            .collect();
        long.sort();
        Vocabulary {
            words: words_seen,
            long,
        }
    }

    /// The corpus word `word` is a typo of, if any: `word` is not in the corpus, nor a function
    /// word, nor a form of the corpus word (English stems); it has four letters or more and keeps the first
    /// letter of a corpus word of five letters or more that one slip makes it: a letter dropped,
    /// added or doubled, two neighbours swapped, or a letter struck for its neighbour on the
    /// keyboard ("encrytion" → "encryption", "restor" → "restore"; not "forgot" for "forget"
    /// nor "context" for "content", which are words).
    pub fn typo_of(&self, word: &str) -> Option<&str> {
        let w = word.to_lowercase();
        let n = w.chars().count();
        if n < 4 || !w.chars().all(char::is_alphabetic) || self.words.contains(&w) {
            return None;
        }
        let english = Language::ENGLISH.analyzer();
        if english.is_stopword(&w) {
            return None;
        }
        // "windows" is a form of "window", "translate" of "translated"; "restor" (the final e
        // dropped) is none of "restore", though the stemmer cuts both to "restor".
        let form = |c: &str| english.stem(&w) == english.stem(c) && *c != format!("{w}e");
        self.long
            .iter()
            .filter(|c| c.chars().count().abs_diff(n) <= 1 && c.chars().next() == w.chars().next())
            .find(|c| strsim::damerau_levenshtein(&w, c) == 1 && !far_substitution(&w, c) && !form(c))
            .map(String::as_str)
    }

    /// Whether `question` has a typo.
    pub fn misspelled(&self, question: &str) -> bool {
        words(question).iter().any(|w| self.typo_of(w).is_some())
    }

    /// Whether the corpus has `word` (lower case).
    pub fn contains(&self, word: &str) -> bool {
        self.words.contains(word)
    }

    /// `word` (a corpus word of six letters or more) as a user mistypes it, the `pick`th way:
    /// a letter dropped, doubled or struck for its keyboard neighbour, or two neighbours
    /// swapped, never the first letter ("encryption" → "encrytion", "restore" → "restor").
    /// Only a result that is no corpus word and that [`Vocabulary::typo_of`] reads back as a
    /// typo is given, so a set's measured typo share counts it.
    pub fn misspell(&self, word: &str, pick: u64) -> Option<String> {
        let letters: Vec<char> = word.chars().collect();
        let n = letters.len();
        if n < 6 || !letters.iter().all(char::is_ascii_lowercase) || !self.words.contains(word) {
            return None;
        }
        let mut edits: Vec<String> = Vec::new();
        for i in 1..n {
            let mut dropped = letters.clone();
            dropped.remove(i);
            edits.push(dropped.into_iter().collect());
            if i + 1 < n && letters[i] != letters[i + 1] {
                let mut swapped = letters.clone();
                swapped.swap(i, i + 1);
                edits.push(swapped.into_iter().collect());
            }
            let mut doubled = letters.clone();
            doubled.insert(i, letters[i]);
            edits.push(doubled.into_iter().collect());
            if let Some(near) = ('a'..='z').find(|&k| keys_adjacent(k, letters[i])) {
                let mut struck = letters.clone();
                struck[i] = near;
                edits.push(struck.into_iter().collect());
            }
        }
        let start = (pick % edits.len() as u64) as usize;
        edits
            .iter()
            .cycle()
            .skip(start)
            .take(edits.len())
            .find(|e| self.typo_of(e).is_some())
            .cloned()
    }
}

/// Whether `a` and `b`, of one length and one letter apart, differ by a letter that is not the
/// other's neighbour on a QWERTY keyboard (a slip strikes the key beside the right one).
fn far_substitution(a: &str, b: &str) -> bool {
    if a.chars().count() != b.chars().count() {
        return false;
    }
    let differ: Vec<(char, char)> = a.chars().zip(b.chars()).filter(|(x, y)| x != y).collect();
    match differ.as_slice() {
        [(x, y)] => !keys_adjacent(*x, *y),
        // Two letters swapped.
        _ => false,
    }
}

/// Whether two letters are neighbours on a QWERTY keyboard.
fn keys_adjacent(a: char, b: char) -> bool {
    const ROWS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
    // Each row sits half a key right of the one above.
    let at = |c: char| {
        ROWS.iter()
            .enumerate()
            .find_map(|(r, row)| row.find(c).map(|i| (r as f32, i as f32 + 0.5 * r as f32)))
    };
    match (at(a), at(b)) {
        (Some((ra, xa)), Some((rb, xb))) => {
            let (dy, dx) = ((ra - rb).abs(), (xa - xb).abs());
            (dy == 0.0 && dx == 1.0) || (dy == 1.0 && dx <= 0.5)
        }
        _ => false,
    }
}

/// Measures `questions`, each read in its language; typos are told when `vocabulary` is given.
pub fn measure(questions: &[(&str, Language)], vocabulary: Option<&Vocabulary>) -> Style {
    let n = questions.len();
    let share = |f: &dyn Fn(&str, Language) -> bool| {
        if n == 0 {
            0.0
        } else {
            questions.iter().filter(|(q, l)| f(q, *l)).count() as f32 / n as f32
        }
    };
    let lengths: Vec<f32> = questions
        .iter()
        .map(|(q, _)| crate::text::word_count(q) as f32)
        .collect();
    Style {
        questions: n,
        words: Spread::of(&lengths),
        lowercase: share(&|q, _| {
            q.trim()
                .chars()
                .find(|c| c.is_alphabetic())
                .is_some_and(char::is_lowercase)
        }),
        no_question_mark: share(&|q, _| !q.trim_end().ends_with(['?', '？'])),
        question_word: share(&|q, l| opens_with_question_word(q, l)),
        keywords: share(&|q, l| is_keywords(q, l)),
        misspelled: vocabulary.map(|v| share(&|q, _| v.misspelled(q))),
    }
}

/// A named style measured from public real queries, for a set with no real cases of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Short keyword queries typed into a search box, as the 54 judged real Bing queries of
    /// TREC DL 2020 (`shared/data/msmarco-dl20`).
    Search,
    /// A user asking a documentation assistant: short, natural, everyday words — the queries of
    /// the same set worded as questions (opening with a question word), as typed.
    Chat,
    /// What a generator writes when left alone: full sentences ending in `?` (XQuAD's crowd
    /// questions, written beside their paragraph).
    Formal,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Search, Preset::Chat, Preset::Formal];

    /// Its name (`--style NAME`).
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Search => "search",
            Preset::Chat => "chat",
            Preset::Formal => "formal",
        }
    }

    /// The preset a name gives.
    pub fn parse(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// Figures of a group of questions, as the target counts them; shares are 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Figures {
    /// Questions.
    pub questions: usize,
    /// Of those, with a labelled source found in the chunks (rank figures are over these).
    pub labelled: usize,
    /// Mean words per question.
    pub words: f32,
    /// Share starting with a lower-case letter.
    pub lowercase: f32,
    /// Share without a question mark.
    pub no_question_mark: f32,
    /// Share of bare keywords.
    pub keywords: f32,
    /// Share whose source BM25 ranks first.
    pub rank1: Option<f32>,
    /// Mean reciprocal rank of the source.
    pub mrr: Option<f32>,
    /// Share whose source passage (a blank-line paragraph a label overlaps) BM25 ranks first
    /// among the corpus's passages; measured on a set's real questions only (a preset's queries
    /// were judged against single passages, so its two grains are one).
    pub passage_rank1: Option<f32>,
    /// Mean reciprocal rank of the source passage.
    pub passage_mrr: Option<f32>,
    /// Share with a typo (as [`Vocabulary::misspelled`] tells), when measured against the
    /// corpus's words. A one-slip test without a dictionary also counts some words the corpus
    /// lacks ("player" beside "played"): on XQuAD's crowd questions about four in ten of what it
    /// counts are true typos ("parliment", "betwen", "agenchy").
    pub misspelled: Option<f32>,
}

/// What the new questions aim at, and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    /// `real` (the set's real questions) or the preset's name.
    pub source: String,
    /// The figures.
    pub figures: Figures,
}

/// The figures of a preset, measured on public real queries (see each [`Preset`]); the ranks
/// were measured with ragsynth's BM25 over the passages judged for those queries and their
/// neighbours, so they say how hard real users' wording is for keyword search, not how hard a
/// particular corpus is. `tests/style_presets.rs` measures them again.
pub fn preset(p: Preset) -> Target {
    let figures = match p {
        // TREC DL 2020: the 52 judged queries with a relevant passage in their BM25 pool
        // (tests/style_presets.rs re-measures them).
        Preset::Search => Figures {
            questions: 52,
            labelled: 52,
            words: 6.06,
            lowercase: 1.0,
            no_question_mark: 0.90,
            keywords: 0.23,
            rank1: Some(0.65),
            mrr: Some(0.73),
            passage_rank1: None,
            passage_mrr: None,
            misspelled: Some(0.0),
        },
        // The same queries that open with a question word, as typed.
        Preset::Chat => Figures {
            questions: 33,
            labelled: 33,
            words: 6.73,
            lowercase: 1.0,
            no_question_mark: 0.85,
            keywords: 0.0,
            rank1: Some(0.67),
            mrr: Some(0.74),
            passage_rank1: None,
            passage_mrr: None,
            misspelled: Some(0.0),
        },
        // XQuAD's crowd questions, written beside their paragraph.
        Preset::Formal => Figures {
            questions: 1190,
            labelled: 1190,
            words: 10.4,
            lowercase: 0.0,
            no_question_mark: 0.03,
            keywords: 0.01,
            rank1: Some(0.95),
            mrr: Some(0.97),
            passage_rank1: None,
            passage_mrr: None,
            misspelled: Some(0.05),
        },
    };
    Target {
        source: p.as_str().to_string(),
        figures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vocabulary {
        Vocabulary::of([
            "Restore a snapshot. The encryption cipher is XChaCha20. Forget removes a snapshot from \
             the catalogue; prune frees the space. Close the window. Send an invoice. The content \
             of the schedule. Scheduled backups run every night.",
        ])
    }

    #[test]
    fn a_slip_of_the_fingers_is_a_typo() {
        let v = sample();
        assert_eq!(v.typo_of("restor"), Some("restore"), "a letter dropped");
        assert_eq!(v.typo_of("encrytion"), Some("encryption"));
        assert_eq!(v.typo_of("schedlue"), Some("schedule"), "two letters swapped");
        assert_eq!(v.typo_of("scheduule"), Some("schedule"), "a letter doubled");
        assert_eq!(
            v.typo_of("schedyle"),
            Some("schedule"),
            "u struck as its neighbour y"
        );
        assert!(v.misspelled("whats the encrytion cipher"));
    }

    #[test]
    fn words_and_their_forms_are_no_typos() {
        let v = sample();
        // Real questions of the sample set the first measure counted as typos.
        assert_eq!(v.typo_of("forgot"), None, "o and e are not neighbours: a word");
        assert_eq!(v.typo_of("context"), None, "x and n are not neighbours");
        assert_eq!(v.typo_of("windows"), None, "a form of window");
        assert_eq!(v.typo_of("invoiced"), None, "a form of invoice");
        assert_eq!(v.typo_of("there"), None, "a function word");
        assert_eq!(v.typo_of("schedules"), None, "a form of schedule");
        assert_eq!(v.typo_of("wcheduled"), None, "the first letter is kept by a slip");
        assert!(!v.misspelled("forgot repo password can support recover it"));
    }

    #[test]
    fn a_misspelling_reads_back_as_a_typo_of_its_word() {
        let v = sample();
        for pick in 0..40 {
            let typo = v
                .misspell("encryption", pick)
                .expect("a corpus word of ten letters");
            assert_ne!(typo, "encryption");
            assert!(typo.starts_with('e'), "{typo}");
            assert_eq!(v.typo_of(&typo), Some("encryption"), "pick {pick}: {typo}");
        }
        assert_eq!(v.misspell("nightly", 0), None, "not a corpus word");
        assert_eq!(v.misspell("prune", 0), None, "under six letters");
    }
}
