//! Bridge targets for multi-hop questions: a thing E (an error code, an option, a plan, a
//! product) that one document names in passing and another is about. The first hop finds E
//! through what the first document says of it ("the error behind exit code 4"); the second
//! asks what the other document says about E ("how long does a job wait before it fails with
//! it?"). Two pages that merely share a word ("header", "editing") make no bridge, so E must be
//! a thing: an identifier or a capitalised name, named by at most a few chunks.

use std::collections::{BTreeMap, BTreeSet};

use super::facts::{self, Fact};
use super::names::{identifiers, is_starter, lower_case_words, not_a_name, one_thing, shape, things};
use super::pairs::{Pair, Pairing};
use crate::chunk::Chunk;
use crate::lang::lists::english;
use crate::lang::{Language, List};
use crate::text::{bare, fold, spans};

/// Most chunks a bridge may be named in: beyond that it is the corpus's subject, not a link
/// (`pyproject.toml` in 16 of Black's 164 chunks, `attrs.define` in 23 of attrs' 178). At four,
/// those two corpora held 5 and 2 bridges, too few for a plan's multi-hop share: `--check`
/// (5 chunks) or `__attrs_post_init__` (5) are one thing each all the same.
pub const MAX_CHUNKS: usize = 6;

/// How much the second hop must be about a bridge of one plain word ([`about`]).
const ABOUT_A_WORD: usize = 3;

/// Fewest content terms hop 2's fact must say beyond hop 1's. attrs says "All objects from
/// `attrs.filters` are also available from `attr.filters`" on two pages: a bridge over it asks
/// what hop 1 already answered.
const MIN_NEW_TERMS: usize = 2;

/// Fewest chunks apart two chunks of one document must be to make a bridge. A reference page
/// is one document of many sections (Jinja's docs hold 102 of their 147 chunks in two pages,
/// `templates.rst` and `api.rst`, and name most of their API only in the latter), and a
/// retriever sees its sections as separate passages; two chunks close together are one
/// passage cut in two.
const MIN_APART: usize = 3;

/// Taken off the score of a bridge within one document, so that one across documents is
/// asked first.
const SAME_DOC_PENALTY: f32 = 0.3;

/// Bridges between `eligible` chunks of different documents, or far apart in one: `a` is the
/// first hop (names E in a fact), `b` the second (is about E: names it most, or under a
/// heading), `term` is E.
pub fn find(chunks: &[Chunk], eligible: &[usize], pairing: &Pairing) -> Vec<Pair> {
    // Each thing (its key: see `folded`), the chunks whose facts name it, and whether a fact
    // writes it as code or in an identifier's shape: `BadParameter` and `Context.forward`,
    // shown in code marks, have no shape of their own once read out of them.
    let mut named: BTreeMap<String, (String, BTreeSet<usize>, bool)> = BTreeMap::new();
    let by_chunk: BTreeMap<usize, Vec<Fact>> = eligible
        .iter()
        .map(|&i| (i, facts::of_chunk(chunks, i)))
        .collect();
    for (&i, facts) in &by_chunk {
        for f in facts {
            let code = identifiers(&f.shown);
            for t in things(&f.shown) {
                if not_a_name(&t, &chunks[i].text) {
                    continue;
                }
                let e = named
                    .entry(folded(&t, &t).1)
                    .or_insert_with(|| (t.clone(), BTreeSet::new(), false));
                e.1.insert(i);
                e.2 |= code.contains(&t);
            }
        }
    }
    let lower_words = lower_case_words(chunks);
    // How many chunks of the corpus name each thing at all (in facts, headings or code).
    let mut pairs = Vec::new();
    for (surface, holders, identifier) in named.values() {
        if !one_thing(surface, &lower_words) {
            continue;
        }
        let everywhere = chunks.iter().filter(|c| names(&c.text, surface)).count();
        if holders.len() < 2 || everywhere > MAX_CHUNKS {
            continue;
        }
        let holders: Vec<usize> = holders.iter().copied().collect();
        for (x, &p) in holders.iter().enumerate() {
            for &q in &holders[x + 1..] {
                let same_doc = chunks[p].doc == chunks[q].doc;
                if (same_doc && q.abs_diff(p) < MIN_APART) || !pairing.allows(p, q) {
                    continue;
                }
                // The second hop is the chunk about E.
                let (a, b) = if about(&chunks[q].text, surface) >= about(&chunks[p].text, surface) {
                    (p, q)
                } else {
                    (q, p)
                };
                let identifier = *identifier;
                // A single plain word bridges only to a page about it (a heading naming it, or
                // three mentions): "Rustaceans" named in passing by the error-handling chapter
                // made "what does the String and the string slice &str types recommend …".
                if !identifier && !surface.contains(' ') && about(&chunks[b].text, surface) < ABOUT_A_WORD {
                    continue;
                }
                let language = pairing.language(a);
                let hops = first_facts(&by_chunk[&a], surface)
                    .into_iter()
                    .any(|f1| second_fact(&by_chunk[&b], surface, &f1, language).is_some());
                if !hops {
                    continue;
                }
                let score = 1.0 / everywhere as f32
                    + if identifier { 0.5 } else { 0.0 }
                    + about(&chunks[b].text, surface) as f32 * 0.1
                    - if same_doc { SAME_DOC_PENALTY } else { 0.0 };
                pairs.push(Pair {
                    a,
                    b,
                    term: surface.clone(),
                    score,
                });
            }
        }
    }
    pairs
}

/// How much `text` is about `thing`: its mentions, and a heading naming it counts for three.
pub fn about(text: &str, thing: &str) -> usize {
    let (text, thing) = folded(text, thing);
    let mentions = text.matches(&thing).count();
    let heading = text
        .lines()
        .any(|l| l.trim_start().starts_with('#') && l.contains(&thing));
    mentions + if heading { 3 } else { 0 }
}

/// `text` and `thing` as a thing is looked for: a name written as code keeps its case (Flask's
/// `provide_automatic_options` attribute is not its `PROVIDE_AUTOMATIC_OPTIONS` setting, nor
/// Click's `click.argument` decorator its `click.Argument` class), any other in lower case.
fn folded(text: &str, thing: &str) -> (String, String) {
    if identifiers(thing).is_empty() {
        (fold(text), fold(thing))
    } else {
        (text.to_string(), thing.to_string())
    }
}

/// Whether `text` names `thing` (see [`folded`]).
pub fn names(text: &str, thing: &str) -> bool {
    let (text, thing) = folded(text, thing);
    text.contains(&thing)
}

/// Whether `text` names `thing` as a whole: a code wherever it is named ([`names`]), a plain
/// name where it runs into no longer name. Web pages share first names and words of names:
/// "Cameron Mathison's wife" names no "Cameron" that "the Cameron hotel" is, nor "Prince
/// Bandar bin Sultan" the Sultan of "the Sultan center"; bridged over them, TREC DL 2020's
/// passages made "what is Mathison's wife's name hotel list" and "what is the father of Prince
/// Bandar bin center's location".
///
/// A name of two words or more is a person's or a place's whole name, so it may follow given
/// names ("Ambroise Thomas" of "Charles Louis Ambroise Thomas") and hold middle names
/// ("Giuseppe Verdi" of "Giuseppe Fortunino Francesco Verdi": its first and last words around
/// one to three capitalised words); it still runs into no longer name after it, nor follows a
/// name's particle ("Labor Statistics" of "the Bureau of Labor Statistics").
pub fn names_whole(text: &str, thing: &str) -> bool {
    if !identifiers(thing).is_empty() {
        return names(text, thing);
    }
    let parts: Vec<&str> = spans(thing).collect();
    let escaped = regex::escape(thing.trim());
    let middle = match parts.as_slice() {
        [first, .., last] => format!(
            r"|(?i:{})(?:\s+\p{{Lu}}[\p{{L}}.'’-]*){{1,3}}\s+(?i:{})",
            regex::escape(first),
            regex::escape(last)
        ),
        _ => String::new(),
    };
    let Ok(pattern) = regex::Regex::new(&format!("(?i:{escaped}){middle}")) else {
        return false;
    };
    let whole = parts.len() >= 2;
    pattern.find_iter(text).any(|m| {
        let before = &text[..m.start()];
        !runs_on(&text[m.end()..])
            && if whole {
                !before.ends_with(char::is_alphanumeric) && !after_particle(before)
            } else {
                !runs_into(before)
            }
    })
}

/// Whether `before` ends with a name's particle after a capitalised word ("the Bureau of ").
fn after_particle(before: &str) -> bool {
    let mut words = spans(before).rev();
    before.ends_with(' ')
        && words
            .next()
            .is_some_and(|p| english(List::NameParticles).contains(&p))
        && words.next().is_some_and(|w| w.starts_with(char::is_uppercase))
}

/// Whether `question` names `thing` as the start of a longer name its `fact` writes ("what is
/// the kansas open records act?" of "The Kansas Open Records Act (KORA) is …"): it asks about
/// that name, and a description put in the thing's place splits it (TREC DL 2020: "what is the
/// average salary of dental hygienists open records act"). A code is one thing wherever it
/// stands.
pub fn asked_inside_a_longer_name(question: &str, thing: &str, fact: &str) -> bool {
    if !identifiers(thing).is_empty() {
        return false;
    }
    let (q, t) = (fold(question), fold(thing.trim()));
    let Some(at) = q.find(&t) else {
        return false;
    };
    let next = spans(&q[at + t.len()..]).next().map(bare).unwrap_or("");
    if next.is_empty() || q[at + t.len()..].starts_with(char::is_alphanumeric) {
        return false;
    }
    let Ok(pattern) = regex::Regex::new(&format!(
        r"(?i)\b{}\s+({})\b",
        regex::escape(&t),
        regex::escape(next)
    )) else {
        return false;
    };
    pattern
        .captures_iter(fact)
        .any(|c| c.get(1).is_some_and(|w| runs_on(&format!(" {}", w.as_str()))))
}

/// Whether a name goes on in `after`: the word goes on ("Sultanate"), or the next word is
/// capitalised ("Cameron Mathison"), or a particle and a capitalised word ("Bureau of Labor").
fn runs_on(after: &str) -> bool {
    after.starts_with(char::is_alphanumeric)
        || after
            .strip_prefix(' ')
            .is_some_and(|rest| joins_a_name(spans(rest), |_| true))
}

/// Whether a longer name runs into the one that follows `before`: the word goes on, or the
/// word before is a capitalised one that ends no clause ("Mathison Cameron"), or a name's
/// particle after one ("Bandar bin", "Bureau of").
fn runs_into(before: &str) -> bool {
    // A word that ends a clause starts no name with the next.
    let open = |w: &str| !w.ends_with(|c: char| ",.;:!?)\"'".contains(c));
    before.ends_with(char::is_alphanumeric)
        || before.ends_with(' ') && joins_a_name(spans(before).rev(), open)
}

/// Whether `words`, read away from a name, carry it on: a capitalised word that is no
/// starter and that `open` allows, directly or after a name's particle ([`List::NameParticles`],
/// read on any text as [`is_starter`] is).
fn joins_a_name<'w>(mut words: impl Iterator<Item = &'w str>, open: impl Fn(&str) -> bool) -> bool {
    let capitalised = |w: &str| open(w) && w.starts_with(char::is_uppercase) && !is_starter(bare(w));
    match words.next() {
        Some(w) if english(List::NameParticles).contains(&w) => words.next().is_some_and(capitalised),
        Some(w) => capitalised(w),
        None => false,
    }
}

/// The facts of a chunk to ask about E: those naming it, richest first; else (E only in a
/// heading of the chunk) all of them; never one that leans on the sentence before it.
fn naming(facts: &[Fact], thing: &str) -> Vec<Fact> {
    // A sentence that leans on the one before ("This decorator includes …") says something of
    // what that one names, not of E: a question about E answered with it is answered wrong.
    let all: Vec<Fact> = facts.iter().filter(|f| !f.leans()).cloned().collect();
    let naming: Vec<Fact> = all
        .iter()
        .filter(|f| names_whole(&f.shown, thing))
        .cloned()
        .collect();
    if naming.is_empty() { all } else { naming }
}

/// Hop 1's facts among a chunk's `facts`: those showing `thing` and no other name written like
/// it. Blanked, "Restoring to `/` behaves like `--in-place` and honours `___`" reads as well
/// with `--in-place` in the blank, and "on by default in `attrs.define()`, `attrs.mutable()`
/// and `___`" with any of the three: the model described the wrong one ("What option does
/// restoring to `/` behave like?" for `--overwrite`).
pub fn first_facts(facts: &[Fact], thing: &str) -> Vec<Fact> {
    naming(facts, thing)
        .into_iter()
        .filter(|f| names_whole(&f.shown, thing) && !confusable(&f.shown, thing))
        .collect()
}

/// Whether `text` names another identifier of `thing`'s shape (a flag beside a flag, a dotted
/// name beside a dotted name).
fn confusable(text: &str, thing: &str) -> bool {
    let Some(kind) = shape(thing) else {
        return false;
    };
    let lower = fold(thing);
    identifiers(text).iter().any(|other| {
        let o = fold(other);
        !o.contains(&lower) && !lower.contains(&o) && shape(other) == Some(kind)
    })
}

/// Hop 2's fact about `thing` among a chunk's `facts`, given hop 1's fact `first`: of those
/// that have it as their subject ([`as_subject`]) — not as what another thing is likened to
/// ("Like `--exclude`, but adds …" is about `--extend-exclude`) — that say `MIN_NEW_TERMS` or
/// more beyond `first` and name no other identifier of its shape (shown "The `--fast` flag
/// turns off this check and the `--safe` flag enables it", a small model asked about `--safe`
/// asks about `--fast`; shown "let the agent call a dump script through `backup.pre_hook` and
/// include the dump directory in `backup.paths`", it answered with the advice), one that names
/// no other identifier, then the one saying most beyond `first`. A fact that does not show the
/// thing is none: hop 2's question must name it, and asked about such a fact the model named
/// something else (Black: 9 of 9 multi-hop rejections were `bridge_not_asked` then).
pub fn second_fact(facts: &[Fact], thing: &str, first: &Fact, language: Language) -> Option<Fact> {
    let words = language.analyzer();
    let lower = fold(thing);
    let said: BTreeSet<String> = words.content_terms(&first.shown).into_iter().collect();
    let thing_terms: BTreeSet<String> = words.content_terms(thing).into_iter().collect();
    naming(facts, thing)
        .into_iter()
        .filter(|f| {
            names_whole(&f.shown, thing)
                && as_subject(&f.shown, thing)
                && !likened(&fold(&f.shown), &lower)
                && !confusable(&f.shown, thing)
        })
        .filter_map(|f| {
            let new: BTreeSet<String> = words
                .content_terms(&f.shown)
                .into_iter()
                .filter(|t| !said.contains(t) && !thing_terms.contains(t))
                .collect();
            let alone = identifiers(&f.shown)
                .iter()
                .all(|i| fold(i).contains(&lower) || lower.contains(&fold(i)));
            (new.len() >= MIN_NEW_TERMS).then_some(((alone, new.len()), f))
        })
        .max_by(|(x, _), (y, _)| x.cmp(y))
        .map(|(_, f)| f)
}

/// Whether `text` names `thing` as what it speaks of: in its first four words ("Note,
/// *field_transformer* receives …", "Listing 5-4: A build_user function that …", "Backups fail
/// with TP-507 while …"), and not in a condition ("Only applies when `--diff` is given" is
/// about `--color`). Asked about a fact that names the thing further in ("``close_db`` checks
/// if … ``g.db`` was set"), the model asks about what that fact speaks of: of the second hops
/// the twelfth stop's runs turned away for it (`bridge_not_asked`), 24 of 25 named the thing
/// further in; of the seven the thirteenth stop's multi-hop runs accepted before, six had it
/// in front.
pub fn as_subject(text: &str, thing: &str) -> bool {
    let (text, name) = folded(text, thing);
    let Some(at) = text.find(&name) else {
        return false;
    };
    let before: Vec<String> = spans(&text[..at])
        .map(|w| fold(bare(w)))
        .filter(|w| !w.is_empty())
        .collect();
    // English words, read on any text (construction: the bridge's second hop is picked so).
    let tied = english(List::Tied);
    before.len() <= 3 && !before.iter().any(|w| tied.contains(&w.as_str()))
}

/// Whether `text` (lower case) names `thing` only as what something else is likened to or
/// stands for ("like `--exclude`", "corresponds to the `--line-length` flag").
fn likened(text: &str, thing: &str) -> bool {
    // English words, read on any text (as [`as_subject`]).
    let cues = english(List::LikenessCues);
    text.match_indices(thing).all(|(at, _)| {
        let before = text[..at].trim_end_matches(['`', '*', '_', ' ']);
        let before = before.strip_suffix(" the").unwrap_or(before).trim_end();
        cues.iter().any(|c| before.ends_with(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_written_as_code_is_found_with_its_case() {
        // Flask: the view attribute and the configuration key are two things.
        assert!(names(
            "set `provide_automatic_options` on the view",
            "provide_automatic_options"
        ));
        assert!(!names(
            "`PROVIDE_AUTOMATIC_OPTIONS` controls it",
            "provide_automatic_options"
        ));
        assert!(!names("use `click.Argument` directly", "click.argument"));
        assert_eq!(
            about(
                "# PROVIDE_AUTOMATIC_OPTIONS\nprovide_automatic_options",
                "PROVIDE_AUTOMATIC_OPTIONS"
            ),
            4
        );
        // A plain name in any case.
        assert!(names("Formatting jupyter notebooks", "Jupyter Notebooks"));
    }

    #[test]
    fn a_plain_name_inside_a_longer_one_is_not_named() {
        // TREC DL 2020's passages, bridged over a word of a longer name.
        assert!(!names_whole(
            "Cameron Mathison's wife says being a mom wasn't easy.",
            "Cameron"
        ));
        assert!(names_whole("Review the Cameron hotel list below.", "Cameron"));
        assert!(!names_whole(
            "Royal Saudi/non-Saudi Marriages and Their Children Part II--Prince Bandar bin Sultan.",
            "Sultan"
        ));
        assert!(names_whole(
            "The Sultan center is 7 miles east of Monroe.",
            "Sultan"
        ));
        assert!(!names_whole(
            "a report by the Bureau of Labor Statistics",
            "Labor Statistics"
        ));
        assert!(!names_whole("the Sultanate of Oman", "Sultan"));
        // A whole name with given names before it or middle names inside.
        let verdi = "Giuseppe Fortunino Francesco Verdi (1813 – 1901) was an Italian opera composer.";
        assert!(names_whole(verdi, "Giuseppe Verdi"));
        assert!(!names_whole(verdi, "Giuseppe Puccini"));
        assert!(names_whole(
            "Charles Louis Ambroise Thomas was a French composer.",
            "Ambroise Thomas"
        ));
        assert!(!names_whole(
            "Charles Louis Ambroise Thomas Hall opened.",
            "Ambroise Thomas"
        ));
        assert!(!names_whole(
            "published by the Bureau of Labor Statistics",
            "Bureau"
        ));
        // A name after a comma, at a sentence's start or after a starter word stands alone.
        assert!(names_whole(
            "Walk in the footsteps of the King at Elvis' home, Graceland.",
            "Graceland"
        ));
        assert!(names_whole("Graceland opens at nine.", "Graceland"));
        assert!(names_whole("On the Team plan, seats are unlimited.", "Team"));
        // Codes are named wherever they stand.
        assert!(names_whole("run `tide diff` to compare", "tide diff"));
    }

    #[test]
    fn a_question_about_a_longer_name_does_not_ask_about_its_first_word() {
        let fact = "The Kansas Open Records Act (KORA) is the Kansas version of the federal Freedom of \
                    Information Act.";
        assert!(asked_inside_a_longer_name(
            "what is the kansas open records act?",
            "Kansas",
            fact
        ));
        // "the Kansas version": the fact writes no longer name there.
        assert!(!asked_inside_a_longer_name(
            "what is the Kansas version of FOIA?",
            "Kansas",
            fact
        ));
        assert!(!asked_inside_a_longer_name(
            "what records does Kansas keep open?",
            "Kansas",
            fact
        ));
        // A code is one thing wherever it stands.
        let fact = "`tide diff` Compares two snapshots.";
        assert!(!asked_inside_a_longer_name(
            "what does tide diff Compares do",
            "tide diff",
            fact
        ));
    }

    #[test]
    fn a_blank_another_name_of_its_shape_could_fill_is_no_first_hop() {
        assert!(confusable(
            "Restoring to `/` behaves like `--in-place` and honours `--overwrite`.",
            "--overwrite"
        ));
        assert!(confusable(
            "They are on by default in `attrs.define()`, `attrs.mutable()`, and `attrs.frozen()`.",
            "attrs.frozen()"
        ));
        assert!(!confusable(
            "Error code TP-507 for a full storage reserve.",
            "TP-507"
        ));
        assert!(!confusable(
            "This installs Black with the `colorama` extra so the `--color` flag works.",
            "--color"
        ));
    }

    #[test]
    fn a_thing_another_is_likened_to_is_not_what_a_fact_speaks_of() {
        assert!(likened(
            "like `--exclude`, but adds additional files",
            "--exclude"
        ));
        assert!(likened(
            "`x-line-length`: corresponds to the `--line-length` command line flag.",
            "--line-length"
        ));
        assert!(!likened(
            "the `--exclude` option takes a regular expression",
            "--exclude"
        ));
        assert!(!likened(
            "like `--exclude`, `--include` takes a regex; `--exclude` wins",
            "--exclude"
        ));
    }

    fn chunk(doc: &str, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#0"),
            doc: doc.into(),
            start: 0,
            end: text.chars().count(),
            text: text.into(),
        }
    }

    #[test]
    fn words_that_name_no_one_thing_are_no_bridge() {
        let lower: BTreeSet<&str> = ["finished", "the", "build"].into_iter().collect();
        assert!(!one_thing("Finished", &lower));
        assert!(!one_thing("FAQ", &lower));
        // A plural acronym is a kind of thing: the rust book's "APIs".
        assert!(!one_thing("APIs", &lower));
        assert!(!one_thing("Ok(T", &lower));
        assert!(one_thing("Rustaceans", &lower));
        assert!(one_thing("TP-409", &lower));
        assert!(one_thing("Visual Studio", &lower));
    }

    #[test]
    fn a_thing_named_in_passing_bridges_to_the_page_about_it() {
        let chunks = vec![
            chunk(
                "cli.md",
                "# Exit codes\n\n| Code | Meaning |\n|---|---|\n| 3 | Snapshot not found (TP-404) |\n| 4 | Repository locked (TP-409) |\n",
            ),
            chunk(
                "troubleshooting.md",
                "## TP-409: repository locked\n\nA backup could not obtain its lock within the timeout. \
                 With TP-409 the job waits up to five minutes and retries every ten seconds before it fails.\n",
            ),
            chunk(
                "overview.md",
                "Backups editing header run every night and keep the editing header of each file.",
            ),
            chunk(
                "faq.md",
                "The editing header of a file is kept as it was when the backup ran at night.",
            ),
        ];
        let pairs = find(&chunks, &[0, 1, 2, 3], &Pairing::default());
        assert!(
            pairs.iter().all(|p| p.term != "header" && p.term != "editing"),
            "{pairs:?}"
        );
        let p = pairs
            .iter()
            .find(|p| p.term == "TP-409")
            .expect("TP-409 links the pages");
        assert_eq!((p.a, p.b), (0, 1), "the troubleshooting page is about TP-409");
        assert!(
            naming(&facts::facts(&chunks[1].text), "TP-409")[0]
                .shown
                .contains("TP-409")
        );
        // A sentence leaning on the one before says nothing of E itself.
        let leaning = chunk(
            "attrs.md",
            "This decorator includes stepping through generated methods using a debugger for slots.",
        );
        assert!(naming(&facts::facts(&leaning.text), "slots").is_empty());
    }

    #[test]
    fn a_name_written_as_code_is_an_identifier_without_its_marks() {
        // Click: `BadParameter` is a class the docs mark as code; read out of its marks it has
        // no identifier's shape, and was held to a plain word's rule (a page about it).
        let chunks = vec![
            chunk(
                "options.rst",
                "A callback that rejects its value raises :exc:`BadParameter` with a message for the user.",
            ),
            chunk(
                "exceptions.rst",
                "Raised, :exc:`BadParameter` prints the parameter's name beside the message and exits with code 2.",
            ),
        ];
        let pairs = find(&chunks, &[0, 1], &Pairing::default());
        assert!(pairs.iter().any(|p| p.term == "BadParameter"), "{pairs:?}");
        // Not so the same word in plain text.
        let plain: Vec<Chunk> = chunks
            .iter()
            .map(|c| chunk(&c.doc, &c.text.replace(":exc:`BadParameter`", "BadParameter")))
            .collect();
        assert!(find(&plain, &[0, 1], &Pairing::default()).is_empty());
    }

    #[test]
    fn a_plain_word_bridges_only_to_a_page_about_it() {
        // The rust book: "Rustaceans" is named in passing on both pages.
        let passing = [
            chunk(
                "strings.md",
                "When Rustaceans refer to strings in Rust, they might mean String or &str.",
            ),
            chunk(
                "errors.md",
                "In production-quality code, most Rustaceans choose expect rather than unwrap.",
            ),
        ];
        assert!(find(&passing, &[0, 1], &Pairing::default()).is_empty());
        // A section about it is a page about it.
        let about = [
            chunk("install.md", "Deploy the server on Kubernetes with the chart."),
            chunk(
                "kubernetes.md",
                "## Kubernetes\n\nOn Kubernetes the chart creates one StatefulSet per server.",
            ),
        ];
        let pairs = find(&about, &[0, 1], &Pairing::default());
        assert!(
            pairs.iter().any(|p| p.term == "Kubernetes" && p.b == 1),
            "{pairs:?}"
        );
    }

    #[test]
    fn sections_far_apart_in_one_document_bridge_and_neighbours_do_not() {
        // One reference page: the overview names TP-409 in passing, a later section is about it.
        let page = |n: usize, text: &str| Chunk {
            id: format!("api.md#{n}"),
            ..chunk("api.md", text)
        };
        let mut chunks = vec![page(
            0,
            "# Exit codes\n\n| Code | Meaning |\n|---|---|\n| 4 | Repository locked (TP-409) |\n",
        )];
        for n in 1..4 {
            chunks.push(page(n, "Snapshots are kept for thirty days on every plan."));
        }
        chunks.push(page(
            4,
            "## TP-409: repository locked\n\nA backup could not obtain its lock within the timeout. \
             With TP-409 the job waits up to five minutes and retries every ten seconds before it fails.\n",
        ));
        let all: Vec<usize> = (0..chunks.len()).collect();
        let pairs = find(&chunks, &all, &Pairing::default());
        assert!(
            pairs.iter().any(|p| p.term == "TP-409" && (p.a, p.b) == (0, 4)),
            "{pairs:?}"
        );
        // The same two passages side by side are one passage cut in two.
        let near = [chunks[0].clone(), chunks[4].clone()];
        assert!(find(&near, &[0, 1], &Pairing::default()).is_empty());
        // Across documents, the same bridge scores higher.
        let apart = [chunks[0].clone(), chunk("troubleshooting.md", &chunks[4].text)];
        let across = find(&apart, &[0, 1], &Pairing::default());
        let within = pairs.iter().find(|p| p.term == "TP-409").unwrap();
        assert!(across[0].score > within.score, "{across:?} {within:?}");
    }

    #[test]
    fn the_second_hop_says_more_than_the_first_and_is_about_the_thing() {
        // attrs names each namespace alias on two pages, in the same words: no bridge.
        let same = [
            chunk(
                "api.md",
                "All objects from `attrs.filters` are also available from `attr.filters` in the old namespace.",
            ),
            chunk(
                "filters.md",
                "## Filters\n\nAll objects from `attrs.filters` are also available in `attr.filters` as before.",
            ),
        ];
        assert!(
            find(&same, &[0, 1], &Pairing::default()).is_empty(),
            "{:?}",
            find(&same, &[0, 1], &Pairing::default())
        );
        // Black: of two facts naming `--safe`, the one about it alone is the second hop.
        let first =
            facts::facts("When run with `--safe` (the default), Black checks that the code is equivalent.")
                .remove(0);
        let second = chunk(
            "usage.md",
            "The `--fast` flag turns off this check and the `--safe` flag explicitly enables it again. \
             The `--safe` flag costs about a fifth more time on large files of generated code.",
        );
        let f2 = second_fact(&facts::facts(&second.text), "--safe", &first, Language::ENGLISH)
            .expect("a second hop");
        assert!(f2.shown.starts_with("The `--safe` flag costs"), "{}", f2.shown);
    }

    #[test]
    fn the_thing_is_the_subject_in_front_not_inside_a_clause() {
        // Second hops the twelfth stop's runs accepted.
        assert!(as_subject(
            "Note, *field_transformer* receives {class}`attrs.Attribute` instances",
            "field_transformer"
        ));
        assert!(as_subject(
            "Listing 5-4: A build_user function that takes an email and username",
            "build_user"
        ));
        assert!(as_subject(
            "Publish the GitHub Release, triggering release automation",
            "GitHub Release"
        ));
        // Turned away there: the model asked about what the fact speaks of.
        assert!(!as_subject("Only applies when `--diff` is given.", "--diff"));
        assert!(!as_subject(
            "``close_db`` checks if a connection was created by checking if ``g.db`` was set.",
            "g.db"
        ));
        assert!(!as_subject(
            "Therefore, such features are now moved to the `--unstable` style.",
            "--unstable"
        ));
        assert!(!as_subject("The tutorial is short.", "--unstable"));
    }

    #[test]
    fn a_second_hop_that_names_the_thing_inside_a_clause_makes_no_bridge() {
        let hop_1 = chunk(
            "install.md",
            "Restores read packs in parallel using the same `upload.threads` value.",
        );
        let subject = chunk(
            "config.md",
            "`upload.threads` sets how many packs are uploaded at once, four by default.",
        );
        let inside = chunk(
            "tuning.md",
            "On slow links the agent waits longer when `upload.threads` is raised above eight workers.",
        );
        let chunks = [hop_1, subject, inside];
        let pairs = find(&chunks, &[0, 1, 2], &Pairing::default());
        assert!(pairs.iter().any(|p| (p.a, p.b) == (0, 1)), "{pairs:?}");
        assert!(!pairs.iter().any(|p| p.b == 2), "{pairs:?}");
    }
}
