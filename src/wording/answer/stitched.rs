//! A short answer stitched from words the fact says apart (or looped, cut mid-phrase, or a
//! predicate rejoined to the wrong noun): "author or resolved manner" from
//! "User support issues are best closed by the author or when it's clear the issue has been
//! resolved in some sort of manner". Every word stands in the fact, in the same order, so
//! [`super::in_fact`] passes it; but between its content words the fact says what the answer drops ("clear",
//! "sort"), and read alone it says neither clause. A small model writes such answers when told
//! to be short.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{AnswerFault, SHORT_ANSWER};
use crate::lang::lists::english;
use crate::lang::{Language, List};
use crate::text::{Token, bare, fold, single_spaced, spans, tokens};

/// Gaps a stitched answer leaves, at least: places between two of its words where the fact
/// says a content word the answer drops. One gap is a shortening ("this tier [of Tidepool is
/// called Glacier Vault and] keeps data for ten years"); two take the answer from three
/// places ("author [… clear …] resolved [… sort of] manner").
const GAPS: usize = 2;

/// Checks that a short `claim` made of `fact`'s words alone, in the fact's order, is not
/// stitched from places apart (see the module doc). An answer with words of its own —
/// reworded or composed — or longer than [`SHORT_ANSWER`] content words is not judged here.
pub(super) fn not_stitched(
    question: &str,
    claim: &str,
    fact: &str,
    language: Language,
) -> Result<(), AnswerFault> {
    let analyzer = language.analyzer();
    let claim = unlinked(claim);
    let fact = unlinked(fact);
    let all: Vec<String> = tokens(&claim).into_iter().map(|t| t.norm).collect();
    let fact_tokens = tokens(&fact);
    let norms: Vec<&str> = fact_tokens.iter().map(|t| t.norm.as_str()).collect();
    // An answer with words of its own ("Ragas works with observability platforms such as
    // Langfuse", a list's item named) composes a sentence; only one made of the fact's words
    // alone, in order, is cut out of it.
    if all.is_empty() || placed(&norms, &all, 0).is_none() {
        return Ok(());
    }
    // Where it was cut is read from its content words: the function words between them
    // ("It takes …") may stand anywhere.
    let said: Vec<String> = all.into_iter().filter(|w| !analyzer.is_stopword(w)).collect();
    if said.len() < 2 || said.len() > SHORT_ANSWER {
        return Ok(());
    }
    let asked: HashSet<String> = analyzer.content_terms(question).into_iter().collect();
    // A word the fact drops counts when it is a content word the question does not say.
    let counts = |w: &str| !analyzer.is_stopword(w) && !asked.contains(&analyzer.stem(w));
    // The tightest reading: of the placements of the answer's words in order, the one with
    // the fewest gaps.
    let mut best: Option<(usize, Vec<usize>)> = None;
    for start in (0..norms.len()).filter(|&i| norms[i] == said[0]) {
        let Some(at) = placed(&norms, &said[1..], start + 1) else {
            continue;
        };
        let at: Vec<usize> = std::iter::once(start).chain(at).collect();
        let gaps = at
            .windows(2)
            .filter(|w| ((w[0] + 1)..w[1]).any(|i| counts(norms[i])))
            .count();
        if best.as_ref().is_none_or(|(g, _)| gaps < *g) {
            best = Some((gaps, at));
        }
    }
    let Some((gaps, at)) = best else { return Ok(()) };
    if gaps < GAPS {
        return Ok(());
    }
    let (first, last) = (at[0], at[at.len() - 1]);
    Err(AnswerFault::Stitched {
        span: single_spaced(spanned(&fact, &fact_tokens, first, last)),
    })
}

/// The text of `fact` from its token `first` to its token `last`, both whole.
fn spanned<'f>(fact: &'f str, tokens: &[Token<'_>], first: usize, last: usize) -> &'f str {
    &fact[tokens[first].byte..tokens[last].byte + tokens[last].raw.len()]
}

/// Checks that `claim` does not make a relative clause of a predicate `fact` joins with "and":
/// "a workflow that shouldn't be downloaded locally" of "The last one is downloaded by the
/// `diff-shades-comment` workflow and shouldn't be downloaded locally" gives the workflow what
/// the fact says of its subject ("the last one", an artifact).
pub(super) fn not_rejoined(claim: &str, fact: &str) -> Result<(), AnswerFault> {
    let said: Vec<String> = tokens(claim).into_iter().map(|t| t.norm).collect();
    let fact_tokens = tokens(fact);
    let norms: Vec<&str> = fact_tokens.iter().map(|t| t.norm.as_str()).collect();
    for i in 1..said.len().saturating_sub(2) {
        if !matches!(said[i].as_str(), "that" | "which" | "who") {
            continue;
        }
        let joined = [
            said[i - 1].as_str(),
            "and",
            said[i + 1].as_str(),
            said[i + 2].as_str(),
        ];
        if let Some(at) = norms.windows(4).position(|w| w == joined) {
            return Err(AnswerFault::Stitched {
                span: spanned(fact, &fact_tokens, at, at + 3).to_string(),
            });
        }
    }
    Ok(())
}

/// Longest answer, in words, read for a cut that gives an object to another verb.
const REPARENTED_WORDS: usize = 30;

/// Checks that `claim` is not two runs of `fact` with words cut out up to a preposition
/// ([`List::Reparenting`]; not read in a language without the list): what followed the preposition becomes the object of the word before the
/// cut. "Override the operator symbols you want to intercept" of "Override
/// `SandboxedEnvironment.intercepted_binops` and `…intercepted_unops` with the operator
/// symbols you want to intercept" overrides the symbols, not the attributes. One cut word
/// ("run on initialization") and "of" ("invent [some kind of] magic system") leave the sense.
pub(super) fn not_reparented(claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    let Some(reparenting) = language.list(List::Reparenting) else {
        return Ok(());
    };
    let said: Vec<String> = tokens(claim).into_iter().map(|t| t.norm).collect();
    // A short answer cut from its label; an explanation is read as a whole, and the search
    // below grows with the answer's length times the label's.
    if said.len() > REPARENTED_WORDS || !super::one_sentence(claim) {
        return Ok(());
    }
    let fact_tokens = tokens(fact);
    let norms: Vec<&str> = fact_tokens.iter().map(|t| t.norm.as_str()).collect();
    let find = |part: &[String], from: usize| {
        (from..norms.len()).find(|&i| {
            norms
                .get(i..i + part.len())
                .is_some_and(|run| run.iter().zip(part).all(|(a, b)| *a == b.as_str()))
        })
    };
    // Said whole, in a row, nothing was cut ("to construct the initial Context object" after
    // "passed to ``.invoke()`` will be used").
    if find(&said, 0).is_some() {
        return Ok(());
    }
    for k in 1..said.len().saturating_sub(1) {
        let (head, tail) = said.split_at(k);
        let mut from = 0;
        while let Some(at) = find(head, from) {
            let cut = at + head.len();
            if let Some(next) = find(tail, cut) {
                let gap = &norms[cut..next];
                if (2..=8).contains(&gap.len()) && gap.last().is_some_and(|w| reparenting.contains(w)) {
                    return Err(AnswerFault::Stitched {
                        span: spanned(fact, &fact_tokens, at, next - 1).to_string(),
                    });
                }
            }
            from = at + 1;
        }
    }
    Ok(())
}

/// Content words in a row that make a loop when an answer says them twice.
const LOOP_WORDS: usize = 4;

/// Checks that a one-sentence `claim` does not say a run of [`LOOP_WORDS`] content words
/// twice, unless `fact` does: a small model that loops writes "function format string receives
/// count as num parameter, given parameters, automatically receives count as num parameter, …".
/// Shorter runs recur in a right answer (a comparison says "tag created when a new …" of each
/// side).
pub(super) fn not_looped(claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    // An explanation of several sentences comes back to its terms ("… TX1, TX2, TX3, and TX4.
    // … TX1, TX2, TX3, and TX4 are hashed …"); a loop is one sentence running on.
    if !super::one_sentence(claim) {
        return Ok(());
    }
    let analyzer = language.analyzer();
    let words = |text: &str| -> Vec<(String, usize, usize)> {
        tokens(text)
            .into_iter()
            .filter(|t| !analyzer.is_stopword(&t.norm))
            .map(|t| (t.norm, t.byte, t.byte + t.raw.len()))
            .collect()
    };
    let said = words(claim);
    let runs = |w: &[(String, usize, usize)]| -> Vec<Vec<String>> {
        w.windows(LOOP_WORDS)
            .map(|r| r.iter().map(|(n, _, _)| n.clone()).collect())
            .collect()
    };
    let said_runs = runs(&said);
    let fact_runs = runs(&words(fact));
    for (i, run) in said_runs.iter().enumerate() {
        let again = said_runs
            .get(i + LOOP_WORDS..)
            .unwrap_or(&[])
            .iter()
            .any(|r| r == run);
        let fact_repeats = fact_runs.iter().filter(|r| *r == run).count() > 1;
        if again && !fact_repeats {
            let (start, end) = (said[i].1, said[i + LOOP_WORDS - 1].2);
            return Err(AnswerFault::Repeats {
                run: claim[start..end].to_string(),
            });
        }
    }
    Ok(())
}

/// Checks that an English `claim` of three words or more does not stop on a word that waits for
/// more (see [`List::NoEnd`]), or on a question word after a preposition ("… flexibility in how"): "you can pass `--skip-string-normalization` on the command line to
/// skip the", "… with different Python and"; nor, itself a list, where `fact`'s list goes on
/// ("command names, option names, and values for choice" of "… values for choice, file, and
/// path parameter types"). Over the hand marks every answer so cut was wrong (4 of 4).
pub(super) fn not_cut_short(claim: &str, fact: &str, language: Language) -> Result<(), AnswerFault> {
    // Another tool's explanation of several sentences may be cut where its writer stopped
    // reading (LlamaIndex's "… reduces the likelihood of"); one sentence is the generator's.
    if language != Language::ENGLISH || !super::one_sentence(claim) {
        return Ok(());
    }
    if let Some(tail) = list_goes_on(claim, fact) {
        return Err(AnswerFault::CutShort { tail });
    }
    let trimmed = claim.trim_end();
    // A sentence's own end, a closing bracket or quote, or code closes the phrase.
    if trimmed.ends_with(['.', '!', '?', ')', ']', '`', '"', '\'', '”', '’', '*']) {
        return Ok(());
    }
    let words: Vec<&str> = spans(trimmed).collect();
    if words.len() < 3 {
        return Ok(());
    }
    let last = fold(words[words.len() - 1].trim_end_matches([',', ';', ':']));
    // "… providing flexibility in how": a question word after a preposition opens a clause.
    let before = fold(words[words.len() - 2]);
    let clause_cut = matches!(
        last.as_str(),
        "how" | "what" | "which" | "whether" | "why" | "where" | "when"
    ) && english(List::BeforeAClause).contains(&before.as_str());
    // "… to skip levels in the inheritance tree, which": a relative or a clause's opening word
    // after a comma is the clause the answer stopped before.
    let opens_clause = matches!(last.as_str(), "which" | "whose")
        || before.ends_with(',') && english(List::ClauseOpeners).contains(&last.as_str());
    if clause_cut || opens_clause {
        return Err(AnswerFault::CutShort {
            tail: words[words.len().saturating_sub(4)..].join(" "),
        });
    }
    if !english(List::NoEnd).contains(&last.as_str()) {
        return Ok(());
    }
    let asks_back = words
        .iter()
        .any(|w| matches!(bare(&fold(w)), "what" | "which" | "who" | "whom" | "where"));
    if asks_back && english(List::Stranded).contains(&last.as_str()) {
        return Ok(());
    }
    Err(AnswerFault::CutShort {
        tail: words[words.len().saturating_sub(4)..].join(" "),
    })
}

/// The claim's last words when the claim is a list (a comma in it) and `fact`, right after
/// those words, goes on with more of the list: ", file, and path …", ", or …".
fn list_goes_on(claim: &str, fact: &str) -> Option<String> {
    static GOES_ON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*,\s*(?:[^,.;:()]{1,40},\s*)*(?:and|or)\s+\S").expect("valid regex")
    });
    let claim = claim.trim_end().trim_end_matches('.');
    if !claim.contains(',') {
        return None;
    }
    let words: Vec<&str> = spans(claim).collect();
    if words.len() < 3 {
        return None;
    }
    let tail = fold(&words[words.len() - 2..].join(" "));
    let flat = fold(&single_spaced(fact));
    let at = flat.find(&tail)? + tail.len();
    GOES_ON
        .is_match(&flat[at..])
        .then(|| words[words.len().saturating_sub(4)..].join(" "))
}

/// The positions of `said`'s words in `norms`, each after the one before, the first at or
/// after `from`: the leftmost placement (none when they do not stand there in order).
fn placed(norms: &[&str], said: &[String], from: usize) -> Option<Vec<usize>> {
    let mut at = Vec::with_capacity(said.len());
    let mut next = from;
    for w in said {
        let i = next + norms.get(next..)?.iter().position(|n| n == w)?;
        at.push(i);
        next = i + 1;
    }
    Some(at)
}

/// `text` without link targets and web addresses: "Use [python-black](https://atom.io/…) or
/// [formatters-python](…)" says "Use python-black or formatters-python" word for word.
fn unlinked(text: &str) -> String {
    static LINK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\]\([^)\s]*\)|<?https?://[^\s)>]+>?").expect("valid regex"));
    LINK.replace_all(text, " ").into_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_predicate_joined_by_and_is_not_the_nouns() {
        // Black's identifier, marked wrong.
        let fact = "The last one is downloaded by the `diff-shades-comment` workflow and shouldn't be downloaded locally.";
        let err = super::not_rejoined("a workflow that shouldn't be downloaded locally", fact).unwrap_err();
        assert!(err.to_string().contains("workflow and shouldn't be"), "{err}");
        assert!(super::not_rejoined("the workflow that downloads the last artifact", fact).is_ok());
        let fact = "The agent keeps a workflow that shouldn't be downloaded locally.";
        assert!(super::not_rejoined("a workflow that shouldn't be downloaded locally", fact).is_ok());
    }

    #[test]
    fn an_answer_cut_up_to_a_preposition_gives_its_object_to_another_verb() {
        // Jinja's identifier, marked wrong.
        let fact = "Override\n:attr:`SandboxedEnvironment.intercepted_binops` and\n:attr:`SandboxedEnvironment.intercepted_unops` with the operator symbols\nyou want to intercept.";
        let err = super::not_reparented("Override the operator symbols you want to intercept", fact, EN)
            .unwrap_err();
        assert!(err.to_string().contains("intercepted_unops` with"), "{err}");
        // A language without the prepositions' list is not read by them.
        let de = Language::parse("de").unwrap();
        assert!(
            super::not_reparented("Override the operator symbols you want to intercept", fact, de).is_ok()
        );
        // The whole run, one word cut, or "of": right answers of attrs' marks.
        assert!(
            super::not_reparented("override intercepted_binops with the operator symbols", fact, EN).is_ok()
        );
        let fact = "Validators run on initialization and on attribute setting.";
        assert!(super::not_reparented("run on initialization and attribute setting", fact, EN).is_ok());
        let fact = "You do not have to invent some kind of magic system.";
        assert!(super::not_reparented("invent magic system", fact, EN).is_ok());
        // Click's identifier, marked right: the answer stands in its label whole.
        let fact = "Additional keyword arguments passed to ``.invoke()`` will be used to construct the initial Context object.";
        assert!(super::not_reparented("to construct the initial Context object", fact, EN).is_ok());
    }

    #[test]
    fn an_answer_stopping_on_a_word_that_waits_for_more_is_cut_short() {
        let en = Language::ENGLISH;
        let cut = "If you are adopting _Black_ in a large project, you can pass `--skip-string-normalization` on the command line to skip the";
        let fact = "Shell completion suggests command names, option names, and values for choice, file, and path parameter types.";
        assert!(
            super::not_cut_short("command names, option names, and values for choice", fact, en).is_err()
        );
        assert!(
            super::not_cut_short(
                "command names, option names, and values for choice, file, and path parameter types",
                fact,
                en
            )
            .is_ok()
        );
        assert!(super::not_cut_short("values for choice", fact, en).is_ok());
        assert_eq!(
            super::not_cut_short(cut, "", en),
            Err(AnswerFault::CutShort {
                tail: "line to skip the".to_string()
            })
        );
        assert!(super::not_cut_short("works with different Python and", "", en).is_err());
        // Flask's identifier, cut by the reply's length: a clause opened and not said.
        let cut = "The `werkzeug.routing.Rule` class is used to map the endpoint to a view function, providing flexibility in how";
        assert!(super::not_cut_short(cut, "", en).is_err());
        assert!(super::not_cut_short("the guide shows you how", "", en).is_ok());
        // Jinja's identifier: the label's sentence up to the clause it goes on with.
        let cut = "super references may be chained to skip levels in the inheritance tree, which";
        assert!(super::not_cut_short(cut, "", en).is_err());
        assert!(super::not_cut_short("levels of the tree, so", "", en).is_err());
        assert!(super::not_cut_short("the one you chose, so long", "", en).is_ok());
        assert!(super::not_cut_short("what it is for and the data that", "", en).is_ok());
        for whole in [
            "keeps snapshots for 30 days",
            "some benefits are lost if you do that.",
            "turned on",
            "pass `--fast` or",
            "use the `--check` flag (see below)",
            "the agent is turned on",
            "a sub-genre of what attrs is good for",
        ] {
            let expect_cut = whole.ends_with(" or");
            assert_eq!(
                super::not_cut_short(whole, "", en).is_err(),
                expect_cut,
                "{whole}"
            );
        }
        // Other languages are not read.
        assert!(super::not_cut_short("la respuesta de la", "", Language::parse("es").unwrap()).is_ok());
    }

    use super::*;

    const EN: Language = Language::ENGLISH;

    #[test]
    fn an_answer_of_words_taken_from_apart_is_stitched() {
        let fact = "User support issues are best closed by the author or when it's clear the issue has been\nresolved in some sort of manner.";
        let q = "how should user support issues be closed?";
        assert_eq!(
            not_stitched(q, "author or resolved manner", fact, EN),
            Err(AnswerFault::Stitched {
                span: "author or when it's clear the issue has been resolved in some sort of manner".into()
            })
        );
        // A contiguous part passes; so does one of the two clauses with its words.
        assert_eq!(not_stitched(q, "by the author", fact, EN), Ok(()));
        assert_eq!(
            not_stitched(q, "when the issue has been resolved", fact, EN),
            Ok(())
        );
    }

    #[test]
    fn an_answer_that_says_a_run_twice_looped() {
        let fact = "The ``ngettext`` function's format string automatically receives the count as a ``num`` parameter in addition to the given parameters.";
        let answer = "function format string receives count as num parameter, given parameters, automatically receives count as num parameter, given parameters, automaticallyreceives";
        assert_eq!(
            not_looped(answer, fact, EN),
            Err(AnswerFault::Repeats {
                run: "receives count as num parameter".into()
            })
        );
        // Each side of a comparison may say the same few words; a label that repeats itself
        // may be repeated.
        let sides = "latest_prerelease: tag created when a new alpha version of Black is released; latest_release: tag created when a new version of Black is released";
        assert_eq!(not_looped(sides, "", EN), Ok(()));
        let fact = "Run the full backup nightly. Also run the full backup nightly on weekends.";
        assert_eq!(
            not_looped(
                "run the full backup nightly, and run the full backup nightly on weekends",
                fact,
                EN
            ),
            Ok(())
        );
        assert!(
            not_looped(
                "run the full backup nightly, and run the full backup nightly on weekends",
                "",
                EN
            )
            .is_err()
        );
        let explains = "Each of TX1, TX2, TX3 and TX4 is hashed. Then the hashes of TX1, TX2, TX3 and TX4 are hashed in pairs.";
        assert_eq!(not_looped(explains, "", EN), Ok(()));
    }

    #[test]
    fn dropped_function_words_links_and_rewordings_are_not_stitching() {
        let fact = "The main benefit of using it is to avoid the cost of starting up a new _Black_\nprocess every time you want to blacken a file.";
        let q = "blackd benefits";
        assert_eq!(
            not_stitched(q, "avoid cost of starting new Black process", fact, EN),
            Ok(())
        );
        let fact = "Use [python-black](https://atom.io/packages/python-black) or\n[formatters-python](https://atom.io/packages/formatters-python).";
        assert_eq!(
            not_stitched(
                "atom.io python-black",
                "Use python-black or formatters-python",
                fact,
                EN
            ),
            Ok(())
        );
        // An answer with words of its own composes: a list's item named.
        let fact = "Ragas works with popular LLM frameworks and tools: - LangChain - Haystack Observability platforms - Phoenix - LangSmith - Langfuse";
        let answer = "Ragas works with observability platforms such as Langfuse";
        assert_eq!(
            not_stitched("Does Ragas support integration with Langfuse?", answer, fact, EN),
            Ok(())
        );
        // The answer's own function words do not anchor it.
        let fact = "So, although let s3 = s1 + &s2; looks like it will copy both strings and create a new one, this statement actually takes ownership of s1.";
        assert_eq!(
            not_stitched(
                "What does `let s3 = s1 + &s2;` do with s1?",
                "It takes ownership of s1",
                fact,
                EN
            ),
            Ok(())
        );
        // Not the fact's words in order: a rewording, judged by the other checks.
        let fact = "Snapshots are kept for thirty days on the Team plan.";
        assert_eq!(
            not_stitched("How long are snapshots kept?", "30 days", fact, EN),
            Ok(())
        );
        // Words the question says may be dropped: they are the question's, not the answer's.
        let fact = "The restore command overwrites existing files unless the keep flag is given.";
        let answer = "restore overwrites unless keep flag given";
        assert_eq!(
            not_stitched("When does restore overwrite existing files?", answer, fact, EN),
            Ok(())
        );
        assert!(not_stitched("When does restore overwrite?", answer, fact, EN).is_err());
        // One gap is a shortening: the subject kept, its apposition left out.
        let fact = "The archive tier of Tidepool is called Glacier Vault and keeps data for ten years.";
        assert_eq!(
            not_stitched(
                "How long is data kept?",
                "the archive tier keeps data for ten years",
                fact,
                EN
            ),
            Ok(())
        );
    }
}
