//! Multi-hop pairing: two chunks of different documents that share a rare term (a product
//! name, an error code, a setting) are likely to support a question that needs both. A term is
//! rare when few documents use it; common vocabulary ("backup", "server") links everything and
//! so links nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::chunk::Chunk;
use crate::lang::Language;
use crate::text::tokens;

/// Two chunks (indices into the chunk list) and the term that links them.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// First chunk.
    pub a: usize,
    /// Second chunk, from another document.
    pub b: usize,
    /// The linking term as written in chunk `a`.
    pub term: String,
    /// Sum of the idf of every rare term both share; higher links more specifically.
    pub score: f32,
}

/// Which chunks may be paired: each chunk's language (terms are read in it), and whether
/// chunks of two languages may make one question (`--cross-language`; off, a question's two
/// passages are in one language, as its user's question would be).
#[derive(Debug, Clone, Default)]
pub struct Pairing {
    /// Per chunk (index into the chunk list); English where missing.
    pub languages: Vec<Language>,
    /// Pair chunks of different languages.
    pub cross_language: bool,
}

impl Pairing {
    /// The language of chunk `i`.
    pub fn language(&self, i: usize) -> Language {
        self.languages.get(i).copied().unwrap_or(Language::ENGLISH)
    }

    /// Whether chunks `a` and `b` may be paired.
    fn allows(&self, a: usize, b: usize) -> bool {
        self.cross_language || self.language(a) == self.language(b)
    }
}

/// Chunk pairs from different documents among `eligible` (indices into `chunks`), best first;
/// ties broken by chunk order, so the result is deterministic.
pub fn find_pairs(chunks: &[Chunk], eligible: &[usize], pairing: &Pairing) -> Vec<Pair> {
    let terms: Vec<BTreeSet<String>> = eligible
        .iter()
        .map(|&i| {
            pairing
                .language(i)
                .analyzer()
                .content_terms(&chunks[i].text)
                .into_iter()
                .collect()
        })
        .collect();
    // Chunks each term appears in, each chunk's terms read in its own language (an index read
    // in English would see no Spanish stem at all, and call every one of them rare).
    let mut chunk_freq: HashMap<&str, usize> = HashMap::new();
    for set in &terms {
        for t in set {
            *chunk_freq.entry(t.as_str()).or_default() += 1;
        }
    }
    // Documents each term appears in.
    let mut docs_of: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (k, set) in terms.iter().enumerate() {
        for t in set {
            docs_of
                .entry(t.as_str())
                .or_default()
                .insert(chunks[eligible[k]].doc.as_str());
        }
    }
    let n_docs = eligible
        .iter()
        .map(|&i| chunks[i].doc.as_str())
        .collect::<BTreeSet<_>>()
        .len();
    let max_docs = (n_docs / 4).max(2);
    let rare = |t: &str| {
        let d = docs_of.get(t).map_or(0, BTreeSet::len);
        (2..=max_docs).contains(&d) && t.chars().count() >= 4 && !t.chars().all(|c| c.is_ascii_digit())
    };
    let n = eligible.len() as f32;
    let idf = |t: &str| {
        let df = chunk_freq.get(t).copied().unwrap_or(0) as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    };

    // Chunks holding each rare term.
    let mut holders: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, set) in terms.iter().enumerate() {
        for t in set.iter().filter(|t| rare(t)) {
            holders.entry(t.as_str()).or_default().push(k);
        }
    }
    let mut scored: HashMap<(usize, usize), (f32, &str, f32)> = HashMap::new();
    for (term, ks) in &holders {
        // A term in very many chunks is not specific, even if few documents use it.
        if ks.len() > 12 {
            continue;
        }
        // A name or an identifier links two pages more surely than a common word does.
        let w = idf(term)
            * if ks.iter().any(|&k| {
                let i = eligible[k];
                name_like(&chunks[i].text, term, pairing.language(i))
            }) {
                2.0
            } else {
                1.0
            };
        for (x, &ka) in ks.iter().enumerate() {
            for &kb in &ks[x + 1..] {
                if chunks[eligible[ka]].doc == chunks[eligible[kb]].doc
                    || !pairing.allows(eligible[ka], eligible[kb])
                {
                    continue;
                }
                let e = scored.entry((ka, kb)).or_insert((0.0, term, 0.0));
                e.0 += w;
                if w > e.2 {
                    e.1 = term;
                    e.2 = w;
                }
            }
        }
    }
    let mut pairs: Vec<Pair> = scored
        .into_iter()
        .map(|((ka, kb), (score, term, _))| {
            let a = eligible[ka];
            Pair {
                a,
                b: eligible[kb],
                term: surface(&chunks[a].text, term, pairing.language(a)),
                score,
            }
        })
        .collect();
    pairs.sort_by(|x, y| y.score.total_cmp(&x.score).then((x.a, x.b).cmp(&(y.a, y.b))));
    pairs
}

/// Whether `term` is written in `text` as a name (capitalised after a sentence's first word) or an
/// identifier (with a digit, or in code marks).
fn name_like(text: &str, term: &str, language: Language) -> bool {
    let words = language.analyzer();
    let toks = tokens(text);
    toks.iter().enumerate().any(|(i, t)| {
        if words.stem(&t.norm) != term {
            return false;
        }
        let before = &text[..t.byte];
        let opens = i == 0
            || before
                .trim_end()
                .ends_with(['.', '!', '?', ':', '#', '|', '-', '*']);
        let capital = t.raw.chars().next().is_some_and(char::is_uppercase) && !opens;
        let code = before
            .rfind('`')
            .is_some_and(|b| before[b..].matches('`').count() % 2 == 1);
        capital || code || t.raw.chars().any(|c| c.is_ascii_digit())
    })
}

/// The first word of `text` whose stem (in `language`) is `term`, as written.
fn surface(text: &str, term: &str, language: Language) -> String {
    let words = language.analyzer();
    tokens(text)
        .into_iter()
        .find(|t| words.stem(&t.norm) == term)
        .map_or_else(|| term.to_string(), |t| t.raw.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(doc: &str, n: usize, text: &str) -> Chunk {
        Chunk {
            id: format!("{doc}#{n}"),
            doc: doc.into(),
            start: 0,
            end: text.chars().count(),
            text: text.into(),
        }
    }

    #[test]
    fn pairs_chunks_of_different_documents_on_a_rare_term() {
        let chunks = vec![
            chunk(
                "a.md",
                0,
                "The Kestrel agent uploads snapshots every night to the server.",
            ),
            chunk("a.md", 1, "Snapshots are stored on the server and pruned weekly."),
            chunk(
                "b.md",
                0,
                "Kestrel needs port 8751 open on the server for uploads.",
            ),
            chunk("c.md", 0, "The server console lists snapshots and their size."),
            chunk(
                "d.md",
                0,
                "Pricing depends on the server count and snapshots kept.",
            ),
            chunk(
                "e.md",
                0,
                "Accounts are created by an administrator on the server.",
            ),
            chunk("f.md", 0, "The server keeps audit logs of snapshots for a year."),
            chunk(
                "g.md",
                0,
                "Support answers questions about the server within a day.",
            ),
            chunk(
                "h.md",
                0,
                "The server can send email alerts about failed snapshots.",
            ),
        ];
        let all: Vec<usize> = (0..chunks.len()).collect();
        let pairs = find_pairs(&chunks, &all, &Pairing::default());
        let first = &pairs[0];
        assert_eq!((first.a, first.b), (0, 2));
        assert_eq!(first.term, "Kestrel");
        // "server" is in every document: it links nothing.
        assert!(pairs.iter().all(|p| chunks[p.a].doc != chunks[p.b].doc));
        assert!(pairs.iter().all(|p| p.term.to_lowercase() != "server"));
    }

    /// Chunks of one language sharing a name: the pair's term is the name as written, found
    /// with the language's own stems (read in English, a Spanish or German stem matched no word
    /// and the term came out as a bare stem; every term looked rare).
    fn pairs_in(language: Language, texts: &[(&str, &str)]) -> Vec<Pair> {
        let chunks: Vec<Chunk> = texts.iter().map(|(d, t)| chunk(d, 0, t)).collect();
        let all: Vec<usize> = (0..chunks.len()).collect();
        let pairing = Pairing {
            languages: vec![language; chunks.len()],
            cross_language: false,
        };
        find_pairs(&chunks, &all, &pairing)
    }

    #[test]
    fn spanish_pairs_read_spanish_words() {
        let pairs = pairs_in(
            Language::parse("es").unwrap(),
            &[
                (
                    "a.md",
                    "Las Bibliotecas Widener guardan los manuscritos de la universidad desde 1915.",
                ),
                (
                    "b.md",
                    "Los estudiantes consultan las Bibliotecas Widener los domingos por la tarde.",
                ),
                (
                    "c.md",
                    "La universidad abre sus puertas a los visitantes todos los días del año.",
                ),
                (
                    "d.md",
                    "La universidad publica un informe anual sobre sus finanzas y sus estudiantes.",
                ),
                (
                    "e.md",
                    "El museo de la universidad expone pinturas y esculturas de varios siglos.",
                ),
                (
                    "f.md",
                    "Los profesores de la universidad publican artículos en revistas científicas.",
                ),
                (
                    "g.md",
                    "La universidad tiene un equipo de remo que compite cada primavera.",
                ),
                (
                    "h.md",
                    "El comedor de la universidad sirve almuerzos a los estudiantes cada día.",
                ),
            ],
        );
        let first = &pairs[0];
        assert_eq!((first.a, first.b), (0, 1), "{pairs:?}");
        assert!(
            ["Bibliotecas", "Widener"].contains(&first.term.as_str()),
            "{pairs:?}"
        );
    }

    #[test]
    fn german_pairs_read_german_words() {
        let pairs = pairs_in(
            Language::parse("de").unwrap(),
            &[
                (
                    "a.md",
                    "Die Bibliotheken der Universität bewahren die Handschriften seit 1915 auf.",
                ),
                (
                    "b.md",
                    "Studenten lesen in den Bibliotheken der Universität jeden Sonntag.",
                ),
                (
                    "c.md",
                    "Die Universität öffnet ihre Türen für Besucher an jedem Tag des Jahres.",
                ),
                (
                    "d.md",
                    "Die Universität veröffentlicht jedes Jahr einen Bericht über ihre Finanzen.",
                ),
                (
                    "e.md",
                    "Das Museum der Universität zeigt Gemälde und Skulpturen aus vielen Jahrhunderten.",
                ),
                (
                    "f.md",
                    "Die Professoren der Universität schreiben Artikel für wissenschaftliche Zeitschriften.",
                ),
                (
                    "g.md",
                    "Die Universität hat eine Rudermannschaft, die jeden Frühling antritt.",
                ),
                (
                    "h.md",
                    "Die Mensa der Universität serviert den Studenten jeden Tag ein Mittagessen.",
                ),
            ],
        );
        let first = &pairs[0];
        assert_eq!((first.a, first.b), (0, 1), "{pairs:?}");
        assert_eq!(first.term, "Bibliotheken", "{pairs:?}");
    }
}
