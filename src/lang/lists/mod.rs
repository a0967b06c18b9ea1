//! The word lists the checks read, per language: the words a reading of a question, an answer
//! or a passage looks up ("the kind words a name is followed by", "the nouns a question points
//! at as if the reader saw them"). Each list is a [`List`] row that says what it holds and who
//! reads it; each language's data is a file of its own (`english.rs`). A reading asks
//! [`Language::list`] for its words and, for a language without them, gets `None` and does not
//! run that part: a Spanish question is not read with English words.
//!
//! Only English has lists today: they were written from English documentation and questions.
//! The checks that need them say so in their scope (`Reads::English`, `docs/checks.md`). Two
//! kinds of reading take an English list from [`english`] instead, and say why where they do: a
//! reading that is English throughout (its patterns too) and is reached for English text only,
//! and one that applies English words to any text, as `generate` reads the names and sentences
//! of a passage whatever its language (capitalised starters, name particles, discourse markers).

mod english;

use std::sync::OnceLock;

use super::Language;

/// Declares the lists: one [`List`] row per list, with its documentation and its English data.
macro_rules! lists {
    ($($(#[doc = $doc:literal])* $variant:ident => $english:ident,)*) => {
        /// A word list of the checks (see the module doc). Words are lower case, as
        /// [`crate::text::fold`] gives them, unless the row says otherwise.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum List {
            $($(#[doc = $doc])* $variant,)*
        }

        impl List {
            /// Every list.
            pub const ALL: &'static [List] = &[$(List::$variant,)*];

            /// The English list.
            fn english(self) -> &'static [&'static str] {
                match self {
                    $(List::$variant => english::$english,)*
                }
            }
        }
    };
}

lists! {
    /// Things of a text a question can point at as if the reader saw them ("the function", "the
    /// example"): `wording::standalone` (RS209 `not-standalone`).
    PointedNouns => POINTED_NOUNS,
    /// Words between "the" and a pointed noun that point rather than name ("the following
    /// function"): `wording::standalone`.
    Pointers => POINTERS,
    /// Words after a noun that show it heads its phrase ("the function returns"):
    /// `wording::standalone`.
    HeadFollowers => HEAD_FOLLOWERS,
    /// Words after a noun that say which one it is ("the method that sorts"):
    /// `wording::standalone`.
    Resolvers => RESOLVERS,
    /// Verbs that end an infinitive phrase inside a question ("the command to run again do?"):
    /// `wording::standalone`.
    PhraseEnders => PHRASE_ENDERS,
    /// Words after an infinitive that name nothing it acts on ("to run again"):
    /// `wording::standalone`.
    NoObject => NO_OBJECT,
    /// Words after "to" that open a noun phrase, not a verb ("the error to the caller"):
    /// `wording::standalone`.
    NotAVerb => NOT_A_VERB,
    /// Words after "the text", "the passage", … that go on talking about the material, so the
    /// phrase is a reference and not a compound noun ("the text says"): `wording::meta_reference`
    /// (RS205 `refers-to-source`).
    GoesOn => GOES_ON,
    /// Personal pronouns that stand for something said before: `wording::leans_on_context`
    /// (RS209 `not-standalone`).
    Pronouns => PRONOUNS,
    /// Words that cannot be what a pronoun stands for ("its purpose" leaves "its" unexplained):
    /// `wording::leans_on_context`.
    Generic => GENERIC,
    /// Question words: `wording::form` (a question opens with one; RS203 `not-a-question`).
    Interrogatives => INTERROGATIVES,
    /// Auxiliaries and modals, a yes/no question's or a polite request's opener:
    /// `wording::form` (RS202 `yes-no`, RS203).
    Auxiliaries => AUXILIARIES,
    /// Imperatives a request opens with ("Explain how …"): `wording::form` (RS203).
    Imperatives => IMPERATIVES,
    /// Prepositions that may stand before a question word ("In which year …"): `wording::form`.
    QuestionPrepositions => QUESTION_PREPOSITIONS,
    /// Verbs that make "Can you …" a request, not a question about ability: `wording::form`.
    Requests => REQUESTS,
    /// Words that send the reader to another page ("read Installation", "see …"):
    /// `wording::answer` (RS510 `answer-points-outside`).
    Sending => SENDING,
    /// Words that say where something else is written ("described in …"): `wording::answer`
    /// (RS510).
    WrittenElsewhere => WRITTEN_ELSEWHERE,
    /// Modal verbs, which say how sure and not what ("…, you must follow the pointer"):
    /// `wording::answer::off_question` (RS514 `answer-off-question`).
    Modals => MODALS,
    /// On/off words that are a setting's value ("enabled", "none"): `wording::answer::off_question`
    /// (RS514).
    States => STATES,
    /// Words after "what" that are no kind of thing ("what is", "what kind of"):
    /// `wording::answer::off_question` (RS514).
    NotAKind => NOT_A_KIND,
    /// Auxiliaries and adverbs between a person and their verb ("we also now extract"):
    /// `wording::answer::off_question` (RS514).
    BetweenActorAndVerb => BETWEEN_ACTOR_AND_VERB,
    /// Months and seasons: "In March 2020," sets a claim in its day, not in another case:
    /// `wording::answer::off_question` (RS514).
    Months => MONTHS,
    /// Prepositions whose object a cut before them gives to the verb that had another object
    /// ("Override the operator symbols you want to intercept"): `wording::answer::stitched` (RS512
    /// `answer-stitched`).
    Reparenting => REPARENTING,
    /// Words a phrase does not end with (articles, conjunctions, possessives, prepositions that
    /// are no verb's particle): `wording::answer::stitched` (RS512).
    NoEnd => NO_END,
    /// Prepositions a clause may leave at its end after "what", "which" or "who" ("what attrs is
    /// good for"): `wording::answer::stitched` (RS512).
    Stranded => STRANDED,
    /// Dotted abbreviations of prose that have a name's shape ("e.g", "i.e"): `generate::names`
    /// (identifiers; read on any text).
    ProseAbbreviations => PROSE_ABBREVIATIONS,
    /// Capitalised words that name nothing: a table cell's label, words that open clauses
    /// ("Note", "The"): `generate::names` and `generate::bridges` (the things a fact names; read
    /// on any text).
    Starters => STARTERS,
    /// Words that say what kind of thing a name is, as an English documentation page or question
    /// puts them after it ("the `Result` enum", "the `--fast` flag"): `generate::names`
    /// (RS703 `sides-missing`, multi-hop descriptions, unanswerable neighbours).
    KindWords => KIND_WORDS,
    /// Words that join the parts of a name ("Bandar bin Sultan", "Bureau of Labor Statistics"):
    /// `generate::bridges` (whether a name runs on; read on any text).
    NameParticles => NAME_PARTICLES,
    /// Words after which a name is part of a condition or a likeness about something else ("Only
    /// applies when `--diff` is given"): `generate::bridges` (a bridge's second hop; read on any
    /// text).
    Tied => TIED,
    /// Words before a name that make it what something else is likened to ("like `--exclude`"):
    /// `generate::bridges` (read on any text).
    LikenessCues => LIKENESS_CUES,
    /// Words after a name that say which kind of offering or setting it is ("Business plan",
    /// "strict mode"): `generate::checks::sides` (RS703 `sides-missing`: the question may name the
    /// thing without them).
    OfferingKinds => OFFERING_KINDS,
    /// Capitalised words that start sentences or name nothing in particular ("The", "Note"):
    /// `generate::kinds::unanswerable` (the names of a fact; read on any text).
    NotNames => NOT_NAMES,
    /// Words that number the parts of a page or book ("Figure 4-4", "Listing 8-15"):
    /// `generate::kinds::unanswerable` (read on any text).
    PageParts => PAGE_PARTS,
    /// Verbs ending in "s" that follow "other" without being a plural kind ("Which other option does
    /// --force override?"): `generate::kinds::unanswerable` (an English question's kind).
    PluralVerbs => PLURAL_VERBS,
    /// The words of the neighbours prompt a small model repeats instead of naming a neighbour
    /// ("another product"): `generate::kinds::unanswerable` (the prompt is English).
    NeighbourPromptWords => NEIGHBOUR_PROMPT_WORDS,
    /// Words that open a sentence without saying what it is about, read past before its opener
    /// ("Well, at least it …", "However, they …"): `generate::facts` (read on any passage).
    DiscourseMarkers => DISCOURSE_MARKERS,
    /// Openers that lean on the sentence before ("It …", "This decorator …", "Then …"):
    /// `generate::facts` (read on any passage).
    Leaning => LEANING,
    /// Words after "those" that say in the sentence which ones ("those who …", "those of …"):
    /// `generate::facts`.
    SaysWhich => SAYS_WHICH,
    /// Demonstratives, which, ending a sentence, stand for something before it ("… to mitigate
    /// this."): `generate::facts`.
    Demonstratives => DEMONSTRATIVES,
    /// Verbs no statement opens on, which open a list item's fragment ("Are not fully documented
    /// by …", "Recommended to use for …"): `generate::facts`.
    FragmentVerbs => FRAGMENT_VERBS,
    /// Words that end a noun phrase: prepositions, verbs and question words (the head noun of "the
    /// label needed to pass CI"): `generate::kinds::multi_hop` (a bridge's description; RS717
    /// `describes-another`, RS718 `description-misfit`).
    NounPhraseEnds => NOUN_PHRASE_ENDS,
    /// Last words of a title that say it is a page ("Template Designer Documentation"):
    /// `generate::verify` (RS214 `places-in-page`).
    PageWords => PAGE_WORDS,
    /// The words of a question that asks only what a thing is ("what is …", "which … is
    /// called"): `generate::kinds::multi_hop` (RS713 `first-hop-unneeded`; English only).
    WhatItIsWords => WHAT_IT_IS_WORDS,
    /// Possessive and demonstrative determiners ("my", "this"): before a name, they make the words
    /// there the question's own noun phrase: `generate::kinds::multi_hop` (RS718
    /// `description-misfit`).
    Determiners => DETERMINERS,
    /// Auxiliaries that, after "Which error", invert the question ("Which error does exit code 4
    /// stand for?") and leave no clause to describe a thing by: `generate::kinds::multi_hop` (a
    /// description made from hop 1's question).
    InvertingAuxiliaries => INVERTING_AUXILIARIES,
    /// Auxiliaries that read as the verb of "which plan is …": `generate::kinds::multi_hop` (a
    /// description made from hop 1's question).
    VerbAuxiliaries => VERB_AUXILIARIES,
    /// First words of "In …," that set no case of a claim ("In contrast,", "In this example,"):
    /// `wording::answer::off_question` (RS514 `answer-off-question`).
    NotAScope => NOT_A_SCOPE,
    /// Prepositions after which a question word opens a clause ("… flexibility in how"):
    /// `wording::answer::stitched` (RS512 `answer-stitched`).
    BeforeAClause => BEFORE_A_CLAUSE,
    /// Words that open a clause after a comma ("…, which", "…, because"), the clause an answer
    /// stopped before: `wording::answer::stitched` (RS512).
    ClauseOpeners => CLAUSE_OPENERS,
    /// Words that offer a choice between things a question names ("… or …", "between … and
    /// …"), whose answer is one of them by design: `wording::restates_answer_in` (RS207
    /// `answer-in-question`).
    Alternatives => ALTERNATIVES,
}

/// A list of word pairs (see [`List`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pairs {
    /// Two-word discourse markers read past before a sentence's opener ("at least", "of
    /// course"): `generate::facts` (read on any passage).
    DiscourseMarkers,
    /// Words and the word a look-alike puts in their place, both ways ("min" / "max"), applied
    /// to the parts of a name in code: `generate::kinds::unanswerable` (read on any name).
    Antonyms,
}

impl Pairs {
    /// Every list of pairs.
    pub const ALL: &'static [Pairs] = &[Pairs::DiscourseMarkers, Pairs::Antonyms];

    fn english(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Pairs::DiscourseMarkers => english::DISCOURSE_MARKER_PAIRS,
            Pairs::Antonyms => english::ANTONYMS,
        }
    }
}

/// The English `list`, for a reading that is English throughout — its patterns as well as its
/// words — and that callers reach only for English text (they dispatch on the language, or
/// the check that runs it reads English only). Where a language is at hand, ask it instead
/// ([`Language::list`]).
pub fn english(list: List) -> &'static [&'static str] {
    list.english()
}

/// The English list of `pairs` (see [`english`]).
pub fn english_pairs(pairs: Pairs) -> &'static [(&'static str, &'static str)] {
    pairs.english()
}

impl Language {
    /// This language's `list`, or `None` when it has none (the reading that needs it is not
    /// run on this language's text).
    pub fn list(self, list: List) -> Option<&'static [&'static str]> {
        (self == Language::ENGLISH).then(|| list.english())
    }

    /// This language's number words with their values ("twenty" → 20), up to ninety-nine read
    /// as tens and units: `wording::answer` reads "thirty days" as "30 days" (RS507
    /// `answer-not-in-label`); `None` when it has none (digits only are read).
    pub fn number_words(self) -> Option<&'static [(&'static str, u32)]> {
        (self == Language::ENGLISH).then_some(english::NUMBER_WORDS)
    }

    /// This language's list of word `pairs`, or `None` when it has none.
    pub fn pairs(self, pairs: Pairs) -> Option<&'static [(&'static str, &'static str)]> {
        (self == Language::ENGLISH).then(|| pairs.english())
    }
}

/// A value built once per language from its lists — a regex of its nouns, a set of its words —
/// and kept for the process; `None` for a language whose lists the builder does not find.
pub struct PerLanguage<T>(OnceLock<Vec<OnceLock<Option<T>>>>);

impl<T> PerLanguage<T> {
    /// An empty cache, for a `static`.
    pub const fn new() -> PerLanguage<T> {
        PerLanguage(OnceLock::new())
    }

    /// The value of `language`, built by `build` on first use.
    pub fn get(&self, language: Language, build: impl FnOnce(Language) -> Option<T>) -> Option<&T> {
        let slots = self
            .0
            .get_or_init(|| whatlang::Lang::all().iter().map(|_| OnceLock::new()).collect());
        slots[language.slot()].get_or_init(|| build(language)).as_ref()
    }
}

impl<T> Default for PerLanguage<T> {
    fn default() -> Self {
        PerLanguage::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_has_every_list_and_other_languages_none() {
        let es = Language::parse("es").unwrap();
        let zh = Language::parse("zh").unwrap();
        for &list in List::ALL {
            let words = Language::ENGLISH.list(list).unwrap();
            assert!(!words.is_empty(), "{list:?}");
            assert_eq!(es.list(list), None, "{list:?}");
            assert_eq!(zh.list(list), None, "{list:?}");
        }
        for &pairs in Pairs::ALL {
            assert!(!Language::ENGLISH.pairs(pairs).unwrap().is_empty(), "{pairs:?}");
            assert_eq!(es.pairs(pairs), None, "{pairs:?}");
        }
    }

    #[test]
    fn a_value_is_built_once_per_language_and_none_without_its_list() {
        static LONGEST: PerLanguage<usize> = PerLanguage::new();
        let longest = |l: Language| LONGEST.get(l, |l| Some(l.list(*List::ALL.first()?)?.len()));
        assert!(longest(Language::ENGLISH).is_some());
        assert_eq!(longest(Language::parse("de").unwrap()), None);
    }
}
