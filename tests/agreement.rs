//! Generate and audit agree: a question `generate` accepts is never one the audit flags for the
//! same reason. Every question check of `generate::verify` runs, as generation runs it, over
//! questions a generator could write — look-alikes of what small models write (below), the
//! real and synthetic questions of `tests/fixtures` and `corpora/questions.csv`, and XQuAD's
//! crowd questions in English, Spanish, German and Chinese (skipped, with a reason, without
//! `../shared/data`) — and the accepted ones are audited: none may carry a finding of a rule
//! that shares its reason with one of the checks ([`reasons`]). `AGREEMENT_SHOW=<code>` prints
//! the candidates turned away for that reason (e.g. `not_standalone`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ragsynth::audit::{self, AuditConfig, AuditContext};
use ragsynth::chunk::{CharIndex, Chunking};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::generate::candidate::Kind;
use ragsynth::generate::checks::{Action, Screen, Skip, Stage};
use ragsynth::generate::verify::{Check, Dedup, check_answer, check_question, check_wording};
use ragsynth::testset::{Case, Label, Source, TestSet, foreign};
use ragsynth::workspace::{ChunkedCorpus, CorpusNeed, OpenOptions, SetSource, Workspace};

mod xquad_data;

/// The audit rules that flag a case for the reason a generate check turns it away: the codes
/// the check registry shares with the audit (one definition, one code), of the checks this test
/// runs (not the LLM judges, nor the set-level ones but the question repeats of [`Dedup`]), and
/// that turn a case away: a review hint accepts the case and asks the reviewer to look.
fn reasons() -> BTreeSet<&'static str> {
    Check::ALL
        .iter()
        .map(|c| c.info())
        .filter(|i| i.audit && i.action == Action::Reject && !matches!(i.stage, Stage::Judge | Stage::Set))
        .map(|i| i.code)
        .collect()
}

/// A question as a generator returns it, with its answer and the label it would get.
struct Candidate {
    question: String,
    answer: String,
    labels: Vec<Label>,
}

/// What a corpus's candidates came to.
#[derive(Default)]
struct Outcome {
    accepted: usize,
    rejected: BTreeMap<Check, usize>,
    /// `(question, rule, message)` of every accepted case flagged for a reason of [`reasons`].
    disagreements: Vec<(String, String, String)>,
}

/// Runs the checks of a lookup in `generate` (form, wording against the labelled chunks, the
/// answer against its label, repeats)
/// on `c`, in the language of the chunk its label lies in.
fn generate_checks(c: &Candidate, chunks: &ChunkedCorpus, seen: &mut Dedup) -> Result<String, Check> {
    let source = chunks.labelled(&c.labels);
    let language = source
        .first()
        .map_or(chunks.language(), |&i| chunks.language_of(i));
    let screen = Screen::new(Kind::Lookup, language, Skip::none());
    let q = check_question(&c.question, &screen)?;
    check_wording(&q, &c.answer, &chunks.labelled_text(&c.labels), &screen)?;
    check_answer(&q, &c.answer, &c.labels, &screen)?;
    seen.check(&q, &screen)?;
    seen.add(&q);
    Ok(q)
}

/// Generates from `candidates` over `corpus` and audits what was accepted.
fn agree(corpus: Corpus, chunking: &Chunking, candidates: Vec<Candidate>) -> Outcome {
    let chunks = ChunkedCorpus::new(Some(&corpus), chunking).unwrap();
    let mut out = Outcome::default();
    let mut seen = Dedup::default();
    let mut set = TestSet::default();
    set.chunking = Some(chunking.clone());
    for (i, c) in candidates.into_iter().enumerate() {
        match generate_checks(&c, &chunks, &mut seen) {
            Ok(question) => {
                let mut case = Case::new(format!("c{i}"), question);
                case.answer = (!c.answer.is_empty()).then(|| c.answer.clone());
                case.relevant = c.labels;
                case.tags.source = Some(Source::Synthetic);
                set.cases.push(case);
            }
            Err(r) => {
                if std::env::var("AGREEMENT_SHOW").is_ok_and(|v| v == r.code()) {
                    let fact: Vec<&str> = c.labels.iter().map(|l| l.quote.as_str()).collect();
                    println!("{r}: {:?} -> {:?} | {:?}", c.question, c.answer, fact);
                }
                *out.rejected.entry(r).or_default() += 1;
            }
        }
    }
    out.accepted = set.cases.len();
    let codes = reasons();
    let cx = AuditContext::from_parts(Some(corpus), chunks);
    let report = audit::audit(&set, &cx, &AuditConfig::default());
    for f in report.findings.iter().filter(|f| codes.contains(f.code)) {
        let id = f.case.as_deref().unwrap_or("-");
        let question = set
            .cases
            .iter()
            .find(|c| c.id == id)
            .map_or("(the set)".to_string(), |c| c.question.clone());
        out.disagreements
            .push((question, f.code.to_string(), f.message.clone()));
    }
    out
}

fn assert_agree(name: &str, out: &Outcome) {
    println!("{name}: {} accepted, rejected {:?}", out.accepted, out.rejected);
    assert!(
        out.disagreements.is_empty(),
        "{name}: generate accepted what the audit flags for the same reason:\n{}",
        out.disagreements
            .iter()
            .map(|(q, code, m)| format!("  {code} {q:?}: {m}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn root(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A label on the first place `quote` stands in `doc` of `corpus`.
fn label(corpus: &Corpus, doc: &str, quote: &str) -> Label {
    let text = &corpus.doc(doc).unwrap_or_else(|| panic!("{doc}")).text;
    let at = text.find(quote).unwrap_or_else(|| panic!("{quote:?} in {doc}"));
    let start = CharIndex::new(text).char_of(at);
    Label::spanning(doc, start, quote)
}

/// What small models write when asked for a question about a fact of the sample corpus: good
/// questions, and the faults the checks are there for (statements, polite requests without
/// their mark, two questions, references to the passage, copies, repeats, answers given away).
const WRITTEN: &[(&str, &str, &str, &str)] = &[
    (
        "How long does the Community plan keep snapshots?",
        "30 days",
        "retention.md",
        "On the Community plan, snapshots older than 30 days are forgotten",
    ),
    (
        "How long does the Community plan keep snapshots",
        "30 days",
        "retention.md",
        "On the Community plan, snapshots older than 30 days are forgotten",
    ),
    (
        "What happens to snapshots older than 30 days on the Community plan?",
        "They are forgotten at the next prune",
        "retention.md",
        "On the Community plan, snapshots older than 30 days are forgotten",
    ),
    (
        "Can you explain how a retention policy is applied",
        "In two steps: forget, then prune",
        "retention.md",
        "Applying a policy\nhappens in two steps",
    ),
    (
        "Could you tell me when disk space is given back",
        "Only after prune",
        "retention.md",
        "Disk space\nis only given back after prune.",
    ),
    (
        "Explain when disk space is given back",
        "After prune",
        "retention.md",
        "Disk space\nis only given back after prune.",
    ),
    (
        "Is disk space given back before prune or after it",
        "After prune",
        "retention.md",
        "Disk space\nis only given back after prune.",
    ),
    (
        "In which time zone are retention periods counted?",
        "The server's local time zone",
        "retention.md",
        "Periods are counted in the server's local time zone.",
    ),
    (
        "In which time zone are retention periods counted",
        "The server's local time zone",
        "retention.md",
        "Periods are counted in the server's local time zone.",
    ),
    (
        "Are periods counted in the server's local time zone?",
        "Yes",
        "retention.md",
        "Periods are counted in the server's local time zone.",
    ),
    (
        "Periods are counted in the server's local time zone.",
        "local time",
        "retention.md",
        "Periods are counted in the server's local time zone.",
    ),
    (
        "Which time zone is used? How are periods counted?",
        "local time",
        "retention.md",
        "Periods are counted in the server's local time zone.",
    ),
    (
        "According to the passage, which time zone counts periods?",
        "local time",
        "retention.md",
        "Periods are counted in the server's local time zone.",
    ),
    (
        "What is this section about?",
        "retention",
        "retention.md",
        "A retention policy decides which snapshots a repository keeps.",
    ),
    (
        "Summarize how retention policies work",
        "forget then prune",
        "retention.md",
        "A retention policy decides which snapshots a repository keeps.",
    ),
    (
        "What does a retention policy decide?",
        "Which snapshots a repository keeps",
        "retention.md",
        "A retention policy decides which snapshots a repository keeps.",
    ),
    (
        "What does the retention policy decide for a repository?",
        "Which snapshots it keeps",
        "retention.md",
        "A retention policy decides which snapshots a repository keeps.",
    ),
    (
        "Which snapshots does a repository keep under its retention policy?",
        "Those selected by at least one keep rule",
        "retention.md",
        "A snapshot is kept if at least one rule\nselects it.",
    ),
    (
        "Which snapshots does a repository keep under its retention policies?",
        "Those selected by at least one keep rule",
        "retention.md",
        "A snapshot is kept if at least one rule\nselects it.",
    ),
    (
        "How many snapshots does the default policy hold with one backup per night?",
        "Roughly 17",
        "retention.md",
        "With one backup per night, the default policy holds roughly 17 snapshots",
    ),
    (
        "Roughly how many snapshots are held by the default retention setup for nightly backups?",
        "About 17",
        "retention.md",
        "With one backup per night, the default policy holds roughly 17 snapshots",
    ),
    (
        "How far back does the default policy reach?",
        "Six months",
        "retention.md",
        "reaches back six months",
    ),
    (
        "Does the default policy reach back six months?",
        "six months",
        "retention.md",
        "reaches back six months",
    ),
    (
        "What does a per-agent policy replace?",
        "The repository policy for that agent's snapshots",
        "retention.md",
        "A per-agent policy replaces the repository policy for that agent's snapshots",
    ),
    (
        "Are the rules of a per-agent policy merged with the repository's rules?",
        "No; they replace them",
        "retention.md",
        "rules are not merged.",
    ),
    (
        "Which rule keeps every snapshot carrying a given tag?",
        "keep-tag TAG",
        "retention.md",
        "`keep-tag TAG` | Every snapshot carrying TAG",
    ),
    (
        "Which rule keeps every snapshot carrying a given tag?",
        "keep-tag",
        "retention.md",
        "`keep-tag TAG` | Every snapshot carrying TAG",
    ),
    (
        "Do Team and Business plans have an age limit on snapshots?",
        "No",
        "retention.md",
        "Team and Business have no age limit.",
    ),
    (
        "Snapshots",
        "",
        "retention.md",
        "Team and Business have no age limit.",
    ),
    (
        "What is the monthly price of the Team plan per server?",
        "$49",
        "pricing.md",
        "$49 per month, or $490 per year",
    ),
    (
        "Which plan costs $199 per month per server?",
        "Business",
        "pricing.md",
        "$199 per month, or $1,990 per year",
    ),
    (
        "How did Jonas Øvergaard pay for the Team plan?",
        "by deleting the wrong folder",
        "pricing.md",
        "The Team plan paid for itself the first time someone deleted\n> the wrong folder.",
    ),
    (
        "Which ports must be opened on the server for agents?",
        "8751",
        "install.md",
        "Agents only open outgoing connections.",
    ),
    (
        "Can you restore a snapshot on a new machine with the recovery kit?",
        "Yes",
        "guides/restore.md",
        "Install the agent on the replacement machine",
    ),
];

#[test]
fn what_generate_accepts_of_model_look_alikes_the_audit_does_not_flag_for_the_same_reason() {
    let corpus = Corpus::load(&root("corpora/docs"), WalkOptions::default()).unwrap();
    let candidates = WRITTEN
        .iter()
        .map(|(q, a, doc, quote)| Candidate {
            question: q.to_string(),
            answer: a.to_string(),
            labels: vec![label(&corpus, doc, quote)],
        })
        .collect();
    let out = agree(corpus, &Chunking::default(), candidates);
    assert_agree("look-alikes", &out);
    // The list exercises the checks: each of these turned something away (copied-phrase is a
    // review hint, which turns nothing away).
    for r in [
        Check::NotAQuestion,
        Check::SeveralQuestions,
        Check::RefersToSource,
        Check::AnswerInQuestion,
        Check::ExactDuplicate,
        Check::NearDuplicate,
    ] {
        assert!(
            out.rejected.contains_key(&r),
            "nothing rejected as {r}: {:?}",
            out.rejected
        );
    }
    assert!(out.accepted >= 15, "{}", out.accepted);
}

/// The cases of a set read as `ragsynth audit` reads it, as candidates.
fn candidates_of(ws: &Workspace) -> Vec<Candidate> {
    ws.set
        .cases
        .iter()
        .filter(|c| !c.relevant.is_empty())
        .map(|c| Candidate {
            question: c.question.clone(),
            answer: c.answer.clone().unwrap_or_default(),
            labels: c.relevant.clone(),
        })
        .collect()
}

fn open(set: &Path, corpus: Option<&Path>) -> Workspace {
    let source = match foreign::detect(set, &foreign::ReadOptions::default()).unwrap() {
        foreign::Format::Ragsynth => SetSource::ReadOnly,
        other => SetSource::Export(other),
    };
    let options = OpenOptions {
        set: source,
        corpus: corpus.map(Path::to_path_buf),
        need: CorpusNeed::Required,
        ..OpenOptions::default()
    };
    Workspace::open(set, &options).unwrap_or_else(|e| panic!("{}: {e}", set.display()))
}

#[test]
fn what_generate_accepts_of_the_fixtures_questions_the_audit_does_not_flag_for_the_same_reason() {
    let foreign_dir = root("tests/fixtures/foreign");
    let mut sets: Vec<(PathBuf, Option<PathBuf>)> = vec![
        (root("tests/fixtures/audit/testset.yaml"), None),
        (root("corpora/questions.csv"), Some(root("corpora/docs"))),
    ];
    for (set, docs) in [
        ("bancoestado/testset.csv", "bancoestado/docs"),
        ("deepeval/synthetic_dataset.json", "deepeval/docs"),
        ("giskard/testset.json", "giskard/docs"),
        ("giskard/testset_gemini.jsonl", "giskard/docs"),
        ("letstalk/testset.csv", "letstalk/docs"),
        ("letstalk/testset_2.csv", "letstalk/docs"),
        ("llamaindex/rag_dataset.json", "llamaindex/docs"),
    ] {
        sets.push((foreign_dir.join(set), Some(foreign_dir.join(docs))));
    }
    let mut accepted = 0;
    for (set, docs) in sets {
        let mut ws = open(&set, docs.as_deref());
        let chunking = ws.chunking.clone();
        let candidates = candidates_of(&ws);
        let out = agree(ws.corpus.take().unwrap(), &chunking, candidates);
        assert_agree(&set.display().to_string(), &out);
        accepted += out.accepted;
    }
    // Enough accepted for the agreement to mean something (38 since a long one-sentence
    // answer's part that brings words of its own is turned away; 40 or more before).
    assert!(accepted >= 35, "{accepted}");
}

/// The sentence of `text` where `answer` first stands (UAX #29 sentences).
fn sentence_holding<'a>(text: &'a str, answer: &str) -> Option<&'a str> {
    use unicode_segmentation::UnicodeSegmentation;
    let at = text.find(answer).filter(|_| !answer.is_empty())?;
    text.split_sentence_bound_indices()
        .find(|(i, s)| *i <= at && at < i + s.len())
        .map(|(_, s)| s.trim())
        .filter(|s| s.contains(answer))
}

#[test]
fn what_generate_accepts_of_xquad_the_audit_does_not_flag_for_the_same_reason() {
    let Some(data) = xquad_data::dir() else {
        eprintln!("skipped: no shared data (set RAGSYNTH_SHARED_DATA or provide ../shared/data)");
        return;
    };
    for lang in ["en", "es", "de", "zh"] {
        let tmp = tempfile::tempdir().unwrap();
        let path = xquad_data::convert(&data, lang, tmp.path());
        let mut ws = open(&path, None);
        let chunking = ws.chunking.clone();
        // A label on the sentence holding the answer, as a generated lookup's fact would be.
        let candidates: Vec<Candidate> = candidates_of(&ws)
            .into_iter()
            .map(|mut c| {
                let corpus = ws.corpus.as_ref().unwrap();
                let doc = c.labels[0].doc.clone();
                let text = &corpus.doc(&doc).unwrap().text;
                if let Some(sentence) = sentence_holding(text, &c.answer) {
                    c.labels = vec![label(corpus, &doc, sentence)];
                }
                c
            })
            .collect();
        let out = agree(ws.corpus.take().unwrap(), &chunking, candidates);
        assert_agree(&format!("XQuAD {lang}"), &out);
        assert!(out.accepted >= 600, "XQuAD {lang}: {}", out.accepted);
    }
}
