//! `ragsynth generate` with the default local model (Qwen2.5-Coder-1.5B), keyless, as a new user
//! runs it: the questions it writes must be usable, whatever their wording. The other end-to-end
//! tests use the small SmolLM2 for plumbing; this one checks what a user gets. Skipped with a
//! reason when the model is not installed, unless `RAGSYNTH_REQUIRE_LLM=1`.

use std::path::Path;
use std::process::Command;

use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::testset::{self, Severity, Source};
use serde_json::Value;

mod local_llm;
use local_llm::model_available;

/// One generate at a time, as a user runs it: two servers started at the same moment each see
/// an idle machine and take every core, and their spinning threads then slow both several-fold
/// (the pair took 708 s on 2 cores, 2026-12-08).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs keyless `generate -n 6` on `corpus` with a journal in `dir`; returns its JSON summary
/// and the test set it wrote.
fn generate(corpus: &Path, dir: &Path) -> (Value, std::path::PathBuf) {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let out = dir.join("set.yaml");
    let run = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
        .arg("generate")
        .arg(corpus)
        .arg("-o")
        .arg(&out)
        .args([
            "-n",
            "6",
            // The default's top-up rounds: with 2, a Spanish run on a loaded machine once kept
            // only 1 of 6 (10 attempted) where others keep 2 to 4.
            "--max-rounds",
            "3",
            "--seed",
            "1",
            "--json",
            "--quiet",
            "--cache-dir",
        ])
        .arg(dir.join("journal"))
        .env_remove("RAGSYNTH_CONFIG")
        .env_remove("RAGSYNTH_LLM")
        .env_remove("RAGSYNTH_MODEL")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "generate failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let summary: Value = serde_json::from_slice(&run.stdout).unwrap();
    eprintln!("{summary:#}");
    (summary, out)
}

#[test]
fn the_default_model_writes_valid_questions_that_stand_alone() {
    if !model_available("qwen2.5-coder-1.5b") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("docs");
    std::fs::create_dir_all(&corpus).unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/docs");
    for f in ["retention.md", "security.md", "pricing.md", "install.md"] {
        std::fs::copy(sample.join(f), corpus.join(f)).unwrap();
    }
    let (summary, out) = generate(&corpus, dir.path());
    assert!(
        summary["llm"]["model"]
            .as_str()
            .unwrap()
            .starts_with("llamacpp:Qwen2.5-Coder-1.5B"),
        "{summary:#}"
    );

    let set = testset::load(&out).unwrap();
    let docs = Corpus::load(&corpus, WalkOptions::default()).unwrap();
    let errors: Vec<String> = testset::validate(&set, Some(&docs))
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .map(|i| i.to_string())
        .collect();
    assert!(errors.is_empty(), "labels must be valid: {errors:?}");

    // A third of the plan at least, a lookup or an identifier among them: the model writes
    // usable questions that pass every check, the answers judge last.
    let accepted = summary["accepted"].as_u64().unwrap();
    assert!(accepted >= 2, "{summary:#}");
    let single = |k: &str| summary["by_type"][k]["accepted"].as_u64().unwrap_or(0);
    assert!(single("lookup") + single("identifier") >= 1, "{summary:#}");
    assert_eq!(set.cases.len() as u64, accepted);
    for case in &set.cases {
        let q = &case.question;
        assert_eq!(case.tags.source, Some(Source::Synthetic));
        // Written as the set's style asks (the `chat` preset without real questions): a
        // question, with or without its mark, or search keywords.
        let keywords = ragsynth::style::is_keywords(q, ragsynth::lang::Language::ENGLISH);
        assert!(
            q.trim_end().ends_with('?')
                || ragsynth::style::opens_with_question_word(q, ragsynth::lang::Language::ENGLISH)
                || (keywords && q.split_whitespace().count() <= 10),
            "not a question: {q}"
        );
        assert!(
            ragsynth::wording::meta_reference(q).is_none(),
            "refers to what the generator was shown: {q}"
        );
        for word in ["fact", "passage", "key sentence", "nimbus"] {
            assert!(!q.to_lowercase().contains(word), "prompt wording leaked: {q}");
        }
        if let Some(a) = &case.answer {
            assert!(
                !ragsynth::wording::restates_answer(q, a),
                "gives its answer away: {q} / {a}"
            );
        }
        for label in &case.relevant {
            let doc = docs.doc(&label.doc).unwrap();
            let span: String = doc
                .text
                .chars()
                .skip(label.start)
                .take(label.end - label.start)
                .collect();
            assert_eq!(span, label.quote, "the quote is the document's text at its span");
        }
    }
}

/// A Spanish corpus (bank FAQ pages, `tests/fixtures/foreign/bancoestado`): the default model
/// writes its questions and answers in Spanish, and they pass the same checks as English ones.
#[test]
fn the_default_model_writes_in_the_corpus_language() {
    if !model_available("qwen2.5-coder-1.5b") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("docs");
    std::fs::create_dir_all(&corpus).unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/foreign/bancoestado/docs");
    for f in [
        "BD1-00000.md",
        "BD1-00086.md",
        "BD1-00101.md",
        "BD1-00143.md",
        "BD1-00513.md",
        "BD1-00515.md",
    ] {
        std::fs::copy(sample.join(f), corpus.join(f)).unwrap();
    }
    let (summary, out) = generate(&corpus, dir.path());
    let set = testset::load(&out).unwrap();
    // As in English: a third of the plan at least (runs on a loaded machine kept 2 to 4).
    assert!(set.cases.len() >= 2, "{summary:#}");
    let es = ragsynth::lang::Language::parse("es").unwrap();
    let mut spanish = 0;
    for case in &set.cases {
        let q = &case.question;
        eprintln!("{q} -> {:?}", case.answer);
        let read = format!("{q} {}", case.answer.as_deref().unwrap_or(""));
        let told = ragsynth::lang::detect(&read);
        assert!(
            told.is_none() || told == Some(es),
            "not in Spanish: {q} ({told:?})"
        );
        spanish += usize::from(told == Some(es));
        assert!(
            ragsynth::wording::meta_reference_in(q, es).is_none(),
            "refers to what the generator was shown: {q}"
        );
        if let Some(a) = &case.answer {
            assert!(
                !ragsynth::wording::restates_answer_in(q, a, es),
                "gives its answer away: {q} / {a}"
            );
        }
    }
    // Keyword queries ("gastos básicos mes") are often too short to be told at all, and the
    // style chooses them where the preset asks for short queries: none may be told as another
    // language, and some must be told Spanish.
    assert!(spanish >= 1, "{spanish} of {} told as Spanish", set.cases.len());
}
