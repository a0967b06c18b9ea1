//! RS514 `answer-off-question`: the label gives the reference answer to another question.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;
use crate::wording::answer::AnswerFault;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS514",
    name: "answer-off-question",
    summary: "The reference answer is its label's answer to another question: a reason, a claim its label limits to another case, what happens by default for a default value, or the question said back",
    doc: "\
**What it flags**: an English case whose reference `answer` opens with a reason (\"because\",
\"since\", \"due to\") while the question asks what or how, not why; or whose label opens by
limiting its claim to a named case (\"In C++, …\", \"Note: In Python 2, …\") while the
question sets another (\"… in Rust?\") and neither it nor the answer names the label's; or
whose one-sentence answer (three to twenty words) says the question back: three in five of its
content words are the question's and it names no number, code or name the question lacks
(\"check instance for invariants\" for \"what should be done in the initializer to ensure the
instance has invariants\"), unless the question asks yes or no; or that says where a thing is
used (\"used with virtualenv\") or what it does not do (\"does not take a help parameter\") to a
question asking what it is for or does, or which others it is for (\"PRs that are trivial
…\") to a question asking what it does for them (\"… do for PRs\"); or that says what happens \"by default\", with no
number, code, quoted or on/off word of its own, to a question asking for a default value or
setting; or whose first word
its label gives to \"we\" or \"you\" (the writer, the reader: \"so we propagate all the success or
error information upward\") while the question asks what a thing does (\"what does the Rust
programming language do with errors\"), or whose label gives the verb of a question asking
what, how, where or when a thing does something to the writer or the reader (\"where does the
Rust memory allocator store the pointer\" of \"you can store the pointer on the stack\": a
false premise); or that gives, to a question asking what a thing is, only the other name its
label puts in brackets after the thing's (\"short eval context or eval ctx\" of \"The evaluation
context (short eval context or eval ctx) makes it possible to …\"); or that leaves out the name its
label gives the one a question asks for as the most of something (\"what is the closest Python
behavior to undefined types\" → \"disallows all operations …\", of \"The closest to regular Python
behavior is the :class:`StrictUndefined` which disallows …\"); or that opens with the verb of a
label telling the reader what to do (\"Override :attr:`SandboxedEnvironment.intercepted_binops` …
with the operator symbols you want to intercept\") while the question asks what a thing does. `generate` turns the same answers away as
`answer_off_question`.

**Why it matters**: every word of such an answer stands in its label, so the lexical checks pass
it, yet it answers another question than the case asks: a system that answers the question
asked is scored wrong, and a reviewer who reads the pair stops trusting the set.

**Example**: \"What is the term for deallocating resources at the end of an item's lifetime
in Rust?\" answered \"RAII\", labelled \"In C++, this pattern of deallocating resources at the
end of an item's lifetime is sometimes called Resource Acquisition Is Initialization (RAII)\";
\"How does Rust store pointers on the stack?\" answered \"because the pointer to the heap is a
known, fixed size, …\".",
    severity: Severity::Warning,
    family: Family::Answerability,
    reads: super::Reads::Terms,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    match super::answer_fault(input) {
        Some(fault @ AnswerFault::OffQuestion { .. }) => Some(Hit::new(fault.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{flags, labelled, passes};
    use super::*;

    #[test]
    fn flags_a_claim_its_label_limits_to_a_case_the_question_drops() {
        let quote = "In Windows Server 2019, the agent runs as a service named tidepool-agent.";
        let mut case = labelled("what is the agent service called on Ubuntu", "install.md", quote);
        case.answer = Some("tidepool-agent".into());
        assert_eq!(
            flags(check, &case),
            "the answer is to another question: its label says this holds \"In Windows Server 2019\"; the question asks about Ubuntu"
        );
        let mut asked = case.clone();
        asked.question = "what is the agent service called on windows server 2019".into();
        passes(check, &asked);
    }

    #[test]
    fn flags_a_reason_given_to_a_how_question() {
        let quote = "Install the agent with apt and open port 8750 on the server.";
        let mut case = labelled("How is the agent installed?", "install.md", quote);
        case.answer = Some("because you open port 8750 on the server".into());
        assert!(flags(check, &case).contains("gives a reason (\"because\")"));
        let mut asked = case.clone();
        asked.question = "Why does the install guide name port 8750?".into();
        passes(check, &asked);
    }
}
