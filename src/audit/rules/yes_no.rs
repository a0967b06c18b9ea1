//! RS202 `yes-no`: a question answered by yes or no.

use super::{CaseInput, Check, Family, Hit, RuleInfo};
use crate::audit::Severity;

pub const INFO: RuleInfo = RuleInfo {
    code: "RS202",
    name: "yes-no",
    summary: "The question opens with an auxiliary verb and is answered by yes or no",
    doc: "\
**What it flags**: a question that opens with an auxiliary or modal verb (is, are, does, do,
can, will, should, has, ...) and contains no \"or\" offering alternatives (the table of
`crate::wording::form`, which `generate` reads too). A polite request
(\"Can you explain ...\", \"Could you tell me ...\", \"Would you describe ...\") is not one:
it asks for an explanation, not for yes or no.

**Why it matters**: a yes/no reference answer is right half the time by chance, so answer
metrics on it say little; and generators produce them from any sentence by inverting it.

**Example**: \"Does Tidepool encrypt backups at rest?\"",
    severity: Severity::Info,
    family: Family::Wording,
    reads: super::Reads::Wording,
    check: Check::Case(check),
};

fn check(input: &CaseInput<'_>) -> Option<Hit> {
    crate::wording::form::is_yes_no(&input.case.question, input.language)
        .then(|| Hit::new("answered by yes or no"))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{case, flags, passes};
    use super::*;

    #[test]
    fn flags_an_auxiliary_opening_and_not_alternatives_or_wh_questions() {
        assert_eq!(
            flags(check, &case("Does Tidepool encrypt backups?")),
            "answered by yes or no"
        );
        passes(check, &case("Is the archive kept in Europe or in the US?"));
        passes(check, &case("How does Tidepool encrypt backups?"));
        passes(
            check,
            &case("Can you elaborate on how Tidepool encrypts backups?"),
        );
        passes(
            check,
            &case("Could you please tell me which plan keeps snapshots longest?"),
        );
        passes(check, &case("May I know the retention period of the free plan?"));
        flags(check, &case("Can you restore a snapshot after prune?"));
        flags(check, &case("Do you keep backups in Europe?"));
    }
}
