//! RS207 `answer-in-question`: every content word of a short answer is already in the question.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS207",
    name: "answer-in-question",
    summary: "Every content word of a short answer is already in the question",
    doc: "\
**What it catches**: a short reference answer whose every content word the question says by
its stem; in English as written or inflected (\"ports\" says \"port\"; \"stratigraphic\" does
not say \"stratigraphers\").

**Why such a case is not right for a test set**: the question gives its own answer away: nothing
is retrieved to answer it.

**Example**: \"Which port, 8443, does the agent use?\" → \"8443\"

**Known false alarm**: an answer whose words the question says in another role (\"the fight song of
the university in Lawrence, Kansas\" → \"Kansas Song\", HotpotQA). Comparisons are not read, nor
is a question that offers a choice (English \"or\", \"between\", \"either\"): it names its
answer among others by design (\"Who is older, Annie Morton or Terry Richardson?\").",
    kinds: &[Kind::Lookup, Kind::Identifier, Kind::MultiHop],
    reads: Reads::Terms,
    stage: Stage::Case,
    audit: true,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// [`crate::wording::restates_answer_in`].
fn case(a: &Accepted, _: &dyn CaseContext) -> Option<String> {
    let answer = a.answer.as_deref()?;
    crate::wording::restates_answer_in(&a.question, answer, a.language)
        .then(|| format!("the question says the answer \"{answer}\""))
}
