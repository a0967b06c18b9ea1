//! A generation run for people: the summary table (cases by type, rejections by reason, the
//! rounds, the LLM's usage) and, for `--dry-run`, the plan per document.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::chunk::Chunk;
use crate::generate::kinds::KINDS;
use crate::generate::plan::Plan;
use crate::generate::summary::{GenerateSummary, Stop};
use crate::style::Figures;
use crate::terminal::data;

/// Writes the summary table.
pub fn summary(out: &mut dyn Write, s: &GenerateSummary) -> io::Result<()> {
    let planned: usize = s.by_type.values().map(|f| f.planned).sum();
    let output = data(&s.output);
    if s.dry_run {
        writeln!(
            out,
            "plan for {output}: {planned} new case(s) next to {} existing",
            s.existing_cases
        )?;
    } else if s.accepted == 0 {
        // "0 new cases" read as if the file had been written; say what happened instead.
        writeln!(out, "no candidate was accepted; nothing written to {output}")?;
    } else {
        writeln!(
            out,
            "wrote {output}: {} new case(s) next to {} existing",
            s.accepted, s.existing_cases
        )?;
        to_fix(out, s)?;
    }
    writeln!(
        out,
        "\n{:<14} {:>7} {:>9} {:>8} {:>8} {:>9} {:>10}",
        "type", "planned", "attempted", "accepted", "rejected", "llm calls", "calls/case"
    )?;
    for (name, f) in &s.by_type {
        let per = f
            .calls_per_accepted
            .map_or("-".to_string(), |r| format!("{r:.2}"));
        writeln!(
            out,
            "{name:<14} {:>7} {:>9} {:>8} {:>8} {:>9} {per:>10}",
            f.planned,
            f.attempted,
            f.accepted,
            f.attempted - f.accepted,
            f.llm_calls
        )?;
    }
    writeln!(
        out,
        "{:<14} {planned:>7} {:>9} {:>8} {:>8} {:>9}",
        "total", s.attempted, s.accepted, s.rejected, s.llm.calls
    )?;
    if !s.rejections.is_empty() {
        writeln!(out, "\nrejections:")?;
        let mut by_count: Vec<_> = s.rejections.iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (r, n) in by_count {
            writeln!(out, "  {:<36} {n}", r.to_string())?;
        }
        writeln!(
            out,
            "  (each check: `ragsynth check --explain CODE`, docs/checks.md; leave one out: --skip CODE)"
        )?;
    }
    if !s.skipped_chunks.is_empty() {
        let list: Vec<String> = s.skipped_chunks.iter().map(|(r, n)| format!("{r} {n}")).collect();
        writeln!(
            out,
            "\nchunks: {} considered, skipped as low content: {}",
            s.chunks,
            list.join(", ")
        )?;
    }
    for n in &s.notes {
        writeln!(out, "note: {}", data(n))?;
    }
    if !s.rounds.is_empty() {
        let list: Vec<String> = s
            .rounds
            .iter()
            .map(|r| format!("{}/{} accepted", r.accepted, r.tasks))
            .collect();
        let stop = s.stopped.map_or("", Stop::as_str);
        writeln!(
            out,
            "\nrounds: {} of at most {} ({}); stopped: {stop}",
            s.rounds.len(),
            s.max_rounds,
            list.join(", ")
        )?;
    }
    if let Some(b) = s.answered_by.filter(|b| b.questions > 0) {
        writeln!(
            out,
            "\nlabels: {} of {} one-fact questions also answered by other passages: {} labels added ({} passages judged)",
            b.gained, b.questions, b.labels, b.judged
        )?;
    }
    style(out, s)?;
    let est = if s.dry_run { " (estimated)" } else { "" };
    let cost = s
        .llm
        .cost_usd
        .map_or("unknown".to_string(), |c| format!("${c:.4}"));
    writeln!(
        out,
        "\nllm {}{est}: {} calls ({} from cache), {} prompt + {} completion tokens, {} retries, cost {cost}",
        data(&s.llm.model),
        s.llm.calls,
        s.llm.cache_hits,
        s.llm.prompt_tokens,
        s.llm.completion_tokens,
        s.llm.retries
    )?;
    for j in &s.judges {
        writeln!(out, "judge {}", data(&j.line()))?;
    }
    if s.dry_run {
        writeln!(
            out,
            "worst case over {} round(s): {} calls (every candidate rejected and replaced)",
            s.max_rounds, s.worst_case_calls
        )?;
    } else if s.accepted > 0 {
        writeln!(out, "held out: {} of {} new case(s)", s.heldout, s.accepted)?;
    }
    writeln!(out, "wall time: {:.1}s", s.wall_seconds)
}

/// How many of the accepted cases a reviewer should expect to fix, with the model in use.
fn to_fix(out: &mut dyn Write, s: &GenerateSummary) -> io::Result<()> {
    let model = data(&s.llm.model);
    let Some(f) = &s.to_fix else {
        return writeln!(
            out,
            "how many of the {} a reviewer must fix is unknown: {model} was never measured \
             (docs/benchmarks.md#correctness)",
            s.accepted
        );
    };
    let fix = if f.at_tuned == f.at_held_out {
        format!("about {}", f.at_tuned)
    } else {
        format!("about {} to {}", f.at_tuned, f.at_held_out)
    };
    writeln!(
        out,
        "review them: expect to fix {fix} of the {} ({model} writes {:.0}% of its accepted cases \
         wrong on the docs its checks were tuned on, {:.0}% on others; {}); a stronger model is one \
         flag away (--llm, docs/llm.md)",
        s.accepted,
        100.0 * f.wrong_tuned,
        100.0 * f.wrong_held_out,
        f.source
    )
}

/// The style block: the target, and for a run the new questions as written and as chosen, with
/// whether length and keyword difficulty came within tolerance.
fn style(out: &mut dyn Write, s: &GenerateSummary) -> io::Result<()> {
    let Some(target) = &s.target else {
        return Ok(());
    };
    let t = &target.figures;
    let source = if target.source == "real" {
        format!("the set's {} real questions", t.questions)
    } else {
        format!("the `{}` preset", data(&target.source))
    };
    writeln!(out, "\nstyle: written to match {source}")?;
    let pct = |x: f32| format!("{:.0}%", x * 100.0);
    let opt = |x: Option<f32>, f: &dyn Fn(f32) -> String| x.map_or("-".to_string(), f);
    type Cell = Box<dyn Fn(&Figures) -> String>;
    let rows: Vec<(&str, Cell)> = vec![
        ("words", Box::new(|f: &Figures| format!("{:.1}", f.words))),
        ("keywords only", Box::new(move |f: &Figures| pct(f.keywords))),
        ("lower case", Box::new(move |f: &Figures| pct(f.lowercase))),
        (
            "no question mark",
            Box::new(move |f: &Figures| pct(f.no_question_mark)),
        ),
        (
            "with a typo",
            Box::new(move |f: &Figures| opt(f.misspelled, &pct)),
        ),
        ("source rank 1", Box::new(move |f: &Figures| opt(f.rank1, &pct))),
        (
            "source MRR",
            Box::new(move |f: &Figures| opt(f.mrr, &|x| format!("{x:.2}"))),
        ),
        (
            "paragraph rank 1",
            Box::new(move |f: &Figures| opt(f.passage_rank1, &pct)),
        ),
        (
            "paragraph MRR",
            Box::new(move |f: &Figures| opt(f.passage_mrr, &|x| format!("{x:.2}"))),
        ),
    ];
    match &s.restyled {
        None => {
            for (name, f) in &rows {
                writeln!(out, "  {name:<18} {:>8}", f(t))?;
            }
        }
        Some(r) => {
            writeln!(
                out,
                "  {:<18} {:>8} {:>8} {:>8}",
                "", "written", "chosen", "target"
            )?;
            for (name, f) in &rows {
                writeln!(
                    out,
                    "  {name:<18} {:>8} {:>8} {:>8}",
                    f(&r.as_written),
                    f(&r.chosen),
                    f(t)
                )?;
            }
            let met = |b: bool| if b { "met" } else { "not met" };
            writeln!(
                out,
                "  length {}, keyword difficulty {} (within {} words, {} points)",
                met(r.words_met),
                met(r.rank_met),
                crate::generate::restyle::TOLERANCE_WORDS,
                crate::generate::restyle::TOLERANCE_RANK * 100.0
            )?;
        }
    }
    Ok(())
}

/// Writes the plan per document (`--dry-run`): each document's chunks and the chunks each kind
/// of question is planned on, then a blank line.
pub fn plan(out: &mut dyn Write, plan: &Plan, chunks: &[Chunk]) -> io::Result<()> {
    // Per document: its chunks, then the chunks each kind is planned on.
    let mut rows: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let row = || vec![0; 1 + KINDS.len()];
    for c in chunks {
        rows.entry(c.doc.as_str()).or_insert_with(row)[0] += 1;
    }
    for t in &plan.tasks {
        let col = 1 + KINDS.iter().position(|k| k.kind == t.kind).unwrap_or(0);
        for &i in &t.chunks {
            rows.entry(chunks[i].doc.as_str()).or_insert_with(row)[col] += 1;
        }
    }
    let names: Vec<&str> = KINDS.iter().map(|k| k.kind.as_str()).collect();
    let widths: Vec<usize> = names.iter().map(|n| n.len().max(6)).collect();
    write!(out, "{:<40} {:>6}", "document", "chunks")?;
    for (n, w) in names.iter().zip(&widths) {
        write!(out, " {n:>w$}")?;
    }
    writeln!(out)?;
    for (doc, r) in rows {
        write!(out, "{:<40} {:>6}", data(doc), r[0])?;
        for (n, w) in r[1..].iter().zip(&widths) {
            write!(out, " {n:>w$}")?;
        }
        writeln!(out)?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::summary::RoundFigures;

    fn render(s: &GenerateSummary) -> String {
        let mut out = Vec::new();
        summary(&mut out, s).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn run(accepted: usize) -> GenerateSummary {
        let mut s = GenerateSummary::new("out.yaml".into());
        let k = s.kind(crate::generate::candidate::Kind::Lookup);
        k.planned = 4;
        k.accepted = accepted;
        k.llm_calls = 4;
        k.rejected
            .insert(crate::generate::checks::Check::QuoteNotFound, 4 - accepted);
        s.max_rounds = 3;
        s.existing_cases = 5;
        s.heldout = accepted.min(1);
        s.rounds = vec![
            RoundFigures {
                round: 1,
                tasks: 3,
                candidates: 3,
                accepted: 1.min(accepted),
                llm_calls: 3,
            },
            RoundFigures {
                round: 2,
                tasks: 2,
                candidates: 2,
                accepted: accepted.saturating_sub(1),
                llm_calls: 2,
            },
        ];
        s.stopped = Some(Stop::NoProgress);
        s.finish();
        s
    }

    #[test]
    fn the_table_accounts_for_every_candidate_and_round() {
        let t = render(&run(2));
        assert!(
            t.starts_with("wrote out.yaml: 2 new case(s) next to 5 existing\n"),
            "{t}"
        );
        assert!(
            t.contains("\nlookup               4         4        2        2         4       2.00\n"),
            "{t}"
        );
        assert!(t.contains(&format!("{:<36} 2", "RS804 quote-not-found")), "{t}");
        assert!(
            t.contains("rounds: 2 of at most 3 (1/3 accepted, 1/2 accepted); stopped: no_progress"),
            "{t}"
        );
        assert!(t.contains("held out: 1 of 2 new case(s)"), "{t}");
    }

    #[test]
    fn the_summary_says_how_many_cases_to_expect_to_fix_with_the_model_in_use() {
        let mut s = run(4);
        s.llm.model = "llamacpp:Qwen2.5-Coder-1.5B-Instruct.Q4_K_M".into();
        s.finish();
        let t = render(&s);
        assert!(
            t.contains("review them: expect to fix about 1 to 2 of the 4 (llamacpp:Qwen2.5-Coder-1.5B-Instruct.Q4_K_M writes 28% of its accepted cases wrong on the docs its checks were tuned on, 39% on others;"),
            "{t}"
        );
        s.llm.model = "openai:gpt-4o-mini".into();
        s.finish();
        let t = render(&s);
        assert!(
            t.contains(
                "how many of the 4 a reviewer must fix is unknown: openai:gpt-4o-mini was never measured"
            ),
            "{t}"
        );
    }

    #[test]
    fn a_run_that_accepted_nothing_says_so_and_claims_no_write() {
        let t = render(&run(0));
        assert!(
            t.starts_with("no candidate was accepted; nothing written to out.yaml\n"),
            "{t}"
        );
        assert!(!t.contains("wrote"), "{t}");
        assert!(!t.contains("held out"), "{t}");
        assert!(t.contains(&format!("{:<36} 4", "RS804 quote-not-found")), "{t}");
    }

    #[test]
    fn a_dry_run_is_a_plan_with_its_worst_case() {
        let mut s = run(0);
        s.dry_run = true;
        s.rounds.clear();
        s.worst_case_calls = 12;
        let t = render(&s);
        assert!(
            t.starts_with("plan for out.yaml: 4 new case(s) next to 5 existing\n"),
            "{t}"
        );
        assert!(t.contains("(estimated)"), "{t}");
        assert!(t.contains("worst case over 3 round(s): 12 calls"), "{t}");
    }
}
