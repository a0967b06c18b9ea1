//! Accepted means right (issue 26): the wrong cases generation wrote from a public programming
//! book and from the sample corpus are turned away by `generate`'s checks and flagged by the
//! audit, and their right counterparts pass both.
//!
//! The two book sentences are quoted from "The Rust Programming Language" (ch08-02 on `+`,
//! ch09-03 on the bad state), which ships with the Rust toolchain under MIT / Apache-2.0; the
//! testimonial is our sample corpus's (corpora/docs/pricing.md).

use std::collections::BTreeSet;
use std::path::Path;

use ragsynth::audit::{self, AuditConfig, AuditContext};
use ragsynth::chunk::{CharIndex, Chunking};
use ragsynth::corpus::{Corpus, WalkOptions};
use ragsynth::generate::candidate::Kind;
use ragsynth::generate::checks::{Screen, Skip};
use ragsynth::generate::verify::{Check, check_answer, check_question};

/// An English lookup's screen with every check on.
fn en() -> Screen<'static> {
    Screen::new(Kind::Lookup, Language::ENGLISH, Skip::none())
}
use ragsynth::lang::Language;
use ragsynth::testset::{Case, Label, Source, TestSet};

const CONCAT: &str = "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.";

const ANNOUNCES: &str = "There’s not a good way to encode this information in the types you use. We’ll work through an example of what we mean in “Encoding States and Behavior as Types” in Chapter 18.";

const TESTIMONIAL: &str = "We replaced three different backup scripts with one Tidepool server and twelve agents. The Team plan paid for itself the first time someone deleted the wrong folder.";

const STRINGS: &str = "# Strings\n\nThe add function takes ownership of self. So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.\n\nThe function read_to_string returns a Result holding the whole file as a String.\n";

const ERRORS: &str = "# Errors\n\nYour code after this point needs to rely on not being in this bad state. There’s not a good way to encode this information in the types you use. We’ll work through an example of what we mean in “Encoding States and Behavior as Types” in Chapter 18.\n";

const RAII: &str = "Note: In C++, this pattern of deallocating resources at the end of an item’s lifetime is sometimes called Resource Acquisition Is Initialization (RAII).";

const POINTER: &str = "Because the pointer to the heap is a known, fixed size, you can store the pointer on the stack, but when you want the actual data, you must follow the pointer.";

const BANDWIDTH: &str =
    "| `agent.bandwidth_limit` | `\"0\"` | Upload limit, e.g. `\"20MiB/s\"`; `\"0\"` means unlimited |";

const OWNERSHIP: &str = "# Ownership\n\nNote: In C++, this pattern of deallocating resources at the end of an item’s lifetime is sometimes called Resource Acquisition Is Initialization (RAII).\n\nBecause the pointer to the heap is a known, fixed size, you can store the pointer on the stack, but when you want the actual data, you must follow the pointer.\n";

const AGENT: &str = "# Agent settings\n\n| Key | Default | Meaning |\n|---|---|---|\n| `agent.bandwidth_limit` | `\"0\"` | Upload limit, e.g. `\"20MiB/s\"`; `\"0\"` means unlimited |\n";

const PRICING: &str = "# What customers say\n\nWe replaced three different backup scripts with one Tidepool server and twelve agents. The Team plan paid for itself the first time someone deleted the wrong folder.\n";

/// (id, question, answer, document, labelled sentence, rules that must flag it, generate's
/// rejection).
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    Option<Check>,
);

const CASES: &[Row] = &[
    (
        "concat-wrong",
        "What happens when you concatenate two strings in Rust?",
        "The result is a new string that contains the contents of both original strings",
        "strings.md",
        CONCAT,
        &["RS508"],
        Some(Check::AnswerContradictsLabel),
    ),
    (
        "concat-right",
        "What does `let s3 = s1 + &s2;` do with s1?",
        "It takes ownership of s1",
        "strings.md",
        CONCAT,
        &[],
        None,
    ),
    (
        "bad-state",
        "What is an example of the bad state in error handling?",
        "user entering data in the wrong format",
        "errors.md",
        ANNOUNCES,
        &["RS507"],
        Some(Check::AnswerNotInLabel),
    ),
    (
        "which-function",
        "What is the return type of the function?",
        "Result",
        "strings.md",
        "The function read_to_string returns a Result holding the whole file as a String.",
        &["RS209"],
        Some(Check::NotStandalone),
    ),
    (
        "which-function-2",
        "What does the function return?",
        "A Result",
        "strings.md",
        "The function read_to_string returns a Result holding the whole file as a String.",
        &["RS209"],
        Some(Check::NotStandalone),
    ),
    (
        "named-function",
        "What does the `read_to_string` function return?",
        "A Result holding the whole file as a String",
        "strings.md",
        "The function read_to_string returns a Result holding the whole file as a String.",
        &[],
        None,
    ),
    // This stop's correctness benchmark (the rust book) and README demo (the sample corpus).
    (
        "raii-for-rust",
        "What is the term used to describe deallocating resources at the end of an item's lifetime in Rust?",
        "RAII",
        "ownership.md",
        RAII,
        &["RS514"],
        Some(Check::AnswerOffQuestion),
    ),
    (
        "raii-for-cpp",
        "what does C++ call deallocating resources at the end of a lifetime?",
        "Resource Acquisition Is Initialization (RAII)",
        "ownership.md",
        RAII,
        &[],
        None,
    ),
    (
        "how-answered-why",
        "How does Rust store pointers on the stack?",
        "because the pointer to the heap is a known, fixed size, you can store the pointer on the stack",
        "ownership.md",
        POINTER,
        &["RS514"],
        Some(Check::AnswerOffQuestion),
    ),
    (
        "unit-moved",
        "What is the agent's default bandwidth limit?",
        "0 MiB/s",
        "agent.md",
        BANDWIDTH,
        &["RS507"],
        Some(Check::AnswerNotInLabel),
    ),
    (
        "unit-kept",
        "What is the agent's default bandwidth limit?",
        "0, which means unlimited",
        "agent.md",
        BANDWIDTH,
        &[],
        None,
    ),
    (
        "agents",
        "How many agents did Fjordlys Arkitekter replace its backup scripts with?",
        "twelve agents and one Tidepool server",
        "pricing.md",
        TESTIMONIAL,
        &[],
        None,
    ),
];

fn label(corpus: &Corpus, doc: &str, quote: &str) -> Label {
    let text = &corpus.doc(doc).unwrap().text;
    let at = text.find(quote).unwrap_or_else(|| panic!("{quote:?} in {doc}"));
    let start = CharIndex::new(text).char_of(at);
    Label::spanning(doc, start, quote)
}

fn corpus(dir: &Path) -> Corpus {
    for (name, text) in [
        ("strings.md", STRINGS),
        ("errors.md", ERRORS),
        ("pricing.md", PRICING),
        ("ownership.md", OWNERSHIP),
        ("agent.md", AGENT),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    Corpus::load(dir, WalkOptions::default()).unwrap()
}

#[test]
fn the_wrong_cases_are_turned_away_and_flagged_and_the_right_ones_pass() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus(dir.path());
    let mut set = TestSet::default();
    set.chunking = Some(Chunking::default());
    for (id, question, answer, doc, sentence, _, rejected) in CASES {
        let l = label(&corpus, doc, sentence);
        let generated = check_question(question, &en())
            .and_then(|q| check_answer(&q, answer, std::slice::from_ref(&l), &en()));
        assert_eq!(generated.err(), *rejected, "{id}");
        let mut case = Case::new(*id, *question);
        case.answer = Some(answer.to_string());
        case.relevant.push(l);
        case.tags.source = Some(Source::Synthetic);
        set.cases.push(case);
    }
    let cx = AuditContext::new(Some(corpus), &Chunking::default()).unwrap();
    let report = audit::audit(&set, &cx, &AuditConfig::default());
    let watched = ["RS209", "RS507", "RS508", "RS514"];
    for (id, .., flagged_by, _) in CASES {
        let got: BTreeSet<&str> = report
            .findings
            .iter()
            .filter(|f| f.case.as_deref() == Some(*id) && watched.contains(&f.code))
            .map(|f| f.code)
            .collect();
        let want: BTreeSet<&str> = flagged_by.iter().copied().collect();
        assert_eq!(got, want, "{id}");
    }
}

#[test]
fn the_neighbouring_clause_is_beyond_the_lexical_checks() {
    // Every word of the answer is in the label: only the answers-the-question judge (RS509,
    // `--llm`) can see that the testimonial does not say how Jonas paid.
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus(dir.path());
    let l = label(&corpus, "pricing.md", TESTIMONIAL);
    assert_eq!(
        check_answer(
            "How did Jonas Øvergaard pay for the Team plan?",
            "by deleting the wrong folder",
            &[l],
            &en()
        ),
        Ok(())
    );
}
