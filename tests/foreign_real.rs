//! Other tools' real test sets, each with the documents it was generated from
//! (`tests/fixtures/foreign/README.md` says where each comes from and under which licence):
//! every format is read, its passages located in its corpus, its question types mapped.

use std::path::{Path, PathBuf};

use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::locate::CorpusIndex;
use ragsynth::testset::foreign::{self, ConvertOptions, Converted, Format, ReadOptions};
use ragsynth::testset::{QuestionType, Source};

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/foreign")
        .join(p)
}

fn convert(set: &str, docs: &str) -> Converted {
    let corpus = Corpus::load(&fixture(docs), WalkOptions::default()).unwrap();
    let index = CorpusIndex::new(&corpus);
    let read = foreign::read(&fixture(set), &ReadOptions::default()).unwrap();
    foreign::convert(&read, Some(&index), &ConvertOptions::default())
}

/// Every label quotes its document where its span says (the test-set invariant).
fn labels_hold(out: &Converted, docs: &str) {
    let corpus = Corpus::load(&fixture(docs), WalkOptions::default()).unwrap();
    for c in &out.cases {
        for l in &c.relevant {
            let text = &corpus.doc(&l.doc).unwrap().text;
            let span: String = text.chars().skip(l.start).take(l.end - l.start).collect();
            assert!(
                span.starts_with(&l.quote),
                "{}: {} not at {}..{}",
                c.id,
                l.quote,
                l.start,
                l.end
            );
        }
    }
}

fn multi_hop_labels(out: &Converted) -> Vec<usize> {
    out.cases
        .iter()
        .filter(|c| c.question_type() == Some(QuestionType::MultiHop))
        .map(|c| c.relevant.len())
        .collect()
}

#[test]
fn ragas_csv_with_python_lists_and_hops_extracted_by_another_tool() {
    // Contexts written by `unstructured` from the Markdown posts: headings, emphasis, links
    // and line breaks gone.
    let out = convert("letstalk/testset.csv", "letstalk/docs");
    assert_eq!((out.format, out.cases.len()), (Format::Ragas, 12));
    let st = &out.stats;
    assert_eq!((st.passages, st.located()), (23, 23), "{st:?}");
    assert_eq!(st.exact, 0, "nothing here is byte-identical to the posts");
    assert_eq!(
        st.type_names["single_hop_specifc_query_synthesizer"], "lookup",
        "Ragas' own misspelling maps too"
    );
    assert_eq!(st.type_names["multi_hop_abstract_query_synthesizer"], "multi_hop");
    assert_eq!(st.type_names["multi_hop_specific_query_synthesizer"], "multi_hop");
    let hops = multi_hop_labels(&out);
    assert_eq!(hops.len(), 8);
    assert!(hops.iter().all(|&n| n >= 2), "every hop its own label: {hops:?}");
    assert!(out.cases.iter().all(|c| c.is_synthetic()));
    labels_hold(&out, "letstalk/docs");

    // The second set of the same repository kept the raw Markdown: found byte for byte.
    let raw = convert("letstalk/testset_2.csv", "letstalk/docs");
    assert_eq!((raw.stats.passages, raw.stats.exact), (16, 16));
    assert!(multi_hop_labels(&raw).iter().all(|&n| n >= 2));
}

#[test]
fn plain_question_context_pairs_are_real_questions_with_labels() {
    let out = convert("letstalk/ft_questions.csv", "letstalk/docs");
    assert_eq!((out.format, out.cases.len()), (Format::Plain, 24));
    assert_eq!(out.stats.exact, 24);
    assert!(
        out.cases
            .iter()
            .all(|c| c.tags.source == Some(Source::Real) && c.relevant.len() == 1)
    );
}

#[test]
fn giskard_documents_split_and_types_kept() {
    // Saved by `QATestset.save` as JSON Lines under a `.json` name.
    let out = convert("giskard/testset.json", "giskard/docs");
    assert_eq!((out.format, out.cases.len()), (Format::Giskard, 10));
    assert_eq!((out.stats.passages, out.stats.exact), (12, 12));
    let two_docs = out.cases.iter().filter(|c| c.relevant.len() == 2).count();
    assert_eq!(two_docs, 2, "`Document 30: … Document 57: …` is two labels");
    let distracting = out
        .cases
        .iter()
        .filter(|c| c.generator_question_type() == Some("distracting element"))
        .count();
    assert_eq!(distracting, 3);
    assert!(out.cases.iter().all(|c| c.tags.kind.as_deref() == Some("lookup")));
    // The tool's own ids are kept.
    assert_eq!(out.cases[0].id, "ef35d212-5279-4eb2-b066-2f546455e0c8");
    labels_hold(&out, "giskard/docs");
    let jsonl = convert("giskard/testset_gemini.jsonl", "giskard/docs");
    assert_eq!((jsonl.stats.passages, jsonl.stats.located()), (5, 5));
}

#[test]
fn deepeval_pdf_chunks_found_in_another_converters_markdown() {
    // DeepEval read the policy PDF with its own loader (page headers, columns read down);
    // the corpus is a Markdown conversion of the same PDF with two-column tables.
    let out = convert("deepeval/synthetic_dataset.json", "deepeval/docs");
    assert_eq!((out.format, out.cases.len()), (Format::DeepEval, 6));
    let st = &out.stats;
    assert_eq!(st.passages, 18);
    assert!(st.located() >= 17, "{st:?}");
    assert_eq!(st.exact + st.normalized, 0);
    let fields = out.cases[0].provenance.as_ref().unwrap();
    assert_eq!(fields["generator"], "deepeval");
    labels_hold(&out, "deepeval/docs");
}

#[test]
fn llamaindex_labelled_dataset_against_a_new_extraction_of_its_pdf() {
    let out = convert("llamaindex/rag_dataset.json", "llamaindex/docs");
    assert_eq!((out.format, out.cases.len()), (Format::LlamaLabelled, 22));
    assert_eq!((out.stats.passages, out.stats.located()), (22, 22));
    let c = &out.cases[0];
    assert!(c.is_synthetic(), "query_by.type ai");
    assert_eq!(c.provenance.as_ref().unwrap()["model"], "gpt-3.5-turbo");
    assert!(c.tags.kind.is_none(), "LlamaIndex does not type its questions");
    labels_hold(&out, "llamaindex/docs");
}

#[test]
fn ragas_legacy_reads_and_refuses_a_corpus_without_its_documents() {
    // The documents of this set are not in its repository snapshot (Git LFS objects): the
    // file reads, and a corpus that lacks them is refused rather than audited as noise.
    let read = foreign::read(&fixture("ragas01/testset.csv"), &ReadOptions::default()).unwrap();
    assert_eq!((read.format, read.cases.len()), (Format::RagasLegacy, 18));
    let kinds: Vec<Option<QuestionType>> = read.cases.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == Some(QuestionType::MultiHop))
            .count(),
        7
    );
    assert!(kinds.iter().all(Option::is_some));
    assert!(read.cases.iter().all(|c| !c.passages.is_empty()));
    let corpus = Corpus::load(&fixture("letstalk/docs"), WalkOptions::default()).unwrap();
    let index = CorpusIndex::new(&corpus);
    let out = foreign::convert(&read, Some(&index), &ConvertOptions::default());
    let err = out
        .require_located(&fixture("ragas01/testset.csv"), &corpus.root)
        .unwrap_err();
    assert!(err.to_string().contains("none of its"), "{err}");
}
