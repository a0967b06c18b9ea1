//! Facts: the statements of a passage a question can be anchored on — prose sentences and
//! table rows — ranked by how much they say. A small model asked to "write a question about
//! this passage" asks about anything, or about the passage itself; given one statement it asks
//! about that statement, and the statement becomes the case's quote.
//!
//! Sentences are found per paragraph, not per line: documentation wraps its lines, and a
//! sentence cut at a line end is no fact. Each fact keeps its exact text (an exact substring of
//! the passage, so the label's quote is found where it stands) and, apart from it, the form the
//! prompt shows: links reduced to their text, line breaks to spaces, a table row with its column
//! names, and, for a sentence that opens with "It" or "This", the sentence before it.

use std::sync::LazyLock;

use regex::Regex;
use unicode_segmentation::UnicodeSegmentation;

use super::tables::{Line, Table, TableRead};
use crate::lang::lists::{english, english_pairs};
use crate::lang::{Language, List, Pairs};
use crate::text::{fold, single_spaced, spans, words};

/// A statement of a passage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// Exact text, as it stands in the passage.
    pub quote: String,
    /// Character offset of `quote` in the passage.
    pub start: usize,
    /// What a prompt shows.
    pub shown: String,
    /// The sentence before, for a fact that opens with a pronoun.
    pub context: Option<String>,
    /// For a table row: the table's column names and the row's cells.
    pub row: Option<Row>,
    /// From a block quote (testimonials, cited text): used only when nothing else is there.
    quoted: bool,
    score: usize,
}

impl Fact {
    /// Whether it opens with a word that leans on the sentence before ("This decorator …",
    /// "It …", also after a discourse marker: "Well, at least it …"), whether or not that
    /// sentence is at hand, points back inside ([`points_back`]), sets up a made-up scene
    /// ([`Fact::hypothetical`]) or is a list item's fragment ([`Fact::fragment`]).
    pub fn leans(&self) -> bool {
        let words = words(&self.shown);
        // A discourse marker before it leans on nothing by itself ("Well, at least it's the
        // easiest way to speed up things": Flask's caching page, asked "how does Flask-Caching
        // speed up things" → "easiest way").
        let word = |i: usize| {
            words
                .get(i)
                .map_or("", |w| w.trim_end_matches("'s").trim_end_matches("’s"))
        };
        // English words, read on any passage (as its `score` reads English content words).
        let (markers, pairs) = (
            english(List::DiscourseMarkers),
            english_pairs(Pairs::DiscourseMarkers),
        );
        let mut i = 0;
        loop {
            if markers.contains(&word(i)) {
                i += 1;
            } else if pairs.contains(&(word(i), word(i + 1))) {
                i += 2;
            } else {
                break;
            }
        }
        english(List::Leaning).contains(&word(i))
            || self.hypothetical()
            || points_back(&words)
            || self.fragment()
    }

    /// Whether it is a fragment that goes on from a lead-in: a list item opening with a plain
    /// word in lower case ("supports lazy loading of subcommands at runtime", one of "Click in
    /// three points:"), or with a verb that no statement opens on ("Are not fully documented by
    /// the help page …", "Recommended to use for everything except subcommands …": Click's
    /// points under the headings "Arguments" and "Options"), which says nothing of what it is
    /// said of.
    fn fragment(&self) -> bool {
        let first = spans(&self.shown).next().unwrap_or("");
        let lower = first.chars().all(|c| c.is_ascii_lowercase());
        self.row.is_none()
            && first.len() >= 2
            && (lower || english(List::FragmentVerbs).contains(&fold(first).as_str()))
    }

    /// Whether it sets up a scene the page makes up ("Imagine for instance that there was a
    /// super cool plugin …", "Suppose you …"), or what the reader might do or want ("For
    /// instance, you might want to pass a configuration file with a ``--config`` parameter",
    /// "In another application you might give the blog blueprint a ``url_prefix``"): what it
    /// names is the example's, not the product's (Click's "super cool plugin" made two
    /// unanswerables that lean on it; Click has no `--config`, and the generated "what is the
    /// purpose of the `--config` parameter" was wrong, as were the blueprint's and
    /// setuptools' "you might" cases, the only ones among the marks).
    pub fn hypothetical(&self) -> bool {
        static SCENE: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i)^\W*(?:imagine|suppose|assume|pretend|let['’]?s\s+(?:say|imagine|pretend|assume)|say\s+(?:you|we)|what\s+if)\b|\byou\s+might\b")
                .expect("valid regex")
        });
        SCENE.is_match(&self.shown)
    }
}

/// A fact that is a table row, with the table it stands in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The column names, as a reader sees them.
    pub header: Vec<String>,
    /// The row's cells, as a reader sees them (code marks and quotes of values dropped).
    pub cells: Vec<String>,
    /// Character offset in the passage where the table's header line starts.
    pub header_start: usize,
}

/// Fewest and most words of a sentence fact.
const WORDS: std::ops::RangeInclusive<usize> = 6..=45;

/// Whether "those" inside the sentence, or a demonstrative ending it, points at things of the
/// sentence before ("If the template engine cannot find a name, one of those objects is
/// created and returned": Jinja's Undefined objects, which an answer then left unnamed).
/// "Those who …", "those of …" and "those options that …" say in the sentence what they are.
fn points_back(words: &[String]) -> bool {
    let says_which = english(List::SaysWhich);
    // A demonstrative ending the sentence stands for something before it: "You should run
    // your application with limits on resources such as CPU and memory to mitigate this."
    // ("… until its policy forgets it": "it" is mostly the sentence's own.)
    let demonstratives = english(List::Demonstratives);
    let at = |i: usize| words.get(i).map_or("", String::as_str);
    let ends_on_one = words.len() > 1 && words.last().is_some_and(|w| demonstratives.contains(&w.as_str()));
    ends_on_one
        || (1..words.len())
            .any(|i| at(i) == "those" && !says_which.contains(&at(i + 1)) && !says_which.contains(&at(i + 2)))
}

/// The facts of `text`, best first: those that stand alone before those leaning on the
/// sentence before, then richest in content words, then with specifics (numbers, code, option
/// names), then in reading order. Deterministic.
pub fn facts(text: &str) -> Vec<Fact> {
    facts_after("", text)
}

/// The facts of chunk `i` of `chunks` (a corpus's chunks, each document's in order), read on
/// from the chunk before it in the same document: a chunk that starts inside a code block
/// ("@app.route('/', methods=['GET', 'POST'])", its indentation left in the gap before the
/// chunk) has no blank line before the block's other lines, and read alone its code was prose
/// — the sides of a comparison of two lines of one example.
pub fn of_chunk(chunks: &[crate::chunk::Chunk], i: usize) -> Vec<Fact> {
    let (chunk, before) = (&chunks[i], i.checked_sub(1).map(|p| &chunks[p]));
    let lead = match before {
        Some(b) if b.doc == chunk.doc && b.start < chunk.start => {
            let upto = b
                .text
                .char_indices()
                .nth(chunk.start - b.start)
                .map_or(b.text.len(), |(at, _)| at);
            &b.text[..upto]
        }
        _ => "",
    };
    facts_after(lead, &chunk.text)
}

/// The facts of `text`, read as the continuation of `lead`.
fn facts_after(lead: &str, text: &str) -> Vec<Fact> {
    let (_, state) = blocks(lead, Reading::default());
    let mut found = Vec::new();
    for block in blocks(text, state).0 {
        match block {
            // A testimonial ("« … » — Jonas, IT lead") is someone's words, not the product's
            // facts: a question about it asks what a customer said.
            Block::Prose { start, end, quoted } if quoted && is_testimonial(&text[start..end]) => {}
            Block::Prose { start, end, quoted } => sentences(text, start, end, quoted, &mut found),
            Block::Table(table) => table_rows(text, &table, &mut found),
        }
    }
    if found.iter().any(|f| !f.quoted) {
        found.retain(|f| !f.quoted);
    }
    // A fact that leans on the sentence before comes last: its label holds what it says but
    // not what it says it of, and 23 of the 25 one-label cases hand-marked on such labels were
    // wrong ("what does ``load_logged_in_user`` do" → "Then ``load_logged_in_user`` won't load
    // a user …").
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by(|&a, &b| (found[a].leans(), found[b].score, a).cmp(&(found[b].leans(), found[a].score, b)));
    order.into_iter().map(|i| found[i].clone()).collect()
}

/// A run of lines: a paragraph (byte range of the text) or a table.
enum Block {
    Prose { start: usize, end: usize, quoted: bool },
    Table(Table),
}

/// Where a text left off, for the text that goes on from it.
#[derive(Debug, Clone, Copy, Default)]
struct Reading {
    /// Inside a fenced code block.
    in_fence: bool,
    /// Inside a code block indented after a blank line.
    in_code: bool,
    /// Where a reStructuredText literal block stands: its content may be indented by any
    /// amount (Click's docs indent code by three spaces, which read as prose).
    literal: Literal,
    /// The text ends with a line's indentation: the next text's first line is indented.
    indented_next: bool,
}

/// A reStructuredText literal block: announced by a paragraph ending in "::" or a code
/// directive (`.. code-block:: python`), it is every indented line after the blank line that
/// follows, up to the first line back at the margin.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Literal {
    #[default]
    None,
    /// Announced; its blank line has not come yet (a directive's options stand between).
    Announced,
    /// Inside its indented lines.
    Inside,
}

/// Whether `line` (trimmed) announces a literal block: a paragraph line ending in "::" ("For
/// example::") or a directive whose content is code, among them the Pallets projects' own
/// (`.. click:example::` is a program, `.. click:run::` the calls that run it: Click's docs
/// hold 148), and a table of contents (`.. toctree::`). Other directives' content (`.. note::`,
/// `.. py:data::`) is prose.
fn announces_literal(t: &str) -> bool {
    const CODE: &[&str] = &[
        "code-block",
        "code",
        "sourcecode",
        "literalinclude",
        "doctest",
        "testcode",
        "testoutput",
        "parsed-literal",
        // Not code, but no prose either: the names of the pages a table of contents lists
        // ("why quickstart virtualenv setuptools …" was asked as Click's "common parameters").
        "toctree",
    ];
    match t.strip_prefix("..") {
        Some(rest) => rest.trim_start().split_once("::").is_some_and(|(name, _)| {
            let name = name.trim();
            CODE.contains(&name)
                || name
                    .rsplit_once(':')
                    .is_some_and(|(_, n)| matches!(n, "example" | "run"))
        }),
        None => t.ends_with("::") && t.len() > 2,
    }
}

/// Splits `text` into paragraphs and tables ([`TableRead`]), leaving out code (fenced, indented
/// after a blank line, or a reStructuredText literal block at any indentation), headings (`#`
/// or reStructuredText underlines), directives and link definitions; `from` is where the text
/// before it left off. Returns where this text leaves off.
fn blocks(text: &str, from: Reading) -> (Vec<Block>, Reading) {
    let lines = lines_with_offsets(text);
    let mut out = Vec::new();
    let mut para: Option<(usize, usize, bool)> = None;
    // The table being read.
    let mut table: Option<TableRead> = None;
    let mut in_fence = from.in_fence;
    let mut after_blank = true;
    let mut in_code = from.in_code;
    // Announced before the chunk: the blank line was in the gap the chunk's start trimmed, so
    // its first line is the block's first, stripped of its indentation. Inside, the text before
    // tells whether the first line was indented (chunks overlap, so it may end in the spaces).
    let starts_inside =
        from.literal == Literal::Announced || from.literal == Literal::Inside && from.indented_next;
    let mut literal = if starts_inside {
        Literal::Inside
    } else {
        from.literal
    };
    // Inside an indented block, a first line that the chunk's start stripped of its
    // indentation still belongs to the block when the next line is indented.
    let indented_at = |i: usize| {
        lines
            .get(i)
            .is_some_and(|&(s, e)| text[s..e].starts_with("    ") || text[s..e].starts_with('\t'))
    };
    let first_in_code = from.in_code && indented_at(1);
    // A literal block's first line the chunk's start stripped of its indentation.
    let first_stripped = starts_inside
        || lines
            .get(1)
            .is_some_and(|&(s, e)| text[s..e].starts_with([' ', '\t']));
    let flush_para = |para: &mut Option<(usize, usize, bool)>, out: &mut Vec<Block>| {
        if let Some((start, end, quoted)) = para.take() {
            out.push(Block::Prose { start, end, quoted });
        }
    };
    for (i, &(start, end)) in lines.iter().enumerate() {
        let line = &text[start..end];
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            flush_para(&mut para, &mut out);
            after_blank = false;
            in_code = false;
            continue;
        }
        if in_fence {
            continue;
        }
        // A literal block's lines are code at any indentation.
        let off_margin = line.starts_with([' ', '\t']) || (i == 0 && first_stripped);
        match literal {
            Literal::Inside if t.is_empty() || off_margin => {
                flush_para(&mut para, &mut out);
                after_blank = t.is_empty();
                continue;
            }
            Literal::Inside => literal = Literal::None,
            Literal::Announced if t.is_empty() => literal = Literal::Inside,
            Literal::Announced if !off_margin && !t.starts_with(':') => literal = Literal::None,
            _ => {}
        }
        if announces_literal(t) {
            literal = Literal::Announced;
        }
        let underline = lines
            .get(i + 1)
            .is_some_and(|&(s, e)| is_underline(text[s..e].trim()) && !t.is_empty());
        // A line of the table being read, or one that opens a table.
        let in_table = match &mut table {
            Some(tr) => {
                let next_blank = lines
                    .get(i + 1)
                    .is_none_or(|&(s, e)| text[s..e].trim().is_empty());
                let read = tr.read(line, (start, end), next_blank);
                if read != Line::Taken {
                    out.extend(table.take().map(|t| Block::Table(t.finish())));
                }
                read != Line::Outside
            }
            None => false,
        };
        if !in_table {
            table = TableRead::open(line, (start, end));
        }
        if in_table || table.is_some() {
            flush_para(&mut para, &mut out);
            after_blank = false;
            in_code = false;
            continue;
        }
        let indented = line.starts_with("    ") || line.starts_with('\t') || (i == 0 && first_in_code);
        let skip = t.is_empty()
            || t.starts_with('#')
            || underline
            || is_underline(t)
            || (indented && after_blank)
            || t.starts_with("..")
            || t.starts_with('{')
            || t.starts_with('<')
            || is_link_definition(t)
            || is_directive_option(t);
        if skip {
            flush_para(&mut para, &mut out);
            if !t.is_empty() {
                in_code = indented && after_blank;
            }
            after_blank = t.is_empty() || (indented && after_blank);
            continue;
        }
        in_code = false;
        let item = is_list_item(t);
        let quoted = t.starts_with('>');
        match &mut para {
            Some((_, e, q)) if !item && *q == quoted => *e = end,
            _ => {
                flush_para(&mut para, &mut out);
                para = Some((start, end, quoted));
            }
        }
        after_blank = false;
    }
    flush_para(&mut para, &mut out);
    if let Some(tr) = table {
        out.push(Block::Table(tr.finish()));
    }
    (
        out,
        Reading {
            in_fence,
            in_code,
            literal,
            indented_next: text
                .rsplit_once('\n')
                .is_some_and(|(_, last)| !last.is_empty() && last.chars().all(|c| c == ' ' || c == '\t')),
        },
    )
}

/// Whether a block quote is a quotation of someone: it holds quotation marks or ends with an
/// attribution ("— Name, role").
fn is_testimonial(block: &str) -> bool {
    let marks = ['"', '\u{201c}', '\u{201d}', '\u{ab}', '\u{bb}', '\u{201e}'];
    let attributed = block.lines().any(|l| {
        l.trim_start_matches(['>', ' '])
            .starts_with(['\u{2014}', '\u{2013}', '~'])
    });
    block.contains(marks) || attributed
}

/// Byte ranges of the lines, without their line ends.
fn lines_with_offsets(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        out.push((start, start + body.len()));
        start += line.len();
    }
    out
}

fn is_underline(t: &str) -> bool {
    t.len() >= 3
        && t.chars().next().is_some_and(|c| "=-~^*+#".contains(c))
        && t.chars().all(|c| c == t.chars().next().unwrap_or(' '))
}

/// A reStructuredText directive's option line (`:caption: config.py`, `:members:`): markup, not
/// prose. Flask's docs hold 54 `:caption:` lines, and one was a multi-hop's second hop. Field
/// lists (`:param name: …`, `:returns: …`) say something and are kept.
fn is_directive_option(t: &str) -> bool {
    const OPTIONS: &[&str] = &[
        "caption",
        "members",
        "undoc-members",
        "inherited-members",
        "private-members",
        "special-members",
        "exclude-members",
        "member-order",
        "show-inheritance",
        "noindex",
        "noindexentry",
        "maxdepth",
        "titlesonly",
        "glob",
        "hidden",
        "class",
        "name",
        "align",
        "alt",
        "target",
        "scale",
        "width",
        "height",
        "figwidth",
        "figclass",
        "language",
        "linenos",
        "lineno-start",
        "emphasize-lines",
        "dedent",
        "force",
        "tab-width",
        "encoding",
        "start-after",
        "end-before",
        "start-line",
        "end-line",
        "literal",
        "synopsis",
        "platform",
        "local",
        "backlinks",
        "depth",
        "no-value",
    ];
    t.strip_prefix(':')
        .and_then(|rest| rest.split_once(':'))
        .is_some_and(|(name, after)| {
            OPTIONS.contains(&name) && (after.is_empty() || after.starts_with(char::is_whitespace))
        })
}

fn is_link_definition(t: &str) -> bool {
    t.starts_with('[') && t.find("]:").is_some_and(|i| !t[..i].contains(' ') || i < 40)
}

fn is_list_item(t: &str) -> bool {
    let bullet = t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ");
    let numbered = t
        .split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.len() <= 3 && n.chars().all(|c| c.is_ascii_digit()));
    bullet || numbered
}

/// The sentences of the paragraph `text[start..end]`.
fn sentences(text: &str, start: usize, end: usize, quoted: bool, out: &mut Vec<Fact>) {
    let para = &text[start..end];
    // Line breaks and block-quote marks become spaces of the same length, so sentence bounds
    // do not stop at wrapped lines and byte offsets stay those of the text.
    let flat = flatten(para);
    let mut previous: Option<String> = None;
    for (offset, sentence) in flat.split_sentence_bound_indices() {
        let whole = para[offset..offset + sentence.len()].trim_end();
        let trimmed = whole.trim_start();
        let raw = strip_item_marker(trimmed);
        let byte = start + offset + (whole.len() - raw.len());
        let shown = visible(raw);
        let n = words(&shown).len();
        // A console transcript ("$ cargo run Compiling … error[E0369]: …", a code block of an
        // HTML page read as text) shows one run's output: asked about, it made "what is the
        // error code in Rust" → "E0369".
        let transcript = is_transcript(raw);
        let usable =
            WORDS.contains(&n) && !shown.ends_with(['?', '!', ':']) && !shown.contains("http") && !transcript;
        if usable {
            let opener = words(&shown).first().cloned().unwrap_or_default();
            let context = english(List::Leaning)
                .contains(&opener.as_str())
                .then(|| previous.clone())
                .flatten();
            out.push(Fact {
                quote: raw.to_string(),
                start: text[..byte].chars().count(),
                score: score(&shown),
                shown,
                context,
                row: None,
                quoted,
            });
        }
        if n > 0 {
            previous = Some(visible(raw));
        }
    }
}

/// Whether `sentence` is console output: a shell prompt ("$ cargo run …") or a compiler's
/// message ("error[E0369]: …", "error: could not compile …", "warning: …", "--> src/main.rs")
/// opening it or one of its lines.
fn is_transcript(sentence: &str) -> bool {
    sentence.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("$ ")
            || l.starts_with("--> ")
            || ["error", "warning"]
                .iter()
                .any(|w| l.strip_prefix(w).is_some_and(|r| r.starts_with([':', '['])))
    }) || sentence.contains(" error[E")
        || sentence.contains(" error: could not compile")
}

/// The table's data rows, each shown with its column names.
fn table_rows(text: &str, table: &Table, out: &mut Vec<Fact>) {
    let header_start = text[..table.header_start].chars().count();
    let header: Vec<String> = table.header.iter().map(|h| visible(h)).collect();
    for row in &table.rows {
        let (s, e) = row.range;
        let shown = if header.is_empty() {
            row.cells
                .iter()
                .filter(|v| !v.is_empty())
                .map(|v| plain_cell(v))
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            header
                .iter()
                .zip(&row.cells)
                .filter(|(_, v)| !v.is_empty())
                .map(|(h, v)| format!("{h}: {}", plain_cell(v)))
                .collect::<Vec<_>>()
                .join("; ")
        };
        // A row of a word or two says nothing; a very long one is a paragraph in a table.
        if !(4..=80).contains(&words(&shown).len()) {
            continue;
        }
        out.push(Fact {
            quote: text[s..e].to_string(),
            start: text[..s].chars().count(),
            score: score(&shown),
            shown,
            context: None,
            row: Some(Row {
                header: header.clone(),
                cells: row.cells.iter().map(|c| plain_cell(c)).collect(),
                header_start,
            }),
            quoted: false,
        });
    }
}

/// A table cell as a small model reads it best: without code marks and the quotes of a string
/// value (`` `"300s"` `` → `300s`).
fn plain_cell(cell: &str) -> String {
    let v = visible(cell);
    let v = v.trim_matches('`');
    let v = v.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(v);
    v.replace('`', "")
}

fn flatten(para: &str) -> String {
    let mut out = String::with_capacity(para.len());
    let mut line_start = true;
    for c in para.chars() {
        if c == '\n' || c == '\r' {
            out.push(' ');
            line_start = true;
        } else if line_start && c == '>' {
            out.push(' ');
        } else {
            line_start = line_start && c.is_whitespace();
            out.push(c);
        }
    }
    out
}

fn strip_item_marker(s: &str) -> &str {
    let s = s.trim_start_matches('>').trim_start();
    for m in ["- ", "* ", "+ "] {
        if let Some(rest) = s.strip_prefix(m) {
            return rest.trim_start();
        }
    }
    if let Some((n, rest)) = s.split_once(". ")
        && !n.is_empty()
        && n.len() <= 3
        && n.chars().all(|c| c.is_ascii_digit())
    {
        return rest.trim_start();
    }
    s
}

/// Text as a reader sees it: `[text](url)` → `text`, emphasis marks dropped, spaces collapsed.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find("](").and_then(|close| {
            after[close + 2..]
                .find(')')
                .map(|paren| (close, close + 2 + paren + 1))
        }) {
            Some((close, skip)) => {
                out.push_str(&rest[..open]);
                out.push_str(&after[..close]);
                rest = &after[skip..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    // Strong emphasis marks go, but not inside code: `__attrs_post_init__` is the name users
    // paste, and "attrs_post_init" names nothing.
    let mut plain = String::with_capacity(out.len());
    let mut at = 0;
    for code in super::names::CODE.find_iter(&out) {
        plain.push_str(&out[at..code.start()].replace("**", "").replace("__", ""));
        plain.push_str(code.as_str());
        at = code.end();
    }
    plain.push_str(&out[at..].replace("**", "").replace("__", ""));
    single_spaced(&plain)
}

/// Distinct content words, plus one for each specific: a number, a code span, an option.
fn score(shown: &str) -> usize {
    let mut terms = Language::ENGLISH.analyzer().content_terms(shown);
    terms.sort();
    terms.dedup();
    let specifics = spans(shown)
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) || w.starts_with('`') || w.starts_with("--"))
        .count();
    terms.len() + specifics.min(4)
}

/// The document's title: its first `#` heading or underlined line, else its file name when that
/// holds a word. A name of digits only is an id ("8243793.txt", each of TREC DL 2020's
/// passages): shown it as the page's title, the model asked "8243793 turbine height" on every
/// draw, a name no user has seen. Empty when there is none.
pub fn title(doc_text: &str, path: &str) -> String {
    let lines: Vec<&str> = doc_text.lines().take(40).collect();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim();
        if let Some(h) = t.strip_prefix("# ") {
            return visible(h);
        }
        if !t.is_empty() && lines.get(i + 1).is_some_and(|n| is_underline(n.trim())) && !is_underline(t) {
            return visible(t);
        }
    }
    let stem = crate::text::file_stem(path);
    if !stem.chars().any(char::is_alphabetic) {
        return String::new();
    }
    stem.replace(['_', '-'], " ")
}

/// The heading a position (in characters) of the document falls under, if any.
pub fn section(doc_text: &str, at: usize) -> Option<String> {
    let byte = doc_text.char_indices().nth(at).map_or(doc_text.len(), |(b, _)| b);
    let lines: Vec<&str> = doc_text[..byte].lines().collect();
    for i in (0..lines.len()).rev() {
        let t = lines[i].trim();
        if t.starts_with("## ") || t.starts_with("### ") || t.starts_with("#### ") {
            return Some(visible(t.trim_start_matches('#').trim()));
        }
        if i > 0 && is_underline(t) && !lines[i - 1].trim().is_empty() && !is_underline(lines[i - 1].trim()) {
            return Some(visible(lines[i - 1].trim()));
        }
    }
    None
}

/// The headings over character `at` of a document: its title, and the section it falls under
/// when that is another.
pub fn headings(doc_text: &str, path: &str, at: usize) -> Vec<String> {
    let t = title(doc_text, path);
    let s = section(doc_text, at).filter(|s| *s != t);
    [Some(t).filter(|t| !t.is_empty()), s]
        .into_iter()
        .flatten()
        .collect()
}

/// "Title > Section": where in the documentation a fact stands, for the prompt.
pub fn topic(doc_text: &str, path: &str, at: usize) -> String {
    headings(doc_text, path, at).join(" > ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn testimonials_are_no_facts_but_notes_in_block_quotes_are() {
        let text = "# Pricing\n\n> \"The Team plan paid for itself the first time someone deleted\n> the wrong folder.\"\n> \u{2014} Jonas, IT lead\n\n\
                    > Note: annual plans are paid up front and cost the same as ten months.\n";
        let f = facts(text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].shown.starts_with("Note: annual plans"));
    }

    #[test]
    fn directive_options_are_markup_and_field_lists_are_facts() {
        // A chunk that starts inside a directive starts with its option, unindented.
        let text = ":caption: ``.venv/var/flaskr-instance/config.py``\n\n    \
                    SECRET_KEY = 'dev'\n\nCreate the file in the instance folder.\n\n\
                    :param url: The database to connect to, read from the instance folder.\n";
        let shown: Vec<String> = facts(text).into_iter().map(|f| f.shown).collect();
        assert!(shown.iter().all(|f| !f.contains(":caption:")), "{shown:?}");
        assert!(shown.iter().any(|f| f.starts_with(":param url:")), "{shown:?}");
        assert!(
            shown.iter().any(|f| f.starts_with("Create the file")),
            "{shown:?}"
        );
    }

    #[test]
    fn wrapped_sentences_are_whole_and_quotes_are_exact() {
        let text = "# Retention\n\nSnapshots older than the policy allows are forgotten at\nthe next prune \
                    run. The Kestrel agent uploads new snapshots to the primary\nrepository every night.\n";
        let f = facts(text);
        assert_eq!(f.len(), 2);
        for fact in &f {
            let at: String = text
                .chars()
                .skip(fact.start)
                .take(fact.quote.chars().count())
                .collect();
            assert_eq!(at, fact.quote);
            assert!(!fact.shown.contains('\n'));
        }
        assert!(f.iter().any(
            |x| x.shown == "Snapshots older than the policy allows are forgotten at the next prune run."
        ));
    }

    /// A chunk of `doc` holding `text` from `start`.
    fn doc_chunk(doc: &str, start: usize, text: &str) -> crate::chunk::Chunk {
        crate::chunk::Chunk {
            id: format!("{doc}#{start}"),
            doc: doc.into(),
            start,
            end: start + text.chars().count(),
            text: text.into(),
        }
    }

    #[test]
    fn a_chunk_that_starts_inside_a_code_block_reads_it_as_code() {
        let chunk = |start: usize, text: &str| doc_chunk("upload.rst", start, text);
        let before = "The view checks the file and then redirects the user to the uploaded file::\n\n    \
                      def allowed_file(filename):\n        return '.' in filename";
        // The chunker left the first line's indentation in the gap between the chunks.
        let code = "@app.route('/', methods=['GET', 'POST'])\n    def upload_file():\n        \
                    if file.filename == '': flash('No selected file') and then return redirect(request.url)\n\n\
                    Flask stores the uploaded file in memory until it is saved to the upload folder.";
        let chunks = [chunk(0, before), chunk(before.chars().count() + 6, code)];
        let alone: Vec<String> = facts(code).into_iter().map(|f| f.quote).collect();
        assert!(
            alone.iter().any(|q| q.contains("@app.route")),
            "read alone, the code is prose: {alone:?}"
        );
        let read_on: Vec<String> = of_chunk(&chunks, 1).into_iter().map(|f| f.quote).collect();
        assert_eq!(
            read_on,
            ["Flask stores the uploaded file in memory until it is saved to the upload folder."]
        );
        // A chunk after prose reads its own first line as prose.
        let prose = [chunk(0, "Uploads go to a folder.\n"), chunk(30, code)];
        assert!(of_chunk(&prose, 1).iter().any(|f| f.quote.contains("@app.route")));
    }

    #[test]
    fn a_literal_block_is_code_at_any_indentation_and_a_notes_content_is_prose() {
        // Click's testing.rst indents its code by three spaces; read as prose, its lines were
        // facts ("def test_prompts(): runner = CliRunner() …" became a bridge's first hop).
        let text = "Testing prompts works the same way.\n\n\
                    .. code-block:: python\n   :caption: test_prompt.py\n\n   \
                    from click.testing import CliRunner\n\n   \
                    def test_prompts():\n      runner = CliRunner()\n      \
                    result = runner.invoke(prompt, input='wau wau')\n\n\
                    Note that prompts will be emulated so that they write the input data to the output stream.\n\n\
                    The runner can also read a file given to it, for example::\n\n  \
                    result = runner.invoke(cli, ['--config', 'settings.toml'])\n\n\
                    .. note::\n\n   Hidden input is never written to the output stream by the runner.\n";
        let mut quotes: Vec<String> = facts(text).into_iter().map(|f| f.shown).collect();
        quotes.sort();
        assert_eq!(
            quotes,
            [
                "Hidden input is never written to the output stream by the runner.",
                "Note that prompts will be emulated so that they write the input data to the output stream.",
                "Testing prompts works the same way.",
            ]
        );
    }

    #[test]
    fn a_programs_example_and_its_run_are_code() {
        // Click's docs: "invoke(init, prog_name='repo.py', args=['--help'])" was asked about as
        // "what does the repo.py script do".
        let text = "The init command:\n\n.. click:example::\n\n   @click.command()\n   def init():\n       pass\n\nAnd what it looks like:\n\n.. click:run::\n\n   invoke(init, prog_name='repo.py', args=['--help'])\n\nClick passes the context to every callback it invokes.\n";
        let quotes: Vec<String> = facts(text).into_iter().map(|f| f.shown).collect();
        assert!(
            quotes
                .iter()
                .all(|q| !q.contains("invoke(") && !q.contains("def init")),
            "{quotes:?}"
        );
        assert!(quotes.iter().any(|q| q.starts_with("Click passes")), "{quotes:?}");
        let contents = ".. toctree::\n   :maxdepth: 2\n\n   why\n   quickstart\n   virtualenv\n   setuptools\n   parameters\n   options\n   arguments\n\nClick passes the context to every callback it invokes.\n";
        let quotes: Vec<String> = facts(contents).into_iter().map(|f| f.shown).collect();
        assert_eq!(quotes, ["Click passes the context to every callback it invokes."]);
    }

    #[test]
    fn a_chunk_that_starts_a_literal_block_announced_before_it_reads_it_as_code() {
        // Click's prompts.rst: the chunk before ends at "floats::", this one starts at the
        // block's one line, its indentation and the blank line before it left in the gap.
        let chunk = |start: usize, text: &str| doc_chunk("prompts.rst", start, text);
        let before =
            "The type is taken from a default value. For instance, the following will only accept floats::";
        let code = "value = click.prompt('Please enter a number', default=42.0)\n\n\
                    Most prompts ask again until the user enters a value of the right type.";
        let chunks = [chunk(0, before), chunk(before.chars().count() + 6, code)];
        let read_on: Vec<String> = of_chunk(&chunks, 1).into_iter().map(|f| f.quote).collect();
        let prose = ["Most prompts ask again until the user enters a value of the right type."];
        assert_eq!(read_on, prose);
        // Overlapping: the chunk before runs on into the block, past the line's indentation.
        let whole = format!("{before}\n\n    value = click.prompt('Please enter a number', default=42.0)");
        let chunks = [chunk(0, &whole), chunk(before.chars().count() + 6, code)];
        let read_on: Vec<String> = of_chunk(&chunks, 1).into_iter().map(|f| f.quote).collect();
        assert_eq!(read_on, prose);
    }

    #[test]
    fn code_headings_links_and_questions_are_not_facts() {
        let text = "Intro\n=====\n\nRun it like this:\n\n    tide backup --all --verbose now please ok\n\n\
                    ```\nThe fenced code is not prose at all, not even a little bit.\n```\n\
                    Is this a question that a user could ask about it?\n\n\
                    [docs]: https://example.com/a/very/long/link/that/is/not/prose\n\n\
                    See [the guide](guide.md) for the steps that restore a whole machine.\n\n\
                    $ cargo run Compiling chapter10 v0.1.0 error[E0369]: binary operation cannot be applied\n\n\
                    For more information about this error, try the explain command of the compiler now. error: could not compile `chapter10` due to 1 previous error\n";
        let f = facts(text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].shown,
            "See the guide for the steps that restore a whole machine."
        );
        assert_eq!(
            f[0].quote,
            "See [the guide](guide.md) for the steps that restore a whole machine."
        );
    }

    #[test]
    fn emphasis_goes_and_code_stays_as_written() {
        assert_eq!(
            visible("- `__attrs_post_init__` is run **after** ``__init__`` and __always__ [once](x.md)."),
            "- `__attrs_post_init__` is run after ``__init__`` and always once."
        );
    }

    #[test]
    fn table_rows_carry_their_column_names() {
        let text = "| Key | Default | Description |\n|---|---|---|\n\
                    | `lock.timeout` | `\"300s\"` | How long a job waits for a repository lock |\n";
        let f = facts(text);
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].shown,
            "Key: lock.timeout; Default: 300s; Description: How long a job waits for a repository lock"
        );
        assert!(text.contains(&f[0].quote));
    }

    #[test]
    fn a_grid_row_is_one_fact_and_its_second_line_none() {
        // Jinja's loop variables: read line by line, "the rendering currently is.  Starts at
        // level 1" was a fact, and the accepted "what is the current rendering level" → "level 1".
        let text = "The loop variables:\n\n\
                    +---------------+-----------------------------------+\n\
                    | Variable      | Description                       |\n\
                    +===============+===================================+\n\
                    | `loop.depth`  | Indicates how deep in a recursive |\n\
                    |               | loop the rendering currently is.  |\n\
                    |               | Starts at level 1                 |\n\
                    +---------------+-----------------------------------+\n\n\
                    Loops can be recursive.\n";
        let f = facts(text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].shown,
            "Variable: loop.depth; Description: Indicates how deep in a recursive loop the \
             rendering currently is. Starts at level 1"
        );
        assert!(
            f[0].quote.starts_with("| `loop.depth`") && f[0].quote.ends_with("level 1                 |")
        );
        assert!(text.contains(&f[0].quote));
    }

    #[test]
    fn a_simple_tables_rows_do_not_run_together() {
        // Flask's URL converters: read as a paragraph, the five rows were one "sentence".
        let text = "Converter types:\n\n\
                    ========== ==========================================\n\
                    ``string`` (default) accepts any text without a slash\n\
                    ``int``    accepts positive integers greater than zero\n\
                    ========== ==========================================\n\n\
                    Unique URLs and redirection behaviour differ in their trailing slash.\n";
        let f = facts(text);
        let shown: Vec<&str> = f.iter().map(|x| x.shown.as_str()).collect();
        assert!(
            shown.contains(&"string; (default) accepts any text without a slash"),
            "{shown:?}"
        );
        assert!(
            shown.contains(&"int; accepts positive integers greater than zero"),
            "{shown:?}"
        );
        assert!(shown.contains(&"Unique URLs and redirection behaviour differ in their trailing slash."));
        assert_eq!(f.len(), 3, "{shown:?}");
    }

    #[test]
    fn a_discourse_marker_does_not_hide_a_leaning_opener() {
        // Flask's caching page: "it" is the caches of the sentence before.
        let text = "When your application runs slow, throw some caches in front of its views. Well, \
                    at least it's the easiest way to speed up things.";
        let f = facts(text);
        let well = f.iter().find(|x| x.shown.starts_with("Well")).expect("a fact");
        assert!(well.leans());
        assert_eq!(f.last().map(|x| x.shown.as_str()), Some(well.shown.as_str()));
        let but = facts("But this flag is ignored when the configuration file sets the value.");
        assert!(but[0].leans());
        // A marker before a name leans on nothing.
        let plain = facts("However, Flask-Caching stores the rendered page for the next request.");
        assert!(!plain[0].leans());
        let at_this_point = facts("At the top of the file, the module imports the standard library.");
        assert!(!at_this_point[0].leans());
    }

    #[test]
    fn those_inside_a_sentence_leans_on_the_one_before() {
        // Jinja's api.rst: "those objects" are the Undefined objects of the sentence before.
        let text = "These undefined types are subclasses of Undefined. If the template engine is \
                    unable to look up a name or access an attribute one of those objects is created \
                    and returned.";
        let f = facts(text);
        let those = f.iter().find(|x| x.shown.starts_with("If the")).expect("a fact");
        assert!(those.leans());
        // Jinja's sandbox page: "this" is the resource exhaustion of the sentence before.
        let ends = facts(
            "You should run your application with limits on resources such as CPU and memory to mitigate this.",
        );
        assert!(ends[0].leans());
        // Click's index: one of "Click in three points:".
        let item = facts(
            "Click in three points:\n\n-   arbitrary nesting of commands\n-   supports lazy loading of subcommands at runtime\n",
        );
        let lazy = item
            .iter()
            .find(|x| x.shown.starts_with("supports"))
            .expect("a fact");
        assert!(lazy.leans());
        // Click's parameters page: a point under the heading "Arguments", opening on its verb.
        let points = facts(
            "Arguments\n---------\n\n*   Are not fully documented by the help page since they may be too specific to be documented.\n*   Do not take a help parameter from the decorator.\n*   Recommended to use for subcommands, urls, or files.\n",
        );
        let leans = |opening: &str| {
            points
                .iter()
                .find(|x| x.shown.starts_with(opening))
                .expect("a fact")
                .leans()
        };
        assert!(leans("Are"));
        assert!(leans("Recommended"));
        // An imperative opens on a verb too, and says what it says of.
        assert!(!leans("Do not"));
        // "Those who …" and "those options that …" say what they are.
        for plain in [
            "Click passes the value on to those who registered a callback for the option.",
            "The loader skips those templates that start with an underscore in their name.",
        ] {
            assert!(!facts(plain)[0].leans(), "{plain}");
        }
    }

    #[test]
    fn a_made_up_scene_ranks_last() {
        // Click's complex.rst: the plugin is the example's, not Click's.
        let text = "Imagine for instance that there was a super cool plugin for our version control \
                    system that wanted to store its own configuration as :attr:`~Context.obj`. The \
                    context keeps a reference to its parent context in the `parent` attribute.";
        let f = facts(text);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f[1].hypothetical() && f[1].leans());
        assert!(!f[0].hypothetical());
        for scene in [
            "Suppose you have a list of numbers.",
            "Let's say we want to store the name.",
            "Say you pass a path to the command.",
        ] {
            assert!(
                facts(&format!("{scene} It stays the same here."))
                    .iter()
                    .any(Fact::hypothetical),
                "{scene}"
            );
        }
        assert!(
            !facts("Assumed values are kept in the default map of the context.")
                .iter()
                .any(Fact::hypothetical)
        );
        // What the reader might do is the page's example too; what the reader can do is not.
        let might = facts(
            "For instance, you might want to pass a configuration file with a ``--config`` \
             parameter. You can pass the file with the ``--settings`` option instead.",
        );
        assert_eq!(might.len(), 2, "{might:?}");
        assert!(
            might[1].shown.starts_with("For instance") && might[1].hypothetical(),
            "ranks last: {might:?}"
        );
        assert!(!might[0].hypothetical());
    }

    #[test]
    fn a_leaning_sentence_brings_the_one_before_and_list_items_lose_their_marker() {
        let text = "BlackConnect is a plugin for PyCharm and other editors. It spins up the HTTP server \
                    to avoid the startup cost.\n\n- The agent encrypts each chunk before upload to the server.\n";
        let f = facts(text);
        let it = f.iter().find(|x| x.shown.starts_with("It spins")).unwrap();
        assert_eq!(
            it.context.as_deref(),
            Some("BlackConnect is a plugin for PyCharm and other editors.")
        );
        assert!(
            f.iter()
                .any(|x| x.quote == "The agent encrypts each chunk before upload to the server.")
        );
    }

    #[test]
    fn block_quotes_only_when_nothing_else() {
        let testimonial =
            "## What customers say\n\n> \"We replaced three backup scripts with one Tidepool server.\"\n";
        assert!(facts(testimonial).is_empty(), "a customer's words are no fact");
        let quotes = "## Note\n\n> We replaced three backup scripts with one Tidepool server.\n";
        let f = facts(quotes);
        assert_eq!(f.len(), 1);
        assert!(quotes.contains(&f[0].quote));
        let mixed = format!("{quotes}\nThe Team plan covers twelve agents and one server.\n");
        assert_eq!(
            facts(&mixed)[0].shown,
            "The Team plan covers twelve agents and one server."
        );
        assert_eq!(facts(&mixed).len(), 1);
    }

    #[test]
    fn topic_is_title_and_section() {
        let doc = "# Configuration\n\nIntro text.\n\n## Server settings\n\nThe server reads its file.\n";
        let at = doc.find("The server").unwrap();
        assert_eq!(
            topic(doc, "configuration.md", at),
            "Configuration > Server settings"
        );
        assert_eq!(topic("no heading", "guides/first_steps.md", 0), "first steps");
        // A web passage filed under its id has no title a user has seen.
        assert_eq!(topic("Each turbine is 229 ft tall.", "8243793.txt", 0), "");
        assert!(headings("Each turbine is 229 ft tall.", "8243793.txt", 0).is_empty());
        assert_eq!(
            topic("## Hub height\n\nIt is 229 ft.", "8243793.txt", 16),
            "Hub height"
        );
        let rst = "Options\n=======\n\nText here.\n\nCounting\n--------\n\nMore text.\n";
        assert_eq!(
            topic(rst, "options.rst", rst.find("More").unwrap()),
            "Options > Counting"
        );
    }
}
