//! The rule reference (`docs/rules.md`) written from the rule registry, so the page cannot drift
//! from the code: a test compares the file with this output and `RAGSYNTH_BLESS=1` rewrites it.

use std::fmt::Write;

use crate::audit::rules::{Family, RuleInfo};

/// The Markdown page for `rules`: a table of every rule, then each rule's full documentation.
pub fn rules_markdown(rules: &[RuleInfo]) -> String {
    let mut out = String::from(
        "# Audit rules\n\n\
         <!-- Written from the rule registry (src/audit/rules); do not edit by hand.\n     \
         `RAGSYNTH_BLESS=1 cargo test --test docs_rules` rewrites it. -->\n\n\
         Every check `ragsynth audit` runs, in code order. Thresholds are set in the `[audit]`\n\
         section of `ragsynth.toml`; `ragsynth audit --explain CODE` prints one rule's text.\n\
         Codes are grouped by hundreds: RS1xx overlap, RS2xx wording, RS3xx duplicates, RS4xx\n\
         labels, RS5xx answerability, RS6xx coverage. A code never changes meaning.\n\n\
         | code | name | severity | reads | flags |\n|---|---|---|---|---|\n",
    );
    for r in rules {
        let _ = writeln!(
            out,
            "| [{code}](#{anchor}) | {name} | {severity} | {reads} | {summary} |",
            code = r.code,
            anchor = anchor(r),
            name = r.name,
            severity = r.severity,
            reads = r.reads.as_str(),
            summary = r.summary.replace('|', "\\|"),
        );
    }
    out.push_str(
        "\n\"reads\" is what a rule needs of the question's language: `any` script, its stopwords\n\
         and stems (`terms`), or its question words (`wording`); a question in a language without\n\
         them skips the rule, and the report says so.\n",
    );
    let mut family = None;
    for r in rules {
        if family != Some(r.family) {
            family = Some(r.family);
            let _ = write!(out, "\n## {}\n", family_title(r.family));
        }
        let _ = write!(
            out,
            "\n### {} {}\n\n{} — {}.\n\n{}\n",
            r.code,
            r.name,
            r.severity,
            r.summary,
            r.doc.trim_end()
        );
    }
    out
}

/// The anchor of the rule's `### CODE name` heading.
fn anchor(r: &RuleInfo) -> String {
    super::super::heading_anchor(r.code, r.name)
}

fn family_title(f: Family) -> &'static str {
    match f {
        Family::Overlap => "RS1xx: overlap with the source",
        Family::Wording => "RS2xx: wording",
        Family::Duplicates => "RS3xx: duplicates",
        Family::Labels => "RS4xx: labels",
        Family::Answerability => "RS5xx: answerability",
        Family::Coverage => "RS6xx: coverage of the set",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_row_and_a_section_with_its_doc() {
        let page = rules_markdown(crate::audit::rules::all());
        for r in crate::audit::rules::all() {
            assert!(page.contains(&format!("| [{}](#{}) | {} |", r.code, anchor(r), r.name)));
            assert!(page.contains(&format!("### {} {}\n", r.code, r.name)));
            assert!(page.contains(r.doc.trim_end()), "{}", r.code);
        }
        let rs101 = crate::audit::rules::explain("RS101").unwrap();
        assert_eq!(anchor(rs101), "rs101-copied-phrase");
    }
}
