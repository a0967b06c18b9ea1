//! RS217 `copies-example`: names the prompts' worked-example product, or a file the page makes up for its example.

use super::{Action, CheckInfo, Stage};
use crate::generate::candidate::{Accepted, Kind};
use super::CaseContext;
use crate::lang::Reads;

pub const INFO: CheckInfo = CheckInfo {
    code: "RS217",
    name: "copies-example",
    summary: "Names the prompts' worked-example product, or a file the page makes up for its example",
    doc: "\
**What it catches**: \"nimbus\" (the prompts' example product) where the corpus never says it, or
a file the page supposes (\"Suppose we have a program called `tool.py`\").

**Why such a case is not right for a test set**: the model copied an example; no user of the
project asks about it.

**Example**: \"What does `tool.py --help` return?\"

**Known false alarm**: a corpus about a product really called Nimbus (then it is not flagged).",
    kinds: &[Kind::Lookup, Kind::Comparison, Kind::MultiHop, Kind::Unanswerable],
    reads: Reads::Any,
    stage: Stage::Case,
    audit: false,
    action: Action::Reject,
    question: None,
    case: Some(case),
};

/// The prompts' example product where the corpus never names it, or a file the corpus makes up
/// for an example ([`GenerateContext::names_an_example_file`]).
fn case(a: &Accepted, ctx: &dyn CaseContext) -> Option<String> {
    let product = EXAMPLE_PRODUCT;
    if crate::text::words(&a.question).iter().any(|w| w == product) && !ctx.corpus_mentions(product) {
        return Some(format!("names \"{product}\", the prompts' example"));
    }
    ctx.names_an_example_file(&a.question)
        .then(|| "names a file the page makes up for its example".to_string())
}

/// The product the templates' worked examples are about: a question naming it copied the
/// example, unless the corpus is about a product of that name.
pub const EXAMPLE_PRODUCT: &str = "nimbus";

/// Rejects a question that names the worked example's product while `source` does not.
pub fn check_not_example(question: &str, source: &str) -> Result<(), super::Check> {
    let named = |t: &str| crate::text::words(t).iter().any(|w| w == EXAMPLE_PRODUCT);
    if named(question) && !named(source) {
        return Err(super::Check::CopiesExample);
    }
    Ok(())
}

