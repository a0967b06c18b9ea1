//! Writing the accepted questions the way the set's real questions are written, and as hard
//! for keyword search. A question written beside its chunk flatters a retriever: it is long,
//! formal and repeats the chunk's words. Every candidate comes with its wordings (the question
//! as a user asks it, the same need as search keywords); this step measures each wording as the
//! audit does — words, bare keywords or not, the BM25 rank of its source among all chunks and of
//! its paragraph among all passages — and picks one per candidate so that the new part's
//! length, keyword share, rank-1 shares and MRRs come as close as they can to the target: the
//! real part's figures, or a named preset's. Then case and question marks are matched to the
//! target's shares, and each case records how hard its source is to find.

use serde::Serialize;

use super::candidate::{Accepted, Shape, stable_hash};
use crate::lang::Language;
use crate::style::{self, Figures, Preset, Target, Vocabulary, preset};
use crate::testset::{Difficulty, TestSet};
use crate::workspace::{ChunkedCorpus, Evidence};

/// Real questions a set needs before its own style is the target.
pub const MIN_REAL: usize = 5;

/// The distance one bare-keyword wording over the target's share adds: more than any fit of
/// length or rank can win back.
const OVER_KEYWORDS: f32 = 1000.0;

/// How far the new part may be from the target and still meet it.
pub const TOLERANCE_WORDS: f32 = 2.0;
/// Rank-1 share and MRR tolerance: under the gap from which the audit calls the new part
/// keyword-easier (it was 0.12, so a gap between the two was met for generate and flagged by
/// the audit).
pub const TOLERANCE_RANK: f32 = style::RANK_GAP;

/// What `--style` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StyleChoice {
    /// The real part's style when the set has [`MIN_REAL`] real questions, else `chat`.
    #[default]
    Auto,
    /// A named preset, whatever the set holds.
    Preset(Preset),
}

impl std::str::FromStr for StyleChoice {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<StyleChoice> {
        match s {
            "auto" | "real" => Ok(StyleChoice::Auto),
            other => Preset::parse(other).map(StyleChoice::Preset).ok_or_else(|| {
                crate::Error::Config(format!(
                    "--style `{other}`: not one of auto, search, chat, formal"
                ))
            }),
        }
    }
}

/// The target a run aims at: the real part of `set` when it has enough questions (its rank
/// figures from its labelled cases, else the chat preset's), else the preset.
pub fn target(set: &TestSet, chunks: &ChunkedCorpus, choice: StyleChoice) -> Target {
    let real: Vec<&crate::testset::Case> = set
        .cases
        .iter()
        .filter(|c| c.is_real() && !c.question.trim().is_empty())
        .collect();
    match choice {
        StyleChoice::Preset(p) => preset(p),
        StyleChoice::Auto if real.len() < MIN_REAL => preset(Preset::Chat),
        StyleChoice::Auto => {
            // A question labelled only by import's proposals is ranked by the keyword search
            // that chose its label; its rank would make the real part look easier than it is.
            let measured: Vec<Measured> = real
                .iter()
                .map(|c| {
                    let language = question_language(c, chunks);
                    let labels: &[crate::testset::Label] = if c.labelled_by_keywords() {
                        &[]
                    } else {
                        &c.relevant
                    };
                    Measured::of(
                        &c.question,
                        language,
                        chunks,
                        labels,
                        Evidence::of(c.question_type()),
                    )
                })
                .collect();
            let mut figures = figures(&measured.iter().collect::<Vec<_>>());
            let vocabulary = chunks.vocabulary();
            figures.misspelled = Some(
                real.iter().filter(|c| vocabulary.misspelled(&c.question)).count() as f32 / real.len() as f32,
            );
            if figures.labelled < MIN_REAL {
                let chat = preset(Preset::Chat).figures;
                figures.rank1 = chat.rank1;
                figures.mrr = chat.mrr;
            }
            // Where each chunk is one paragraph the two grains are one, and aiming at both would
            // only count the rank twice against length.
            if figures.labelled < MIN_REAL || chunks.one_grain() {
                figures.passage_rank1 = None;
                figures.passage_mrr = None;
            }
            Target {
                source: "real".into(),
                figures,
            }
        }
    }
}

/// The language a real question is read in: its labelled chunk's, else the corpus's.
fn question_language(case: &crate::testset::Case, chunks: &ChunkedCorpus) -> Language {
    let source = case
        .relevant
        .first()
        .and_then(|l| chunks.overlapping(&l.doc, l.start, l.end).first().copied());
    crate::lang::detect_question(
        &case.question,
        case.answer.as_deref(),
        source.map(|i| chunks.language_of(i)),
    )
}

/// One wording, measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The wording.
    pub text: String,
    /// Its words.
    pub words: usize,
    /// Bare keywords.
    pub keywords: bool,
    /// The source's rank and the containment, when labelled.
    pub standing: Option<(usize, f32)>,
    /// The source passage's rank among the corpus's passages, when labelled.
    pub passage_rank: Option<usize>,
    /// Its ranks are those of the last of several labels found (a comparison, a multi-hop).
    pub needs_every: bool,
}

impl Measured {
    /// Measures `text` against `labels`, of which it needs `evidence` found.
    pub fn of(
        text: &str,
        language: Language,
        chunks: &ChunkedCorpus,
        labels: &[crate::testset::Label],
        evidence: Evidence,
    ) -> Measured {
        Measured {
            text: text.to_string(),
            words: crate::text::word_count(text),
            keywords: style::is_keywords(text, language),
            standing: if labels.is_empty() {
                None
            } else {
                chunks.difficulty(text, language, labels, evidence)
            },
            passage_rank: if labels.is_empty() {
                None
            } else {
                chunks.passage_rank(text, language, labels, evidence)
            },
            needs_every: evidence == Evidence::Every && labels.len() > 1,
        }
    }
}

/// The figures of a group of measured wordings.
pub fn figures(group: &[&Measured]) -> Figures {
    let n = group.len();
    if n == 0 {
        return Figures::default();
    }
    let share = |f: &dyn Fn(&Measured) -> bool| group.iter().filter(|m| f(m)).count() as f32 / n as f32;
    let ranks: Vec<usize> = group.iter().filter_map(|m| m.standing.map(|s| s.0)).collect();
    let labelled = ranks.len();
    let passages: Vec<usize> = group.iter().filter_map(|m| m.passage_rank).collect();
    let rank1 = |ranks: &[usize]| {
        (!ranks.is_empty()).then(|| ranks.iter().filter(|&&r| r == 1).count() as f32 / ranks.len() as f32)
    };
    let mrr = |ranks: &[usize]| {
        (!ranks.is_empty()).then(|| ranks.iter().map(|&r| 1.0 / r as f32).sum::<f32>() / ranks.len() as f32)
    };
    Figures {
        questions: n,
        labelled,
        words: group.iter().map(|m| m.words as f32).sum::<f32>() / n as f32,
        lowercase: share(&|m| first_letter_lower(&m.text)),
        no_question_mark: share(&|m| !m.text.trim_end().ends_with(['?', '？'])),
        keywords: share(&|m| m.keywords),
        rank1: rank1(&ranks),
        mrr: mrr(&ranks),
        passage_rank1: rank1(&passages),
        passage_mrr: mrr(&passages),
        misspelled: None,
    }
}

/// The figures a wording choice aims at the target: [`figures`], with the ranks of the
/// questions that need one passage only. The real questions a target is measured on each need
/// one; a comparison's or a multi-hop question's rank, reached when its last passage is found,
/// is its kind's more than its wording's, and counted in the mean it would buy easier wordings
/// for the lookups beside it.
fn aimed(group: &[&Measured]) -> Figures {
    let one: Vec<&Measured> = group.iter().copied().filter(|m| !m.needs_every).collect();
    let ranks = figures(&one);
    Figures {
        rank1: ranks.rank1,
        mrr: ranks.mrr,
        passage_rank1: ranks.passage_rank1,
        passage_mrr: ranks.passage_mrr,
        ..figures(group)
    }
}

fn first_letter_lower(text: &str) -> bool {
    text.chars()
        .find(|c| c.is_alphabetic())
        .is_some_and(char::is_lowercase)
}

/// How the new part compares with the target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Restyled {
    /// The target.
    pub target: Target,
    /// The new questions as the model first wrote them.
    pub as_written: Figures,
    /// The new questions as they are written to the set.
    pub chosen: Figures,
    /// Mean words within [`TOLERANCE_WORDS`].
    pub words_met: bool,
    /// Rank-1 share and MRR less than [`TOLERANCE_RANK`] apart (true when either side has none).
    pub rank_met: bool,
}

/// Picks each candidate's wording to bring the new part to `target`, sets its case and
/// question mark to the target's shares, and records each case's difficulty.
pub fn restyle(accepted: &mut [Accepted], target: &Target, chunks: &ChunkedCorpus, seed: u64) -> Restyled {
    let options: Vec<Vec<Measured>> = accepted
        .iter()
        .map(|a| {
            std::iter::once(&a.question)
                .chain(&a.phrasings)
                .map(|w| Measured::of(w, a.language, chunks, &a.relevant, Evidence::of(Some(a.kind))))
                .collect()
        })
        .collect();
    let first: Vec<&Measured> = options.iter().map(|o| &o[0]).collect();
    let mut as_written = figures(&first);
    let chosen = choose(&options, &target.figures);
    let mut texts: Vec<String> = chosen
        .iter()
        .zip(&options)
        .map(|(&k, o)| o[k].text.clone())
        .collect();
    let order: Vec<usize> = {
        let mut o: Vec<usize> = (0..texts.len()).collect();
        o.sort_by_key(|&i| (stable_hash(seed, &["restyle", &accepted[i].question]), i));
        o
    };
    match_case(&mut texts, &order, target.figures.lowercase);
    match_question_marks(&mut texts, &order, target.figures.no_question_mark, accepted);
    // Case and question marks leave the rank alone; a typo does not, so it is measured.
    let mut current: Vec<Measured> = texts
        .into_iter()
        .zip(chosen.iter().zip(&options))
        .map(|(text, (&k, o))| Measured { text, ..o[k].clone() })
        .collect();
    let vocabulary = chunks.vocabulary();
    let slips = match target.figures.misspelled.filter(|&s| s > 0.0) {
        Some(share) => {
            let pool = Pool {
                accepted,
                vocabulary,
                chunks,
                seed,
            };
            match_typos(&mut current, &order, share, &pool, &target.figures)
        }
        None => vec![None; current.len()],
    };
    let mut final_measured = Vec::with_capacity(current.len());
    for ((a, m), typo) in accepted.iter_mut().zip(current).zip(slips) {
        let text = m.text.clone();
        if text != a.question {
            let old = std::mem::replace(&mut a.question, text);
            a.phrasings.retain(|p| p != &a.question);
            a.phrasings.insert(0, old);
        }
        a.difficulty = m.standing.map(|(rank, containment)| Difficulty {
            source_rank: Some(rank),
            passage_rank: m.passage_rank,
            containment: Some((f64::from(containment) * 100.0).round() / 100.0),
            typo,
            extra: Default::default(),
        });
        final_measured.push(m);
    }
    let mut chosen = figures(&final_measured.iter().collect::<Vec<_>>());
    let typo_share = |texts: &mut dyn Iterator<Item = &String>| {
        let (n, typos) = texts.fold((0, 0), |(n, t), q| {
            (n + 1, t + usize::from(vocabulary.misspelled(q)))
        });
        (n > 0).then(|| typos as f32 / n as f32)
    };
    chosen.misspelled = typo_share(&mut final_measured.iter().map(|m| &m.text));
    as_written.misspelled = typo_share(&mut first.iter().map(|m| &m.text));
    let t = &target.figures;
    let near = |a: Option<f32>, b: Option<f32>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() < TOLERANCE_RANK,
        _ => true,
    };
    Restyled {
        target: target.clone(),
        as_written,
        words_met: chosen.questions == 0 || (chosen.words - t.words).abs() <= TOLERANCE_WORDS,
        rank_met: near(chosen.rank1, t.rank1)
            && near(chosen.mrr, t.mrr)
            && near(chosen.passage_rank1, t.passage_rank1)
            && near(chosen.passage_mrr, t.passage_mrr),
        chosen,
    }
}

/// The wording per candidate (an index into its options) that brings the group closest to
/// `target`: coordinate descent from the model's first wordings, each candidate in turn taking
/// the wording that lowers the distance most, until none does. Deterministic.
pub fn choose(options: &[Vec<Measured>], target: &Figures) -> Vec<usize> {
    let mut pick = vec![0; options.len()];
    let distance = |pick: &[usize]| {
        let group: Vec<&Measured> = pick.iter().zip(options).map(|(&k, o)| &o[k]).collect();
        distance(&aimed(&group), target)
    };
    let mut best = distance(&pick);
    for _ in 0..20 {
        let mut moved = false;
        for i in 0..options.len() {
            for k in 0..options[i].len() {
                if k == pick[i] {
                    continue;
                }
                let old = pick[i];
                pick[i] = k;
                let d = distance(&pick);
                if d + 1e-6 < best {
                    best = d;
                    moved = true;
                } else {
                    pick[i] = old;
                }
            }
        }
        if !moved {
            break;
        }
    }
    pick
}

/// How far `f` is from `t`: each figure in units of what a reader would call a clear
/// difference (2 words, 10 points of rank-1 share or MRR at either grain, 25 points of keyword
/// share), and far beyond any of them for each bare-keyword wording over the target's share.
fn distance(f: &Figures, t: &Figures) -> f32 {
    let sq = |x: f32| x * x;
    let mut d = sq((f.words - t.words) / 2.0) + sq((f.keywords - t.keywords) / 0.25);
    // Keywords are the short wording, so length alone would buy them past the target's share
    // (a quarter of Black's lookups against the chat preset's none), and they are the wording
    // most often wrong: hand-marked, 3 of 13 keyword wordings were right against 33 of 68
    // questions ("rust error handling" for one detail of a chapter).
    let over = (f.keywords * f.questions as f32 - (t.keywords * f.questions as f32).round()).max(0.0);
    d += OVER_KEYWORDS * over.round();
    if let (Some(a), Some(b)) = (f.rank1, t.rank1) {
        d += sq((a - b) / 0.1);
    }
    for (a, b) in [
        (f.mrr, t.mrr),
        (f.passage_rank1, t.passage_rank1),
        (f.passage_mrr, t.passage_mrr),
    ] {
        if let (Some(a), Some(b)) = (a, b) {
            d += sq((a - b) / 0.1);
        }
    }
    d
}

/// Mistypes one word of enough questions, in `order`, for the share with a typo to reach
/// `share` (the real part's: users type "restor fails with error TP-412" and "whats the
/// encrytion cipher", and a retriever that never meets a typo is flattered). Typos are only
/// added, one per question, in the longest plain word: never in a code, a name, the identifier
/// or a compared thing the question must name, nor in an unanswerable question, whose words
/// are what makes it unanswerable. Which questions get one is chosen as their wordings were:
/// the ones that bring the group's figures closest to `target`.
fn match_typos(
    current: &mut [Measured],
    order: &[usize],
    share: f32,
    pool: &Pool,
    target: &Figures,
) -> Vec<Option<String>> {
    let Pool {
        accepted,
        vocabulary,
        chunks,
        seed,
    } = *pool;
    let mut slips = vec![None; current.len()];
    let want = (share * current.len() as f32).round() as usize;
    let have = current.iter().filter(|m| vocabulary.misspelled(&m.text)).count();
    // Each question's one mistyped wording, measured; then, as the wordings were chosen, the
    // ones that bring the group closest to the target, one at a time.
    let mut typos: Vec<(usize, Measured, String)> = order
        .iter()
        .filter(|&&i| !accepted[i].relevant.is_empty())
        .filter_map(|&i| {
            let a = &accepted[i];
            let pick = stable_hash(seed, &["typo", &current[i].text]);
            let (text, slip) = mistype(&current[i].text, &protected(a), a.language, vocabulary, pick)?;
            Some((
                i,
                Measured::of(&text, a.language, chunks, &a.relevant, Evidence::of(Some(a.kind))),
                slip,
            ))
        })
        .collect();
    for _ in have..want {
        let closest = typos
            .iter()
            .enumerate()
            .map(|(j, (i, m, _))| {
                let group: Vec<&Measured> = current
                    .iter()
                    .enumerate()
                    .map(|(k, c)| if k == *i { m } else { c })
                    .collect();
                (distance(&aimed(&group), target), j)
            })
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let Some((_, j)) = closest else { break };
        let (i, m, slip) = typos.remove(j);
        current[i] = m;
        slips[i] = Some(slip);
    }
    slips
}

/// What a typo is drawn from and measured against.
struct Pool<'a> {
    accepted: &'a [Accepted],
    vocabulary: &'a Vocabulary,
    chunks: &'a ChunkedCorpus,
    seed: u64,
}

/// The words a case's question must keep as written: its identifier's, its compared things'.
fn protected(a: &Accepted) -> Vec<String> {
    match &a.shape {
        Shape::Identifier(id) => crate::text::words(id),
        Shape::Comparison(sides) => sides.iter().flat_map(|s| crate::text::words(&s.name)).collect(),
        _ => Vec::new(),
    }
}

/// `text` with its longest plain word mistyped (see [`Vocabulary::misspell`]), and the slip
/// (`word → typo`), if it has one: a lower-case word of six letters or more that the corpus
/// has, no function word, not `protected`, not inside backticks and not part of a code
/// ("tide-agent", "backup.paths").
fn mistype(
    text: &str,
    protected: &[String],
    language: Language,
    vocabulary: &Vocabulary,
    pick: u64,
) -> Option<(String, String)> {
    let analyzer = language.analyzer();
    let joined = |c: Option<char>| {
        c.is_some_and(|c| !c.is_whitespace() && !matches!(c, '?' | '!' | ',' | ';' | '(' | ')' | '"'))
    };
    let word = crate::text::tokens(text)
        .into_iter()
        .filter(|t| {
            let before = text[..t.byte].chars().next_back();
            let after = text[t.byte + t.raw.len()..].chars().next();
            t.raw.chars().count() >= 6
                && t.raw.chars().all(|c| c.is_ascii_lowercase())
                && !analyzer.is_stopword(&t.norm)
                && vocabulary.contains(&t.norm)
                && !protected.contains(&t.norm)
                && text[..t.byte].matches('`').count().is_multiple_of(2)
                && !joined(before)
                && !(joined(after) && after != Some('.'))
        })
        .max_by_key(|t| (t.raw.len(), std::cmp::Reverse(t.byte)))?;
    let typo = vocabulary.misspell(word.raw, pick)?;
    let text = format!(
        "{}{typo}{}",
        &text[..word.byte],
        &text[word.byte + word.raw.len()..]
    );
    Some((text, format!("{} → {typo}", word.raw)))
}

/// Lower-cases (or capitalises) the first letter of enough questions, in `order`, for the
/// share starting lower case to be `share`. Only a first word that is no name is touched
/// ("What" → "what", never "Tidepool" or "TP-409").
fn match_case(texts: &mut [String], order: &[usize], share: f32) {
    let want = (share * texts.len() as f32).round() as usize;
    let mut have = texts.iter().filter(|t| first_letter_lower(t)).count();
    for &i in order {
        let t = &texts[i];
        let first = crate::text::spans(t).next().unwrap_or("");
        let plain = first
            .chars()
            .skip(1)
            .all(|c| c.is_lowercase() || !c.is_alphabetic())
            && first.chars().all(|c| c.is_alphabetic() || c == '\'');
        if have < want && !first_letter_lower(t) && plain && is_common(first) {
            texts[i] = with_first(t, |c| crate::text::fold_char(c).collect());
            have += 1;
        } else if have > want && first_letter_lower(t) && plain {
            texts[i] = with_first(t, |c| c.to_uppercase().collect());
            have -= 1;
        }
    }
}

/// Words a question opens with that are never names.
fn is_common(word: &str) -> bool {
    let w = crate::text::fold(word);
    crate::lang::Language::ENGLISH.analyzer().is_stopword(&w)
        || style::opens_with_question_word(&w, Language::ENGLISH)
}

/// Drops (or adds) the question mark of enough questions, in `order`, for the share without
/// one to be `share`. A mark is added only to a question that opens with a question word.
fn match_question_marks(texts: &mut [String], order: &[usize], share: f32, accepted: &[Accepted]) {
    let want = (share * texts.len() as f32).round() as usize;
    let mut have = texts
        .iter()
        .filter(|t| !t.trim_end().ends_with(['?', '？']))
        .count();
    for &i in order {
        let t = texts[i].trim_end().to_string();
        if have < want && t.ends_with(['?', '？']) {
            // Spanish opens what it closes: "¿Qué es…?" loses both marks.
            texts[i] = t
                .trim_end_matches(['?', '？'])
                .trim_end()
                .trim_start_matches('¿')
                .trim_start()
                .to_string();
            have += 1;
        } else if have > want
            && !t.ends_with('?')
            && style::opens_with_question_word(&t, accepted[i].language)
        {
            texts[i] = format!("{t}?");
            have -= 1;
        }
    }
}

fn with_first(text: &str, f: impl Fn(char) -> String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => f(c) + chars.as_str(),
        None => String::new(),
    }
}

/// The difficulty tag of a source rank: `easy` when keyword search ranks it first, `medium`
/// within the top five, `hard` beyond.
pub fn tag(rank: usize) -> &'static str {
    match rank {
        1 => "easy",
        2..=5 => "medium",
        _ => "hard",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str, words: usize, keywords: bool, rank: usize) -> Measured {
        Measured {
            text: text.into(),
            words,
            keywords,
            standing: Some((rank, 0.5)),
            passage_rank: Some(rank),
            needs_every: false,
        }
    }

    #[test]
    fn the_choice_brings_length_and_rank_to_the_target() {
        // Each candidate: a long easy question and a short hard query.
        let options: Vec<Vec<Measured>> = (0..10)
            .map(|i| {
                vec![
                    m(
                        &format!("What is the yearly price of the Team plan {i}?"),
                        10,
                        false,
                        1,
                    ),
                    m(&format!("team plan yearly price {i}"), 4, true, 4),
                ]
            })
            .collect();
        let target = Figures {
            questions: 10,
            labelled: 10,
            words: 7.0,
            lowercase: 1.0,
            no_question_mark: 1.0,
            keywords: 0.5,
            rank1: Some(0.5),
            mrr: Some(0.6),
            passage_rank1: None,
            passage_mrr: None,
            misspelled: None,
        };
        let pick = choose(&options, &target);
        let group: Vec<&Measured> = pick.iter().zip(&options).map(|(&k, o)| &o[k]).collect();
        let f = figures(&group);
        assert!((f.words - 7.0).abs() <= 1.0, "{f:?}");
        assert!((f.rank1.unwrap() - 0.5).abs() <= 0.1, "{f:?}");
        assert_eq!(pick, choose(&options, &target), "deterministic");
    }

    #[test]
    fn a_comparison_found_late_buys_no_easier_lookup() {
        // Four lookups, each with an easy and a hard wording, and two comparisons whose second
        // side keyword search finds only at rank 50. Aimed at an MRR of 0.3, the lookups must
        // take their hard wordings (MRR 0.25), not their easy ones to offset the comparisons.
        let mut options: Vec<Vec<Measured>> = (0..4)
            .map(|i| {
                vec![
                    m(&format!("what is the team plan yearly price {i}"), 6, false, 1),
                    m(&format!("how much do we pay a year {i}"), 6, false, 4),
                ]
            })
            .collect();
        for i in 0..2 {
            let mut comparison = m(&format!("team or business plan cheaper {i}"), 6, false, 50);
            comparison.needs_every = true;
            options.push(vec![comparison]);
        }
        let target = Figures {
            questions: 6,
            labelled: 6,
            words: 6.0,
            lowercase: 1.0,
            no_question_mark: 1.0,
            keywords: 0.0,
            rank1: Some(0.0),
            mrr: Some(0.3),
            passage_rank1: None,
            passage_mrr: None,
            misspelled: None,
        };
        assert_eq!(choose(&options, &target)[..4], [1, 1, 1, 1]);
    }

    #[test]
    fn the_choice_reads_the_paragraph_too() {
        // Both wordings find their chunk first; only the second misses its paragraph, as the
        // real questions do ("webhook delivery retries" beside "How many times does the webhook
        // system retry failed deliveries?").
        let options: Vec<Vec<Measured>> = (0..6)
            .map(|i| {
                let mut question = m(&format!("how many times are deliveries retried {i}"), 7, false, 1);
                let mut other = m(
                    &format!("how often do deliveries get sent again {i}"),
                    7,
                    false,
                    1,
                );
                question.passage_rank = Some(1);
                other.passage_rank = Some(4);
                vec![question, other]
            })
            .collect();
        let target = |passage_mrr: Option<f32>| Figures {
            questions: 6,
            labelled: 6,
            words: 7.0,
            lowercase: 1.0,
            no_question_mark: 1.0,
            keywords: 0.0,
            rank1: Some(1.0),
            mrr: Some(1.0),
            passage_rank1: passage_mrr.map(|_| 0.0),
            passage_mrr,
            misspelled: None,
        };
        let hard = choose(&options, &target(Some(0.25)));
        assert!(hard.iter().all(|&k| k == 1), "{hard:?}");
        let group: Vec<&Measured> = hard.iter().zip(&options).map(|(&k, o)| &o[k]).collect();
        let f = figures(&group);
        assert_eq!((f.rank1, f.passage_rank1), (Some(1.0), Some(0.0)));
        assert_eq!(f.passage_mrr, Some(0.25));
        // A target without the paragraph grain (a preset's) leaves the model's first wording.
        assert!(choose(&options, &target(None)).iter().all(|&k| k == 0));
    }

    #[test]
    fn keyword_wordings_never_pass_the_targets_share() {
        // Keywords fit the length better, and the model wrote two of them first.
        let options: Vec<Vec<Measured>> = (0..8)
            .map(|i| {
                let question = m(
                    &format!("what is the yearly price of the team plan {i}"),
                    10,
                    false,
                    1,
                );
                let keywords = m(&format!("team plan price {i}"), 4, true, 3);
                if i < 2 {
                    vec![keywords, question]
                } else {
                    vec![question, keywords]
                }
            })
            .collect();
        let shares = |target_share: f32| {
            let target = Figures {
                questions: 8,
                labelled: 8,
                words: 4.0,
                lowercase: 1.0,
                no_question_mark: 1.0,
                keywords: target_share,
                rank1: Some(0.0),
                mrr: Some(0.3),
                passage_rank1: None,
                passage_mrr: None,
                misspelled: None,
            };
            let pick = choose(&options, &target);
            let group: Vec<&Measured> = pick.iter().zip(&options).map(|(&k, o)| &o[k]).collect();
            figures(&group).keywords
        };
        assert_eq!(shares(0.0), 0.0, "the chat preset has no keyword questions");
        assert_eq!(shares(0.25), 0.25);
        assert_eq!(shares(0.5), 0.5, "a real part half keywords gets half");
        assert_eq!(shares(1.0), 1.0);
    }

    #[test]
    fn a_typo_falls_on_the_longest_plain_word_never_on_a_code_or_a_name() {
        let v = Vocabulary::of([
            "The `agent.schedule` key sets when scheduled backups run. Retention keeps snapshots. \
             Encryption uses XChaCha20. The Business plan.",
        ]);
        let typo = |text: &str, protected: &[&str]| {
            let protected: Vec<String> = protected.iter().map(|p| p.to_string()).collect();
            mistype(text, &protected, Language::ENGLISH, &v, 3).map(|(t, _)| t)
        };
        let t = typo("when do scheduled backups run", &[]).expect("a plain word");
        assert!(t.starts_with("when do s") && t.ends_with(" backups run"), "{t}");
        assert!(v.misspelled(&t), "{t}");
        // The longest word is inside a code mark, or is part of a code, or must stay as written.
        let t = typo("`retention` and backups", &[]).unwrap();
        assert!(t.starts_with("`retention` and b"), "{t}");
        assert_eq!(typo("agent.schedule default", &[]), None);
        assert_eq!(typo("what does encryption use", &["encryption"]), None);
        assert_eq!(
            typo("Encryption in XChaCha20", &[]),
            None,
            "capitalised: maybe a name"
        );
    }

    #[test]
    fn case_and_question_marks_follow_the_shares_and_spare_names() {
        let mut texts = vec![
            "What is TP-409?".to_string(),
            "Tidepool pricing?".to_string(),
            "How do I restore?".to_string(),
            "Which port?".to_string(),
        ];
        let order = [0, 1, 2, 3];
        match_case(&mut texts, &order, 1.0);
        assert_eq!(texts[0], "what is TP-409?");
        assert_eq!(texts[1], "Tidepool pricing?", "a name keeps its capital");
        assert!(first_letter_lower(&texts[2]) && first_letter_lower(&texts[3]));
        assert_eq!(tag(1), "easy");
        assert_eq!(tag(4), "medium");
        assert_eq!(tag(30), "hard");
    }
}
