//! Tying a label to the current chunking and to a corpus directory. A label's truth is its
//! document, span and quote; the chunk id and the corpus root are derived from them, and both
//! import and remap derive them the same way here.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::chunk::{CharIndex, Chunk, Chunker};
use crate::corpus::Document;
use crate::testset::Label;

/// The chunk a character range belongs to: the first chunk that holds all of it, else the one
/// that overlaps it most (the earlier one on a tie); `None` when no chunk touches it.
pub fn chunk_of(chunks: &[Chunk], start: usize, end: usize) -> Option<&Chunk> {
    if let Some(c) = chunks.iter().find(|c| c.start <= start && end <= c.end) {
        return Some(c);
    }
    let overlap = |c: &Chunk| c.end.min(end).saturating_sub(c.start.max(start));
    chunks
        .iter()
        .enumerate()
        .filter(|(_, c)| overlap(c) > 0)
        .min_by_key(|(i, c)| (std::cmp::Reverse(overlap(c)), *i))
        .map(|(_, c)| c)
}

/// Where the label's quote sits: its first occurrence inside the span, else the whole span.
pub fn quote_range(text: &CharIndex<'_>, label: &Label) -> (usize, usize) {
    let quote = label.quote.as_str();
    if let Some(span) = text.slice(label.start, label.end)
        && !quote.is_empty()
        && let Some(b) = span.find(quote)
    {
        let start = label.start + span[..b].chars().count();
        return (start, start + quote.chars().count());
    }
    (label.start, label.end)
}

/// Chunks documents on first use and keeps them, so a corpus with thousands of labels is
/// chunked once per document, not once per label.
pub struct ChunkCache {
    chunker: Chunker,
    by_doc: HashMap<String, Vec<Chunk>>,
}

impl ChunkCache {
    /// An empty cache over `chunker`.
    pub fn new(chunker: Chunker) -> Self {
        ChunkCache {
            chunker,
            by_doc: HashMap::new(),
        }
    }

    /// The chunks of `doc`.
    pub fn of(&mut self, doc: &Document) -> &[Chunk] {
        self.by_doc
            .entry(doc.path.clone())
            .or_insert_with(|| self.chunker.chunk(doc))
    }

    /// The id of `label`'s chunk in `doc` (indexed by `idx`) under this chunking: the chunk
    /// that holds the whole span (a label spanning a chunk names that chunk), else the one
    /// that holds — or overlaps most — the quote.
    pub fn label_chunk(&mut self, doc: &Document, idx: &CharIndex<'_>, label: &Label) -> Option<String> {
        let chunks = self.of(doc);
        let whole = chunks
            .iter()
            .find(|c| c.start <= label.start && label.end <= c.end);
        let chunk = whole.or_else(|| {
            let (start, end) = quote_range(idx, label);
            chunk_of(chunks, start, end)
        });
        chunk.map(|c| c.id.clone())
    }
}

/// `corpus_dir` as the test-set header stores it: relative to the directory of the test-set
/// file, `/`-separated; absolute when the two share nothing below the file-system root.
pub fn root_relative_to(testset: &Path, corpus_dir: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = testset.parent().filter(|p| !p.as_os_str().is_empty());
    let base = absolute(dir.unwrap_or(Path::new(".")));
    let target = absolute(corpus_dir);
    fn clean(p: &Path) -> Vec<Component<'_>> {
        let mut out: Vec<Component<'_>> = Vec::new();
        for c in p.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                    out.pop();
                }
                c => out.push(c),
            }
        }
        out
    }
    let (b, t) = (clean(&base), clean(&target));
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    let below_root = |c: &Component<'_>| matches!(c, Component::Normal(_));
    if !b[..common].iter().any(below_root) && (b.iter().any(below_root) || common == 0) {
        return target.to_string_lossy().replace('\\', "/");
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c.as_os_str());
    }
    let rel = rel.to_string_lossy().replace('\\', "/");
    if rel.is_empty() { ".".into() } else { rel }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(n: usize, start: usize, end: usize) -> Chunk {
        Chunk {
            id: format!("d.md#{n}"),
            doc: "d.md".into(),
            start,
            end,
            text: String::new(),
        }
    }

    #[test]
    fn containing_chunk_wins_then_largest_overlap() {
        let chunks = [chunk(0, 0, 100), chunk(1, 90, 200), chunk(2, 190, 300)];
        assert_eq!(chunk_of(&chunks, 95, 99).unwrap().id, "d.md#0");
        assert_eq!(chunk_of(&chunks, 150, 195).unwrap().id, "d.md#1");
        assert_eq!(chunk_of(&chunks, 180, 290).unwrap().id, "d.md#2");
        assert!(chunk_of(&chunks, 300, 310).is_none());
    }

    #[test]
    fn a_label_spanning_a_chunk_names_that_chunk() {
        use crate::chunk::Chunking;
        use crate::corpus::DocKind;
        let text = (0..40)
            .map(|i| format!("Sentence number {i} is here. "))
            .collect::<String>();
        let doc = Document {
            path: "d.txt".into(),
            text,
            kind: DocKind::Text,
            sha256: String::new(),
        };
        let chunking = Chunking {
            size: 120,
            overlap: 40,
            ..Chunking::default()
        };
        let mut cache = ChunkCache::new(Chunker::new(chunking).unwrap());
        let chunks = cache.of(&doc).to_vec();
        let idx = CharIndex::new(&doc.text);
        let c = &chunks[2];
        // The chunk's first words also end the chunk before it (the overlap).
        let quote: String = c.text.chars().take(12).collect();
        assert!(chunks[1].text.contains(&quote));
        let mut label = Label {
            doc: "d.txt".into(),
            start: c.start,
            end: c.end,
            quote: quote.clone(),
            chunk: None,
            grade: None,
            extra: Default::default(),
        };
        assert_eq!(
            cache.label_chunk(&doc, &idx, &label).as_deref(),
            Some(c.id.as_str())
        );
        label.end = label.start + quote.chars().count();
        assert_eq!(
            cache.label_chunk(&doc, &idx, &label).as_deref(),
            Some(chunks[1].id.as_str())
        );
    }

    #[test]
    fn roots_are_relative_to_the_test_set_directory() {
        assert_eq!(
            root_relative_to(Path::new("/w/out/set.yaml"), Path::new("/w/corpora/docs")),
            "../corpora/docs"
        );
        assert_eq!(
            root_relative_to(Path::new("/w/set.yaml"), Path::new("/w/docs/")),
            "docs"
        );
        assert_eq!(
            root_relative_to(Path::new("/w/set.yaml"), Path::new("/w/./x/../")),
            "."
        );
        assert_eq!(
            root_relative_to(Path::new("/tmp/set.yaml"), Path::new("/w/docs")),
            "/w/docs"
        );
    }
}
