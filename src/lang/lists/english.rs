//! The English lists of [`super::List`] and [`super::Pairs`]: written from English
//! documentation pages (the sample corpus, Black's, Click's, Flask's, Jinja's, attrs' docs and
//! the Rust book), English questions (TREC DL, SQuAD, HotpotQA) and English grammar. Each
//! list's row in `mod.rs` says what it holds and who reads it.

/// Things of a text a question can point at as if the reader saw them.
pub const POINTED_NOUNS: &[&str] = &[
    "function",
    "functions",
    "method",
    "methods",
    "example",
    "examples",
    "listing",
    "listings",
    "code",
    "snippet",
    "snippets",
    "program",
    "programs",
    "struct",
    "structs",
    "enum",
    "enums",
    "trait",
    "traits",
    "module",
    "class",
    "variable",
    "variables",
    "file",
    "files",
    "option",
    "options",
    "setting",
    "settings",
    "parameter",
    "parameters",
    "argument",
    "arguments",
    "field",
    "fields",
    "command",
    "commands",
    "macro",
    "macros",
    "closure",
    "decorator",
    "decorators",
    "filter",
    "filters",
    "signal",
    "signals",
    "invocation",
    "invocations",
    "loop",
    "statement",
    "expression",
    "output",
    "error",
    "script",
    "query",
    "endpoint",
    "figure",
    "diagram",
    "chart",
    "table",
    "algorithm",
    "implementation",
    "match",
];

/// Words between "the" and the noun that point rather than name: "the following function".
pub const POINTERS: &[&str] = &[
    "following",
    "above",
    "below",
    "given",
    "provided",
    "previous",
    "preceding",
    "same",
    "said",
    "aforementioned",
    "mentioned",
    "above-mentioned",
    "first",
    "second",
    "third",
    "next",
    "last",
    "final",
    "other",
    "new",
    "current",
    "specific",
    "particular",
    "original",
    "corresponding",
    "relevant",
    "example",
    "sample",
    "default",
    "described",
    "shown",
    "listed",
    "defined",
    "resulting",
    "returned",
    "whole",
    "entire",
    "two",
    "three",
    "both",
    "calling",
];

/// Words after a noun that show it heads its phrase ("the function returns", "the code in the
/// listing") rather than qualifies the next noun ("the test flight", "the code review").
pub const HEAD_FOLLOWERS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "does", "do", "did", "has", "have", "had", "can", "could",
    "will", "would", "should", "must", "may", "return", "returns", "print", "prints", "output", "outputs",
    "take", "takes", "accept", "accepts", "expect", "expects", "produce", "produces", "cause", "causes",
    "mean", "means", "show", "shows", "say", "says", "need", "needs", "require", "requires", "set", "sets",
    "change", "changes", "control", "controls", "default", "defaults", "affect", "affects", "work", "works",
    "handle", "handles", "call", "calls", "compute", "computes", "check", "checks", "store", "stores",
    "hold", "holds", "contain", "contains", "use", "uses", "run", "runs", "create", "creates", "make",
    "makes", "give", "gives", "get", "gets", "in", "on", "at", "to", "from", "with", "by", "and", "or",
    "but", "when", "if", "after", "before", "above", "below", "here", "there", "again", "first", "now",
];

/// Words after the noun that say which one it is: a relative clause or participle ("the
/// expression used to identify ...", "the method that sorts"), "called" / "named" something, or
/// an "of" / "for" phrase.
pub const RESOLVERS: &[&str] = &[
    "of",
    "for",
    "called",
    "named",
    "used",
    "that",
    "which",
    "who",
    "whose",
    "where",
    "known",
    "describing",
    "containing",
    "defined",
    "described",
    "responsible",
];

/// Verbs that end an infinitive phrase inside a question ("the command to run again do?").
pub const PHRASE_ENDERS: &[&str] = &[
    "is", "are", "was", "were", "be", "do", "does", "did", "can", "could", "will", "would", "should", "must",
    "may", "has", "have", "had",
];

/// Words after an infinitive that name nothing it acts on ("to run again", "to set it up").
pub const NO_OBJECT: &[&str] = &[
    "again", "it", "them", "this", "that", "first", "now", "later", "here", "there", "then", "too", "also",
    "back", "up", "out", "down", "instead",
];

/// Words after "to" that start a noun phrase, not a verb ("the error to the caller").
pub const NOT_A_VERB: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "it", "its", "my", "your", "our", "their", "his",
    "her", "them", "me", "us", "which", "what", "whom", "be", "do",
];

/// Words after "the text", "the passage", ... that go on talking about the material, so the
/// phrase is a reference and not a compound noun ("the text says", "the passage, ...").
pub const GOES_ON: &[&str] = &[
    "say",
    "says",
    "said",
    "mention",
    "mentions",
    "mentioned",
    "describe",
    "describes",
    "described",
    "state",
    "states",
    "stated",
    "discuss",
    "discusses",
    "discussed",
    "provide",
    "provides",
    "provided",
    "given",
    "above",
    "below",
    "indicate",
    "indicates",
    "suggest",
    "suggests",
    "show",
    "shows",
    "explain",
    "explains",
    "note",
    "notes",
    "highlight",
    "highlights",
    "refer",
    "refers",
    "list",
    "lists",
    "outline",
    "outlines",
    "present",
    "presents",
    "presented",
    "claim",
    "claims",
    "argue",
    "argues",
    "imply",
    "implies",
    "report",
    "reports",
    "define",
    "defines",
    "contain",
    "contains",
    "cover",
    "covers",
    "include",
    "includes",
    "focus",
    "focuses",
    "emphasize",
    "emphasizes",
    "is",
    "was",
    "are",
    "were",
    "has",
    "have",
    "do",
    "does",
    "did",
    "and",
    "or",
    "about",
    "on",
    "in",
    "of",
    "for",
    "to",
    "regarding",
    "concerning",
    "from",
    "with",
    "by",
    "at",
    "as",
    "that",
    "which",
    "what",
    "how",
    "why",
    "when",
    "where",
    "who",
    "we",
    "you",
    "it",
    "i",
    "mean",
    "means",
    "tell",
    "tells",
    "information",
    "recommend",
    "recommends",
    "specify",
    "specifies",
    "offer",
    "offers",
];

/// Personal pronouns that stand for something said before.
pub const PRONOUNS: &[&str] = &[
    "it", "its", "they", "them", "their", "theirs", "he", "him", "his", "she", "her", "hers",
];

/// Words that cannot be what a pronoun stands for: question words, function words, and
/// nouns and participles so general that "its purpose" still leaves "its" unexplained.
pub const GENERIC: &[&str] = &[
    "purpose",
    "role",
    "advice",
    "benefit",
    "benefits",
    "way",
    "ways",
    "thing",
    "things",
    "kind",
    "type",
    "reason",
    "reasons",
    "name",
    "goal",
    "goals",
    "difference",
    "differences",
    "advantage",
    "advantages",
    "use",
    "uses",
    "meaning",
    "effect",
    "effects",
    "impact",
    "impacts",
    "function",
    "significance",
    "importance",
    "main",
    "key",
    "primary",
    "given",
    "used",
    "made",
    "done",
    "provided",
    "offered",
    "recommended",
    "described",
    "mentioned",
    "discussed",
    "said",
    "called",
    "needed",
    "required",
    "known",
    "considered",
    "responsible",
    "involved",
    "example",
    "examples",
    "feature",
    "features",
    "aspect",
    "aspects",
    "part",
    "idea",
    "point",
    "focus",
    "approach",
    "result",
    "results",
    "outcome",
    "outcomes",
    "step",
    "steps",
    "requirement",
    "requirements",
    "condition",
    "conditions",
    "information",
    "details",
    "happen",
    "happens",
    "happened",
    "mean",
    "means",
    "work",
    "works",
    "help",
    "helps",
    "describe",
    "explain",
    "tell",
    "please",
    "give",
    "list",
    "get",
    "make",
    "take",
    "need",
    "want",
    "like",
];

/// English question words.
pub const INTERROGATIVES: &[&str] = &[
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
];

/// English auxiliaries and modals: a question opening with one is answered by yes or no, or is
/// a polite request ("Can you explain ...").
pub const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "will", "would", "should",
    "shall", "has", "have", "had", "may", "might", "must", "isn", "aren", "wasn", "weren", "doesn", "don",
    "didn", "can't", "cannot", "couldn", "won", "wouldn", "shouldn", "hasn", "haven",
];

/// Imperatives a request opens with: "Explain how snapshots are kept".
pub const IMPERATIVES: &[&str] = &[
    "explain",
    "describe",
    "list",
    "tell",
    "give",
    "find",
    "show",
    "compare",
    "name",
    "summarize",
    "summarise",
    "define",
    "identify",
    "discuss",
    "outline",
    "provide",
    "state",
    "specify",
    "mention",
    "detail",
    "elaborate",
    "clarify",
    "illustrate",
    "enumerate",
    "suggest",
    "recommend",
    "calculate",
    "determine",
    "analyze",
    "analyse",
    "evaluate",
    "assess",
    "justify",
];

/// Prepositions that may stand before a question word: "In which year ...", "For how long ...".
pub const QUESTION_PREPOSITIONS: &[&str] = &[
    "in", "on", "at", "for", "from", "to", "by", "with", "during", "since", "of", "under", "after", "before",
    "until", "into", "through", "within",
];

/// Verbs that make "Can you ..." a request for something, not a question about ability.
pub const REQUESTS: &[&str] = &[
    "tell",
    "explain",
    "elaborate",
    "describe",
    "provide",
    "give",
    "list",
    "share",
    "clarify",
    "outline",
    "summarize",
    "summarise",
    "help",
    "walk",
    "show",
    "detail",
    "expand",
    "discuss",
    "identify",
    "name",
    "compare",
    "define",
    "break",
    "suggest",
    "recommend",
    "specify",
    "point",
    "highlight",
    "enumerate",
    "illustrate",
    "guide",
    "let",
    "offer",
    "present",
    "walkthrough",
    "go",
    "shed",
    "know",
];

/// English number words, as their digits.
pub const NUMBER_WORDS: &[(&str, u32)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

/// Words that send the reader to another page ("read Installation", "see …").
pub const SENDING: &[&str] = &[
    "read", "see", "follow", "refer", "consult", "check", "visit", "go",
];

/// Words that say where something else is written ("described in …").
pub const WRITTEN_ELSEWHERE: &[&str] = &[
    "described",
    "explained",
    "documented",
    "covered",
    "detailed",
    "listed",
];

/// Modal verbs say how sure, not what: "…, you must follow the pointer" adds one word.
pub const MODALS: &[&str] = &[
    "must", "can", "could", "should", "would", "may", "might", "will", "shall", "need",
];

pub const STATES: &[&str] = &[
    "true", "false", "on", "off", "enabled", "disabled", "none", "null", "empty", "yes", "no", "unset",
];

/// Words after "what" that are no kind of thing: "what is", "what kind of", "what happens".
pub const NOT_A_KIND: &[&str] = &[
    "is", "are", "was", "were", "does", "do", "did", "can", "could", "should", "will", "would", "may",
    "must", "has", "have", "happens", "kind", "kinds", "type", "types", "sort", "sorts", "way", "ways",
    "part", "parts", "version", "versions", "makes", "causes",
];

/// "we propagate", "you can then pass", "we also now extract": a person, auxiliaries and
/// adverbs, then the verb.
pub const BETWEEN_ACTOR_AND_VERB: &[&str] = &[
    "can", "could", "should", "must", "will", "may", "might", "then", "also", "just", "need", "have", "to",
    "now", "only", "not", "always", "already", "usually", "still", "even", "simply", "first",
];

/// A time ("In 1973,", "In March 2020,") sets the claim in its day, not in another case.
pub const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "spring",
    "summer",
    "autumn",
    "fall",
    "winter",
];

/// Prepositions whose object a cut before them gives to the verb that had another object.
pub const REPARENTING: &[&str] = &["with", "to", "by", "from", "into", "onto"];

/// Words an English phrase does not end with: articles, conjunctions, possessives and the
/// prepositions that are no verb's particle ("turned on", "logged in" end well) wait for what
/// they govern.
pub const NO_END: &[&str] = &[
    "the", "a", "an", "and", "or", "nor", "but", "than", "its", "their", "your", "our", "of", "to", "with",
    "for", "by", "from", "into", "as",
];

/// Prepositions a clause may leave at its end after "what", "which" or "who" ("what *attrs*
/// is good for").
pub const STRANDED: &[&str] = &["of", "to", "with", "for", "by", "from", "into"];

/// Dotted or snake-case words that are prose, not names.
pub const PROSE_ABBREVIATIONS: &[&str] = &["e.g", "i.e", "etc", "vs", "a.m", "p.m"];

/// Capitalised words that name nothing: a table cell's label, words that open clauses.
pub const STARTERS: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "it",
    "if",
    "when",
    "while",
    "with",
    "for",
    "to",
    "in",
    "on",
    "and",
    "or",
    "but",
    "you",
    "your",
    "we",
    "they",
    "i",
    "note",
    "see",
    "also",
    "by",
    "all",
    "each",
    "every",
    "no",
    "not",
    "yes",
    "key",
    "default",
    "description",
    "code",
    "meaning",
];

/// Words that say what kind of thing a name is, as a question puts them after it.
pub const KIND_WORDS: &[&str] = &[
    "enum",
    "variant",
    "struct",
    "trait",
    "type",
    "function",
    "method",
    "macro",
    "module",
    "crate",
    "class",
    "package",
    "library",
    "flag",
    "option",
    "command",
    "setting",
    "variable",
    "field",
    "file",
    "key",
    "attribute",
    "decorator",
    "parameter",
    "argument",
    "error",
    "label",
    "tag",
    "header",
    "namespace",
    "feature",
];

/// Words that join the parts of a name: "Bandar bin Sultan", "Bureau of Labor Statistics".
pub const NAME_PARTICLES: &[&str] = &[
    "bin", "bint", "ibn", "al", "el", "van", "von", "der", "den", "de", "da", "del", "di", "du", "la", "le",
    "of", "y",
];

/// Words after which a name is part of a condition or a likeness about something else.
pub const TIED: &[&str] = &["when", "if", "unless", "whether", "than", "like", "unlike"];

/// Words before a name that make it what another thing is likened to or stands for.
pub const LIKENESS_CUES: &[&str] = &[
    "like",
    "unlike",
    "similar to",
    "same as",
    "instead of",
    "rather than",
    "corresponds to",
    "equivalent to",
    "as with",
];

/// Words after a name that say which kind of offering or setting it is.
pub const OFFERING_KINDS: &[&str] = &[
    "plan", "tier", "edition", "mode", "version", "role", "scope", "option", "flag",
];

/// Capitalised words that start sentences or name nothing in particular.
pub const NOT_NAMES: &[&str] = &[
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "if", "when", "while", "with", "for",
    "to", "in", "on", "and", "or", "but", "you", "your", "we", "our", "they", "i", "note", "see", "also",
    "by", "all", "each", "every", "some", "most", "no", "not", "yes", "after", "before", "because", "both",
];

/// Words that number the parts of a page or book (English).
pub const PAGE_PARTS: &[&str] = &[
    "figure", "fig", "listing", "table", "chapter", "section", "appendix", "example", "step", "page", "part",
    "diagram", "exhibit", "equation",
];

/// Verbs after "other …" that are no plural kind: "Which other option does --force override?".
pub const PLURAL_VERBS: &[&str] = &["does", "is", "was", "has", "goes", "makes", "uses", "needs"];

/// The neighbours prompt's words.
pub const NEIGHBOUR_PROMPT_WORDS: &[&str] = &[
    "another",
    "other",
    "product",
    "platform",
    "version",
    "plan",
    "format",
    "service",
    "option",
    "thing",
    "kind",
    "same",
    "competing",
    "neighbour",
    "neighbor",
    "tool",
    "feature",
];

/// Words that open a sentence without saying what it is about, read past before its opener:
/// "Well, at least it …", "But this …", "However, they …".
pub const DISCOURSE_MARKERS: &[&str] = &[
    "well",
    "now",
    "ok",
    "okay",
    "however",
    "still",
    "and",
    "but",
    "yet",
    "also",
    "indeed",
    "again",
    "luckily",
    "fortunately",
    "unfortunately",
    "thus",
    "hence",
    "therefore",
];

/// Openers that lean on the sentence before ("Another thing that …", "Then
/// ``load_logged_in_user`` won't …", "So on a laptop the difference is …").
pub const LEANING: &[&str] = &[
    "it", "its", "this", "that", "these", "those", "they", "their", "them", "he", "she", "both", "such",
    "another", "then", "so",
];

/// Words after "those" that say in the sentence which ones it means.
pub const SAYS_WHICH: &[&str] = &["who", "whom", "whose", "which", "that", "where", "of"];

/// Demonstratives.
pub const DEMONSTRATIVES: &[&str] = &["this", "that", "these", "those"];

/// Verbs no statement opens on.
pub const FRAGMENT_VERBS: &[&str] = &[
    "are",
    "is",
    "was",
    "were",
    "can",
    "cannot",
    "will",
    "has",
    "have",
    "should",
    "must",
    "does",
    "could",
    "would",
    "recommended",
    "supports",
    "allows",
    "provides",
    "takes",
];

/// Two-word discourse markers ("at least", "of course", "in fact").
pub const DISCOURSE_MARKER_PAIRS: &[(&str, &str)] = &[("at", "least"), ("of", "course"), ("in", "fact")];

/// Words and the word a look-alike puts in their place, both ways: SQuAD 2.0's antonym swap
/// (Rajpurkar et al., 2018), applied to the parts of a name ("storage.min_free_space" →
/// "storage.max_free_space", "tide repo unlock" → "tide repo lock").
pub const ANTONYMS: &[(&str, &str)] = &[
    ("min", "max"),
    ("minimum", "maximum"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("upload", "download"),
    ("read", "write"),
    ("start", "stop"),
    ("include", "exclude"),
    ("allow", "deny"),
    ("first", "last"),
    ("lower", "upper"),
    ("local", "remote"),
    ("input", "output"),
    ("push", "pull"),
    ("encrypt", "decrypt"),
    ("before", "after"),
    ("open", "close"),
    ("show", "hide"),
    ("add", "remove"),
    ("inbound", "outbound"),
    ("lock", "unlock"),
    ("import", "export"),
    ("daily", "weekly"),
    ("public", "private"),
];

/// Words that end a noun phrase: prepositions, verbs and question words (English).
pub const NOUN_PHRASE_ENDS: &[&str] = &[
    "of", "in", "on", "for", "with", "to", "from", "by", "about", "at", "into", "is", "are", "was", "were",
    "do", "does", "did", "can", "should", "will", "would", "when", "what", "which", "how", "why", "where",
    "who", "if", "use", "set",
];

/// Last words of a title that say it is a page ("Template Designer Documentation", "Windows
/// Console Notes"): the rest of it names the page all the same.
pub const PAGE_WORDS: &[&str] = &[
    "documentation",
    "docs",
    "guide",
    "reference",
    "manual",
    "notes",
    "tutorial",
    "handbook",
];

/// The words of a question that asks only what a thing is.
pub const WHAT_IT_IS_WORDS: &[&str] = &[
    "what", "which", "is", "are", "was", "were", "the", "a", "an", "called", "named",
];

/// Possessive and demonstrative determiners.
pub const DETERMINERS: &[&str] = &[
    "my", "your", "our", "their", "its", "his", "her", "this", "these", "those",
];

/// Auxiliaries that invert a "which" question.
pub const INVERTING_AUXILIARIES: &[&str] = &[
    "does", "do", "did", "can", "should", "will", "would", "must", "has", "have",
];

/// Auxiliaries read as a "which" question's verb.
pub const VERB_AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "does", "do", "did", "can", "has", "have", "should", "will", "would", "must",
];

/// First words of an "In …," that sets no case.
pub const NOT_A_SCOPE: &[&str] = &[
    "this",
    "that",
    "these",
    "those",
    "the",
    "a",
    "an",
    "contrast",
    "addition",
    "general",
    "short",
    "practice",
    "particular",
    "fact",
    "other",
    "most",
    "some",
    "many",
];

/// Prepositions after which a question word opens a clause.
pub const BEFORE_A_CLAUSE: &[&str] = &["in", "of", "on", "about", "to", "for", "over", "as"];

/// Words that open a clause after a comma.
pub const CLAUSE_OPENERS: &[&str] = &[
    "that", "who", "where", "while", "because", "since", "although", "whereas", "if", "when", "so",
];

/// Words that offer a choice between things a question names.
pub const ALTERNATIVES: &[&str] = &["or", "between", "either"];
