//! Names a text gives: its identifiers, and the things it names ([`things`]).
//!
//! Identifiers: the error codes, configuration keys, command-line flags, file names, function
//! and type names, environment variables and versions a documentation page names. Users paste
//! them into a search box as they are ("TP-409 restore fails", "api.token_ttl default"), which
//! is where keyword search beats embeddings — so a test set needs questions that give them
//! verbatim.
//!
//! Found by their shape: anything in code marks (`` `lock.timeout` ``), and outside them the
//! shapes that only identifiers have (`TP-409`, `--overwrite`, `TIDEPOOL_LOCK_TIMEOUT`,
//! `api.token_ttl`, `read_to_string()`, `2.4.0`). A value in code marks (`` `"300s"` ``,
//! `` `500` ``) is not one, nor, in web text that marks no code, two sentences run together at a
//! full stop ("storage.elated", [`run_together`]).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::chunk::Chunk;
use crate::lang::lists::english;
use crate::lang::{Language, List};
use crate::text::{bare, fold, spans};

/// Longest identifier, in characters: longer code is an example, not a name.
const MAX_CHARS: usize = 48;

/// Most words an identifier in code marks may have (`tide repo migrate`).
const MAX_WORDS: usize = 3;

/// The identifiers `text` names, in order of appearance, each once.
pub fn identifiers(text: &str) -> Vec<String> {
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut code = Vec::new();
    // Code marks first; their text is not searched again for shapes.
    for m in CODE.find_iter(text) {
        code.push(m.range());
        if links_a_page(&text[..m.start()]) {
            continue;
        }
        let inner = shown_name(m.as_str().trim_matches('`').trim());
        if is_name(inner) {
            found.push((m.start(), inner.to_string()));
        }
    }
    for m in SHAPES.find_iter(text) {
        let inside = code.iter().any(|r| r.start <= m.start() && m.end() <= r.end);
        let word = m.as_str().trim().trim_end_matches(['.', ',', ';', ':']);
        // English abbreviations, read on any text: a page in another language writes them too.
        if !inside && !english(List::ProseAbbreviations).contains(&fold(word).as_str()) {
            found.push((m.start(), word.to_string()));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut seen = std::collections::HashSet::new();
    found
        .into_iter()
        .map(|(_, s)| s)
        .filter(|s| seen.insert(s.clone()))
        .collect()
}

/// Whether the code span after `before` is a cross-reference's target (Sphinx's
/// ":doc:`/deploying/index`", ":ref:`app-factories`", MyST's "{doc}`…`"): the name of a page or
/// a section, which the reader sees as a link, not a thing the docs are about. Flask's
/// "/deploying/index" was a bridge of six multi-hop pairs.
fn links_a_page(before: &str) -> bool {
    [":doc:", ":ref:", ":numref:", "{doc}", "{ref}"]
        .iter()
        .any(|role| before.ends_with(role))
}

/// The name a reader sees for a code span: Sphinx shows ":func:`~flask.url_for`" as
/// "url_for" and ":data:`!name`" as "name", and users paste what they see; where the last
/// part is a plain word (":meth:`~blinker.base.Signal.connect`"), the path, which names it —
/// unless the path is none of Python's (Flask's ":func:`~jinja-filters.tojson`", a label of
/// Jinja's docs): its last part is all the reader sees.
pub fn shown_name(inner: &str) -> &str {
    match inner.strip_prefix('~') {
        Some(path) => match path.rsplit('.').next() {
            Some(last) if is_name(last) => last,
            Some(last) if path.contains(['-', '/', ':']) => last,
            _ => path,
        },
        None => inner.strip_prefix('!').unwrap_or(inner),
    }
}

/// Whether the text of a code span names something (rather than showing a value or a
/// snippet).
fn is_name(s: &str) -> bool {
    let chars = s.chars().count();
    if !(2..=MAX_CHARS).contains(&chars) || spans(s).count() > MAX_WORDS {
        return false;
    }
    // A quoted string, a number, a size or a duration is a value.
    if s.starts_with(['"', '\'']) || VALUE.is_match(s) {
        return false;
    }
    // Snippets: assignments, calls with arguments, operators.
    if s.contains(['=', '{', '}', ';', '<', '>', '|']) || (s.contains('(') && !s.ends_with("()")) {
        return false;
    }
    if UNITS.contains(&s) || !s.chars().any(char::is_alphabetic) {
        return false;
    }
    // A plain lower-case word in code marks is as often a value (`online`, `never`) as a name;
    // a name has a shape: punctuation, digits, capitals inside, or words (`tide repo info`).
    s.contains(['.', '_', '-', '/', ':', '(', ' '])
        || s.chars().any(|c| c.is_ascii_digit())
        || s.chars().skip(1).any(char::is_uppercase)
}

/// Units a code span may hold, which name nothing (symbols, no language's words).
const UNITS: &[&str] = &[
    "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "TB", "ms", "µs", "ns", "s", "m", "h", "d",
];

/// The words `chunks` write in lower case: capitalised, such a word opens a sentence or a
/// heading ("Finished", "Appendix") and names no one thing.
pub fn lower_case_words(chunks: &[Chunk]) -> BTreeSet<&str> {
    chunks
        .iter()
        .flat_map(|c| c.text.split(|ch: char| !ch.is_alphanumeric()))
        .filter(|w| w.chars().next().is_some_and(char::is_lowercase))
        .collect()
}

/// Whether `surface` names one thing a question can ask about: an identifier whose brackets
/// close, a name of several words, or a word of four letters or more the corpus never writes in
/// lower case (`lower_words`, [`lower_case_words`]; "PRs", "FAQ" and "Finished" name none;
/// "Ok(T" is a cut identifier).
pub fn one_thing(surface: &str, lower_words: &BTreeSet<&str>) -> bool {
    if !balanced(surface) || plural_acronym(surface) {
        return false;
    }
    if !identifiers(surface).is_empty() || spans(surface).count() > 1 {
        return true;
    }
    surface.chars().filter(|c| c.is_alphabetic()).count() > 3 && !lower_words.contains(fold(surface).as_str())
}

/// Whether `name` is an acronym in the plural ("APIs", "URLs", "CPUs"): a kind of thing, not one
/// thing. Swapped for another kind ("the generic APIs available for strings" → "… constructors
/// …"), it made a question the rust book answers.
pub fn plural_acronym(name: &str) -> bool {
    let Some(stem) = name.strip_suffix('s') else {
        return false;
    };
    stem.chars().count() >= 2 && stem.chars().all(|c| c.is_ascii_uppercase())
}

/// Text in code marks: reStructuredText's double backticks first (read as single ones,
/// "``attr`` module has an ``__version_info__``" made a name of " module has an ").
pub static CODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"``[^`\n]+``|`[^`\n]+`").expect("valid regex"));

/// A value rather than a name: a number with an optional unit, a percentage, a time.
static VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[-+]?\d[\d.,:]*\s*(%|[a-zA-Z]{1,3})?$|^(true|false|none|null|yes|no)$")
        .expect("valid regex")
});

/// The shapes only identifiers have, outside code marks: error codes (`TP-409`, `E0502`),
/// flags (`--overwrite`), environment variables (`OPENAI_API_KEY`), dotted or snake-case keys
/// (`api.token_ttl`, `max_page_size`), calls (`parse()`, `String::from`), versions (`2.4.0`).
static SHAPES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b[A-Z][A-Z0-9]{0,5}-\d{2,6}\b",
        r"|\bE\d{4}\b",
        r"|(?:^|\s)--[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b",
        r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b",
        r"|\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+\b",
        r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b",
        r"|\b[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?",
        r"|\b[A-Za-z_][A-Za-z0-9_]*\(\)",
        r"|\bv?\d+\.\d+\.\d+\b",
    ))
    .expect("valid regex")
});

/// Whether `name`, found by its shape in `chunk_text`, is web text read as a name: two sentences
/// run together ([`run_together`]) or a section's number ([`numbers_a_section`]).
pub fn not_a_name(name: &str, chunk_text: &str) -> bool {
    run_together(name, chunk_text) || numbers_a_section(name, chunk_text)
}

/// Whether `name`, a version's shape, numbers a section of `chunk_text`: followed by a
/// capitalised word, as an outline writes it ("Section 5.6.3 Diet and dental disease", a WHO
/// summary in TREC DL 2020, asked as "5.6.3 diet factors"), in a chunk that marks no code. A
/// version follows its product's name or "version" ("Black 24.1.0", "since 2.4.0") and a page
/// that names one marks its code.
pub fn numbers_a_section(name: &str, chunk_text: &str) -> bool {
    static VERSION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\d+(?:\.\d+){1,3}$").expect("valid regex"));
    VERSION.is_match(name)
        && !CODE.is_match(chunk_text)
        && chunk_text.match_indices(name).any(|(at, _)| {
            let after = &chunk_text[at + name.len()..];
            let word = after.trim_start_matches([' ', '\t']);
            word.len() < after.len() && word.chars().next().is_some_and(char::is_uppercase)
        })
}

/// Whether `name`, found by its shape in `chunk_text`, is two sentences run together rather than
/// a name: lower-case words joined by dots and nothing else of a name's (no `_`, digit, `()`
/// or file extension), in a chunk that marks no code. Web text that lost the space and the
/// capital after a full stop reads so (TREC DL 2020's "storage.elated Terms", "year.he"; 6 of
/// its 5,398 files mark code at all), while documentation marks code in the chunks that name
/// its dotted names (66–100% of the pages of the sample corpus and of Black's, Click's, Flask's,
/// Jinja's and attrs' docs mark code; their benchmark draws write the same questions with this
/// rule as without it). Read per text, not per chunk, the rule lost Flask's
/// `yourapplication.models`, named bare in a code example of a chunk that marks code elsewhere.
pub fn run_together(name: &str, chunk_text: &str) -> bool {
    name.contains('.')
        && name.chars().all(|c| c.is_ascii_lowercase() || c == '.')
        && !is_file_name(name)
        && !CODE.is_match(chunk_text)
}

/// A stem of three letters or more and a file extension: `release.py`, not "filled it.pdf".
fn is_file_name(name: &str) -> bool {
    match name.rsplit_once('.') {
        Some((stem, ext)) => stem.len() >= 3 && FILE_EXTENSIONS.contains(&ext),
        None => false,
    }
}

/// Extensions that make a dotted word a file name (`release.py`), in prose too (no language's
/// words).
const FILE_EXTENSIONS: &[&str] = &[
    "py", "pyi", "md", "rst", "txt", "toml", "yaml", "yml", "json", "ini", "cfg", "conf", "lock", "html",
    "css", "js", "ts", "sh", "rs", "go", "java", "c", "h", "cpp", "rb", "php", "sql", "db", "csv", "xml",
    "log", "exe", "gz", "zip", "tar", "whl", "pdf", "png", "jpg", "gpg", "asc", "pem",
];

/// How many of `texts` contain `identifier` as written.
pub fn frequency<'a>(identifier: &str, texts: impl Iterator<Item = &'a str>) -> usize {
    texts.filter(|t| t.contains(identifier)).count()
}

/// For each of `names`, how many of `texts` contain it as written: one pass over the texts
/// whatever the number of names (a corpus of thousands of chunks names thousands of them).
pub fn frequencies<'a>(names: &[String], texts: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let mut counts = vec![0; names.len()];
    if names.is_empty() {
        return counts;
    }
    let matcher = aho_corasick::AhoCorasick::new(names).expect("plain patterns build");
    let mut seen = vec![false; names.len()];
    for text in texts {
        seen.iter_mut().for_each(|s| *s = false);
        for m in matcher.find_overlapping_iter(text) {
            seen[m.pattern().as_usize()] = true;
        }
        for (c, s) in counts.iter_mut().zip(&seen) {
            *c += usize::from(*s);
        }
    }
    counts
}

/// The things a fact names: its identifiers, and capitalised names after its first word
/// (numbers are values, not things).
pub fn things(text: &str) -> Vec<String> {
    let mut out = identifiers(text);
    let words: Vec<&str> = spans(text).collect();
    let mut current: Vec<&str> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let bare = bare(w);
        let opens = i == 0 || words[i - 1].ends_with(['.', ':', '!', '?', ';']);
        let capital = !opens
            && bare.chars().next().is_some_and(char::is_uppercase)
            && bare.chars().count() >= 2
            && !w.starts_with('`')
            && !is_starter(bare);
        if capital {
            current.push(bare);
        }
        if (!capital || w.ends_with([',', '.', ';', ':', ')'])) && !current.is_empty() {
            out.push(current.join(" "));
            current.clear();
        }
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out.retain(|t| t.chars().any(char::is_alphabetic) && t.chars().count() >= 2);
    out.sort();
    out.dedup();
    out
}

/// Whether a capitalised `word` names nothing ([`List::Starters`]). English words, read on any
/// text: the names of an English page and of many others' are told by the same capitals.
pub fn is_starter(word: &str) -> bool {
    english(List::Starters).contains(&fold(word).as_str())
}

/// How a code is written, when it is one: a flag, a generic type, a path, a dotted key, a
/// snake_case name, or a file path; none for a plain name.
pub fn shape(name: &str) -> Option<&'static str> {
    let name = name.trim();
    if name.starts_with('-') {
        Some("flag")
    } else if name.contains('<') {
        Some("generic")
    } else if name.contains("::") {
        // A type's path is not a function's: `std::io::Error` against `File::open`.
        let last = name.rsplit("::").next().unwrap_or("");
        Some(if last.starts_with(char::is_uppercase) {
            "type path"
        } else {
            "path"
        })
    } else if name.contains('/') {
        Some("file")
    } else if name.contains('.') && !name.contains(' ') {
        Some("dotted")
    } else if name.contains('_') {
        Some("snake")
    } else {
        None
    }
}

/// Whether a name's brackets and quotes close: `String::from("hello` is a cut name.
pub fn balanced(name: &str) -> bool {
    let pairs = [('(', ')'), ('[', ']'), ('<', '>'), ('{', '}')];
    pairs
        .iter()
        .all(|&(open, close)| name.matches(open).count() == name.matches(close).count())
        && name.matches('"').count().is_multiple_of(2)
}

/// Whether `word` says what kind of thing a name is ("variant", "flag") in `language`
/// ([`List::KindWords`]); never in a language without the list.
pub fn is_kind_word(word: &str, language: Language) -> bool {
    language
        .list(List::KindWords)
        .is_some_and(|kinds| kinds.contains(&fold(word).as_str()))
}

/// The kind word right after `name` in `text` ("enum" in "The Result enum has …"), lower case;
/// none in a language without kind words.
pub fn kind_after(text: &str, name: &str, language: Language) -> Option<String> {
    let at = text.find(name)? + name.len();
    let rest = text[at..].trim_start_matches(['`', '*', '_']);
    let word: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    is_kind_word(&word, language).then(|| fold(&word))
}

/// `question` without the kind word right after `name` ("what does the Box<T> enum do" →
/// "what does the Box<T> do"); the question unchanged otherwise, and in a language without kind
/// words.
pub fn without_kind_after(question: &str, name: &str, language: Language) -> String {
    let Some(at) = question.find(name) else {
        return question.to_string();
    };
    let mut end = at + name.len();
    // One backtick (Markdown) or two (reStructuredText) close the name.
    while question[end..].starts_with('`') {
        end += 1;
    }
    let rest = &question[end..];
    let word: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect();
    if !is_kind_word(&word, language) {
        return question.to_string();
    }
    let skip = rest.len() - rest.trim_start().len() + word.len();
    // "How does the tide key passwd function?": a kind word ending a "how" question is its verb
    // (dropped, the sample corpus's bridge read "how does the command to set a new passphrase").
    let last = rest[skip..].trim().trim_end_matches(['?', '？']).is_empty();
    if last && fold(question.trim_start()).starts_with("how ") {
        return question.to_string();
    }
    format!("{}{}", &question[..end], &rest[skip..])
}

/// `text` with every occurrence of `term` (any case) replaced by `by`; none when it holds none
/// (an unanswerable's neighbour put in its thing's place; an identifier put back as written).
pub fn swap(text: &str, term: &str, by: &str) -> Option<String> {
    if !swappable(text, term) {
        return None;
    }
    let (lower, needle) = (fold(text), fold(term));
    let mut out = String::new();
    let mut rest = 0;
    for (at, _) in lower.match_indices(&needle) {
        out.push_str(&text[rest..at]);
        out.push_str(by);
        rest = at + needle.len();
        // A term cut before its closing bracket ("Option<T" of "Option<T>") is replaced with
        // the bracket; the neighbour keeps its own ("Box<T>", not "Box<T>>"; "String::from_utf8",
        // not "String::from_utf8>").
        for (open, close) in [('<', '>'), ('(', ')'), ('[', ']')] {
            let unclosed = |t: &str| t.matches(open).count() > t.matches(close).count();
            if unclosed(term) && text[rest..].starts_with(close) {
                rest += close.len_utf8();
                if unclosed(by) {
                    out.push(close);
                }
            }
        }
    }
    out.push_str(&text[rest..]);
    Some(out)
}

/// Whether [`swap`] can put a neighbour in `term`'s place in `text`: `text` names it (any
/// case), and lower-casing changed no byte length, outside ASCII, where offsets are read.
pub fn swappable(text: &str, term: &str) -> bool {
    let (lower, needle) = (fold(text), fold(term));
    lower.contains(&needle) && lower.len() == text.len() && needle.len() == term.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_words_are_a_languages() {
        let de = Language::parse("de").unwrap();
        assert!(is_kind_word("Enum", Language::ENGLISH));
        assert_eq!(
            kind_after(
                "The `Result` enum has an `Ok` variant",
                "Result",
                Language::ENGLISH
            )
            .as_deref(),
            Some("enum")
        );
        assert_eq!(
            without_kind_after("What does the `--fast` flag do?", "--fast", Language::ENGLISH),
            "What does the `--fast` do?"
        );
        // German has no kind words: "Flag" after a name is left as the question says it.
        assert!(!is_kind_word("flag", de));
        assert_eq!(kind_after("Die Option `--fast` flag", "--fast", de), None);
        assert_eq!(
            without_kind_after("Was macht das `--fast` Flag?", "--fast", de),
            "Was macht das `--fast` Flag?"
        );
    }

    #[test]
    fn a_plural_acronym_names_a_kind() {
        for kind in ["APIs", "URLs", "CPUs"] {
            assert!(plural_acronym(kind), "{kind}");
        }
        for one in ["ANSIS", "Rustaceans", "As", "DNS", "iOS", "APIServers"] {
            assert!(!plural_acronym(one), "{one}");
        }
    }

    #[test]
    fn names_in_code_marks_and_by_shape() {
        let text = "Set `lock.timeout` (default `\"300s\"`) or `TIDEPOOL_LOCK_TIMEOUT`; a job \
                    that waits longer fails with TP-409 and `tide` exits with code 4. Pass \
                    --overwrite to `tide restore`, see api.token_ttl since 2.4.0, and call \
                    `read_to_string()` or String::from. Sizes are `500` or `5%`.";
        assert_eq!(
            identifiers(text),
            [
                "lock.timeout",
                "TIDEPOOL_LOCK_TIMEOUT",
                "TP-409",
                "--overwrite",
                "tide restore",
                "api.token_ttl",
                "2.4.0",
                "read_to_string()",
                "String::from",
            ]
        );
    }

    #[test]
    fn a_dotted_word_in_a_chunk_that_marks_no_code_is_two_sentences_run_together() {
        let web = "10 SDS-software-defined storage.elated Terms. Every year.he went to the range.";
        assert!(run_together("storage.elated", web));
        assert!(run_together("year.he", web));
        // A name with more than letters and dots, or a file name, is one in prose too.
        assert!(!run_together("api.token_ttl", web));
        assert!(!run_together("release.py", web));
        assert!(run_together("it.pdf", "the form as the state you filled it.pdf"));
        // A chunk that marks code writes names outside the marks too.
        let docs = "Run `tide check`; the key api.token is read first.";
        assert!(!run_together("api.token", docs));
    }

    #[test]
    fn a_number_before_a_capitalised_word_in_web_text_numbers_a_section() {
        let web = "This text is a summary. Section 5.6.3 Diet and dental disease, Influence of fluoride.";
        assert!(numbers_a_section("5.6.3", web));
        assert!(not_a_name("5.6.3", web));
        // A version after its product, or on a page that marks code, is one.
        assert!(!numbers_a_section(
            "24.1.0",
            "Black 24.1.0 is the first release of the year."
        ));
        assert!(!numbers_a_section(
            "2.4.0",
            "Since 2.4.0 Tide reads `agent.toml` first."
        ));
        assert!(!numbers_a_section("v2.4.0", "Section v2.4.0 Notes"));
    }

    #[test]
    fn a_link_target_names_no_thing() {
        assert_eq!(
            identifiers(
                "See :doc:`/deploying/index` and :ref:`app_factories`, or {doc}`api_ref`; \
                         :func:`url_for` builds one and :class:`~click.BadParameter` is raised."
            ),
            ["url_for", "BadParameter"]
        );
        // Nor a label of another project's docs, shown as its last part (a plain word here).
        assert_eq!(shown_name("~jinja-filters.tojson"), "tojson");
        assert!(identifiers("use the :func:`~jinja-filters.tojson` filter").is_empty());
        assert_eq!(
            shown_name("~blinker.base.Signal.connect"),
            "blinker.base.Signal.connect"
        );
    }

    #[test]
    fn double_backticks_mark_one_span() {
        // Read as single marks, " module has an " was a span between two of them (a plain
        // lower-case word in code marks is no name either way).
        assert_eq!(
            identifiers("the ``attr`` module has an ``__version_info__`` attribute"),
            ["__version_info__"]
        );
    }

    #[test]
    fn frequencies_count_texts_holding_each_name() {
        let texts = ["TP-409 and TP-409 again", "lock.timeout and TP-409", "nothing"];
        let names = [
            "TP-409".to_string(),
            "lock.timeout".to_string(),
            "TP-412".to_string(),
        ];
        assert_eq!(frequencies(&names, texts.into_iter()), [2, 1, 0]);
    }

    #[test]
    fn a_sphinx_reference_is_named_as_the_page_shows_it() {
        // Flask's docs: "~" shows only the last part of the path.
        let text = "Functions registered with :meth:`~flask.Flask.teardown_request` are called, \
                    and :func:`url_for` builds the URL; :data:`!SERVER_NAME` is not linked.";
        assert_eq!(identifiers(text), ["teardown_request", "url_for", "SERVER_NAME"]);
        let text = "Use the :meth:`~blinker.base.Signal.connect` method of a signal.";
        assert_eq!(identifiers(text), ["blinker.base.Signal.connect"]);
    }

    #[test]
    fn values_snippets_and_prose_are_not_identifiers() {
        let text = "Use `x = 5` or `foo(bar)` or `{a}`; e.g. write 1.5 or 3,000 requests. \
                    Long: `cargo run --release -- --check`.";
        assert!(identifiers(text).is_empty(), "{:?}", identifiers(text));
    }
}
