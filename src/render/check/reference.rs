//! The check registry as text: `ragsynth check --list`, `--explain CODE`, and `docs/checks.md`,
//! written from the registry and the measured figures (`docs/checks-measured.csv`, written by
//! `scripts/bench-checks.sh`), so the page cannot drift from the code: a test compares the file
//! with this output and `RAGSYNTH_BLESS=1` rewrites it.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::generate::checks::{Action, Check, CheckInfo, Stage};

/// `ragsynth check --list`: one line per check, in the registry's order.
pub fn list() -> String {
    let mut out = format!(
        "{:<6} {:<28} {:<12} {:<8} {:<7} {}\n",
        "code", "name", "stage", "reads", "action", "kinds"
    );
    for &c in Check::ALL {
        let i = c.info();
        let _ = writeln!(
            out,
            "{:<6} {:<28} {:<12} {:<8} {:<7} {}",
            i.code,
            i.name,
            i.stage.as_str(),
            i.reads.as_str(),
            action(i.action),
            kinds(i)
        );
    }
    out
}

/// `ragsynth check --explain CODE`.
pub fn explain(check: Check) -> String {
    let i = check.info();
    format!(
        "{} {} — {}\n\n{}\n\nstage: {} · kinds: {} · reads: {} · {}{}\n",
        i.code,
        i.name,
        i.summary,
        i.doc.trim_end(),
        i.stage.as_str(),
        kinds(i),
        i.reads.as_str(),
        action(i.action),
        if i.audit {
            " · the audit flags the same as this code"
        } else {
            ""
        }
    )
}

/// One check's figures, measured where it was not written (a row of `docs/checks-measured.csv`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measured {
    /// People-written right cases it turns away, of those of the kinds it runs on.
    pub right_lost: (u32, u32),
    /// Corrupted cases it catches, of those of the kinds it runs on.
    pub corrupt_caught: (u32, u32),
    /// Of its rejections on fresh held-out runs, those marked wrong by hand, of those marked.
    pub rejected_wrong: (u32, u32),
}

/// Reads `docs/checks-measured.csv`: `code,right_lost,right_total,corrupt_caught,corrupt_total,
/// rejected_wrong,rejected_marked` (lines starting with `#` are comments: the command and date).
pub fn measured(csv: &str) -> BTreeMap<String, Measured> {
    csv.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("code,"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            let n = |i: usize| f.get(i).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
            (f.len() >= 7).then(|| {
                (
                    f[0].to_string(),
                    Measured {
                        right_lost: (n(1), n(2)),
                        corrupt_caught: (n(3), n(4)),
                        rejected_wrong: (n(5), n(6)),
                    },
                )
            })
        })
        .collect()
}

/// The Markdown page: how the checks are organised, a table of every check with its figures,
/// then each check's documentation, family by family.
pub fn checks_markdown(measured_csv: &str) -> String {
    let figures = measured(measured_csv);
    let notes: Vec<&str> = measured_csv
        .lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .map(str::trim)
        .collect();
    let mut out = String::from(
        "# Generate's checks\n\n\
         <!-- Written from the check registry (src/generate/checks) and docs/checks-measured.csv;\n     \
         do not edit by hand. `RAGSYNTH_BLESS=1 cargo test --test docs_checks` rewrites it. -->\n\n\
         Every reason `ragsynth generate` turns a candidate away, as a registry row with a stable\n\
         code. The summary, `--json` and the run's verdicts name the code; `--skip CODE` (or\n\
         `[generate] skip = [\"CODE\"]`) leaves a check out; `ragsynth check SET` runs the checks that\n\
         read a finished case on any set's cases (`--explain CODE` prints one check's text).\n\
         Codes share the audit's space ([rules](rules.md)): where a check and an audit rule are\n\
         one definition they share the code. RS1xx overlap, RS2xx wording, RS3xx duplicates,\n\
         RS5xx answerability, RS7xx how a kind builds its case, RS8xx replies that could not be\n\
         used (outcomes, not checks).\n\n\
         **Stages**: `question` reads one wording; `case` the whole case with its labels' text and\n\
         the corpus; `set` the cases before it; `judge` an LLM judge, run only where calibrated for\n\
         the model; `construction` what a kind builds a case from (a bridge's description, an\n\
         unanswerable's neighbour), which a finished case does not keep, so `check` cannot run it;\n\
         `outcome` a reply that could not be used. **Reads**: what it needs of the question's\n\
         language (`any` script, stopwords and stems `terms`, question words `wording`, or\n\
         `english` word lists); a question in a language without it is not checked by it.\n\n\
         **Measured** where the check was not written: *right lost* — people-written right cases\n\
         of its kinds it turns away (SQuAD 2.0, XQuAD, HotpotQA, TREC DL 2020; not the tuning\n\
         half's hand marks, which the checks were written from); *corrupt caught* — the same cases corrupted in known ways that it\n\
         catches; *rejections wrong* — of the candidates it turned away on fresh runs over the\n\
         held-out docs corpora, those a person marked wrong (its precision there).\n",
    );
    if !notes.is_empty() {
        out.push('\n');
        for n in &notes {
            let _ = writeln!(out, "{n}  ");
        }
    }
    out.push_str(
        "\n| code | name | stage | kinds | reads | right lost | corrupt caught | rejections wrong |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    let mut rows: Vec<Check> = Check::ALL.to_vec();
    rows.sort_by_key(|c| c.code());
    for &c in &rows {
        let i = c.info();
        let m = figures.get(i.code).cloned().unwrap_or_default();
        let _ = writeln!(
            out,
            "| [{code}](#{anchor}) | {name} | {stage} | {kinds} | {reads} | {lost} | {caught} | {wrong} |",
            code = i.code,
            anchor = anchor(i),
            name = i.name,
            stage = i.stage.as_str(),
            kinds = kinds(i),
            reads = i.reads.as_str(),
            lost = share(m.right_lost),
            caught = share(m.corrupt_caught),
            wrong = share(m.rejected_wrong),
        );
    }
    let mut family = None;
    for &c in &rows {
        let i = c.info();
        let f = &i.code[..3];
        if family != Some(f) {
            family = Some(f);
            let _ = write!(out, "\n## {}\n", family_title(f));
        }
        let m = figures.get(i.code).cloned().unwrap_or_default();
        let _ = write!(
            out,
            "\n### {} {}\n\n{} · kinds: {} · reads: {} · {}{}\n\n{}.\n\n{}\n",
            i.code,
            i.name,
            i.stage.as_str(),
            kinds(i),
            i.reads.as_str(),
            action(i.action),
            if i.audit {
                " · shared with the audit rule of the same code"
            } else {
                ""
            },
            i.summary,
            i.doc.trim_end()
        );
        if i.stage != Stage::Outcome {
            let _ = writeln!(
                out,
                "\n**Measured**: right lost {}, corrupt caught {}, rejections wrong {}.",
                share(m.right_lost),
                share(m.corrupt_caught),
                share(m.rejected_wrong)
            );
        }
    }
    out
}

/// `x of n`, or a dash when nothing was measured.
fn share((x, n): (u32, u32)) -> String {
    if n == 0 {
        "—".to_string()
    } else {
        format!("{x} of {n}")
    }
}

fn action(a: Action) -> &'static str {
    match a {
        Action::Reject => "rejects",
        Action::Hint => "review hint",
    }
}

fn kinds(i: &CheckInfo) -> String {
    if i.kinds.is_empty() {
        "all".to_string()
    } else {
        i.kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// The anchor of the check's `### CODE name` heading.
fn anchor(i: &CheckInfo) -> String {
    super::super::heading_anchor(i.code, i.name)
}

fn family_title(prefix: &str) -> &'static str {
    match prefix {
        "RS1" => "RS1xx: overlap with the source",
        "RS2" => "RS2xx: wording",
        "RS3" => "RS3xx: duplicates",
        "RS4" => "RS4xx: labels",
        "RS5" => "RS5xx: answerability",
        "RS7" => "RS7xx: how a kind builds its case",
        "RS8" => "RS8xx: outcomes",
        _ => "other",
    }
}
