//! Comparison targets: two things of the same kind — two plans, options, versions, commands —
//! with a fact each about the same attribute. A small model asked to "compare two things" picks
//! any two; given the two facts it writes the question, so the things are found here:
//!
//! - a table whose columns are the things (a plan matrix: an empty first header cell, one column
//!   per plan): one row is an attribute, two of its cells the values; each side's label runs from
//!   the header (which names the thing) to the row (which holds the value);
//! - a table whose rows are the things (options, exit codes): two rows, the same column; each
//!   row is its side's label;
//! - two sentences saying the same of two different names ("Team servers keep 25 agents",
//!   "Business servers keep 250 agents"): most of their content words shared and in the same
//!   order, each naming a thing the other does not — the two of one kind, and each sentence
//!   saying something of its own besides names.
//!
//! Found per pair of chunks (the same chunk for tables), so a task names its two chunks and the
//! comparison is found again from them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::facts::{self, Fact, Row};
use super::names::{balanced, identifiers, shape, things};
use super::pairs::{Pair, Pairing};
use crate::chunk::Chunk;
use crate::lang::Language;
use crate::text::{bare, fold, spans};

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// The thing: a table's header or first cell, or the name a sentence has and the other
    /// lacks.
    pub thing: Option<String>,
    /// Its value, when a table cell holds it.
    pub value: Option<String>,
    /// What the prompt shows.
    pub shown: String,
    /// The label's text, exactly as it stands in the chunk (filled in by [`between`]).
    pub quote: String,
    /// Character offset of the label's start in the chunk.
    pub start: usize,
    /// Character offset of its end.
    pub end: usize,
}

/// Two sides about one attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Chunk of side A (an index into the chunk list).
    pub chunk_a: usize,
    /// Chunk of side B (the same as A's for a table).
    pub chunk_b: usize,
    /// The attribute, when a table names it.
    pub attribute: Option<String>,
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// Higher compares more surely (tables over prose, numbers over words).
    pub score: f32,
}

impl Comparison {
    /// How a plan shows the task: "A vs B", or the attribute.
    pub fn label(&self) -> String {
        match (&self.a.thing, &self.b.thing) {
            (Some(a), Some(b)) => format!("{a} vs {b}"),
            _ => self.attribute.clone().unwrap_or_else(|| "prose".into()),
        }
    }
}

/// Fewest content words two sentences must share, besides their names, to say the same of two
/// things.
const MIN_SHARED: usize = 3;

/// Share of the shorter sentence's content words the other must say too.
const MIN_OVERLAP: f32 = 0.5;

/// A term in more facts than this says nothing specific enough to pair sentences on.
const MAX_POSTINGS: usize = 40;

/// The comparisons of one chunk's tables, best first.
pub fn in_tables(chunk: usize, facts: &[Fact]) -> Vec<Comparison> {
    let mut out = Vec::new();
    let rows: Vec<(&Fact, &Row)> = facts
        .iter()
        .filter_map(|f| f.row.as_ref().map(|r| (f, r)))
        .collect();
    for (x, (fa, ra)) in rows.iter().enumerate() {
        // Columns without names name no attribute and no thing.
        if ra.header.is_empty() {
            continue;
        }
        let columns = ra.header.first().is_some_and(|h| h.trim().is_empty()) && ra.header.len() >= 3;
        if columns {
            out.extend(across_columns(chunk, fa, ra));
            continue;
        }
        // A first column that repeats (`GET`, `GET`, `POST`) names no thing per row.
        let firsts: Vec<&String> = rows
            .iter()
            .filter(|(_, r)| r.header == ra.header)
            .filter_map(|(_, r)| r.cells.first())
            .collect();
        let unique: BTreeSet<&String> = firsts.iter().copied().collect();
        if unique.len() < firsts.len() {
            continue;
        }
        for (fb, rb) in &rows[x + 1..] {
            if let Some(c) = across_rows(chunk, (fa, ra), (fb, rb)) {
                out.push(c);
            }
        }
    }
    out.sort_by(|x, y| y.score.total_cmp(&x.score));
    out
}

/// One row of a table whose columns are the things: its cells compared two by two.
fn across_columns(chunk: usize, fact: &Fact, row: &Row) -> Vec<Comparison> {
    let attribute = row.cells.first().cloned().unwrap_or_default();
    if !has_letters(&attribute) {
        return Vec::new();
    }
    // The label runs from the header line (which names the things) to the end of the row.
    let (start, end) = (row.header_start, fact.start + fact.quote.chars().count());
    let mut out = Vec::new();
    for i in 1..row.header.len().min(row.cells.len()) {
        for j in i + 1..row.header.len().min(row.cells.len()) {
            let (va, vb) = (&row.cells[i], &row.cells[j]);
            if !has_value(va)
                || !has_value(vb)
                || va == vb
                || !has_letters(&row.header[i])
                || !has_letters(&row.header[j])
            {
                continue;
            }
            let side = |k: usize| Side {
                thing: Some(row.header[k].clone()),
                value: Some(row.cells[k].clone()),
                shown: format!("{} on {}: {}", attribute, row.header[k], row.cells[k]),
                quote: String::new(),
                start,
                end,
            };
            let numbers = has_digit(va) && has_digit(vb);
            out.push(Comparison {
                chunk_a: chunk,
                chunk_b: chunk,
                attribute: Some(attribute.clone()),
                a: side(i),
                b: side(j),
                score: 2.0 + if numbers { 0.5 } else { 0.0 },
            });
        }
    }
    out
}

/// Two rows of a table whose rows are the things: the first column they differ in after the
/// first (the thing's name).
fn across_rows(chunk: usize, (fa, ra): (&Fact, &Row), (fb, rb): (&Fact, &Row)) -> Option<Comparison> {
    let (ta, tb) = (ra.cells.first()?, rb.cells.first()?);
    if ta == tb || !has_letters(ta) && !has_digit(ta) || ra.header != rb.header {
        return None;
    }
    // The first column whose two values compare: quantities in one unit ("25 agents", "250
    // agents"), or descriptions of what each thing does ("how do exit codes 4 and 5 differ?");
    // two defaults of unrelated settings ("0 2 * * *", "0") compare nothing.
    let (c, quantities) = (1..ra.cells.len().min(rb.cells.len())).find_map(|c| {
        let (x, y) = (&ra.cells[c], &rb.cells[c]);
        if !has_value(x) || !has_value(y) || x == y {
            return None;
        }
        // Two quantities compare only in one unit: "100 GiB NVMe" of a disk and "300 MiB per
        // million files" of RAM are amounts of different things, however many words they take.
        if has_digit(x) && has_digit(y) {
            return (unit(x) == unit(y) && unit(x).chars().any(char::is_alphabetic)).then_some((c, true));
        }
        let described = |v: &str| spans(v).count() >= 3;
        (described(x) && described(y)).then_some((c, false))
    })?;
    // Things are short names (a code, a role, a plan), not sentences.
    if [ta, tb].iter().any(|t| spans(t).count() > 4) {
        return None;
    }
    let attribute = ra.header.get(c).cloned().filter(|h| has_letters(h));
    let side = |f: &Fact, r: &Row| Side {
        thing: r.cells.first().cloned(),
        value: Some(r.cells[c].clone()),
        shown: f.shown.clone(),
        quote: f.quote.clone(),
        start: f.start,
        end: f.start + f.quote.chars().count(),
    };
    Some(Comparison {
        chunk_a: chunk,
        chunk_b: chunk,
        attribute,
        a: side(fa, ra),
        b: side(fb, rb),
        score: if quantities { 1.5 } else { 1.0 },
    })
}

/// Sentences of chunks `a` and `b` (which may be the same) that say the same of two things; a
/// sentence leaning on the one before ("This behavior can be changed using *on_setattr*") says
/// it of what that one names, and compares nothing.
pub fn in_prose(a: usize, fa: &[Fact], b: usize, fb: &[Fact], language: Language) -> Vec<Comparison> {
    let words = language.analyzer();
    let frame = |f: &Fact| -> (BTreeSet<String>, BTreeSet<String>) {
        let names: BTreeSet<String> = things(&f.shown).into_iter().collect();
        let name_terms: BTreeSet<String> = names.iter().flat_map(|n| words.content_terms(n)).collect();
        let terms = words
            .content_terms(&f.shown)
            .into_iter()
            .filter(|t| !name_terms.contains(t))
            .collect();
        (terms, names)
    };
    let mut out = Vec::new();
    for (i, x) in fa
        .iter()
        .enumerate()
        .filter(|(_, f)| f.row.is_none() && !f.leans())
    {
        let (tx, nx) = frame(x);
        for (j, y) in fb
            .iter()
            .enumerate()
            .filter(|(_, f)| f.row.is_none() && !f.leans())
        {
            if a == b && j <= i {
                continue;
            }
            let (ty, ny) = frame(y);
            let shared = tx.intersection(&ty).count();
            let smaller = tx.len().min(ty.len()).max(1);
            let overlap = shared as f32 / smaller as f32;
            // Each side names something the other does not: two things, not one said twice;
            // and the two are of one kind (two flags, two plain names), else the sentences
            // merely share words ("`X-Diff` corresponds to `--diff`" and "these correspond to
            // flags of _Black_").
            let (Some(thing_x), Some(thing_y)) = (own_thing(x, &nx, y), own_thing(y, &ny, x)) else {
                continue;
            };
            if shared < MIN_SHARED
                || overlap < MIN_OVERLAP
                || x.shown == y.shown
                || !same_kind(&thing_x, &thing_y)
                || !parallel(
                    (&x.shown, &thing_x.0),
                    (&y.shown, &thing_y.0),
                    nx.union(&ny),
                    language,
                )
            {
                continue;
            }
            let numbers = has_digit(&x.shown) && has_digit(&y.shown);
            let side = |f: &Fact, thing: &str| Side {
                thing: Some(thing.to_string()),
                value: None,
                shown: f.shown.clone(),
                quote: f.quote.clone(),
                start: f.start,
                end: f.start + f.quote.chars().count(),
            };
            out.push(Comparison {
                chunk_a: a,
                chunk_b: b,
                attribute: None,
                a: side(x, &thing_x.0),
                b: side(y, &thing_y.0),
                score: overlap + if numbers { 0.3 } else { 0.0 },
            });
        }
    }
    out.sort_by(|x, y| y.score.total_cmp(&x.score));
    out
}

/// The thing fact `f` (naming `names`) says something of and `other` does not name: the first
/// such name in `f`, and whether it is a code (an identifier) rather than a plain name.
fn own_thing(f: &Fact, names: &BTreeSet<String>, other: &Fact) -> Option<(String, bool)> {
    let (text, other) = (fold(&f.shown), fold(&other.shown));
    let name = names
        .iter()
        .filter(|n| !other.contains(&fold(n)) && balanced(n))
        .filter_map(|n| text.find(&fold(n)).map(|at| (at, n)))
        .min()
        .map(|(_, n)| n.clone())?;
    let code = identifiers(&f.shown).contains(&name);
    Some((name, code))
}

/// Share of the longer sentence's words the two must say in the same order, their things
/// read as one word: "If using the old-school `attr.s` decorator, converters only run on
/// initialization" and "If using the newer `attrs.define`, converters run on initialization and
/// on attribute setting" are one sentence said of two things; "*attrs* still mimics Python 2's
/// behaviour" and "there are still reasons to prefer *attrs* over Data Classes" share words only.
/// The longer, not the shorter: a frame shared by two changelog lines ("Added `X` to control …")
/// with the rest of one line saying something else compares two unrelated things.
const MIN_PARALLEL: f32 = 0.5;

/// Whether sentences `a` (about `ta`) and `b` (about `tb`), naming `names`, say the same of their things
/// ([`MIN_PARALLEL`]) and differ in more than names: "All objects from `attrs.filters` are
/// also available in `attr.filters`" and the same of `attrs.setters` compare nothing.
fn parallel<'n>(
    (a, ta): (&str, &str),
    (b, tb): (&str, &str),
    names: impl Iterator<Item = &'n String>,
    language: Language,
) -> bool {
    let analyzer = language.analyzer();
    let tokens = |text: &str, thing: &str| -> Vec<String> {
        let thing = fold(thing);
        spans(text)
            .map(|w| {
                let w = fold(w);
                if w.contains(&thing) {
                    "\u{0}thing".to_string()
                } else {
                    bare(&w).to_string()
                }
            })
            .filter(|w| !w.is_empty())
            .collect()
    };
    let (x, y) = (tokens(a, ta), tokens(b, tb));
    let common = lcs(&x, &y);
    let longer = x.len().max(y.len()).max(1);
    // Names (both sentences' [`things`]) are no part of what a side says of its thing.
    let names: Vec<String> = names.map(|n| fold(n)).collect();
    // Each side says something of its own, besides names and function words: "(it's the
    // same module in a different namespace)" added to one side compares nothing.
    let own = |p: &[String], q: &[String]| -> Vec<usize> {
        (0..p.len())
            .filter(|&i| {
                let w = &p[i];
                !q.contains(w)
                    && !w.starts_with('\u{0}')
                    && !analyzer.is_stopword(w)
                    && !names
                        .iter()
                        .any(|n| n.contains(w.as_str()) || w.contains(n.as_str()))
            })
            .collect()
    };
    let (own_x, own_y) = (own(&x, &y), own(&y, &x));
    // A thing of several words ("-b 0.0.0.0") is none of the words; it stands at its first.
    let thing_at = |p: &[String], thing: &str| {
        let first = tokens(thing, "\u{1}").into_iter().next();
        p.iter()
            .position(|w| w.starts_with('\u{0}') || first.as_ref() == Some(w))
    };
    let (at_x, at_y) = (thing_at(&x, ta), thing_at(&y, tb));
    let near = |at: Option<usize>, i: usize| at.is_some_and(|t| i + BRINGS_IN >= t && i <= t);
    // What differs only in how each thing is brought in ("… on a non-privileged port using the
    // `-b 0.0.0.0` option" and "… by not specifying the `--host` option": Flask's gunicorn and
    // waitress pages) says the same of both: there is no difference to ask about.
    let says_other = own_x.iter().any(|&i| !near(at_x, i)) || own_y.iter().any(|&i| !near(at_y, i));
    let differs = !own_x.is_empty() && !own_y.is_empty() && says_other;
    common as f32 / longer as f32 >= MIN_PARALLEL && differs
}

/// Words before a thing that may only say how it is brought in ("using the", "by not
/// specifying the").
const BRINGS_IN: usize = 3;

/// Length of the longest common subsequence of two word lists.
fn lcs(x: &[String], y: &[String]) -> usize {
    let mut row = vec![0usize; y.len() + 1];
    for a in x {
        let mut diagonal = 0;
        for (j, b) in y.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if a == b { diagonal + 1 } else { above.max(row[j]) };
            diagonal = above;
        }
    }
    row[y.len()]
}

/// Whether two things are of one kind: two codes written alike (two flags, two dotted keys)
/// or two plain names.
fn same_kind((a, code_a): &(String, bool), (b, code_b): &(String, bool)) -> bool {
    code_a == code_b && shape(a) == shape(b)
}

/// Every comparison between and within `eligible` chunks, as pairs of chunks for planning (the
/// same chunk twice for a table), best first by their best comparison.
pub fn find(chunks: &[Chunk], eligible: &[usize], pairing: &Pairing) -> Vec<Pair> {
    let facts: BTreeMap<usize, Vec<Fact>> = eligible
        .iter()
        .map(|&i| (i, facts::of_chunk(chunks, i)))
        .collect();
    let mut best: HashMap<(usize, usize), Comparison> = HashMap::new();
    let mut keep = |c: Comparison| {
        let key = (c.chunk_a, c.chunk_b);
        if best.get(&key).is_none_or(|o| c.score > o.score) {
            best.insert(key, c);
        }
    };
    for (&i, f) in &facts {
        in_tables(i, f).into_iter().for_each(&mut keep);
    }
    // Sentences are compared only with sentences sharing a specific term.
    let mut postings: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (&i, f) in &facts {
        let words = pairing.language(i).analyzer();
        let terms: BTreeSet<String> = f
            .iter()
            .filter(|x| x.row.is_none())
            .flat_map(|x| words.content_terms(&x.shown))
            .collect();
        for t in terms {
            postings.entry(t).or_default().push(i);
        }
    }
    let mut candidates: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for holders in postings.values().filter(|h| h.len() <= MAX_POSTINGS) {
        for (x, &a) in holders.iter().enumerate() {
            for &b in &holders[x..] {
                if pairing.allows(a, b) {
                    *candidates.entry((a, b)).or_default() += 1;
                }
            }
        }
    }
    for ((a, b), shared) in candidates {
        if shared < MIN_SHARED {
            continue;
        }
        in_prose(a, &facts[&a], b, &facts[&b], pairing.language(a))
            .into_iter()
            .take(1)
            .for_each(&mut keep);
    }
    best.into_values()
        .map(|c| Pair {
            a: c.chunk_a,
            b: c.chunk_b,
            term: c.label(),
            score: c.score,
        })
        .collect()
}

/// The comparisons between chunks `a` and `b`, best first, with each side's quote as the text
/// of `chunks` holds it.
pub fn between(chunks: &[Chunk], a: usize, b: usize, language: Language) -> Vec<Comparison> {
    let fa = facts::of_chunk(chunks, a);
    let mut out = if a == b {
        let mut t = in_tables(a, &fa);
        t.extend(in_prose(a, &fa, a, &fa, language));
        t
    } else {
        let fb = facts::of_chunk(chunks, b);
        in_prose(a, &fa, b, &fb, language)
    };
    for c in &mut out {
        fill_span(&chunks[c.chunk_a].text, &mut c.a);
        fill_span(&chunks[c.chunk_b].text, &mut c.b);
    }
    out.sort_by(|x, y| y.score.total_cmp(&x.score));
    out
}

/// The side's quote: the chunk's text over its span.
fn fill_span(text: &str, side: &mut Side) {
    side.quote = text
        .chars()
        .skip(side.start)
        .take(side.end.saturating_sub(side.start))
        .collect();
}

/// The unit of a quantity: its letters and signs, digits and separators dropped ("600
/// requests/min" → "requests/min").
fn unit(s: &str) -> String {
    fold(
        &s.chars()
            .filter(|c| !c.is_ascii_digit() && !matches!(c, ',' | '.' | ' '))
            .collect::<String>(),
    )
}

fn has_letters(s: &str) -> bool {
    s.chars().any(char::is_alphabetic)
}

/// Whether `s` holds a digit: an amount to compare by.
pub fn has_digit(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_digit())
}

/// A cell that holds something: not empty, not a dash for "none".
fn has_value(s: &str) -> bool {
    s.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(doc: &str, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#0"),
            doc: doc.into(),
            start: 0,
            end: text.chars().count(),
            text: text.into(),
        }
    }

    const PLANS: &str = "# Plans\n\n| | Community | Team | Business |\n|---|---|---|---|\n\
        | Agents per server | 5 | 25 | 250 |\n| API rate limit | 60 requests/min | 600 requests/min | 3,000 requests/min |\n\
        | Legal hold | — | — | Yes |\n";

    #[test]
    fn a_plan_matrix_compares_its_columns_with_labels_from_the_header_to_the_row() {
        let chunks = vec![chunk("pricing.md", PLANS)];
        let found = between(&chunks, 0, 0, Language::ENGLISH);
        let c = found
            .iter()
            .find(|c| {
                c.attribute.as_deref() == Some("API rate limit") && c.a.thing.as_deref() == Some("Team")
            })
            .expect("Team vs Business on the API rate limit");
        assert_eq!(c.b.thing.as_deref(), Some("Business"));
        assert_eq!(c.a.value.as_deref(), Some("600 requests/min"));
        assert!(
            c.a.quote.starts_with("| | Community | Team | Business |"),
            "{}",
            c.a.quote
        );
        assert!(c.a.quote.ends_with("3,000 requests/min |"), "{}", c.a.quote);
        let at: String = PLANS
            .chars()
            .skip(c.a.start)
            .take(c.a.quote.chars().count())
            .collect();
        assert_eq!(at, c.a.quote);
        // A dash is no value: "Legal hold" compares nothing but Business with itself.
        assert!(found.iter().all(|c| c.attribute.as_deref() != Some("Legal hold")));
        assert_eq!(find(&chunks, &[0], &Pairing::default()).len(), 1);
    }

    #[test]
    fn rows_of_an_options_table_compare_on_their_first_differing_column() {
        let text = "| Key | Default | Meaning |\n|---|---|---|\n| `lock.timeout` | `\"300s\"` | How long a job waits for a lock |\n\
                    | `api.token_ttl` | `\"24h\"` | Lifetime of new API tokens |\n";
        let chunks = vec![chunk("configuration.md", text)];
        let found = between(&chunks, 0, 0, Language::ENGLISH);
        let c = &found[0];
        assert_eq!(c.a.thing.as_deref(), Some("lock.timeout"));
        assert_eq!(c.b.thing.as_deref(), Some("api.token_ttl"));
        // The defaults ("300s", "24h") are in other units: the descriptions compare.
        assert_eq!(c.attribute.as_deref(), Some("Meaning"));
        assert_eq!(c.a.value.as_deref(), Some("How long a job waits for a lock"));
        assert!(text.contains(&c.a.quote) && c.a.quote.contains("lock.timeout"));
    }

    #[test]
    fn rows_whose_amounts_are_in_other_units_do_not_compare() {
        // The sample corpus's requirements: the demo compared "Server metadata disk" with
        // "Agent RAM" on their recommended amounts.
        let text = "| Component | Minimum | Recommended for 50+ agents |\n|---|---|---|\n\
                    | Server metadata disk | 20 GiB SSD | 100 GiB NVMe |\n\
                    | Agent RAM | 150 MiB | 300 MiB per million files |\n";
        let chunks = vec![chunk("install.md", text)];
        assert!(between(&chunks, 0, 0, Language::ENGLISH).is_empty());
        // In one unit they do.
        let text = "| Component | Minimum | Recommended |\n|---|---|---|\n| Server RAM | 4 GiB | 16 GiB |\n\
                    | Agent RAM | 1 GiB | 2 GiB |\n";
        let chunks = vec![chunk("install.md", text)];
        let found = between(&chunks, 0, 0, Language::ENGLISH);
        assert_eq!(found[0].a.value.as_deref(), Some("4 GiB"));
    }

    #[test]
    fn sentences_saying_the_same_of_two_names_compare() {
        let a = chunk(
            "team.md",
            "On the Team plan, a server manages at most 25 agents and keeps every snapshot until its policy forgets it.",
        );
        let b = chunk(
            "business.md",
            "On the Business plan, a server manages at most 250 agents and keeps every snapshot until its policy forgets it.",
        );
        let other = chunk(
            "install.md",
            "The installer asks for the data directory and the port of the console.",
        );
        let chunks = vec![a, b, other];
        let pairs = find(&chunks, &[0, 1, 2], &Pairing::default());
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        assert_eq!((pairs[0].a, pairs[0].b), (0, 1));
        let found = between(&chunks, 0, 1, Language::ENGLISH);
        assert!(found[0].a.quote.contains("Team") && found[0].b.quote.contains("Business"));
        // The same sentence twice compares nothing.
        assert!(
            in_prose(
                0,
                &facts::facts(&chunks[0].text),
                0,
                &facts::facts(&chunks[0].text),
                Language::ENGLISH
            )
            .is_empty()
        );
    }

    #[test]
    fn sentences_sharing_only_a_frame_do_not_compare() {
        let en = Language::ENGLISH;
        let f = |t: &str| facts::facts(t).remove(0);
        let compare = |a: &str, b: &str| !in_prose(0, &[f(a)], 1, &[f(b)], en).is_empty();
        // Flask's changelog: two settings added for unrelated reasons.
        assert!(!compare(
            "Added :data:`PROVIDE_AUTOMATIC_OPTIONS` to control the default addition of autogenerated OPTIONS responses.",
            "Added :data:`MAX_COOKIE_SIZE` to control a warning from Werkzeug.",
        ));
        // attrs: two items of one list of what it adds to wrapped methods.
        assert!(!compare(
            "Adding a `__getattr__` method to set values on the wrapped methods.",
            "Adding names to `__slots__` for the wrapped methods.",
        ));
        // Black's blackd headers: one maps to a flag, the other sets a mode.
        assert!(!compare(
            "`X-Preview`: corresponds to the `--preview` command line flag.",
            "`X-Fast-Or-Safe`: if set to `fast`, `blackd` will act as _Black_ does when passed the `--fast` command line flag.",
        ));
        // The same sentence said of two hooks still compares.
        assert!(compare(
            "`__attrs_post_init__` is automatically detected and run *after* *attrs* is done initializing your instance.",
            "`__attrs_pre_init__` is automatically detected and run *before* *attrs* starts initializing.",
        ));
        // Flask: two servers reach the same end by two means; nothing differs to ask about.
        assert!(!compare(
            "You can bind to all external IPs on a non-privileged port using the ``-b 0.0.0.0`` option.",
            "You can bind to all external IPs on a non-privileged port by not specifying the ``--host`` option.",
        ));
        assert!(compare(
            "To subscribe to a signal, you can use the :meth:`~blinker.base.Signal.connect` method of a signal.",
            "To unsubscribe from a signal, you can use the :meth:`~blinker.base.Signal.disconnect` method.",
        ));
    }

    #[test]
    fn prose_sides_name_their_things_and_the_things_are_of_one_kind() {
        let en = Language::ENGLISH;
        let f = |t: &str| facts::facts(t).remove(0);
        // attrs: two decorators, a converter rule each.
        let a = f(
            "If using the old-school `attr.s` decorator, converters only run on initialization by default.",
        );
        let b = f(
            "If using the newer `attrs.define` decorator, converters run on initialization and on attribute setting.",
        );
        let found = in_prose(0, std::slice::from_ref(&a), 1, std::slice::from_ref(&b), en);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].a.thing.as_deref(), Some("attr.s"));
        assert_eq!(found[0].b.thing.as_deref(), Some("attrs.define"));
        assert_eq!(found[0].label(), "attr.s vs attrs.define");
        // attrs: the same sentence of two namespaces, differing only in names.
        let a = f("All objects from `attrs.filters` are also available in `attr.filters` at runtime.");
        let b = f(
            "All objects from `attrs.setters` are also available from `attr.setters` at runtime \
                   (it's the same module in a different namespace).",
        );
        assert!(in_prose(0, &[a], 1, &[b], en).is_empty());
        // Two plain names in sentences that only share words.
        let a = f("Unfortunately, attrs still mimics the old behaviour of Python for hashing reasons.");
        let b = f("Nevertheless, there are still reasons for hashing to prefer attrs over Data Classes.");
        assert!(in_prose(0, &[a], 1, &[b], en).is_empty());
        // attrs: sentences that lean on the one before say it of what that one names.
        let a = f("This behavior can be changed using the *on_setattr* argument of the decorator.");
        let b = f("This can be used to change the `__init__` argument names of the decorator.");
        assert!(in_prose(0, &[a], 1, &[b], en).is_empty());
        // The rust book: a type and a function are not two of a kind, nor is a cut name one.
        let a = f("The type of the error value returned here is `std::io::Error` in every case.");
        let b = f("The error value returned here comes from `File::open` in every case.");
        assert!(in_prose(0, &[a], 1, &[b], en).is_empty());
        assert!(!balanced("String::from(\"hello"));
        // Black: a header and the tool's name share words, and are not two of a kind.
        let a = f("These headers correspond to command line flags for _Black_ on every request.");
        let b = f("The `X-Diff` header corresponds to the `--diff` command line flag on every request.");
        assert!(in_prose(0, &[a], 1, &[b], en).is_empty());
    }
}
