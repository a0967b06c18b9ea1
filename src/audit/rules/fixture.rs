//! The fixture every rule's own tests run against: a three-document corpus, cut into small
//! chunks, and helpers that run one rule's check on one case (with its real figures) or on a
//! whole set (with the validator's issues), as the audit does.

use std::sync::LazyLock;

use super::{CaseInput, Hit, SetHit, SetInput};
use crate::audit::{AuditConfig, AuditContext};
use crate::chunk::{CharIndex, Chunking};
use crate::corpus::{Corpus, DocKind, Document};
use crate::testset::{Case, Label, Source, TestSet};

/// The corpus: Tidepool's retention, billing, install and prune pages, and the retention page
/// in Spanish.
const DOCS: [(&str, &str); 5] = [
    (
        "billing.md",
        "# Billing\n\nThe Team plan costs 8 euros per user and month. Invoices are sent on the first day of each month.\n",
    ),
    (
        "install.md",
        "# Install\n\nInstall the agent with apt and open port 8750 on the server.\n\n## Windows\n\nIn Windows Server 2019, the agent runs as a service named tidepool-agent.\n",
    ),
    (
        "prune.md",
        "# Prune\n\nForgetting a snapshot looks like it frees its disk space at once, but the space is actually released by the next prune.\n",
    ),
    (
        "retencion.md",
        "# Políticas de retención\n\nLas instantáneas se conservan durante 30 días en el plan gratuito, y durante un año en el plan Business.\n",
    ),
    (
        "retention.md",
        "# Retention policies\n\nSnapshots are kept for 30 days on the free plan.\n\n## Archive\n\nThe archive tier of Tidepool is called Glacier Vault and keeps data for ten years.\n",
    ),
];

static CX: LazyLock<AuditContext> = LazyLock::new(|| {
    let docs = DOCS
        .iter()
        .map(|(path, text)| Document {
            path: path.to_string(),
            text: text.to_string(),
            kind: DocKind::Markdown,
            sha256: format!("sha-{path}"),
        })
        .collect();
    let corpus = Corpus {
        docs,
        ..Corpus::default()
    };
    AuditContext::new(Some(corpus), &chunking()).expect("the fixture chunks")
});

/// Small chunks, so each section is a chunk of its own.
pub fn chunking() -> Chunking {
    Chunking {
        size: 120,
        overlap: 0,
        ..Chunking::default()
    }
}

/// The fixture's corpus side.
pub fn cx() -> &'static AuditContext {
    &CX
}

/// A synthetic case asking `question`, without labels.
pub fn case(question: &str) -> Case {
    let mut c = Case::new("case", question);
    c.tags.source = Some(Source::Synthetic);
    c
}

/// A synthetic multi-hop case asking `question`, its hops labelled with the first place each
/// `(doc, quote)` stands, in order.
pub fn hops(question: &str, first: (&str, &str), last: (&str, &str)) -> Case {
    let mut c = labelled(question, first.0, first.1);
    c.relevant.push(label(last.0, last.1));
    c.tags.kind = Some("multi_hop".into());
    let hop = |i: usize| crate::testset::Hop {
        question: String::new(),
        answer: None,
        relevant: vec![i],
        extra: Default::default(),
    };
    c.hops = Some(vec![hop(0), hop(1)]);
    c
}

/// A two-hop case: the Team plan's price (billing.md), then the port to open (install.md).
pub fn price_then_port(question: &str) -> Case {
    hops(
        question,
        ("billing.md", "The Team plan costs 8 euros per user and month."),
        (
            "install.md",
            "Install the agent with apt and open port 8750 on the server.",
        ),
    )
}

/// A synthetic case asking `question`, labelled with the first place `quote` stands in `doc`.
pub fn labelled(question: &str, doc: &str, quote: &str) -> Case {
    let mut c = case(question);
    c.relevant.push(label(doc, quote));
    c
}

/// A label on the first place `quote` stands in `doc`.
pub fn label(doc: &str, quote: &str) -> Label {
    let text = &cx()
        .corpus
        .as_ref()
        .expect("the fixture has a corpus")
        .doc(doc)
        .expect("a fixture doc")
        .text;
    let at = text.find(quote).expect("the quote is in the document");
    let start = CharIndex::new(text).char_of(at);
    Label::spanning(doc, start, quote)
}

/// The message `check` gives `case` (which it must flag).
pub fn flags(check: fn(&CaseInput<'_>) -> Option<Hit>, case: &Case) -> String {
    on_case(check, case)
        .unwrap_or_else(|| panic!("`{}` should be flagged", case.question))
        .message
}

/// Asserts that `check` leaves `case` alone.
pub fn passes(check: fn(&CaseInput<'_>) -> Option<Hit>, case: &Case) {
    assert!(on_case(check, case).is_none(), "`{}` should pass", case.question);
}

/// Runs a per-case check on `case` with its figures, under the default thresholds.
pub fn on_case(check: fn(&CaseInput<'_>) -> Option<Hit>, case: &Case) -> Option<Hit> {
    on_case_with(check, case, &AuditConfig::default())
}

/// [`on_case`] under `config`.
pub fn on_case_with(
    check: fn(&CaseInput<'_>) -> Option<Hit>,
    case: &Case,
    config: &AuditConfig,
) -> Option<Hit> {
    let language = cx().language_of(case);
    let figures = cx().figures(case, config, language);
    check(&CaseInput {
        language,
        case,
        figures: &figures,
        cx: cx(),
        config,
    })
}

/// Runs a set check on a set of `cases` anchored in the fixture corpus.
pub fn on_set(check: fn(&SetInput<'_>) -> Vec<SetHit>, cases: Vec<Case>) -> Vec<SetHit> {
    let mut set = TestSet {
        chunking: Some(chunking()),
        ..TestSet::default()
    };
    set.cases = cases;
    on_testset(check, &set)
}

/// Runs a set check on `set`, with the validator's issues over the fixture corpus.
pub fn on_testset(check: fn(&SetInput<'_>) -> Vec<SetHit>, set: &TestSet) -> Vec<SetHit> {
    let config = AuditConfig::default();
    let issues = crate::testset::validate(set, cx().corpus.as_ref());
    check(&SetInput {
        set,
        cx: cx(),
        config: &config,
        issues: &issues,
    })
}

/// A set of a well-labelled case (`good`) and a copy whose label `breaks` changes (`broken`):
/// the ids a set check flags in it, and its first message.
pub fn one_broken(
    check: fn(&SetInput<'_>) -> Vec<SetHit>,
    breaks: impl Fn(&mut Label),
) -> (Vec<String>, String) {
    let mut good = labelled("How long are snapshots kept?", "retention.md", "kept for 30 days");
    good.id = "good".into();
    let mut broken = good.clone();
    broken.id = "broken".into();
    breaks(&mut broken.relevant[0]);
    let cases = vec![good, broken];
    let hits = on_set(check, cases.clone());
    let message = hits.first().map(|h| h.message.clone()).unwrap_or_default();
    (flagged(&cases, &hits), message)
}

/// Cases asking `questions`, with ids `q0`, `q1`, ...
pub fn numbered(questions: &[&str]) -> Vec<Case> {
    questions
        .iter()
        .enumerate()
        .map(|(i, q)| Case {
            id: format!("q{i}"),
            ..case(q)
        })
        .collect()
}

/// The ids of the cases a set check flagged (`(set)` for a finding about the whole set).
pub fn flagged(set_cases: &[Case], hits: &[SetHit]) -> Vec<String> {
    hits.iter()
        .map(|h| h.case.map_or("(set)".to_string(), |i| set_cases[i].id.clone()))
        .collect()
}
