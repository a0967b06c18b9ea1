//! Checks a candidate must pass before it is written, and the reasons it can fail. The LLM is
//! not trusted for offsets: its quote is searched for in the document (exactly, then ignoring
//! white space and case, then fuzzily) and the label's span and quote are set from where the
//! text really is. Questions that repeat an existing or a new question are dropped.

use std::sync::LazyLock;

use regex::Regex;

pub use super::checks::copies_example::{EXAMPLE_PRODUCT, check_not_example};
pub use super::checks::exact_duplicate::Dedup;
pub use super::checks::off_topic::check_on_topic;
use super::checks::places_in_page::{names_a_section, section};
use super::checks::prompt_words::prompt_words;
pub use super::checks::{Check, Screen, is_only, labels_text, says};
use crate::chunk::Chunk;
use crate::corpus::Document;
use crate::lang::List;
use crate::lang::lists::english;
use crate::lang::{self, Language};
use crate::locate::locate;
use crate::testset::Label;
use crate::text::{fold, spans, words};
use crate::wording::{self, answer, form, overlap};

/// Similarity a fuzzy quote match needs (normalised edit similarity of the best window). Small
/// models paraphrase a word or two of what they "copy"; below this the text is not the source.
pub const QUOTE_MIN_SIMILARITY: f32 = 0.8;

/// Fewest words a quote needs to support anything.
pub const QUOTE_MIN_WORDS: usize = 3;

/// Checks the question's form: 3 to 40 words, ending in `?` or opening like a question (the
/// audit's RS201, RS203 and RS204 read the same [`form`] table), no reference to what its writer
/// was shown (RS205, RS206), and it stands alone (RS209); returns the trimmed question. A weak
/// question (yes/no, some copied words) passes: the auditor flags those; this only turns away
/// what is not a usable question at all.
/// The question must be in `language` (its passage's): one the detector reliably places in
/// another is turned away.
pub fn check_question(question: &str, screen: &Screen<'_>) -> Result<String, Check> {
    let shown = as_shown(question);
    let q = shown.trim().trim_matches('"').trim();
    screen.question(q).map(|()| q.to_string())
}

/// `question` with its Sphinx and MyST roles as the built page shows them, which is what a
/// user pastes: "what is the purpose of the :attr:`~ParamType.name` attribute" (Click's docs,
/// copied by the model) reads "… the `ParamType.name` attribute" ([`names::shown_name`]).
fn as_shown(question: &str) -> std::borrow::Cow<'_, str> {
    static ROLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r":([a-z:]+):`([^`<]*?)\s*(?:<[^`>]*>)?`|\{([a-z:]+)\}`([^`<]*?)\s*(?:<[^`>]*>)?`")
            .expect("valid regex")
    });
    ROLE.replace_all(question, |c: &regex::Captures<'_>| {
        let role = c.get(1).or(c.get(3)).map_or("", |m| m.as_str());
        let inner = c.get(2).or(c.get(4)).map_or("", |m| m.as_str()).trim();
        // A section's or page's title is words; anything else is code.
        if matches!(role, "ref" | "doc" | "term" | "numref") {
            inner.to_string()
        } else {
            format!("`{}`", crate::generate::names::shown_name(inner))
        }
    })
}

/// `question` without the place in the page's outline it ends on ("what does the `--diff`
/// option do in the basics section?" → "what does the `--diff` option do?"); none where it
/// names no such place or names it elsewhere. For a question whose subject is named, so the
/// place adds nothing a user would say (a multi-hop's second hop, which names its bridge).
pub fn outline_dropped(question: &str) -> Option<String> {
    let place = section().find_iter(question).last()?;
    let mark = question[place.end()..].trim();
    if !mark.trim_start_matches(['?', '？']).is_empty() {
        return None;
    }
    let rest = question[..place.start()]
        .trim_end()
        .trim_end_matches(',')
        .trim_end();
    (!rest.is_empty() && !names_a_section(rest)).then(|| format!("{rest}{mark}"))
}

/// The question a user asks of a code where the model copied the fact's table row instead
/// ("--check: exit with code 1 if any file would be reformatted", or the flag alone): "What
/// does `--check` do?". For a flag, an option key or another code; none for anything else, and
/// outside English. Black's CLI rows gave two hop-2 questions and one unanswerable so.
pub fn copied_row_asked(question: &str, code: &str, language: Language) -> Option<String> {
    if language != Language::ENGLISH || crate::generate::names::shape(code).is_none() {
        return None;
    }
    let q = question.trim();
    let rest = q
        .strip_prefix(code)
        .or_else(|| q.strip_prefix(&format!("`{code}`")))?
        .trim_start();
    let copied = rest.is_empty() || rest.starts_with([':', '(', '-', '\u{2013}', '\u{2014}']);
    (copied && !q.ends_with('?')).then(|| format!("What does `{code}` do?"))
}

/// Checks a search query's form ([`form::reads_as_query`]: 3 to 10 words, one line, keywords or
/// a question, not a sentence), no reference to what its writer was shown; returns it trimmed,
/// without a question mark.
pub fn check_query(query: &str, screen: &Screen<'_>) -> Result<String, Check> {
    let language = screen.language;
    let q = query
        .trim()
        .trim_matches('"')
        .trim()
        .trim_end_matches(['?', '？'])
        .trim();
    screen.when(!form::reads_as_query(q, language), Check::NotAQuestion)?;
    screen.when(
        crate::wording::meta_reference_in(q, language).is_some(),
        Check::RefersToSource,
    )?;
    screen.when(prompt_words().is_match(q), Check::PromptWords)?;
    screen.when(form::stutters(q), Check::Stutter)?;
    screen.when(
        lang::detect_question(q, None, Some(language)) != language,
        Check::WrongLanguage,
    )?;
    Ok(q.to_string())
}

/// Rejects a question that gives its answer away (RS207's definition) or copies a phrase of
/// `source` ([`overlap::copied_phrase`]: [`overlap::COPIED_RUN`] words in a row,
/// [`overlap::COPIED_RUN_CONTENT`] of them content words, as RS101 counts at its defaults).
/// `source` must be what the audit compares against — the text of the chunks the label lies in
/// ([`crate::workspace::ChunkedCorpus::labelled_text`]); a fact alone is shorter, and a
/// question that copies the rest of its chunk would pass here and be flagged there.
pub fn check_wording(question: &str, answer: &str, source: &str, screen: &Screen<'_>) -> Result<(), Check> {
    let language = screen.language;
    screen.when(
        wording::restates_answer_in(question, answer, language),
        Check::AnswerInQuestion,
    )?;
    screen.when(
        overlap::copied_phrase(question, source, language).is_some(),
        Check::CopiedPhrase,
    )
}

/// Rejects an answer its labels do not hold ([`answer::answer_faults`] over the labels' text, as
/// the audit's RS507–RS514 read it): the first fault whose check runs. Call it with the labels
/// the case will be written with ([`label_for`] gives each the document's own text as its quote).
pub fn check_answer(
    question: &str,
    answer: &str,
    labels: &[Label],
    screen: &Screen<'_>,
) -> Result<(), Check> {
    answer::answer_faults(question, answer, &labels_text(labels), screen.language)
        .iter()
        .map(|(_, fault)| super::checks::fault_check(fault))
        .find(|&c| screen.runs(c))
        .map_or(Ok(()), Err)
}

/// Every check of an answer against its labels' text `fact` that needs no corpus, first fault
/// first, with no check left out: the question names a code `fact` lacks; the answer (and each of
/// its sentences) is not `fact`'s; a why-question's `fact` gives no reason for it; the question
/// leaves out the condition under which `fact` gives the answer (unless it names one of
/// `sides`); a broad question is answered by a fragment of `fact`. The registry's rows read the
/// same functions; this is for callers without a corpus (the hand-marks tests).
pub fn check_against_label(
    question: &str,
    answer: &str,
    fact: &str,
    language: Language,
    sides: &[&str],
) -> Result<(), Check> {
    if answer::code_outside(question, fact).is_some() {
        return Err(Check::AsksOutsideLabel);
    }
    let each: Vec<&str> = answer::sentences(answer).collect();
    let parts = std::iter::once(answer).chain(each.iter().copied().filter(|_| each.len() >= 2));
    for part in parts {
        if let Some((_, fault)) = answer::answer_faults(question, part, fact, language).first() {
            return Err(super::checks::fault_check(fault));
        }
    }
    answer::reason::gives_the_reason(question, answer, fact, language)
        .map_err(|_| Check::WhyWithoutReason)?;
    answer::condition::states_the_condition(question, answer, fact, language, sides)
        .map_err(|_| Check::ConditionDropped)?;
    answer::partial::answers_in_full(question, answer, fact, language).map_err(|_| Check::HalfAnswer)
}

/// Where `question` starts to place its thing in a heading of its label's page ("what does
/// sys.argv do in Windows Console Notes?"), as a byte offset of its " in …": the prompt shows
/// the model where the fact stands, and a user who has not seen the page does not name it so.
/// A heading counts written as such (its capitals kept); a page's title also by the words
/// before its page word, in any case ("… in the template designer", 7 of Jinja's 25 cases).
/// One the page `say`s as a name is not counted: "… in GitHub Actions" names a product its
/// page talks about. English throughout, its " in …" and its page words ([`List::PageWords`]):
/// RS214 reads English questions only.
pub fn heading_tail(question: &str, headings: &[String], say: impl Fn(&str) -> bool) -> Option<usize> {
    let asked = question.trim_end().trim_end_matches(['?', '.', '!']).trim_end();
    // Lower case only where it keeps every byte offset (it does for the scripts headings use).
    let lower = Some(fold(asked)).filter(|l| l.len() == asked.len());
    let tail_of = |name: &str, any_case: bool| -> Option<usize> {
        [
            " in ",
            " in the ",
            " in the context of ",
            " in the context of the ",
        ]
        .iter()
        .map(|lead| format!("{lead}{name}"))
        .filter_map(|t| {
            if asked.ends_with(t.as_str()) {
                Some(asked.len() - t.len())
            } else if any_case {
                let (l, lt) = (lower.as_ref()?, fold(&t));
                let at = asked.len().checked_sub(lt.len())?;
                (l.ends_with(&lt) && asked.is_char_boundary(at)).then_some(at)
            } else {
                None
            }
        })
        .min()
    };
    headings
        .iter()
        .filter_map(|h| {
            let h = h.trim();
            let capitalised = h.chars().next().is_some_and(char::is_uppercase);
            let whole = (capitalised && h.chars().count() >= 3 && !say(h))
                .then(|| tail_of(h, false))
                .flatten();
            let words: Vec<&str> = spans(h).collect();
            let titled = words.len() >= 3
                && capitalised
                && english(List::PageWords).contains(&fold(words[words.len() - 1]).as_str());
            let stem = titled
                .then(|| words[..words.len() - 1].join(" "))
                .filter(|stem| !say(stem));
            let by_title = stem.and_then(|stem| {
                [
                    tail_of(h, true),
                    tail_of(&stem, true),
                    tail_of(&format!("{stem} page"), true),
                ]
                .into_iter()
                .flatten()
                .min()
            });
            [whole, by_title].into_iter().flatten().min()
        })
        .min()
}

/// `question` without the heading it ends in at `at` ([`heading_tail`]), its mark kept:
/// "what does sys.argv do in Windows Console Notes?" → "what does sys.argv do?".
pub fn without_heading_tail(question: &str, at: usize) -> String {
    let kept = question[..at].trim_end();
    let mark = question
        .trim_end()
        .chars()
        .last()
        .filter(|c| ['?', '.', '!'].contains(c));
    match mark {
        Some(m) => format!("{kept}{m}"),
        None => kept.to_string(),
    }
}

/// Whether `page` writes `heading` as written (its capitals) on a line other than a heading that
/// starts with it (Markdown's "# " marks aside): a name its text uses, not only its outline.
/// "Template Designer" is said by no line of Jinja's page but its title's.
pub fn page_says(page: &str, heading: &str) -> bool {
    page.lines().any(|line| {
        !line.trim().trim_start_matches('#').trim().starts_with(heading) && line.contains(heading)
    })
}

/// Locates `quote` in `doc` (preferring the occurrence nearest `near`) and builds the label from
/// where it was found; `chunks` are the document's chunks, for the informative chunk id.
pub fn label_for(doc: &Document, quote: &str, near: usize, chunks: &[&Chunk]) -> Result<Label, Check> {
    let quote = quote.trim();
    if words(quote).len() < QUOTE_MIN_WORDS {
        return Err(Check::QuoteTooShort);
    }
    let found = locate(&doc.text, quote, Some(near), QUOTE_MIN_SIMILARITY).ok_or(Check::QuoteNotFound)?;
    let text: String = doc
        .text
        .chars()
        .skip(found.start)
        .take(found.end - found.start)
        .collect();
    let chunk = chunks
        .iter()
        .filter(|c| c.start < found.end && found.start < c.end)
        .max_by_key(|c| {
            (
                found.end.min(c.end) - found.start.max(c.start),
                std::cmp::Reverse(c.start),
            )
        })
        .map(|c| c.id.clone());
    Ok(Label {
        doc: doc.path.clone(),
        start: found.start,
        end: found.end,
        quote: text,
        chunk,
        grade: None,
        extra: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::checks;
    use super::*;

    /// A lookup's screen in English with every check on.
    fn en_screen() -> Screen<'static> {
        Screen::new(
            crate::generate::candidate::Kind::Lookup,
            Language::ENGLISH,
            super::super::checks::Skip::none(),
        )
    }

    #[test]
    fn a_question_or_wording_that_stutters_is_turned_away() {
        // TREC DL 2020's bridge, its description run into the words after the bridge: the kind
        // composes it, then reads it with `check_question`.
        assert_eq!(
            check_question(
                "what was the type of rifle that the new trigger is designed for designed for",
                &en_screen()
            ),
            Err(Check::Stutter)
        );
        // A keyword wording is dropped the same way, and its plain sibling kept.
        assert_eq!(
            check_query("alpine hall of fame of fame photos", &en_screen()),
            Err(Check::Stutter)
        );
        assert_eq!(
            check_query("alpine hall of fame photos", &en_screen()).as_deref(),
            Ok("alpine hall of fame photos")
        );
    }

    #[test]
    fn a_question_placed_in_its_page_heading_leans_on_the_page() {
        let headings = |hs: &[&str]| hs.iter().map(|h| h.to_string()).collect::<Vec<_>>();
        let q = "what does sys.argv do in Windows Console Notes?";
        for page in [
            "Windows Console Notes\n=====\n\nWe also now extract unicode parameters from `sys.argv`.",
            "# Windows Console Notes\n\nWe also now extract unicode parameters from `sys.argv`.",
        ] {
            let at = heading_tail(q, &headings(&["Windows Console Notes"]), |h| page_says(page, h));
            assert_eq!(at, q.find(" in Windows"), "{page}");
            assert_eq!(without_heading_tail(q, at.unwrap()), "what does sys.argv do?");
        }
        // Said on its page as a name, a heading is one the user may know; elsewhere in the
        // question, or in lower case, it is the user's own words.
        let page = "# GitHub Actions\n\nBlack's action runs on GitHub Actions with --check.";
        let q = "what does --check do in GitHub Actions";
        assert!(heading_tail(q, &headings(&["GitHub Actions"]), |h| page_says(page, h)).is_none());
        assert!(
            heading_tail(
                "what is the upload limit in scheduled backups",
                &headings(&["Scheduled backups"]),
                |_| false
            )
            .is_none()
        );
        let q = "does sys.argv hold unicode in Windows Console Notes mode";
        assert!(heading_tail(q, &headings(&["Windows Console Notes"]), |_| false).is_none());
    }

    #[test]
    fn a_page_title_is_placed_by_the_words_before_its_page_word_in_any_case() {
        // Jinja's templates.rst, "Template Designer Documentation": 7 of 25 cases ended so.
        let title = vec!["Template Designer Documentation".to_string(), "Loops".to_string()];
        let page =
            "Template Designer Documentation\n===\n\nfor other template designers to read\n\nLoops\n---";
        let say = |h: &str| page_says(page, h);
        for (q, kept) in [
            (
                "how do I use loops recursively in the template designer",
                "how do I use loops recursively",
            ),
            (
                "what does loop.depth1 mean in the Template Designer documentation",
                "what does loop.depth1 mean",
            ),
            (
                "what does 'loop.depth' mean in the Template Designer?",
                "what does 'loop.depth' mean?",
            ),
            (
                "what is loop.index in the context of the template designer page",
                "what is loop.index",
            ),
        ] {
            let at = heading_tail(q, &title, say);
            assert_eq!(
                at.map(|at| without_heading_tail(q, at)).as_deref(),
                Some(kept),
                "{q}"
            );
        }
        // A section heading in lower case is the user's own words; so is a title's stem the
        // page writes as a name (its capitals kept) outside its own line.
        assert!(heading_tail("how do I break out of loops in the loops", &title, say).is_none());
        let named = "Template Designer Documentation\n===\n\nOpen the Template Designer first.";
        let q = "how do I use loops recursively in the template designer";
        assert!(heading_tail(q, &title, |h| page_says(named, h)).is_none());
        // Two words are a name, not a page: "API Reference" has no title stem to place in.
        let api = vec!["API Reference".to_string()];
        assert!(heading_tail("what does Environment do in the API", &api, |_| false).is_none());
    }

    #[test]
    fn a_question_reads_roles_as_the_page_shows_them() {
        // Click's docs, copied by the model.
        assert_eq!(
            check_question(
                "what is the purpose of the :attr:`~ParamType.name` attribute",
                &en_screen()
            )
            .as_deref(),
            Ok("what is the purpose of the `ParamType.name` attribute")
        );
        assert_eq!(
            check_question(
                "what does :func:`~flask.url_for` return in :ref:`Blueprints <blueprints>`?",
                &en_screen()
            )
            .as_deref(),
            Ok("what does `url_for` return in Blueprints?")
        );
    }
    use crate::corpus::DocKind;

    fn doc(text: &str) -> Document {
        Document {
            path: "guide.md".into(),
            text: text.into(),
            kind: DocKind::Markdown,
            sha256: String::new(),
        }
    }

    #[test]
    fn a_question_placed_in_the_pages_outline_is_a_meta_reference() {
        let q = "what does the `--filter` do in the file collection and discovery section";
        assert_eq!(check_question(q, &en_screen()), Err(Check::PlacesInPage));
        for q in [
            "Which section of the act covers refunds?",
            "what does `--filter` do when collecting files",
        ] {
            assert!(!names_a_section(q), "{q}");
        }
    }

    #[test]
    fn a_copied_row_becomes_the_question_a_user_asks_of_its_code() {
        let en = Language::ENGLISH;
        let question = "What does `--check` do?";
        let asked = Some(question.to_string());
        let row = "--check: exit with code 1 if any file would be reformatted";
        assert_eq!(copied_row_asked(row, "--check", en), asked);
        assert_eq!(copied_row_asked("--check (print nothing)", "--check", en), asked);
        assert_eq!(copied_row_asked("`--check`", "--check", en), asked);
        assert!(check_question(question, &en_screen()).is_ok());
        // A question already, a plain name, another code first, another language: left alone.
        assert_eq!(copied_row_asked("--check: what does it do?", "--check", en), None);
        assert_eq!(copied_row_asked("Black: the formatter", "Black", en), None);
        assert_eq!(copied_row_asked("--diff: print a diff", "--check", en), None);
        assert_eq!(
            copied_row_asked(row, "--check", Language::parse("de").unwrap()),
            None
        );
    }

    #[test]
    fn a_trailing_place_in_the_outline_comes_off() {
        assert_eq!(
            outline_dropped("What does the `--diff` option do in the basics section?").as_deref(),
            Some("What does the `--diff` option do?")
        );
        assert_eq!(
            outline_dropped("what does `--filter` do, under the file discovery subsection").as_deref(),
            Some("what does `--filter` do")
        );
        for q in [
            // Placed mid-question, or no place at all: left as it is.
            "What does the `--diff` option in the basics section print?",
            "Which section of the act covers refunds?",
            "What does the `--diff` option do?",
        ] {
            assert_eq!(outline_dropped(q), None, "{q}");
        }
        let dropped = outline_dropped("What does the `--diff` option do in the basics section?").unwrap();
        assert!(check_question(&dropped, &en_screen()).is_ok());
    }

    #[test]
    fn question_form() {
        assert_eq!(
            check_question("  How do I restore files?  ", &en_screen()).unwrap(),
            "How do I restore files?"
        );
        assert_eq!(check_question("Restore?", &en_screen()), Err(Check::TooShort));
        assert_eq!(
            check_question("Which port does it use", &en_screen()),
            Ok("Which port does it use".into())
        );
        // Not a question at all, though it talks about one.
        assert_eq!(
            check_question(
                "The answer to the question 'How do I back up a database?',",
                &en_screen()
            ),
            Err(Check::NotAQuestion)
        );
        assert_eq!(
            check_question(
                "How do I back up? Use dumps. Why? Because files change?",
                &en_screen()
            ),
            Err(Check::SeveralQuestions)
        );
        // Joined by "and": the rust book run's wrong lookup, its answer one sentence.
        assert_eq!(
            check_question(
                "what is a common issue with Rust code and how can it be addressed?",
                &en_screen()
            ),
            Err(Check::JoinedQuestions)
        );
        // The attrs run of 2026-12-02: one code twice.
        assert_eq!(
            check_question(
                "what are the differences between both the ``attr`` namespace and `attrs.exceptions` and `attrs.exceptions`",
                &en_screen()
            ),
            Err(Check::Stutter)
        );
        assert!(check_question("How do `--include` and `--exclude` differ?", &en_screen()).is_ok());
        assert_eq!(
            check_question(
                "What is a security incident? How can it affect the agent?",
                &en_screen()
            ),
            Err(Check::SeveralQuestions)
        );
        assert_eq!(
            check_question(
                "What is the minimum macOS version the agent supports, and what is the issue with tags, and what is the minimum macOS version the agent supports?",
                &en_screen()
            ),
            Err(Check::JoinedQuestions)
        );
        assert_eq!(
            check_question(
                "What is the configuration option for S3-compatible storage, and what is the configuration option for OpenID Connect?",
                &en_screen()
            ),
            Err(Check::JoinedQuestions)
        );
        for meta in [
            "What does the passage say about keys?",
            "According to fact 2, which port does the server use?",
            "What is the purpose of the recovery kit in the given text?",
            "What is the key sentence about TP-412 and how can it be resolved?",
            "What are the labels used in the documentation?",
            "what does the `wont_work` variable represent in the given code snippet",
        ] {
            // Rejected as a reference to the source or a joined question, or (the prompt's own
            // words, a review hint since people write "according to" too) found as a hint.
            let rejected = matches!(
                check_question(meta, &en_screen()),
                Err(Check::RefersToSource | Check::JoinedQuestions)
            );
            let hinted = (Check::PromptWords.info().question.unwrap())(meta, Language::ENGLISH).is_some();
            assert!(rejected || hinted, "{meta}");
        }
        assert!(check_question("How is a lock used in the context of a prune?", &en_screen()).is_ok());
    }

    #[test]
    fn wording_that_gives_the_answer_away_or_copies_the_source() {
        let src = "Periods are counted in the server's local time zone, not in UTC.";
        assert_eq!(
            check_wording(
                "What time zone is used to count periods in the server's local time zone?",
                "the server's local time zone",
                src,
                &en_screen()
            ),
            Err(Check::AnswerInQuestion)
        );
        // A copied phrase is a review hint (RS101 turned away more people-written right cases
        // than corrupted ones), not a rejection.
        assert_eq!(
            check_wording(
                "Are periods counted in the server's local time zone?",
                "Yes",
                src,
                &en_screen()
            ),
            Ok(())
        );
        assert_eq!(
            check_wording(
                "Which clock decides when a retention period ends?",
                "local time",
                src,
                &en_screen()
            ),
            Ok(())
        );
    }

    #[test]
    fn on_topic_needs_a_shared_content_word() {
        let s = "The agent encrypts every chunk with XChaCha20-Poly1305 before upload.";
        assert_eq!(
            check_on_topic("Which cipher encrypts uploads?", &[s], Language::ENGLISH),
            Ok(())
        );
        assert_eq!(
            check_on_topic(
                "How often should I empty the grinder tray?",
                &[s],
                Language::ENGLISH
            ),
            Err(Check::OffTopic)
        );
    }

    #[test]
    fn label_span_comes_from_where_the_quote_is() {
        let d = doc("# Keys\n\nThe agent encrypts every chunk with XChaCha20-Poly1305 before upload.\n");
        let c = Chunk {
            id: "guide.md#0".into(),
            doc: "guide.md".into(),
            start: 0,
            end: d.text.chars().count(),
            text: d.text.clone(),
        };
        // Case and white space differ from the source: the label carries the source's text.
        let l = label_for(
            &d,
            "the agent  encrypts every chunk with xchacha20-poly1305",
            0,
            &[&c],
        )
        .unwrap();
        assert_eq!(l.quote, "The agent encrypts every chunk with XChaCha20-Poly1305");
        assert_eq!(&d.text[l.start..l.end], l.quote);
        assert_eq!(l.chunk.as_deref(), Some("guide.md#0"));
        // One word changed: found fuzzily, label still exact text of the source.
        let l = label_for(
            &d,
            "The agent encrypts each chunk with XChaCha20-Poly1305 before upload",
            0,
            &[&c],
        )
        .unwrap();
        assert!(d.text.contains(&l.quote));
        assert_eq!(label_for(&d, "Keys", 0, &[&c]), Err(Check::QuoteTooShort));
        assert_eq!(
            label_for(&d, "Snapshots are pruned every Sunday night", 0, &[&c]),
            Err(Check::QuoteNotFound)
        );
    }

    #[test]
    fn questions_about_a_thing_the_reader_was_not_shown_do_not_stand_alone() {
        for q in [
            "What is the return type of the function?",
            "What does the function return?",
            "What is its purpose?",
        ] {
            assert_eq!(check_question(q, &en_screen()), Err(Check::NotStandalone), "{q}");
        }
        assert!(check_question("What does the `read_to_string` function return?", &en_screen()).is_ok());
    }

    #[test]
    fn an_answer_that_loops_is_turned_away() {
        // Black's docs, an unanswerable's lookup reply.
        let looped = "used with virtualenv, disables command when not in use, only usable with virtualenv, disables command when not in use, only usable with virtualenv, disables the";
        assert!(checks::garbled::repeats_words(&words(looped)));
        // Parallel halves repeat a few words, not eight.
        let parallel =
            "get either an Ok value that contains a username or an Err value that contains an io::Error";
        assert!(!checks::garbled::repeats_words(&words(parallel)));
    }

    #[test]
    fn each_sentence_of_an_answer_is_held_to_the_label() {
        // Click's: the second sentence is the model's own.
        let fact = "If a :exc:`ClickException` is raised, invoke the :meth:`ClickException.show` method \
                    on it to display it and then exit the program with :attr:`ClickException.exit_code`.";
        let q = "what is the exit_code attribute of ClickException?";
        let long = "The exit_code attribute holds the exit code of the program when a ClickException is \
                    raised. This is useful for applications that need to report their status to scripts.";
        assert_eq!(
            check_against_label(q, long, fact, Language::ENGLISH, &[]),
            Err(Check::AnswerNotInLabel)
        );
        let held = "The program exits with it. That is when a ClickException is raised and shown.";
        assert_eq!(check_against_label(q, held, fact, Language::ENGLISH, &[]), Ok(()));
    }

    #[test]
    fn answers_their_label_does_not_hold_or_contradicts_are_turned_away() {
        let label = |quote: &str| Label::spanning("book.md", 0, quote);
        // The Rust book, ch08-02: `+` only looks like it copies both strings.
        let concat = label(
            "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1, appends a copy of the contents of s2, and then returns ownership of the result.",
        );
        assert_eq!(
            check_answer(
                "What happens when you concatenate two strings in Rust?",
                "The result is a new string that contains the contents of both original strings",
                std::slice::from_ref(&concat),
                &en_screen()
            ),
            Err(Check::AnswerContradictsLabel)
        );
        // The Rust book, ch09-03: a sentence that announces an example and gives none.
        let announces = label(
            "We’ll work through an example of what we mean in “Encoding States and Behavior as Types” in Chapter 18.",
        );
        assert_eq!(
            check_answer(
                "What is an example of the bad state in error handling?",
                "user entering data in the wrong format",
                &[announces],
                &en_screen()
            ),
            Err(Check::AnswerNotInLabel)
        );
        assert_eq!(
            check_answer(
                "What does `let s3 = s1 + &s2;` do with s1?",
                "It takes ownership of s1",
                &[concat],
                &en_screen()
            ),
            Ok(())
        );
        // Black's docs (the correctness benchmark): an answer cut after its referent.
        let fast = label(
            "Black checks that the reformatted code still produces a valid AST that is equivalent to the original. `--fast` turns off this check and the safe flag explicitly enables it.",
        );
        assert_eq!(
            check_answer(
                "what does the `--fast` flag do",
                "turns off this check and the safe flag explicitly enables it",
                std::slice::from_ref(&fast),
                &en_screen()
            ),
            Err(Check::AnswerPointsOutside)
        );
        assert_eq!(
            check_answer(
                "what does the `--fast` flag do",
                "turns off the check that the reformatted code produces an equivalent AST",
                &[fast],
                &en_screen()
            ),
            Ok(())
        );
    }

    #[test]
    fn duplicates_exact_and_near() {
        let mut d = Dedup::default();
        d.add("How long are snapshots kept on the free plan?");
        assert_eq!(
            d.check("how long are snapshots kept on the FREE plan", &en_screen()),
            Err(Check::ExactDuplicate)
        );
        assert_eq!(
            d.check("How long are snapshots kept on the free tier?", &en_screen()),
            Err(Check::NearDuplicate)
        );
        assert_eq!(d.check("Which ports does the server need?", &en_screen()), Ok(()));
    }
}
