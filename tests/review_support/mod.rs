//! Shared by the review tests: a test set over the sample corpus (real questions from
//! `corpora/questions.csv`, synthetic ones written the way a small model writes them), and the
//! `ragsynth review` binary started as a child process.

#![allow(dead_code)]

pub mod browser;
pub mod judged;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ragsynth::chunk::{Chunker, Chunking};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::locate::locate_in_corpus;
use ragsynth::testset::{self, Case, CorpusRef, Label, Review, Source, TestSet};
use serde_json::{Map, json};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample_corpus() -> Corpus {
    Corpus::load(&repo().join("corpora/docs"), WalkOptions::default()).unwrap()
}

/// Synthetic cases: (id, question, answer, quote, type, topic, audit).
const SYNTHETIC: &[(&str, &str, &str, &str, &str, &str, &str)] = &[
    (
        "syn-01",
        "On the Community plan, are snapshots older than 30 days forgotten at the next prune?",
        "Yes, regardless of the policy.",
        "On the Community plan, snapshots older than 30 days are forgotten at the next",
        "lookup",
        "retention",
        r#"{"flags": ["RS101", "RS103", "RS202"], "overlap": 0.92, "copied_run": 11, "source_rank": 1}"#,
    ),
    (
        "syn-02",
        "Which cipher encrypts chunk contents and snapshot metadata?",
        "XChaCha20-Poly1305 with a fresh random 192-bit nonce per chunk.",
        "XChaCha20-Poly1305** using a fresh random 192-bit nonce per chunk",
        "identifier",
        "security",
        r#"{"flags": ["RS103"], "overlap": 0.8, "copied_run": 5, "source_rank": 1}"#,
    ),
    (
        "syn-03",
        "What happens when you delete a snapshot under legal hold?",
        "Manual deletion fails with error TP-451 until the hold is released.",
        "manual deletion fails with\nerror TP-451 until the hold is released",
        "lookup",
        "retention",
        r#"{"flags": [], "overlap": 0.6, "copied_run": 3, "source_rank": 2}"#,
    ),
    (
        "syn-04",
        "What is the passage about?",
        "Clock skew.",
        "Signed agent requests carry a timestamp.",
        "lookup",
        "troubleshooting",
        r#"{"flags": ["RS204"], "overlap": 0.0, "copied_run": 0, "source_rank": 9}"#,
    ),
    (
        "syn-05",
        "Which port does the agent data channel use, and does the agent need an inbound port?",
        "8751/tcp on the server; agents only open outgoing connections.",
        "Agents only open outgoing connections. No port needs to be opened on the",
        "multi_hop",
        "install",
        r#"{"flags": ["RS101"], "overlap": 0.71, "copied_run": 5, "source_rank": 1}"#,
    ),
    (
        "syn-06",
        "Can Tidepool back up to a tape library over Fibre Channel?",
        "",
        "",
        "unanswerable",
        "storage",
        r#"{"flags": [], "overlap": 0.1, "copied_run": 0}"#,
    ),
    (
        "syn-07",
        "How is the master key wrapped on the server?",
        "With a key derived from the passphrase using Argon2id (64 MiB, 3 iterations, parallelism 4).",
        "key derived from the repository passphrase using **Argon2id**",
        "lookup",
        "security",
        r#"{"flags": ["RS103"], "overlap": 0.67, "copied_run": 4, "source_rank": 1}"#,
    ),
    (
        "syn-08",
        "Do restores go through the retention policy or the prune window?",
        "No; restores keep working even when the storage reserve is reached.",
        "Restores never go through the retention policy or the prune window",
        "lookup",
        "restore",
        r#"{"flags": ["RS101", "RS103"], "overlap": 0.88, "copied_run": 8, "source_rank": 1}"#,
    ),
];

/// The label of `quote`: the chunk (under the default chunking) that holds it.
fn label(corpus: &Corpus, chunker: &Chunker, quote: &str, prefer: Option<&str>) -> Label {
    let (doc, found) = locate_in_corpus(corpus, quote, prefer.map(|d| (d, None)), 0.8)
        .unwrap_or_else(|| panic!("quote not in the sample corpus: {quote}"));
    let chunk = chunker
        .chunk(corpus.doc(&doc).unwrap())
        .into_iter()
        .find(|c| c.start <= found.start && found.end <= c.end)
        .expect("a chunk holds the quote");
    let text: String = corpus
        .doc(&doc)
        .unwrap()
        .text
        .chars()
        .skip(found.start)
        .take(found.end - found.start)
        .collect();
    Label {
        doc,
        start: chunk.start,
        end: chunk.end,
        quote: text,
        chunk: Some(chunk.id),
        grade: None,
        extra: Map::new(),
    }
}

/// Writes `dir/testset.yaml`: 6 real cases (accepted) then 8 synthetic ones (pending), saved
/// through `testset::save` and read back so the file is exactly what the library writes.
pub fn write_testset(dir: &Path) -> PathBuf {
    let corpus = sample_corpus();
    let chunker = Chunker::new(Chunking::default()).unwrap();
    let mut set = TestSet::default();
    set.corpus = Some(CorpusRef {
        root: repo().join("corpora/docs").display().to_string(),
        fingerprint: Some(corpus.fingerprint()),
        extra: Map::new(),
    });
    set.chunking = Some(Chunking::default());
    let mut rows = csv::Reader::from_path(repo().join("corpora/questions.csv")).unwrap();
    for (n, row) in rows.records().take(6).enumerate() {
        let row = row.unwrap();
        let mut case = Case::new(format!("real-{:02}", n + 1), &row[0]);
        case.answer = Some(row[1].to_string());
        case.relevant
            .push(label(&corpus, &chunker, &row[3], Some(&row[2])));
        case.tags.kind = Some("lookup".into());
        case.tags.topic = Some(row[2].trim_end_matches(".md").to_string());
        case.tags.source = Some(Source::Real);
        case.review = Some(Review::Accepted);
        case.audit = Some(
            json!({"flags": [], "overlap": 0.3 + 0.1 * n as f64, "copied_run": 1, "source_rank": 1 + n % 3}),
        );
        set.cases.push(case);
    }
    for (id, q, a, quote, kind, topic, audit) in SYNTHETIC {
        let mut case = Case::new(*id, *q);
        case.answer = (!a.is_empty()).then(|| a.to_string());
        if !quote.is_empty() {
            case.relevant.push(label(&corpus, &chunker, quote, None));
        }
        case.tags.kind = Some(kind.to_string());
        case.tags.topic = Some(topic.to_string());
        case.tags.source = Some(Source::Synthetic);
        case.review = Some(Review::Pending);
        case.provenance =
            Some(json!({"model": "llama:SmolLM2-135M-Instruct", "prompt": "single_hop@1a2b3c4d"}));
        case.audit = Some(serde_json::from_str(audit).unwrap());
        case.difficulty = Some(ragsynth::testset::Difficulty {
            source_rank: Some(3),
            containment: Some(0.5),
            ..Default::default()
        });
        set.cases.push(case);
    }
    let path = dir.join("testset.yaml");
    testset::save(&set, &path).unwrap();
    path
}

/// `ragsynth review` running as a child process; killed when dropped.
pub struct ReviewServer {
    child: Child,
    pub url: String,
    pub port: u16,
}

impl ReviewServer {
    pub fn start(testset: &Path, extra: &[&str]) -> ReviewServer {
        let mut args = vec![testset.as_os_str()];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        ReviewServer::spawn(&args)
    }

    /// `ragsynth review --answers <per_question>`.
    pub fn start_answers(per_question: &Path) -> ReviewServer {
        ReviewServer::spawn(&["--answers".as_ref(), per_question.as_os_str()])
    }

    fn spawn(args: &[&std::ffi::OsStr]) -> ReviewServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ragsynth"))
            .arg("review")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        // Keep reading what the server prints, so its pipe never closes under it.
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in the first line: {line:?}"))
            .to_string();
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        ReviewServer { child, url, port }
    }
}

impl Drop for ReviewServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response read off the wire.
pub struct Raw {
    pub status: u16,
    pub body: String,
}

/// Sends one HTTP/1.1 request byte for byte as given (so `Host` and `Origin` are exactly what
/// a hostile page could make a browser send) and reads the response.
pub fn raw_request(port: u16, method: &str, target: &str, headers: &[(&str, &str)], body: &str) -> Raw {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut req = format!("{method} {target} HTTP/1.1\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Raw { status, body }
}
