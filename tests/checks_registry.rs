//! The check registry's promises: every row has a unique code and name, a doc in the shape every
//! check's doc has, a run where its stage says it reads a case; a code it shares with an audit
//! rule is that rule's, under the same name; nothing else uses a code of the audit's; and a
//! check of the wording finds the example its doc quotes.

use std::collections::HashSet;

use ragsynth::audit::rules;
use ragsynth::generate::checks::{Check, Stage};
use ragsynth::lang::Language;

#[test]
fn codes_and_names_are_unique_and_findable() {
    let mut codes = HashSet::new();
    let mut names = HashSet::new();
    for &c in Check::ALL {
        let i = c.info();
        assert!(codes.insert(i.code), "{} twice", i.code);
        assert!(names.insert(i.name), "{} twice", i.name);
        assert_eq!(Check::find(i.code), Some(c));
        assert_eq!(Check::find(&i.name.to_uppercase()), Some(c));
        assert!(i.code.starts_with("RS") && i.code.len() == 5, "{}", i.code);
    }
}

#[test]
fn each_doc_says_what_it_catches_why_an_example_and_a_false_alarm() {
    for &c in Check::ALL {
        let doc = c.info().doc;
        for part in [
            "**What it catches**",
            "**Why such a case is not right for a test set**",
            "**Example**",
            "**Known false alarm**",
        ] {
            assert!(doc.contains(part), "{c}: no {part}");
        }
    }
}

#[test]
fn a_row_runs_where_its_stage_says_it_reads_a_case() {
    for &c in Check::ALL {
        let i = c.info();
        let runs = i.question.is_some() || i.case.is_some();
        match i.stage {
            Stage::Question => assert!(i.question.is_some(), "{c}"),
            Stage::Case => assert!(runs, "{c}"),
            _ => assert!(!runs, "{c}: a {} row runs elsewhere", i.stage.as_str()),
        }
    }
}

#[test]
fn a_code_shared_with_the_audit_is_the_rules_own() {
    let audit: Vec<(&str, &str)> = rules::all().iter().map(|r| (r.code, r.name)).collect();
    for &c in Check::ALL {
        let i = c.info();
        let rule = audit.iter().find(|(code, _)| *code == i.code);
        match (i.audit, rule) {
            (true, Some((_, name))) => assert_eq!(*name, i.name, "{}", i.code),
            (true, None) => panic!("{} says the audit shares it, and no rule has it", i.code),
            (false, Some((_, name))) => {
                panic!("{} is the audit's {name}, and the row does not say so", i.code)
            }
            (false, None) => {}
        }
    }
}

/// The example each question check's doc gives (`**Example**: "…"`), where it quotes one.
fn quoted_example(doc: &str) -> Option<String> {
    let rest = doc.split("**Example**: \"").nth(1)?;
    Some(rest[..rest.find("\"\n").or_else(|| rest.rfind('"'))?].to_string())
}

#[test]
fn each_question_check_finds_what_its_doc_gives_as_its_example() {
    let mut tried = 0;
    for check in Check::ALL {
        let info = check.info();
        let (Some(question), Some(example)) = (info.question, quoted_example(info.doc)) else {
            continue;
        };
        tried += 1;
        assert!(
            question(&example, Language::ENGLISH).is_some(),
            "{} {}: its example {example:?} passes",
            info.code,
            info.name
        );
    }
    assert!(tried >= 10, "only {tried} question checks quote an example");
}
