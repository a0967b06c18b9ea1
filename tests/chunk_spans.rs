//! The span invariant `doc.chars()[start..end] == chunk.text` on real and generated corpora,
//! through the library and through `ragsynth chunk --format jsonl`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ragsynth::chunk::{Chunk, Chunker, Chunking};
use ragsynth::corpus::{Corpus, WalkOptions};

fn sample_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs")
}

fn check_spans(corpus: &Corpus, chunks: &[Chunk]) {
    for c in chunks {
        let doc = corpus.doc(&c.doc).unwrap();
        let span: String = doc.text.chars().skip(c.start).take(c.end - c.start).collect();
        assert_eq!(span, c.text, "span of {}", c.id);
    }
}

#[test]
fn every_chunk_of_the_sample_corpus_holds_its_span() {
    let corpus = Corpus::load(&sample_corpus(), WalkOptions::default()).unwrap();
    assert!(corpus.docs.len() >= 8);
    for config in [
        Chunking::default(),
        Chunking {
            size: 300,
            overlap: 50,
            ..Chunking::default()
        },
        Chunking {
            unit: "tokens:cl100k_base".parse().unwrap(),
            size: 128,
            overlap: 16,
            ..Chunking::default()
        },
    ] {
        let chunks = Chunker::new(config).unwrap().chunk_all(&corpus.docs);
        assert!(chunks.len() > corpus.docs.len());
        check_spans(&corpus, &chunks);
        // Ids are doc#n, n counting from 0 per document, unique.
        let ids: std::collections::HashSet<_> = chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), chunks.len());
    }
}

/// A generated corpus mixing scripts, emoji, combining marks and CRLF line ends.
fn multibyte_corpus() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let pieces = [
        "# 返品ポリシー\n\nデジタル商品はダウンロード前であれば14日以内に返金できます。",
        "## Ünïcödé\n\nCafé crème, naïve façade — e\u{301}\u{301} combining marks; 👩‍👩‍👧 family emoji 🇳🇴 flag.",
        "- список: первый\n- второй пункт\r\n- третий\r\n",
        "```rust\nlet s = \"😀\";\n```\n",
        "Ελληνικά κείμενα και العربية نص و עברית.",
    ];
    for n in 0..12 {
        let mut text = String::new();
        for i in 0..60 {
            text.push_str(pieces[(i + n) % pieces.len()]);
            text.push_str("\n\n");
        }
        let ext = if n % 3 == 0 { "txt" } else { "md" };
        std::fs::write(d.path().join(format!("doc{n:02}.{ext}")), text).unwrap();
    }
    d
}

#[test]
fn every_chunk_of_a_multibyte_corpus_holds_its_span() {
    let d = multibyte_corpus();
    let corpus = Corpus::load(d.path(), WalkOptions::default()).unwrap();
    assert_eq!(corpus.docs.len(), 12);
    for size in [40, 200, 700] {
        let chunks = Chunker::new(Chunking {
            size,
            overlap: size / 5,
            ..Chunking::default()
        })
        .unwrap()
        .chunk_all(&corpus.docs);
        check_spans(&corpus, &chunks);
    }
}

#[test]
fn chunk_command_jsonl_spans_hold() {
    let d = multibyte_corpus();
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["chunk", "--format", "jsonl", "--size", "150", "--overlap", "20"])
        .arg(d.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let corpus = Corpus::load(d.path(), WalkOptions::default()).unwrap();
    let mut n = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let doc = corpus.doc(v["doc"].as_str().unwrap()).unwrap();
        let (s, e) = (
            v["start"].as_u64().unwrap() as usize,
            v["end"].as_u64().unwrap() as usize,
        );
        let span: String = doc.text.chars().skip(s).take(e - s).collect();
        assert_eq!(span, v["text"].as_str().unwrap());
        assert_eq!(v["id"].as_str().unwrap().split('#').next().unwrap(), doc.path);
        n += 1;
    }
    assert!(n > 50, "{n} chunks");
}

#[test]
fn chunk_command_rejects_bad_options_clearly() {
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["chunk", "--size", "100", "--overlap", "100"])
        .arg(sample_corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("overlap (100) must be smaller"));
    let out = Command::cargo_bin("ragsynth")
        .unwrap()
        .args(["chunk", "/nonexistent/corpus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/corpus"));
}
