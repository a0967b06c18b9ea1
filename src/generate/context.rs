//! What every generation task reads and nothing changes while a run goes on: the corpus and its
//! chunks, the templates, the questions already in the test set, a lexical index, and the run's
//! settings.

use super::candidate::stable_hash;
use super::facts::{self, Fact};
use super::verify::Dedup;
use crate::chunk::Chunk;
use crate::corpus::Corpus;
use crate::index::Bm25Index;
use crate::judge::calibration::Known;
use crate::lang::Language;
use crate::prompts::Prompts;
use crate::testset::TestSet;
use crate::text::{contains_folded, fold, single_spaced, spans};
use crate::workspace::ChunkedCorpus;

/// Settings of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Seed for planning and for the LLM's sampling.
    pub seed: u64,
    /// Sampling temperature for writing questions (judging uses 0).
    pub temperature: f32,
    /// Chunks the unanswerable check shows the judge.
    pub judge_top_k: usize,
    /// Real questions shown as style examples.
    pub examples: usize,
    /// Rounds at most (1 = the plan only, no replacements).
    pub max_rounds: u32,
    /// Candidates in a row ending `llm_failed` that stop the run (0 = never).
    pub stop_after_llm_failed: usize,
    /// Whether a case may be worded as bare keywords alone, when its question fails: only
    /// where the style target has keyword queries (over every hand-marked case, 5 of 25
    /// keyword wordings were right against 74 of 185 questions).
    pub keywords_alone: bool,
    /// The checks left out (`--skip`, `[generate] skip`).
    pub skip: super::checks::Skip,
    /// Whether each accepted lookup and identifier is labelled with every passage that answers
    /// it ([`super::answered_by`]): where the set's real questions are broad.
    pub broaden: bool,
    /// Where each candidate's verdict is appended (`--verdicts`; by default beside the LLM
    /// journal); none writes none.
    pub verdicts: Option<std::path::PathBuf>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: 0,
            temperature: 0.3,
            judge_top_k: 2,
            examples: 0,
            max_rounds: super::DEFAULT_MAX_ROUNDS,
            stop_after_llm_failed: super::DEFAULT_STOP_AFTER_LLM_FAILED,
            keywords_alone: true,
            skip: super::checks::Skip::default(),
            verdicts: None,
            broaden: false,
        }
    }
}

/// Context assumed when the model does not say.
const DEFAULT_CONTEXT: usize = 4096;

/// Everything a task needs, shared by all of them.
pub struct GenerateContext<'a> {
    /// The corpus.
    pub corpus: &'a Corpus,
    /// Its chunks, as planned, with each chunk's language.
    pub chunks: &'a ChunkedCorpus,
    /// The templates.
    pub prompts: &'a Prompts,
    /// Real questions given as style examples.
    pub examples: Vec<String>,
    /// Questions already in the test set.
    pub existing: Dedup,
    /// Lexical index over `chunks` (the workspace's), for the unanswerable check.
    pub index: &'a Bm25Index,
    /// Settings.
    pub options: RunOptions,
    /// Tokens a prompt may use (context minus answer and margin), per request.
    pub context_tokens: usize,
    /// How far each judge is trusted with each model: a judge runs only where it is
    /// calibrated (the built-in table unless [`GenerateContext::with_calibration`]).
    pub calibration: Known,
    /// Every document's text in lower case, to tell whether the corpus names something.
    lowered: Vec<String>,
    /// The corpus's code names joined by `_` or `-`, without them; built when first asked.
    joined_names: std::sync::OnceLock<Vec<String>>,
    /// The names the corpus's code defines and the routes it serves; built when first asked.
    defined: std::sync::OnceLock<std::collections::HashSet<String>>,
    /// The files the corpus makes up for its examples; built when first asked.
    example_files: std::sync::OnceLock<std::collections::HashSet<String>>,
}

impl<'a> GenerateContext<'a> {
    /// Prepares the shared state for a run over `chunks` into `set`.
    pub fn new(
        corpus: &'a Corpus,
        chunks: &'a ChunkedCorpus,
        prompts: &'a Prompts,
        set: &TestSet,
        options: RunOptions,
        context_tokens: Option<usize>,
    ) -> GenerateContext<'a> {
        let mut existing = Dedup::default();
        for c in &set.cases {
            existing.add(&c.question);
        }
        GenerateContext {
            corpus,
            chunks,
            prompts,
            examples: style_examples(set, options.examples, options.seed),
            existing,
            index: chunks.bm25(),
            options,
            context_tokens: context_tokens.unwrap_or(DEFAULT_CONTEXT),
            calibration: Known::built_in(),
            lowered: corpus.docs.iter().map(|d| squash(&d.text)).collect(),
            joined_names: std::sync::OnceLock::new(),
            defined: std::sync::OnceLock::new(),
            example_files: std::sync::OnceLock::new(),
        }
    }

    /// What a candidate of `kind` in `language` is checked as, with the run's checks left out.
    pub fn screen(&self, kind: super::candidate::Kind, language: Language) -> super::checks::Screen<'_> {
        super::checks::Screen::new(kind, language, &self.options.skip)
    }

    /// The same context with the person's calibrations (`judge-calibration.json` beside the
    /// set) as well as the built-in table.
    pub fn with_calibration(mut self, known: Known) -> GenerateContext<'a> {
        self.calibration = known;
        self
    }

    /// The language of chunk `i` (a position in `chunks`).
    pub fn language_of(&self, i: usize) -> Language {
        self.chunks.language_of(i)
    }

    /// What a prompt says of the language: its English name, except for English, which
    /// prompts never mention (their wording, and so their cached replies, stay as they were).
    pub fn language_var(&self, i: usize) -> Option<&'static str> {
        let l = self.language_of(i);
        (l != Language::ENGLISH).then(|| l.name())
    }

    /// Whether some document contains `phrase` (case and runs of white space ignored).
    pub fn corpus_mentions(&self, phrase: &str) -> bool {
        // A path is the same path from the project's root: Flask writes `examples/tutorial`,
        // the model "/examples/tutorial".
        let p = squash(phrase.trim_start_matches("./").trim_matches('/'));
        if p.is_empty() {
            return false;
        }
        if self.lowered.iter().any(|t| t.contains(&p)) {
            return true;
        }
        // A code name typed with other separators is the same name: Jinja's `striptags`
        // filter answers a user asking what `strip_tags` does.
        if let Some(bare) = unseparated(&p) {
            return self
                .lowered
                .iter()
                .any(|t| unseparated_words(t).any(|w| w == bare));
        }
        // "VS Code" is the corpus's "Visual Studio Code": an initialism stands for words.
        spelled_out(phrase).is_some_and(|re| self.chunks.iter().any(|c| re.is_match(&c.text)))
    }

    /// Whether `name` is a code name joined by `_` or `-` written two letters or fewer away from
    /// one the corpus has: a user asking what `catch_args` does has Jinja's `catch_kwargs` in
    /// mind, and the page on it half answers. Names of eight letters or more without digits
    /// only (a version's "3.12" and a short `get_id` are other things by one letter).
    pub fn misspells_a_name(&self, name: &str) -> bool {
        let Some(bare) = unseparated(&squash(name))
            .filter(|b| b.chars().count() >= 8 && b.chars().all(char::is_alphabetic))
        else {
            return false;
        };
        let names = self.joined_names.get_or_init(|| {
            let mut names: Vec<String> = self
                .lowered
                .iter()
                .flat_map(|t| joined_words(t))
                .filter(|w| w.chars().all(char::is_alphabetic))
                .collect();
            names.sort();
            names.dedup();
            names
        });
        near_spelling(&bare, names)
    }

    /// Whether the corpus writes `name`, a code name of two or three words joined by `_`, as
    /// words: "eager option" for `eager_options`, "list of methods" for `methods_list`. The
    /// page on the words half answers a user asking about the look-alike (Click explains eager
    /// options; Flask, the list of methods a route takes).
    pub fn writes_in_words(&self, name: &str) -> bool {
        in_words(name).is_some_and(|re| self.lowered.iter().any(|t| re.is_match(t)))
    }

    /// Whether `text` names a file the corpus makes up for an example: a program it supposes
    /// ("Suppose we have a program called ``tool.py``", Click's), or a file it shows under a
    /// comment naming it ("# child.tmpl" atop Jinja's listing). No user of the project asks
    /// what `tool.py --help` returns or what child.tmpl renders to.
    pub fn names_an_example_file(&self, text: &str) -> bool {
        names_one_of(
            text,
            self.example_files.get_or_init(|| example_files(self.chunks)),
        )
    }

    /// Where `question` starts to place its thing in a heading of the pages `labels` lie in, as
    /// a byte offset ([`super::verify::heading_tail`]): the prompt tells the model where the fact
    /// stands ("Title > Section"), and on held-out corpora it wrote "… in Windows Console Notes?"
    /// and "… in View Decorators". A heading a label says (any case), or its page writes as a
    /// name outside the heading's own line, is one a user may know.
    pub fn heading_tail(&self, question: &str, labels: &[crate::testset::Label]) -> Option<usize> {
        let headings: Vec<String> = labels
            .iter()
            .flat_map(|l| self.headings_at(&l.doc, l.start))
            .collect();
        let say = |h: &str| {
            labels.iter().any(|l| {
                contains_folded(&l.quote, h)
                    || self
                        .corpus
                        .doc(&l.doc)
                        .is_some_and(|d| super::verify::page_says(&d.text, h))
            })
        };
        super::verify::heading_tail(question, &headings, say)
    }

    /// Whether the corpus's own code defines `name` (for a dotted name, its first part):
    /// `def get_db(`, `class User(`, `@app.route("/about")`. Such a name is the page's example
    /// program's, which a user of the project never asks about by a look-alike ("does
    /// `connect_db` check if a connection was created", of Flask's tutorial's `get_db`).
    pub fn defines_in_code(&self, name: &str) -> bool {
        defines(name, self.defined.get_or_init(|| definitions(&self.lowered)))
    }

    /// Whether `name` names one specific thing: an identifier, a name of several words, or a
    /// capitalised word the corpus never writes in lower case — and not the corpus's subject
    /// (named in more than half of its documents).
    pub fn is_specific_name(&self, name: &str) -> bool {
        if self.is_subject(name) || crate::generate::names::plural_acronym(name) {
            return false;
        }
        if !crate::generate::names::identifiers(name).is_empty() || spans(name).count() > 1 {
            return true;
        }
        // An acronym or unit of three letters or fewer ("CPU", "RAM", "GB/s") names a kind of
        // thing, not one thing.
        if name.chars().filter(|c| c.is_alphabetic()).count() <= 3 {
            return false;
        }
        let lower = fold(name);
        let common = self
            .chunks
            .iter()
            .any(|c| c.text.split(|ch: char| !ch.is_alphanumeric()).any(|w| w == lower));
        !common
    }

    /// Whether `name` is the corpus's subject: named in more than half of its documents
    /// ("Black" in Black's docs).
    pub fn is_subject(&self, name: &str) -> bool {
        let everywhere = self.lowered.iter().filter(|t| t.contains(&squash(name))).count();
        everywhere * 2 > self.lowered.len().max(2)
    }

    /// How many chunks contain `phrase`, any case (`phrase` in lower case).
    pub fn chunks_saying(&self, phrase: &str) -> usize {
        self.chunks
            .iter()
            .filter(|c| fold(&c.text).contains(phrase))
            .count()
    }

    /// How many chunks contain `text` as written.
    pub fn chunk_frequency(&self, text: &str) -> usize {
        self.chunks.iter().filter(|c| c.text.contains(text)).count()
    }

    /// The facts of a chunk, best first.
    pub fn facts(&self, chunk: &Chunk) -> Vec<Fact> {
        match self
            .chunks
            .range_of(&chunk.doc)
            .find(|&i| self.chunks[i].id == chunk.id)
        {
            Some(i) => facts::of_chunk(self.chunks, i),
            None => facts::facts(&chunk.text),
        }
    }

    /// Where a fact of `chunk` stands in its document: "Title > Section".
    pub fn topic(&self, chunk: &Chunk, fact: &Fact) -> String {
        self.topic_at(chunk, fact.start)
    }

    /// The headings over character `at` of document `doc`: its title, and the section it falls
    /// under when that is another.
    pub fn headings_at(&self, doc: &str, at: usize) -> Vec<String> {
        self.corpus
            .doc(doc)
            .map_or_else(Vec::new, |d| facts::headings(&d.text, &d.path, at))
    }

    /// Where character `at` of `chunk` stands in its document: "Title > Section".
    pub fn topic_at(&self, chunk: &Chunk, at: usize) -> String {
        match self.corpus.doc(&chunk.doc) {
            Some(d) => facts::topic(&d.text, &d.path, chunk.start + at),
            None => chunk.doc.clone(),
        }
    }
}

/// A pattern for `phrase` with each initialism ("VS", two to four capitals) spelled out as
/// capitalised words with those initials: "VS Code" matches "Visual Studio Code". None when
/// the phrase has no initialism or nothing else (a bare "OS" would match any "Open Source").
/// Matches the text as written.
fn spelled_out(phrase: &str) -> Option<regex::Regex> {
    let words: Vec<&str> = spans(phrase).collect();
    let is_initialism =
        |w: &str| (2..=4).contains(&w.chars().count()) && w.chars().all(|c| c.is_ascii_uppercase());
    let initialisms = words.iter().filter(|w| is_initialism(w)).count();
    if initialisms == 0 || initialisms == words.len() {
        return None;
    }
    let parts: Vec<String> = words
        .iter()
        .map(|w| {
            if is_initialism(w) {
                let spelled: Vec<String> = w.chars().map(|c| format!("{c}[a-z]+")).collect();
                format!("(?:{}|{})", regex::escape(w), spelled.join(r"\s+"))
            } else {
                format!("(?i:{})", regex::escape(w))
            }
        })
        .collect();
    regex::Regex::new(&format!(r"\b{}\b", parts.join(r"\s+"))).ok()
}

/// The pattern of a code name's words as prose: `eager_options` as "eager option(s)", and a
/// two-word name also the other way round with "of" ("list of methods" for `methods_list`).
/// Only lower-case names of two or three words of three letters or more.
fn in_words(name: &str) -> Option<regex::Regex> {
    let name = name.trim().trim_matches(['`', '(', ')']).trim_end_matches("()");
    let parts: Vec<&str> = name.split('_').collect();
    let plain = |p: &&str| p.len() >= 3 && p.chars().all(|c| c.is_ascii_lowercase());
    if !(2..=3).contains(&parts.len()) || !parts.iter().all(plain) {
        return None;
    }
    let word = |p: &str| format!("{}s?", regex::escape(p.strip_suffix('s').unwrap_or(p)));
    let run: Vec<String> = parts.iter().map(|p| word(p)).collect();
    let mut pattern = format!(r"\b{}\b", run.join(r"[\s-]+"));
    if let [a, b] = parts.as_slice() {
        pattern.push_str(&format!(r"|\b{}\s+of\s+(?:the\s+)?{}\b", word(b), word(a)));
    }
    regex::Regex::new(&pattern).ok()
}

/// A name of one word joined by `_` or `-` (`strip_tags`, `dir-okay`), without them; none for
/// any other phrase, or one shorter than six letters once joined (`get_id` is too short to
/// be one name typed two ways).
fn unseparated(name: &str) -> Option<String> {
    let joined = name.contains(['_', '-']) && !name.contains(char::is_whitespace);
    let bare = without_separators(name);
    (joined && bare.chars().count() >= 6 && bare.chars().all(|c| c.is_alphanumeric() || c == '.'))
        .then_some(bare)
}

/// The words of `text` (lower case) as code names are written, without `_` or `-`.
fn unseparated_words(text: &str) -> impl Iterator<Item = String> + '_ {
    code_words(text).map(without_separators)
}

/// The words of `text` as code names are written (`catch_kwargs`, `dir-okay`,
/// `markup.striptags`), without the separators or dots around them.
fn code_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map(|w| w.trim_matches(['.', '-', '_']))
}

fn without_separators(word: &str) -> String {
    word.chars().filter(|c| !matches!(c, '_' | '-')).collect()
}

/// The files `chunks` make up for an example, in lower case: "a program called ``tool.py``",
/// or a line that is only a comment naming a file ("# child.tmpl", "{# base.html #}"). Read
/// from the chunks, not [`GenerateContext`]'s squashed texts: a listing's comment is told by
/// its line.
pub fn example_files(chunks: &[Chunk]) -> std::collections::HashSet<String> {
    static MADE_UP: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?m)(?:program|script|file|template|module|application|app)\s+(?:called|named)\s+[`'"*]*([\w-]+\.[a-z0-9]{1,4})\b|^[ \t]*(?:#|//|\{#)[ \t]*([\w-]+\.[a-z0-9]{1,4})[ \t]*(?:#\})?[ \t]*$"#,
        )
        .expect("valid regex")
    });
    chunks
        .iter()
        .flat_map(|c| {
            MADE_UP
                .captures_iter(&fold(&c.text))
                .filter_map(|c| c.get(1).or(c.get(2)).map(|m| m.as_str().to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether `text` names one of `files` ([`example_files`]).
pub fn names_one_of(text: &str, files: &std::collections::HashSet<String>) -> bool {
    !files.is_empty() && file_names(text).any(|f| files.contains(&f))
}

/// The file names `text` holds, in lower case: a name of two characters or more, a dot and an
/// extension of one to four letters or digits ("tool.py" of "``tool.py --help``"; not "e.g.").
fn file_names(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| c.is_whitespace() || matches!(c, '`' | '\'' | '"' | '(' | ')' | ',' | '?'))
        .map(|w| fold(w.trim_end_matches(['.', ':', ';', '!'])))
        .filter(|w| {
            w.rsplit_once('.').is_some_and(|(stem, ext)| {
                stem.chars().count() >= 2
                    && stem
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-'))
                    && (1..=4).contains(&ext.len())
                    && ext.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
        })
}

/// The names the code of `texts` (lower case) defines (`def get_db(`, `class user(`) and the
/// routes it serves (`route('/about'`).
fn definitions(texts: &[String]) -> std::collections::HashSet<String> {
    static DEFINED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"\b(?:def|class)\s+([a-z_][a-z0-9_]*)\s*[(:]|\broute\(\s*["'](/[^"']+)["']"#)
            .expect("valid regex")
    });
    texts
        .iter()
        .flat_map(|t| DEFINED.captures_iter(t))
        .filter_map(|c| c.get(1).or(c.get(2)).map(|m| m.as_str().to_string()))
        .collect()
}

/// Whether `defined` ([`definitions`]) holds `name`, or its first part.
fn defines(name: &str, defined: &std::collections::HashSet<String>) -> bool {
    let name = fold(name.trim_matches('`'));
    if name.starts_with('/') {
        return defined.contains(&name);
    }
    // Click names a command after its function: `run-server` is `def run_server(`.
    let first = name.split(['.', '(']).next().unwrap_or("").replace('-', "_");
    defined.contains(&first)
}

/// Whether `bare` is two letters or fewer from one of `names` and not it.
fn near_spelling(bare: &str, names: &[String]) -> bool {
    let len = bare.chars().count();
    names
        .iter()
        .any(|w| w.chars().count().abs_diff(len) <= 2 && w != bare && strsim::osa_distance(w, bare) <= 2)
}

/// The code names of `text` (lower case) joined by `_` or `-`, without them.
fn joined_words(text: &str) -> impl Iterator<Item = String> + '_ {
    code_words(text)
        .filter(|w| w.contains(['_', '-']))
        .map(without_separators)
}

/// Lower case with white space runs as one space.
fn squash(text: &str) -> String {
    single_spaced(&fold(text))
}

/// Up to `k` real questions of the set, chosen by the seed, in a stable order.
pub fn style_examples(set: &TestSet, k: usize, seed: u64) -> Vec<String> {
    let mut real: Vec<&str> = set
        .cases
        .iter()
        .filter(|c| c.is_real() && !c.question.trim().is_empty())
        .map(|c| c.question.trim())
        .collect();
    real.sort_by_key(|q| (stable_hash(seed, &["example", q]), *q));
    real.dedup();
    real.into_iter().take(k).map(str::to_string).collect()
}

impl super::checks::CaseContext for GenerateContext<'_> {
    fn chunks(&self) -> &ChunkedCorpus {
        self.chunks
    }

    fn existing(&self) -> &Dedup {
        &self.existing
    }

    fn screen(&self, kind: super::candidate::Kind, language: Language) -> super::checks::Screen<'_> {
        GenerateContext::screen(self, kind, language)
    }

    fn corpus_mentions(&self, phrase: &str) -> bool {
        GenerateContext::corpus_mentions(self, phrase)
    }

    fn names_an_example_file(&self, text: &str) -> bool {
        GenerateContext::names_an_example_file(self, text)
    }

    fn document(&self, path: &str) -> Option<&str> {
        self.corpus.doc(path).map(|d| d.text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::{
        Chunk, defines, definitions, example_files, file_names, in_words, joined_words, names_one_of,
        near_spelling, spelled_out, unseparated, unseparated_words,
    };

    #[test]
    fn a_question_placed_in_a_heading_its_page_never_says_is_told() {
        use crate::corpus::Corpus;
        let text = "Windows Console Notes\n=====================\n\nClick writes to sys.stderr through \
                    a wrapper on Windows.\n\n# GitHub Actions\n\nRun the check in GitHub Actions on \
                    every push.\n";
        let corpus = Corpus::of_one_page("wincmd.rst", text);
        let chunks = crate::workspace::ChunkedCorpus::new(Some(&corpus), &Default::default()).unwrap();
        let prompts = crate::prompts::Prompts::load(None).unwrap();
        let set = crate::testset::TestSet::default();
        let ctx = super::GenerateContext::new(&corpus, &chunks, &prompts, &set, Default::default(), None);
        let label = |quote: &str| {
            let start = text[..text.find(quote).unwrap()].chars().count();
            crate::testset::Label::spanning("wincmd.rst", start, quote)
        };
        let stderr = [label("Click writes to sys.stderr through a wrapper on Windows.")];
        assert!(
            ctx.heading_tail(
                "what is the purpose of sys.stderr in Windows Console Notes",
                &stderr
            )
            .is_some()
        );
        assert!(
            ctx.heading_tail("what is the purpose of sys.stderr on Windows", &stderr)
                .is_none()
        );
        // A heading the page writes as a name elsewhere is one a user may say.
        let push = [label("Run the check in GitHub Actions on every push.")];
        assert!(
            ctx.heading_tail("when does the check run in GitHub Actions?", &push)
                .is_none()
        );
    }

    #[test]
    fn a_code_name_is_found_typed_with_other_separators() {
        let bare = unseparated("strip_tags").unwrap();
        assert_eq!(bare, "striptags");
        let page = "the `striptags` filter strips sgml/xml tags; see markup.striptags() too.";
        assert!(unseparated_words(page).any(|w| w == bare));
        // Another name holding the same letters is not it, nor a name too short to tell.
        assert!(!unseparated_words("catch_kwargs and catch_varargs").any(|w| w == "catchargs"));
        assert!(unseparated("get_id").is_none());
        assert!(unseparated("strip tags").is_none());
        assert!(unseparated("tests/test_file.py").is_none());
    }

    #[test]
    fn a_joined_name_two_letters_from_the_corpuss_is_near() {
        let names: Vec<String> =
            joined_words("{{ caller(catch_kwargs) }} and `catch_varargs`; eager-param").collect();
        assert_eq!(names, ["catchkwargs", "catchvarargs", "eagerparam"]);
        assert!(near_spelling("catchargs", &names));
        assert!(near_spelling("eagerparams", &names));
        // The name itself is mentioned, not misspelt; a name three letters away is another.
        assert!(!near_spelling("catchkwargs", &names));
        assert!(!near_spelling("eageroptions", &names));
    }

    #[test]
    fn a_name_the_corpuss_code_defines_is_the_pages_own() {
        let texts = vec![
            "def get_db():\n    if 'db' not in g:".to_string(),
            "class user(base):".to_string(),
        ];
        let texts = definitions(&texts);
        assert!(defines("get_db", &texts));
        assert!(defines("`User.query`", &texts));
        assert!(!defines("get_dbx", &texts));
        assert!(!defines("Context.invoke", &texts));
        let click = vec!["@cli.command()\ndef run_server(port):\n@app.route('/about')".to_string()];
        let click = definitions(&click);
        assert!(defines("run-server", &click));
        assert!(defines("/about", &click));
        assert!(!defines("/contact", &click));
    }

    #[test]
    fn an_initialism_beside_a_word_is_found_spelled_out() {
        let re = spelled_out("VS Code").unwrap();
        assert!(re.is_match("## Visual Studio Code\n"));
        assert!(re.is_match("install the VS code extension"));
        assert!(!re.is_match("a very small code base"));
        // Alone, an initialism matches too much; without one, there is nothing to spell out.
        assert!(spelled_out("OS").is_none());
        assert!(spelled_out("Visual Studio").is_none());
    }

    #[test]
    fn a_code_name_the_corpus_writes_as_words_is_found() {
        let click = "options can be eager: an eager option is processed before the others";
        let flask = "a route takes a list of methods it answers to";
        assert!(in_words("eager_options").unwrap().is_match(click));
        assert!(in_words("`methods_list`").unwrap().is_match(flask));
        // Other words, other names: no pattern for a dotted, capitalised or short-worded one.
        assert!(!in_words("eager_commands").unwrap().is_match(click));
        assert!(
            !in_words("max_free_space")
                .unwrap()
                .is_match("keeps min free space on the disk")
        );
        assert!(in_words("storage.max_free_space").is_none());
        assert!(in_words("HTTP_PROXY").is_none());
        assert!(in_words("get_id").is_none());
        assert!(in_words("options").is_none());
    }

    #[test]
    fn a_file_the_corpus_makes_up_for_an_example_is_found() {
        let chunk = |text: &str| Chunk {
            id: "page.rst#0".into(),
            doc: "page.rst".into(),
            start: 0,
            end: text.chars().count(),
            text: text.to_string(),
        };
        let chunks = [
            chunk("Suppose we have a program called ``tool.py``, containing a subcommand"),
            chunk(".. code-block:: jinja\n\n    # child.tmpl\n    {% extends \"parent.tmpl\" %}"),
            chunk("run `python app.py` # starts the server\n# see config.py"),
        ];
        let files = example_files(&chunks);
        let mut found: Vec<&str> = files.iter().map(String::as_str).collect();
        found.sort();
        // A comment that says more than the name is a comment, not a listing's file name.
        assert_eq!(found, ["child.tmpl", "tool.py"]);
        let named = |t: &str| file_names(t).collect::<Vec<_>>();
        assert_eq!(named("what does ``tool.py --help`` return?"), ["tool.py"]);
        assert_eq!(named("what does `child.tmpl` render to"), ["child.tmpl"]);
        assert!(named("what does Click's echo do? e.g. print.").is_empty());
        assert!(names_one_of("what does ``tool.py --help`` return?", &files));
        assert!(!names_one_of("what does mytool.py do", &files));
    }
}
