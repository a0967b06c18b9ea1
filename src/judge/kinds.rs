//! The LLM judges, one row each: the name calibration records and reports use, the template a
//! calibration holds for, what it is asked, and who asks it. `calibrate` measures every row;
//! `generate`, `audit` and `eval --answers` look a row up by name and run it only where its
//! kappa for the model in use clears the bar ([`super::calibration::KAPPA_BAR`]).

/// One judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeInfo {
    /// Name in calibration records and reports.
    pub name: &'static str,
    /// Its template, `prompts/<template>.j2`: a calibration holds for one wording of it.
    pub template: &'static str,
    /// The question it answers.
    pub asks: &'static str,
    /// The commands (and checks) that ask it.
    pub used_by: &'static str,
}

/// Every judge, in the order reports list them.
pub const JUDGES: &[JudgeInfo] = &[
    JudgeInfo {
        name: "answerable",
        template: "judge_answerable",
        asks: "do these passages answer the question?",
        used_by: "generate (unanswerable candidates), audit RS504 RS505",
    },
    JudgeInfo {
        name: "supported",
        template: "judge_supported",
        asks: "do these passages state this answer to the question?",
        used_by: "audit RS506",
    },
    JudgeInfo {
        name: "answers",
        template: "judge_answers",
        asks: "which words of the fact answer the question (held against the case's answer)?",
        used_by: "generate (every answer, bridge descriptions), audit RS509",
    },
    JudgeInfo {
        name: "correct",
        template: "judge_correct",
        asks: "does the system's answer agree with the reference?",
        used_by: "eval --answers",
    },
    JudgeInfo {
        name: "refused",
        template: "judge_refused",
        asks: "does the system's reply decline to answer?",
        used_by: "eval --answers (the lexical detector otherwise)",
    },
    JudgeInfo {
        name: "grounded",
        template: "judge_grounded",
        asks: "is everything the system's answer states in its contexts?",
        used_by: "eval --answers",
    },
];

/// The judge called `name`.
pub fn info(name: &str) -> Option<&'static JudgeInfo> {
    JUDGES.iter().find(|j| j.name == name)
}

/// The judge called `name`; a name no row has is a bug in the caller.
pub fn named(name: &str) -> &'static JudgeInfo {
    info(name).unwrap_or_else(|| panic!("no judge is called {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompts::{self, Prompts};

    #[test]
    fn every_judge_has_its_template_and_a_unique_name() {
        let templates: Vec<&str> = prompts::names().collect();
        for j in JUDGES {
            assert!(templates.contains(&j.template), "{}", j.template);
            assert_eq!(JUDGES.iter().filter(|o| o.name == j.name).count(), 1);
        }
        let p = Prompts::load(None).unwrap();
        assert!(p.id(named("answers").template).starts_with("judge_answers@"));
    }
}
