//! Comparison questions: two things of the same kind, a fact each about the same attribute
//! ([`comparisons`] finds them in tables and parallel sentences), and a question that names both
//! and asks how they differ or which is more. The answer gives both values and the outcome;
//! each side has its label.
//!
//! Checked without a judge: each side's label holds its thing and its value, the two things
//! and the two values differ, the question names both, and the answer gives both values. A
//! question ranking the sides over values without amounts is asked plainly (`unranked`): the
//! facts say what each is, not which is better.

use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::generate::ask::{self, created_of, label_in, topic_of};
use crate::generate::candidate::{Accepted, Kind, Shape, Tally, Task};
use crate::generate::checks::sides::{SideText, question_names as names, sides_fault, tells};
use crate::generate::comparisons::{self, Comparison};
use crate::generate::context::GenerateContext;
use crate::generate::kind::Outcome;
use crate::generate::kind::{CallEstimate, KindInfo, Layout};
use crate::generate::verify::{Check, Screen, check_not_example, check_question, check_wording, says};
use crate::lang::Language;
use crate::llm::Llm;
use crate::prompts::Rendered;
use crate::testset::{Label, Side};

/// Largest reply: two names, two values, the question and the answer.
pub const MAX_TOKENS: u32 = 200;

/// The kind's row: one question a call, on the comparisons tables and parallel sentences hold.
pub const INFO: KindInfo = KindInfo {
    kind: Kind::Comparison,
    summary: "two things of the same kind, a fact each, compared",
    default_share: 0.15,
    per_call: 1,
    layout: Layout::Pair {
        pairs: comparisons::find,
        needs: "pair(s) of facts compare two things",
        second_alone: false,
        // Asked again, comparisons came back right 6 times in 7 over five draws of Click,
        // Flask and Jinja: a corpus with few pairs fills its share.
        attempts: 3,
    },
    calls_per_task: 1,
    attempt: |llm, ctx, task, tally| Box::pin(attempt(llm, ctx, task, tally)),
    estimate,
};

/// What the model writes.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ComparisonReply {
    /// The thing of fact A.
    pub thing_a: String,
    /// Its value.
    pub value_a: String,
    /// The thing of fact B.
    pub thing_b: String,
    /// Its value.
    pub value_b: String,
    /// The question naming both.
    pub question: String,
    /// Both values and the outcome.
    pub answer: String,
}

/// The comparison a task asks about: the one its plan named, else the best of its chunks.
pub fn comparison_of(ctx: &GenerateContext<'_>, task: &Task) -> Option<Comparison> {
    let (a, b) = (task.chunks[0], *task.chunks.get(1).unwrap_or(&task.chunks[0]));
    let found = comparisons::between(ctx.chunks, a, b, ctx.language_of(a));
    let named = found
        .iter()
        .position(|c| task.term.as_deref() == Some(c.label().as_str()))
        .unwrap_or(0);
    found
        .get((named + task.attempt as usize) % found.len().max(1))
        .cloned()
}

/// The rendered prompt of a task.
pub fn render(ctx: &GenerateContext<'_>, task: &Task, c: &Comparison) -> crate::Result<Rendered> {
    let (ca, cb) = (&ctx.chunks[c.chunk_a], &ctx.chunks[c.chunk_b]);
    ask::render(ctx, "comparison", MAX_TOKENS, &[], |_| {
        json!({
            "topic_a": ctx.topic_at(ca, c.a.start), "fact_a": c.a.shown, "thing_a": c.a.thing,
            "topic_b": ctx.topic_at(cb, c.b.start), "fact_b": c.b.shown, "thing_b": c.b.thing,
            "attribute": c.attribute,
            "language": ctx.language_var(task.chunks[0]),
        })
    })
}

/// The one call of a task; none when its chunks hold no comparison.
fn estimate(ctx: &GenerateContext<'_>, task: &Task) -> crate::Result<Vec<CallEstimate>> {
    let Some(c) = comparison_of(ctx, task) else {
        return Ok(Vec::new());
    };
    let r = render(ctx, task, &c)?;
    Ok(vec![CallEstimate::of(&r.system, &r.user, MAX_TOKENS)])
}

/// Asks for the task's question and checks it.
pub async fn attempt(llm: &Llm, ctx: &GenerateContext<'_>, task: &Task, tally: &mut Tally) -> Outcome {
    let Some(c) = comparison_of(ctx, task) else {
        return Ok(vec![Err(Check::NoFact.into())]);
    };
    let rendered = render(ctx, task, &c).map_err(ask::config_error)?;
    let prompt = rendered.id.clone();
    let req = ask::request(ctx, task, rendered, MAX_TOKENS);
    let reply = match ask::ask::<ComparisonReply>(llm, &req, tally).await? {
        Ok(r) => r,
        Err(r) => return Ok(vec![Err(r.into())]),
    };
    let created = created_of(&reply);
    let r = reply.value;
    let language = ctx.language_of(c.chunk_a);
    let screen = ctx.screen(Kind::Comparison, language);
    let checked = (|| {
        let question = check_question(&r.question, &screen)?;
        let (question, sides) = check_sides(&c, &r, &question, &screen)?;
        let (question, model_answer) = match unranked(&question, &sides, language) {
            Some(plain) => (plain, ""),
            None => (question, r.answer.as_str()),
        };
        let [(ta, va), (tb, vb)] = sides;
        // The wording is checked against the answer the case is written with, as the audit reads it.
        let written = answer(model_answer, (&ta, &va), (&tb, &vb), language);
        check_wording(&question, &written, &c.a.shown, &screen)?;
        check_wording(&question, &written, &c.b.shown, &screen)?;
        let example = check_not_example(&question, &format!("{} {}", c.a.shown, c.b.shown)).is_err();
        screen.when(example, Check::CopiesExample)?;
        ctx.existing.check(&question, &screen)?;
        let (ca, cb) = (&ctx.chunks[c.chunk_a], &ctx.chunks[c.chunk_b]);
        let la = label_in(ctx, ca, &c.a.quote)?;
        let lb = label_in(ctx, cb, &c.b.quote)?;
        let (relevant, at_b) = one_or_two(la, lb);
        Ok(Accepted {
            kind: Kind::Comparison,
            question,
            phrasings: Vec::new(),
            answer: Some(written),
            relevant,
            topic: Some(topic_of(&ca.doc)),
            prompt,
            from: vec![ca.id.clone(), cb.id.clone(), c.label()],
            created,
            shape: Shape::Comparison(vec![side(ta, va, 0), side(tb, vb, at_b)]),
            language,
            difficulty: None,
            hints: Vec::new(),
        })
    })();
    let draft = || {
        let (ca, cb) = (&ctx.chunks[c.chunk_a], &ctx.chunks[c.chunk_b]);
        let labels = [
            label_in(ctx, ca, &c.a.quote).ok(),
            label_in(ctx, cb, &c.b.quote).ok(),
        ];
        Accepted::draft(
            Kind::Comparison,
            &r.question,
            Some(&r.answer),
            labels.into_iter().flatten().collect(),
            language,
        )
    };
    Ok(vec![checked.map_err(|e: Check| e.of(draft()))])
}

fn side(name: String, value: String, label: usize) -> Side {
    Side {
        name,
        value: Some(value),
        relevant: vec![label],
        extra: Default::default(),
    }
}

/// Both labels, or one when both sides stand in the same span (a row of a plan matrix); the
/// index of side B's.
fn one_or_two(a: Label, b: Label) -> (Vec<Label>, usize) {
    if a.doc == b.doc && a.start == b.start && a.end == b.end {
        (vec![a], 0)
    } else {
        (vec![a, b], 1)
    }
}

/// Each side's (thing, value): a table's own where it names them, else the model's, which
/// must stand in the side's fact; the two things differ, and the question names both. A
/// question naming neither ("Which plan is more expensive?") gets them as its choices
/// ("Which plan is more expensive, Team or Business?"); one naming only one is turned away.
pub fn check_sides(
    c: &Comparison,
    r: &ComparisonReply,
    question: &str,
    screen: &Screen<'_>,
) -> Result<(String, [(String, String); 2]), Check> {
    let language = screen.language;
    let pick =
        |table: &Option<String>, model: &str| table.clone().unwrap_or_else(|| model.trim().to_string());
    let (ta, tb) = (pick(&c.a.thing, &r.thing_a), pick(&c.b.thing, &r.thing_b));
    let holds = |text: &str, part: &str| says(text, part, language);
    // A sentence's value, where the model's is not in it: the whole sentence (attrs: "both" for
    // `attrs.define`, whose sentence says "converters run on initialization and on attribute
    // setting"). Not the words after the thing: cut there, a side read "from the backend.".
    let value = |side: &comparisons::Side, thing: &str, model: &str| match &side.value {
        Some(v) => v.clone(),
        // One word of the sentence ("default") is rarely what it says of the thing, nor is
        // the thing's own name ("macOS 12 Monterey" of Monterey, whose sentence goes on "is no
        // longer supported").
        None if holds(&side.quote, model)
            && crate::text::spans(model).count() >= 2
            && tells(thing, model, &side.shown, language) =>
        {
            model.trim().to_string()
        }
        None => side.shown.trim().to_string(),
    };
    let (va, vb) = (value(&c.a, &ta, &r.value_a), value(&c.b, &tb, &r.value_b));
    let sides = [
        SideText {
            thing: &ta,
            value: &va,
            quote: &c.a.quote,
            shown: &c.a.shown,
        },
        SideText {
            thing: &tb,
            value: &vb,
            quote: &c.b.quote,
            shown: &c.b.shown,
        },
    ];
    if let Some((check, _)) = sides_fault(&sides, language, &|c| screen.runs(c)) {
        return Err(check);
    }
    let question = match (names(question, &ta, language), names(question, &tb, language)) {
        (true, true) => question.to_string(),
        (false, false) => match with_both(question, &ta, &tb) {
            Some(q) => q,
            None => {
                screen.fail(Check::SidesMissing)?;
                question.to_string()
            }
        },
        _ => {
            screen.fail(Check::SidesMissing)?;
            question.to_string()
        }
    };
    Ok((question, [(ta, va), (tb, vb)]))
}

/// `question`, which names neither thing, naming both: "the two protocols" becomes "A and B"
/// ("what is the difference between A and B?"), and a "which" question gets them as its
/// choices ("Which plan is more expensive, Team or Business?"). None for any other question:
/// "what is the difference between the two flags, A or B?" reads as no one writes. English.
fn with_both(question: &str, ta: &str, tb: &str) -> Option<String> {
    static THE_TWO: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\b(the|these|those) (two|both) [\w-]+").expect("valid regex"));
    if THE_TWO.is_match(question) {
        return Some(
            THE_TWO
                .replacen(question, 1, format!("{ta} and {tb}"))
                .into_owned(),
        );
    }
    let q = question.trim_end();
    let which = crate::text::spans(q)
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("which"));
    (which && q.ends_with('?')).then(|| format!("{}, {ta} or {tb}?", q.trim_end_matches('?').trim_end()))
}

/// The question asked plainly ("how do A and B differ?") when it asks which side is more,
/// better or to pick ("Which method is more efficient for formatting code, Reformat or
/// External Tools?") but the values hold no amounts to rank them by: the facts do not say
/// which, so the model's outcome is its own. None when the question stands. English.
fn unranked(
    question: &str,
    [(ta, va), (tb, vb)]: &[(String, String); 2],
    language: Language,
) -> Option<String> {
    static RANKS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*which\b|\b(more|less|better|worse|best|worst|most|least|prefer\w*|recommend\w*)\b|\w{3,}er than\b")
            .expect("valid regex")
    });
    let amounts = comparisons::has_digit(va) && comparisons::has_digit(vb);
    (language == Language::ENGLISH && !amounts && RANKS.is_match(question))
        .then(|| format!("How do {ta} and {tb} differ?"))
}

/// The answer: the model's when it gives both values, else the two values side by side.
fn answer(model: &str, (ta, va): (&str, &str), (tb, vb): (&str, &str), language: Language) -> String {
    let model = model.trim();
    if says(model, va, language) && says(model, vb, language) {
        model.to_string()
    } else {
        format!("{ta}: {va}; {tb}: {vb}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A screen of this kind with every check on.
    fn sc(language: Language) -> Screen<'static> {
        Screen::new(Kind::Comparison, language, crate::generate::checks::Skip::none())
    }
    use crate::generate::checks::sides::names_itself_as_code;
    use crate::generate::comparisons::Side as Found;
    use crate::generate::names;

    fn found(thing: Option<&str>, value: Option<&str>, quote: &str) -> Found {
        Found {
            thing: thing.map(str::to_string),
            value: value.map(str::to_string),
            shown: quote.into(),
            quote: quote.into(),
            start: 0,
            end: quote.chars().count(),
        }
    }

    /// A comparison of two sentences, neither a table row.
    fn sentences(a: &str, b: &str) -> Comparison {
        Comparison {
            chunk_a: 0,
            chunk_b: 1,
            attribute: None,
            a: found(None, None, a),
            b: found(None, None, b),
            score: 1.0,
        }
    }

    fn reply(q: &str, ta: &str, va: &str, tb: &str, vb: &str) -> ComparisonReply {
        ComparisonReply {
            thing_a: ta.into(),
            value_a: va.into(),
            thing_b: tb.into(),
            value_b: vb.into(),
            question: q.into(),
            answer: "ok".into(),
        }
    }

    #[test]
    fn each_side_holds_its_thing_and_value_and_the_question_names_both() {
        let c = sentences(
            "On the Team plan a server manages at most 25 agents.",
            "On the Business plan a server manages at most 250 agents.",
        );
        let en = Language::ENGLISH;
        let q = "How many more agents does Business allow than Team?";
        let ok = check_sides(
            &c,
            &reply(q, "Team plan", "25 agents", "Business plan", "250 agents"),
            q,
            &sc(en),
        );
        assert_eq!(
            ok.unwrap().1[1],
            ("Business plan".to_string(), "250 agents".to_string())
        );
        // Naming neither thing: they become the question's choices.
        let q0 = "Which plan allows more agents?";
        let (repaired, _) = check_sides(
            &c,
            &reply(q0, "Team", "25 agents", "Business", "250 agents"),
            q0,
            &sc(en),
        )
        .unwrap();
        assert_eq!(repaired, "Which plan allows more agents, Team or Business?");
        // A value fact A does not say: fact A's whole sentence stands instead, never a clause's
        // tail.
        let bad = reply(q, "Team plan", "30 agents", "Business plan", "250 agents");
        assert_eq!(
            check_sides(&c, &bad, q, &sc(en)).unwrap().1[0],
            (
                "Team plan".to_string(),
                "On the Team plan a server manages at most 25 agents.".to_string()
            )
        );
        // A thing fact A does not name.
        let bad = reply(q, "Pro plan", "25 agents", "Business plan", "250 agents");
        assert_eq!(check_sides(&c, &bad, q, &sc(en)), Err(Check::SidesMissing));
        // The question names one side only.
        let q1 = "How many agents does the Business plan allow than before?";
        let one = reply(q1, "Team plan", "25 agents", "Business plan", "250 agents");
        assert_eq!(check_sides(&c, &one, q1, &sc(en)), Err(Check::SidesMissing));
        // The same thing twice.
        let same = reply(q, "Team", "25 agents", "team", "250 agents");
        assert_eq!(check_sides(&c, &same, q, &sc(en)), Err(Check::SidesMissing));
    }

    #[test]
    fn a_thing_cut_from_a_longer_name_or_an_amount_is_no_side() {
        // TREC DL 2020's passages, as the model paired them: "how do Bureau and Â£36,500 differ".
        let c = sentences(
            "According to a salary report published by the Bureau of Labor Statistics, the salary of a dental hygienist is about $68,250 per year.",
            "According to all salary survey, the median salary for a dental hygienist is about Â£36,500 per year.",
        );
        let q = "how do Bureau and Â£36,500 differ";
        let r = reply(q, "Bureau", "$68,250 per year", "Â£36,500", "per year");
        assert_eq!(
            check_sides(&c, &r, q, &sc(Language::ENGLISH)),
            Err(Check::SidesMissing)
        );
        // Named whole, the same sides compare.
        let c = sentences(
            "Dental hygienists make a median salary of $61,790 per year in Shreveport.",
            "Dental hygienists in New York City make a median yearly salary of $82,540.",
        );
        let q = "how much more does a dental hygienist make in New York City than in Shreveport";
        let r = reply(q, "Shreveport", "$61,790", "New York City", "$82,540");
        assert!(check_sides(&c, &r, q, &sc(Language::ENGLISH)).is_ok());
    }

    #[test]
    fn a_value_that_only_names_its_thing_again_compares_nothing() {
        // The rust book's, as the model wrote it: None against Result.
        let c = sentences(
            "Some, which holds one value of type T, and a None variant that doesn’t hold any value.",
            "The Result enum has an Ok variant and an Err variant.",
        );
        let q = "What is the difference between None and Result?";
        let en = Language::ENGLISH;
        // A variant against an enum: no two things of one kind.
        let bad = reply(q, "None", "None variant", "Result", "Ok variant");
        assert_eq!(check_sides(&c, &bad, q, &sc(en)), Err(Check::SidesMissing));
        assert_eq!(
            names::kind_after("The Result enum has an Ok variant", "Result", en).as_deref(),
            Some("enum")
        );
        let none = "Some, which holds one value of type T, and a None variant that doesn’t hold any value.";
        assert!(tells("None", "doesn’t hold any value", none, en));
        assert!(!tells("None", "a None variant", none, en));
        assert!(tells("Team plan", "$49", "| Team | $49 |", en));
    }

    #[test]
    fn a_value_that_names_its_own_thing_as_code_is_a_sentence_not_a_value() {
        let en = Language::ENGLISH;
        let c = sentences(
            "You can also pass a file listing the revisions to ignore using the `--ignore-revs-file` option.",
            "You can also pass code as a string using the `--code` option.",
        );
        let q = "what are the differences between --ignore-revs-file and --code";
        let bad = reply(
            q,
            "--ignore-revs-file",
            "You can also pass a file listing the revisions to ignore using the `--ignore-revs-file` option.",
            "--code",
            "You can also pass code as a string using the `--code` option.",
        );
        assert_eq!(check_sides(&c, &bad, q, &sc(en)), Err(Check::NoValueCompared));
        assert!(names_itself_as_code(
            "BaseCommand.invoke",
            "returned from the :meth:`BaseCommand.invoke` method"
        ));
        assert!(names_itself_as_code(
            "file.filename",
            "if file and allowed_file(file.filename): save"
        ));
        // A plain name said again is no code, nor is another thing's code.
        assert!(!names_itself_as_code(
            "Ok",
            "the value inside the Ok will get returned"
        ));
        assert!(!names_itself_as_code(
            "Reformat",
            "Code -> Reformat Code or using a shortcut"
        ));
        assert!(!names_itself_as_code(
            "latest_release",
            "tag created when a new version of `black` is released"
        ));
    }

    #[test]
    fn a_value_that_is_the_things_full_name_gives_way_to_what_the_sentence_says() {
        // The README demo's: Monterey's value was its own name, and the case said it is supported.
        let c = sentences(
            "The agent runs on macOS 13 Ventura or later, on both Apple silicon and Intel Macs.",
            "The macOS agent now requires macOS 13. macOS 12 Monterey is no longer supported.",
        );
        let en = Language::ENGLISH;
        let q = "Which version of macOS is supported by the agent, Ventura or Monterey?";
        let r = reply(
            q,
            "Ventura",
            "macOS 13 Ventura or later",
            "Monterey",
            "macOS 12 Monterey",
        );
        let (_, sides) = check_sides(&c, &r, q, &sc(en)).unwrap();
        assert_eq!(sides[0].1, "macOS 13 Ventura or later");
        assert_eq!(
            sides[1].1,
            "The macOS agent now requires macOS 13. macOS 12 Monterey is no longer supported."
        );
    }

    #[test]
    fn a_question_naming_neither_side_names_both_or_is_turned_away() {
        // Black's, as the model wrote them.
        assert_eq!(
            with_both(
                "What is the difference between the two protocols?",
                "X-Diff",
                "X-Fast-Or-Safe"
            )
            .as_deref(),
            Some("What is the difference between X-Diff and X-Fast-Or-Safe?")
        );
        assert_eq!(
            with_both("Which method is faster?", "Reformat", "External Tools").as_deref(),
            Some("Which method is faster, Reformat or External Tools?")
        );
        assert_eq!(with_both("What is Black?", "Black", "GitLab"), None);
    }

    #[test]
    fn a_ranking_without_amounts_is_asked_plainly() {
        let en = Language::ENGLISH;
        let sides = |va: &str, vb: &str| {
            [
                ("Reformat".to_string(), va.to_string()),
                ("External Tools".to_string(), vb.to_string()),
            ]
        };
        let words = sides("Code -> Reformat Code", "Tools -> External Tools -> black");
        assert_eq!(
            unranked(
                "Which method is more efficient for formatting code, Reformat or External Tools?",
                &words,
                en
            )
            .as_deref(),
            Some("How do Reformat and External Tools differ?")
        );
        assert_eq!(
            unranked(
                "What is the difference between Reformat and External Tools?",
                &words,
                en
            ),
            None
        );
        // Amounts rank: "$49" and "$199" say which plan costs less.
        let prices = sides("$49 per month", "$199 per month");
        assert_eq!(
            unranked("Which plan is cheaper, Team or Business?", &prices, en),
            None
        );
    }

    #[test]
    fn an_answer_without_both_values_is_replaced_by_them() {
        let en = Language::ENGLISH;
        assert_eq!(
            answer("Business allows more", ("Team", "25"), ("Business", "250"), en),
            "Team: 25; Business: 250"
        );
        assert_eq!(
            answer(
                "Team allows 25 agents, Business 250",
                ("Team", "25"),
                ("Business", "250"),
                en
            ),
            "Team allows 25 agents, Business 250"
        );
    }
}
