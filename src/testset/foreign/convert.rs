//! A foreign set as ragsynth cases: every passage located in the corpus as a label of its own
//! (exact, then by skeleton, then fuzzily: [`crate::locate::CorpusIndex`]), the generator and
//! its kind of question recorded, the type mapped, unused fields kept. `import` writes these
//! cases; `audit` checks the very same ones, so both see one set.
//!
//! A passage that is nowhere in the corpus stays on the case, under `unlocated`, with its
//! text: the case is not "unanswerable" for it (its generator said it has an answer), and the
//! audit reports it by its own rule (RS406).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value, json};

use super::{ForeignCase, ForeignSet, Format};
use crate::locate::{CorpusIndex, Match};
use crate::testset::{Case, Label, Source, Tags};
use crate::{Error, Result};

/// The case field holding passages that could not be located.
pub const UNLOCATED: &str = "unlocated";
/// The case field holding the earlier turns of a conversation.
pub const CONVERSATION: &str = "conversation";

/// Longest label quote, in characters (a label of a whole document quotes its start).
const QUOTE_CHARS: usize = 200;

/// How to convert.
#[derive(Debug, Clone)]
pub struct ConvertOptions {
    /// Tag every case with this source, whatever the file says.
    pub source: Option<Source>,
    /// Similarity a fuzzily located passage needs.
    pub min_similarity: f32,
    /// The file's name, recorded in each case's provenance.
    pub file_name: String,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            source: None,
            min_similarity: crate::locate::DEFAULT_MIN_SIMILARITY,
            file_name: String::new(),
        }
    }
}

/// How the passages were located.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LocateStats {
    /// Passages in the file.
    pub passages: usize,
    /// Found byte for byte.
    pub exact: usize,
    /// Found with the same letters and digits (white space, punctuation, case, hyphenation
    /// aside).
    pub normalized: usize,
    /// Found fuzzily, above the threshold.
    pub fuzzy: usize,
    /// Not found: `(case id, 1-based passage number)`.
    pub unlocated: Vec<(String, usize)>,
    /// Cases per mapped type (`-` for none), and per generator type as written.
    pub types: BTreeMap<String, usize>,
    /// The generator's own type names, with the type each mapped to.
    pub type_names: BTreeMap<String, String>,
    /// Multi-hop cases, and the labels they got in all.
    pub multi_hop: (usize, usize),
}

impl LocateStats {
    /// Passages located, any way.
    pub fn located(&self) -> usize {
        self.exact + self.normalized + self.fuzzy
    }
}

/// A foreign set converted.
#[derive(Debug, Clone)]
pub struct Converted {
    /// The format it was read as.
    pub format: Format,
    /// The cases, in file order.
    pub cases: Vec<Case>,
    /// How the passages were located.
    pub stats: LocateStats,
}

impl Converted {
    /// Refuses a conversion in which not one of the passages was found: the corpus is not the
    /// one the set was generated from, and every case would only report that.
    pub fn require_located(&self, path: &Path, root: &Path) -> Result<()> {
        if self.stats.passages > 0 && self.stats.located() == 0 {
            return Err(Error::NothingLocated {
                path: path.to_path_buf(),
                root: root.to_path_buf(),
                passages: self.stats.passages,
            });
        }
        Ok(())
    }
}

/// Converts `set`, locating its passages with `index` (none: no labels, every passage kept
/// as unlocated).
pub fn convert(set: &ForeignSet, index: Option<&CorpusIndex<'_>>, options: &ConvertOptions) -> Converted {
    let mut stats = LocateStats::default();
    let mut ids = HashSet::new();
    let cases = set
        .cases
        .iter()
        .enumerate()
        .map(|(n, fc)| {
            // The tool's id, else its number in the file: the same file gives the same ids.
            let mut id = fc
                .id
                .clone()
                .unwrap_or_else(|| format!("{}-{}", set.format.tool(), n + 1));
            let base = id.clone();
            let mut n = 2;
            while !ids.insert(id.clone()) {
                id = format!("{base}-{n}");
                n += 1;
            }
            one(set.format, fc, id, index, options, &mut stats)
        })
        .collect();
    Converted {
        format: set.format,
        cases,
        stats,
    }
}

fn one(
    format: Format,
    fc: &ForeignCase,
    id: String,
    index: Option<&CorpusIndex<'_>>,
    options: &ConvertOptions,
    stats: &mut LocateStats,
) -> Case {
    let mut case = Case::new(id, fc.question.clone());
    case.answer = fc.answer.clone();
    let default_source = if format.is_generator() {
        Source::Synthetic
    } else {
        Source::Real
    };
    case.tags = Tags {
        kind: fc.kind.map(|k| k.as_str().to_string()),
        topic: fc.topic.clone(),
        source: Some(options.source.or(fc.source).unwrap_or(default_source)),
        ..Tags::default()
    };
    let kind = case.tags.kind.clone().unwrap_or_else(|| "-".into());
    *stats.types.entry(kind.clone()).or_default() += 1;
    if let Some(t) = &fc.question_type {
        stats.type_names.insert(t.clone(), kind);
    }
    let mut provenance = Map::new();
    provenance.insert("generator".into(), json!(format.tool()));
    if let Some(t) = &fc.question_type {
        provenance.insert("question_type".into(), json!(t));
    }
    if let Some(m) = &fc.model {
        provenance.insert("model".into(), json!(m));
    }
    provenance.insert("imported_from".into(), json!(options.file_name));
    provenance.insert("line".into(), json!(fc.line));
    if !fc.fields.is_empty() {
        provenance.insert("fields".into(), Value::Object(fc.fields.clone()));
    }
    case.provenance = Some(Value::Object(provenance));

    let prefer = match (index, &fc.doc) {
        (Some(ix), Some(doc)) => ix.docs_named(doc),
        _ => Vec::new(),
    };
    let mut unlocated = Vec::new();
    let mut texts: Vec<(Option<&str>, &str)> = fc
        .passages
        .iter()
        .map(|p| (p.name.as_deref(), p.text.as_str()))
        .collect();
    if let Some(q) = &fc.quote {
        texts.push((None, q));
    }
    for (k, (name, text)) in texts.into_iter().enumerate() {
        stats.passages += 1;
        let hit = index.and_then(|ix| ix.locate(text, &prefer, options.min_similarity).map(|f| (ix, f)));
        let Some((ix, (doc, found))) = hit else {
            stats.unlocated.push((case.id.clone(), k + 1));
            let mut u = Map::new();
            if let Some(n) = name {
                u.insert("name".into(), json!(n));
            }
            u.insert("text".into(), json!(text));
            unlocated.push(Value::Object(u));
            continue;
        };
        match found.how {
            Match::Exact => stats.exact += 1,
            Match::Normalized => stats.normalized += 1,
            Match::Fuzzy => stats.fuzzy += 1,
        }
        let d = &ix.corpus().docs[doc];
        let quote: String = d
            .text
            .chars()
            .skip(found.start)
            .take(QUOTE_CHARS.min(found.end - found.start))
            .collect();
        let mut label = Label {
            doc: d.path.clone(),
            start: found.start,
            end: found.end,
            quote: quote.trim_end().to_string(),
            chunk: None,
            grade: None,
            extra: Map::new(),
        };
        if found.how != Match::Exact {
            let how = if found.how == Match::Fuzzy {
                "fuzzy"
            } else {
                "normalized"
            };
            let sim = (f64::from(found.similarity) * 100.0).round() / 100.0;
            label
                .extra
                .insert("located".into(), json!({"match": how, "similarity": sim}));
        }
        let same = |l: &Label| l.doc == label.doc && l.start == label.start && l.end == label.end;
        if !case.relevant.iter().any(same) {
            case.relevant.push(label);
        }
    }
    if case.question_type() == Some(crate::testset::QuestionType::MultiHop) {
        stats.multi_hop.0 += 1;
        stats.multi_hop.1 += case.relevant.len();
    }
    if !unlocated.is_empty() {
        case.extra.insert(UNLOCATED.into(), Value::Array(unlocated));
    }
    if !fc.conversation.is_empty() {
        case.extra
            .insert(CONVERSATION.into(), Value::Array(fc.conversation.clone()));
    }
    case
}

#[cfg(test)]
mod tests {
    use super::super::Passage;
    use super::*;
    use crate::corpus::{Corpus, DocKind, Document};
    use crate::testset::QuestionType;

    fn corpus() -> Corpus {
        let doc = |p: &str, t: &str| Document {
            path: p.into(),
            text: t.into(),
            kind: DocKind::Markdown,
            sha256: String::new(),
        };
        Corpus {
            docs: vec![
                doc(
                    "a.md",
                    "# Alpha\n\nThe alpha service keeps every snapshot for thirty days before pruning it.",
                ),
                doc(
                    "b.md",
                    "# Beta\n\nThe beta service encrypts backups with a key held in the regional vault.",
                ),
            ],
            ..Corpus::default()
        }
    }

    #[test]
    fn each_hop_is_its_own_label_and_a_missing_one_stays_on_the_case() {
        let c = corpus();
        let ix = CorpusIndex::new(&c);
        let set = ForeignSet {
            format: Format::Ragas,
            cases: vec![ForeignCase {
                line: 2,
                question: "How long are alpha snapshots kept and how are beta backups encrypted?".into(),
                passages: [
                    "The alpha service keeps every snapshot for thirty days",
                    "the beta service encrypts backups with a key held in the regional vault",
                    "A passage about payroll that no document of the corpus holds at all.",
                ]
                .iter()
                .map(|t| Passage {
                    text: t.to_string(),
                    name: None,
                })
                .collect(),
                question_type: Some("multi_hop_specific_query_synthesizer".into()),
                kind: Some(QuestionType::MultiHop),
                ..ForeignCase::default()
            }],
        };
        let out = convert(&set, Some(&ix), &ConvertOptions::default());
        let case = &out.cases[0];
        assert_eq!(case.id, "ragas-1");
        assert_eq!(
            case.relevant.iter().map(|l| l.doc.as_str()).collect::<Vec<_>>(),
            ["a.md", "b.md"]
        );
        assert_eq!(case.relevant[1].extra["located"]["match"], "normalized");
        assert_eq!(
            case.extra[UNLOCATED][0]["text"],
            "A passage about payroll that no document of the corpus holds at all."
        );
        assert!(case.is_synthetic() && !case.is_unanswerable());
        assert_eq!(
            (out.stats.exact, out.stats.normalized, out.stats.unlocated.len()),
            (1, 1, 1)
        );
        assert_eq!(out.stats.multi_hop, (1, 2));
        assert_eq!(
            case.provenance.as_ref().unwrap()["question_type"],
            "multi_hop_specific_query_synthesizer"
        );
        let nothing = convert(&set, None, &ConvertOptions::default());
        assert!(
            nothing
                .require_located(Path::new("t.csv"), Path::new("docs"))
                .is_err()
        );
    }
}
