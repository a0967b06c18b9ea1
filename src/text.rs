//! Words: tokenizing, shared by the lexical index, the overlap checks and duplicate detection
//! so that "word" means the same thing everywhere, in any script. A tokenizer only: it knows
//! no language, so it has no stopwords or stems; those are a language's
//! ([`crate::lang::Analyzer`]), and every caller names the language it reads.
//!
//! Words are Unicode word boundaries (UAX #29), except in scripts written without spaces
//! (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar), where UAX #29 gives one character per
//! word (Han) or a whole line (Thai). There a run of such characters is read as overlapping
//! character bigrams ("東京大学" → "東京", "京大", "大学"), as Lucene's CJK analyzer does: no
//! dictionary is needed, a two-character word is one term, and a copied phrase of n characters
//! is a run of n - 1 bigrams. A lone character is one term.
//!
//! Besides words, the two other readings of a text the checks make, each defined once here:
//! case folding ([`fold`], [`fold_eq`], [`contains_folded`]), the form in which "Error" and
//! "error" are one word; and white-space-separated runs with their punctuation ([`spans`],
//! [`bare`], [`single_spaced`]), for the readings that need "Key:", "`code`" or "word," as
//! written. `generate` and `wording` read text through these only (clippy's
//! `disallowed_methods`, see `clippy.toml`), so that "a word", "the same word" and "a run
//! between spaces" mean one thing across the checks.

use unicode_segmentation::UnicodeSegmentation;

/// A word of a text: its lower-cased form and where it stands (byte offsets into the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    /// Lower-cased word.
    pub norm: String,
    /// The word as written.
    pub raw: &'a str,
    /// Byte offset of the word in the text.
    pub byte: usize,
}

/// Splits text into words (Unicode word boundaries, alphanumeric only; bigrams in scripts
/// without spaces), lower-cased.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    // Byte offsets of the characters of the current run of unspaced script.
    let mut run: Vec<usize> = Vec::new();
    for (byte, raw) in text.unicode_word_indices() {
        if !raw.chars().any(char::is_alphanumeric) {
            continue;
        }
        if raw.chars().all(is_unspaced) {
            let follows = run
                .last()
                .is_some_and(|&b| b + text[b..].chars().next().map_or(0, char::len_utf8) == byte);
            if !follows {
                flush_run(text, &mut run, &mut out);
            }
            run.extend(raw.char_indices().map(|(i, _)| byte + i));
            continue;
        }
        flush_run(text, &mut run, &mut out);
        out.push(Token {
            norm: fold(raw),
            raw,
            byte,
        });
    }
    flush_run(text, &mut run, &mut out);
    out
}

/// Emits a run of unspaced characters as its bigrams (a lone character as itself).
fn flush_run<'a>(text: &'a str, run: &mut Vec<usize>, out: &mut Vec<Token<'a>>) {
    let end_of = |b: usize| b + text[b..].chars().next().map_or(0, char::len_utf8);
    match run.as_slice() {
        [] => {}
        [only] => out.push(token(text, *only, end_of(*only))),
        _ => out.extend(run.windows(2).map(|w| token(text, w[0], end_of(w[1])))),
    }
    run.clear();
}

fn token(text: &str, start: usize, end: usize) -> Token<'_> {
    let raw = &text[start..end];
    Token {
        norm: fold(raw),
        raw,
        byte: start,
    }
}

/// True for a character of a script written without spaces between words.
pub fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF // Thai, Lao
        | 0x1000..=0x109F // Myanmar
        | 0x1780..=0x17FF // Khmer
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x31F0..=0x31FF // Katakana extensions
        | 0x3400..=0x4DBF // Han extension A
        | 0x4E00..=0x9FFF // Han
        | 0xF900..=0xFAFF // Han compatibility
        | 0xFF66..=0xFF9D // half-width Katakana
        | 0x20000..=0x3134F // Han extensions B-G
    )
}

/// A document path's file name without its extension: "guides/restore.md" → "restore".
pub fn file_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// The texts of the Sphinx and MyST cross-references to a section or a page in `text`
/// (":ref:`security-csp`", ":doc:`/logging`", "{ref}`target`"): where a reader is sent, not a
/// name they paste.
pub fn cross_references(text: &str) -> Vec<&str> {
    static ROLE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?::(?:ref|doc|numref)|\{(?:ref|doc|numref)\}):?`([^`]*)`").expect("valid regex")
    });
    ROLE.captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .collect()
}

/// Lower-cased words without positions.
pub fn words(text: &str) -> Vec<String> {
    tokens(text).into_iter().map(|t| t.norm).collect()
}

/// `text` case-folded: the form in which two spellings compare equal whatever their case
/// ("Error" and "error", "ΣΟΦΙΑ" and "σοφια"), the one [`tokens`] gives its words. Unicode lower
/// case, not ASCII only, so a German or Greek name folds as its language writes it; lower case,
/// not full case folding, so "ß" stays one letter ("STRASSE" is not "Straße"). The folded
/// text may differ in byte length from `text` outside ASCII ("İ" is three bytes folded), so a
/// byte offset found in one is not an offset in the other; [`fold_keeps_offsets`] says when it
/// is.
pub fn fold(text: &str) -> String {
    text.to_lowercase()
}

/// A character case-folded ([`fold`] of one character): one character may fold to several
/// ("İ" → "i̇").
pub fn fold_char(c: char) -> impl Iterator<Item = char> {
    c.to_lowercase()
}

/// `word` without its accents ("hervé" → "herve"; Unicode decomposition, combining marks
/// dropped): the form in which an English writer's spelling of a foreign name meets the page's.
/// Not a folding for every language's words: in Spanish or German an accent tells words apart.
pub fn unaccented(word: &str) -> String {
    use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};
    word.nfd().filter(|c| !is_combining_mark(*c)).collect()
}

/// Whether `a` and `b` are the same text case aside ([`fold`]).
pub fn fold_eq(a: &str, b: &str) -> bool {
    a == b || fold(a) == fold(b)
}

/// Whether `text` holds `part`, case aside ([`fold`]): "Use the `--Force` flag" holds
/// "--force". A substring test, not a word test: "cat" is in "concatenate" (use [`words`] for
/// words).
pub fn contains_folded(text: &str, part: &str) -> bool {
    fold(text).contains(&fold(part))
}

/// Whether folding `text` keeps every byte offset (it does in ASCII and most scripts): only
/// then may a position found in the folded text cut the text as written.
pub fn fold_keeps_offsets(text: &str) -> bool {
    fold(text).len() == text.len()
}

/// The runs of `text` between white space, each with its punctuation as written ("Key:",
/// "`lock.timeout`", "(default", "fails."): what a reader sees as a text's words where the
/// marks around them matter — a label's colon, a code mark, a sentence's end — which
/// [`tokens`] drops. Not a word in unspaced scripts (a Chinese sentence is one run); read
/// [`words`] where words are meant whatever the script.
pub fn spans(text: &str) -> std::str::SplitWhitespace<'_> {
    text.split_whitespace()
}

/// [`spans`] with the byte offset of each in `text`.
pub fn spans_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    spans(text).map(move |w| {
        // Only white space lies between the end of one span and the next.
        let start = at + text[at..].find(w).unwrap_or(0);
        at = start + w.len();
        (start, w)
    })
}

/// A span ([`spans`]) without the punctuation at either end: "(default" → "default",
/// "`tide`," → "tide", "don't." → "don't"; what is inside is kept ("e-book", "api.token_ttl").
pub fn bare(span: &str) -> &str {
    span.trim_matches(|c: char| !c.is_alphanumeric())
}

/// `text` with every run of white space (line breaks too) made one space and none at either
/// end: the form in which two wrappings of a sentence are the same sentence.
pub fn single_spaced(text: &str) -> String {
    spans(text).collect::<Vec<_>>().join(" ")
}

/// How many words a text has, counting a run of unspaced script as one word per
/// [`CHARS_PER_WORD`] characters: the count the length rules (too short, long enough to judge)
/// compare with their thresholds in words.
pub fn word_count(text: &str) -> usize {
    Lengths::of(text).words()
}

/// What the length measures count, read in one pass over a text's tokens.
struct Lengths {
    spaced: usize,
    /// Character bigrams of unspaced script.
    unspaced: usize,
    /// Characters of the spaced words.
    letters: usize,
}

impl Lengths {
    fn of(text: &str) -> Lengths {
        let mut n = Lengths {
            spaced: 0,
            unspaced: 0,
            letters: 0,
        };
        for t in tokens(text) {
            if t.raw.chars().all(is_unspaced) {
                // Each bigram adds one character to its run (a run of n characters is n - 1
                // bigrams: one is lost per run, close enough for a length).
                n.unspaced += 1;
            } else {
                n.spaced += 1;
                n.letters += t.raw.chars().count();
            }
        }
        n
    }

    fn words(&self) -> usize {
        self.spaced + (self.unspaced as f64 / CHARS_PER_WORD).round() as usize
    }
}

/// A question's length in words for the thresholds that ask whether it is long enough to judge
/// (RS102, RS103): its [`word_count`], or its letters at [`LETTERS_PER_WORD`] when that says
/// more. Languages cut words differently: the same 1,190 XQuAD questions take 10.5 words in
/// English and 8.3 in Turkish or 8.7 in Russian (which glue suffixes where English writes
/// "of the"), yet 50 to 56 letters in all three.
pub fn length_in_words(text: &str) -> usize {
    let n = Lengths::of(text);
    n.words().max((n.letters as f64 / LETTERS_PER_WORD) as usize)
}

/// Letters per word at which [`length_in_words`] counts letters: above the 4.8 of English
/// questions on XQuAD, so that a translation's length stays near its English original's
/// (XQuAD means: English 10.4 words, Russian 8.7 words → 10.0, Turkish 8.0 → 9.3, Spanish
/// 11.3 → 11.4).
pub const LETTERS_PER_WORD: f64 = 5.5;

/// Characters per word in Chinese: the same 1,190 XQuAD questions have 10.5 words in English
/// and 16.1 Han characters (plus 0.26 Latin words) in Chinese, 1.57 characters per word.
pub const CHARS_PER_WORD: f64 = 1.6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_counts_letters_where_words_are_long() {
        // English keeps its word count; Turkish says it in fewer, longer words.
        assert_eq!(
            length_in_words("How many yards did the Broncos gain in the first half?"),
            11
        );
        assert_eq!(word_count("Broncos ilk yarıda kaç yarda kazandı?"), 6);
        assert_eq!(
            length_in_words("Broncos'un savunması sezon boyunca kaç müdahalede bulunmuştur?"),
            10
        );
        assert_eq!(
            length_in_words("大学什么时候成立？"),
            word_count("大学什么时候成立？")
        );
    }

    #[test]
    fn tokens_keep_positions_and_drop_punctuation() {
        let t = tokens("How do I return an e-book? Café—ok.");
        let norms: Vec<_> = t.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(
            norms,
            ["how", "do", "i", "return", "an", "e", "book", "café", "ok"]
        );
        assert_eq!(t[7].raw, "Café");
        assert_eq!(
            &"How do I return an e-book? Café—ok."[t[7].byte..t[7].byte + 5],
            "Café"
        );
    }

    #[test]
    fn folding_compares_case_aside_in_any_script() {
        assert_eq!(fold("Use `--Force`"), "use `--force`");
        // Lower case, not full case folding: "ß" stays one letter.
        assert!(fold_eq("STRASSE", "strasse") && !fold_eq("Straße", "STRASSE"));
        assert_eq!(fold("ΣΟΦΙΑ"), "σοφια");
        assert!(fold_eq("Universität", "UNIVERSITÄT"));
        assert!(contains_folded("Die Universität wurde gegründet", "universität"));
        assert!(!contains_folded("Die Universität", "Hochschule"));
        // Unspaced scripts have no case: folding leaves them as they are.
        assert_eq!(fold("东京大学"), "东京大学");
        assert!(fold_keeps_offsets("Café TIDE"));
        assert!(!fold_keeps_offsets("İstanbul"));
        assert_eq!(fold_char('Ä').collect::<String>(), "ä");
    }

    #[test]
    fn spans_keep_their_punctuation_and_bare_drops_it() {
        let s: Vec<&str> = spans("  Key: `lock.timeout`\n(default 300s), ¿qué es?").collect();
        assert_eq!(s, ["Key:", "`lock.timeout`", "(default", "300s),", "¿qué", "es?"]);
        let at: Vec<usize> = spans_at("  Key: `lock.timeout`\n(default")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(at, [2, 7, 22]);
        let bared: Vec<&str> = s.iter().map(|w| bare(w)).collect();
        assert_eq!(bared, ["Key", "lock.timeout", "default", "300s", "qué", "es"]);
        assert_eq!(bare("«Universität»,"), "Universität");
        // A sentence of an unspaced script is one span: its words are [`words`]'.
        assert_eq!(spans("东京大学成立于1877年。").count(), 1);
        assert_eq!(single_spaced(" a\n  wrapped\tline "), "a wrapped line");
    }

    #[test]
    fn unspaced_scripts_are_read_as_bigrams() {
        let t = tokens("东京大学 in 2008年成立。");
        let norms: Vec<_> = t.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(norms, ["东京", "京大", "大学", "in", "2008", "年成", "成立"]);
        assert_eq!(t[2].raw, "大学");
        assert_eq!(&"东京大学 in 2008年成立。"[t[2].byte..], "大学 in 2008年成立。");
        assert_eq!(words("我"), ["我"]);
        assert_eq!(words("ภาษาไทย"), ["ภา", "าษ", "ษา", "าไ", "ไท", "ทย"]);
        assert_eq!(word_count("How long are snapshots kept?"), 5);
        assert_eq!(word_count("快照保存多久"), 3);
    }
}
