//! How questions are worded, per language: the words and phrases the wording rules read
//! (yes/no questions, statements, references to the source, questions about the text itself,
//! pointers at an earlier turn). English has its own, finer rules in [`crate::wording`] and the
//! audit's rule modules; the tables here serve Spanish, German, Portuguese, French and Chinese.
//! A language with no table has those rules skipped, and the audit names it.
//!
//! Outside English a yes/no question cannot be told by an inverted auxiliary (Spanish "¿El
//! plan incluye copias?" inverts nothing), so it is told by what it lacks: no question word
//! anywhere, and no "or" offering alternatives.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::Language;

/// One language's question words and phrases, as written here.
struct Table {
    /// Written without spaces: words are found as substrings, not as tokens.
    unspaced: bool,
    /// Question words ("qué", "welche", "什么"); a question with one is not yes/no.
    interrogatives: &'static [&'static str],
    /// Opening words of a yes/no form that still holds a question word ("est-ce que").
    yes_no_prefixes: &'static [&'static str],
    /// Imperatives a request opens with ("explica", "nenne").
    requests: &'static [&'static str],
    /// "or".
    or: &'static [&'static str],
    /// Pointers at the material the writer was shown ("según el texto").
    meta_reference: &'static str,
    /// Questions about the text itself ("¿de qué trata el texto?").
    meta_question: &'static str,
    /// Pointers at an earlier turn ("la respuesta anterior").
    earlier_turn: &'static str,
}

const SPANISH: Table = Table {
    unspaced: false,
    interrogatives: &[
        "qué", "cuál", "cuáles", "quién", "quiénes", "cuándo", "dónde", "adónde", "cómo", "cuánto", "cuánta",
        "cuántos", "cuántas",
        // Typed without accents, as users do; not "que", which is also "that".
        "cual", "cuales", "quien", "quienes", "cuando", "donde", "como", "cuanto", "cuanta", "cuantos",
        "cuantas",
    ],
    yes_no_prefixes: &[],
    requests: &[
        "explica", "explique", "describe", "describa", "enumera", "enumere", "indica", "indique", "menciona",
        "mencione", "nombra", "compara", "define", "defina", "resume", "dime", "di", "lista",
    ],
    or: &["o", "u"],
    meta_reference: r"(?i)\b(según|de acuerdo con|conforme a)\s+(el|la|este|esta|los|las|dicho|dicha)\s+(texto|pasaje|fragmento|documento|artículo|párrafo|contexto|extracto|sección|tabla|información)\b|\b(en|del)\s+(este|esta|presente|dicho|siguiente|el)\s+(texto|pasaje|fragmento|extracto)\b|\b(el|este)\s+(texto|pasaje|fragmento|extracto)\s+(dice|menciona|indica|describe|afirma|señala)\b|\b(documento|fragmento|pasaje|extracto)\s*#?\s*\d+\b",
    meta_question: r"(?i)\bde qu[ée] trata (el|este|la|esta) (texto|sección|documento|pasaje|artículo|capítulo)\b|\bidea principal (del|de la|de este|de esta)\b|\bresum(e|ir|a|en)\b",
    earlier_turn: r"(?i)\b(la|su) respuesta anterior\b|\bla pregunta anterior\b|\bcomo se (mencionó|dijo|indicó)\b|\bmencionad[oa]s? (anteriormente|antes)\b",
};

const GERMAN: Table = Table {
    unspaced: false,
    interrogatives: &[
        "was",
        "wer",
        "wen",
        "wem",
        "wessen",
        "wann",
        "wo",
        "woher",
        "wohin",
        "wie",
        "wieviel",
        "wieviele",
        "warum",
        "weshalb",
        "weswegen",
        "wieso",
        "welche",
        "welcher",
        "welches",
        "welchen",
        "welchem",
        "wofür",
        "womit",
        "wodurch",
        "worauf",
        "worüber",
        "wovon",
        "wozu",
        "woran",
        "worin",
        "woraus",
        "wonach",
        "wogegen",
        "inwiefern",
        "inwieweit",
    ],
    yes_no_prefixes: &[],
    requests: &[
        "erkläre",
        "erklären",
        "beschreibe",
        "beschreiben",
        "nenne",
        "nennen",
        "liste",
        "vergleiche",
        "vergleichen",
        "definiere",
        "gib",
        "geben",
        "zähle",
        "fasse",
    ],
    or: &["oder"],
    meta_reference: r"(?i)\b(laut|gemäß|entsprechend)\s+(dem|diesem|des|der|dieser)\s+(text|textes|abschnitt|abschnitts|passage|dokument|dokuments|artikel|artikels|kontext|auszug|absatz|tabelle)\b|\b(im|in diesem|in dem)\s+(text|abschnitt|auszug|absatz)\b|\b(der|die|das|dieser|diese|dieses)\s+(text|passage|abschnitt|auszug)\s+(sagt|erwähnt|beschreibt|nennt|besagt)\b|\b(dokument|abschnitt|passage|auszug)\s*#?\s*\d+\b",
    meta_question: r"(?i)\bworum geht es (in|im)\b|\b(hauptaussage|hauptidee|kernaussage) (des|dieses|der|dieser)\b|\bzusammen(fassen|fassung)\b|\bfasse\b",
    earlier_turn: r"(?i)\b(die|der) vorherige[nr]? (antwort|frage)\b|\bwie (oben|bereits|zuvor|vorher) (erwähnt|gesagt|beschrieben)\b",
};

const PORTUGUESE: Table = Table {
    unspaced: false,
    interrogatives: &[
        "que", "quê", "qual", "quais", "quem", "quando", "onde", "aonde", "como", "quanto", "quanta",
        "quantos", "quantas", "porquê",
    ],
    yes_no_prefixes: &["é verdade que", "será que"],
    requests: &[
        "explique", "explica", "descreva", "descreve", "liste", "cite", "indique", "compare", "defina",
        "diga", "mencione",
    ],
    or: &["ou"],
    meta_reference: r"(?i)\b(segundo|de acordo com|conforme)\s+(o|a|este|esta|esse|essa)\s+(texto|trecho|passagem|documento|artigo|parágrafo|contexto|excerto|seção|secção|tabela)\b|\b(no|neste|nesse)\s+(texto|trecho|excerto|parágrafo)\b|\b(o|este)\s+(texto|trecho)\s+(diz|menciona|indica|descreve|afirma)\b|\b(documento|trecho|excerto)\s*#?\s*\d+\b",
    meta_question: r"(?i)\b(do que|sobre o que) trata (o|a|este|esta)\b|\bideia principal (do|da|deste|desta)\b|\bresum(a|ir|e)\b",
    earlier_turn: r"(?i)\ba (resposta|pergunta) anterior\b|\bcomo (mencionado|dito|indicado) (anteriormente|antes|acima)\b",
};

const FRENCH: Table = Table {
    unspaced: false,
    interrogatives: &[
        "que",
        "qu",
        "quoi",
        "qui",
        "quel",
        "quelle",
        "quels",
        "quelles",
        "quand",
        "où",
        "comment",
        "combien",
        "pourquoi",
        "lequel",
        "laquelle",
        "lesquels",
        "lesquelles",
        "qu'est",
        "qu’est",
    ],
    yes_no_prefixes: &["est-ce que", "est-ce qu", "est ce que"],
    requests: &[
        "expliquez",
        "explique",
        "décrivez",
        "décris",
        "citez",
        "cite",
        "indiquez",
        "comparez",
        "définissez",
        "donnez",
        "énumérez",
        "nommez",
    ],
    or: &["ou"],
    meta_reference: r"(?i)(\bselon|\bd'après|\bd’après|\bconformément à)\s+(le|la|ce|cet|cette|l'|l’)\s*(texte|passage|document|article|paragraphe|contexte|extrait|section|tableau)\b|\bdans\s+(le|ce|cet|l'|l’)\s*(texte|passage|extrait|paragraphe)\b|\b(le|ce)\s+(texte|passage)\s+(dit|mentionne|indique|décrit|affirme)\b|\b(document|passage|extrait)\s*#?\s*\d+\b",
    meta_question: r"(?i)\bde quoi (parle|traite) (le|ce|cette|la)\b|\bidée principale (du|de la|de ce|de cette)\b|\brésum(ez|er|e)\b",
    earlier_turn: r"(?i)\bla (réponse|question) précédente\b|\bcomme (mentionné|indiqué|dit) (précédemment|plus haut|auparavant)\b",
};

const CHINESE: Table = Table {
    unspaced: true,
    interrogatives: &[
        "什么",
        "哪",
        "谁",
        "何时",
        "何地",
        "何种",
        "为何",
        "如何",
        "多少",
        "几",
        "怎",
        "为什么",
        "多久",
        "多大",
        "多长",
        "多高",
        "多远",
        "多少",
    ],
    yes_no_prefixes: &[],
    requests: &["请", "解释", "描述", "列出", "说明", "比较", "列举"],
    or: &["还是", "或者", "或"],
    meta_reference: r"(根据|依据|按照|据)(上文|本文|文章|文本|段落|材料|短文|原文|上述|以上|该文|这段)|(文中|上文|本文|原文|段落中|文章中|材料中)",
    meta_question: r"(主要内容|主旨|大意|中心思想|总结|概括)",
    earlier_turn: r"(上一个问题|前面提到|上面提到|之前提到|刚才(说|提到))",
};

/// One language's question words and phrases, its patterns compiled once for the process.
pub struct Wording {
    table: &'static Table,
    meta_reference: Regex,
    meta_question: Regex,
    earlier_turn: Regex,
}

/// The wording of `language`; `None` for English (see the module doc) and for languages
/// without a table.
pub fn wording(language: Language) -> Option<&'static Wording> {
    static COMPILED: LazyLock<[Wording; 5]> = LazyLock::new(|| {
        [&SPANISH, &GERMAN, &PORTUGUESE, &FRENCH, &CHINESE].map(|table| {
            let re = |p: &str| Regex::new(p).expect("valid regex");
            Wording {
                table,
                meta_reference: re(table.meta_reference),
                meta_question: re(table.meta_question),
                earlier_turn: re(table.earlier_turn),
            }
        })
    });
    let at = match language.code() {
        "es" => 0,
        "de" => 1,
        "pt" => 2,
        "fr" => 3,
        "zh" => 4,
        _ => return None,
    };
    Some(&COMPILED[at])
}

/// The question words of `language`: its table's, else [`super::interrogatives`]' (none for
/// English, whose stopword list has them).
pub fn question_words(language: Language) -> &'static [&'static str] {
    match wording(language) {
        Some(w) if language != Language::ENGLISH => w.table.interrogatives,
        _ => super::interrogatives::of(language),
    }
}

/// True when the wording rules can read `language`: English, or a language with a table.
pub fn readable(language: Language) -> bool {
    language == Language::ENGLISH || wording(language).is_some()
}

impl Wording {
    fn has_word(&self, question: &str, list: &[&str]) -> bool {
        if self.table.unspaced {
            return list.iter().any(|w| question.contains(w));
        }
        let words = crate::text::words(question);
        words.iter().any(|w| list.contains(&w.as_str()))
    }

    /// True when `question` reads as a yes/no question: it asks (a `?`, `？` or Chinese "吗")
    /// with no question word, no "or", and no request verb first.
    pub fn is_yes_no(&self, question: &str) -> bool {
        let q = question.trim();
        let lower = q.to_lowercase();
        let stripped = lower.trim_start_matches(['¿', '¡', ' ']);
        let asks = q.contains('?') || q.contains('？') || q.trim_end_matches(['?', '？']).ends_with('吗');
        if !asks || self.opens_request(q) {
            return false;
        }
        if self.table.yes_no_prefixes.iter().any(|p| stripped.starts_with(p)) {
            return !self.has_word(q, self.table.or);
        }
        !self.has_word(q, self.table.interrogatives) && !self.has_word(q, self.table.or)
    }

    /// True when the question opens with a request ("Explica …", "请说明 …").
    pub fn opens_request(&self, question: &str) -> bool {
        let q = question.trim().trim_start_matches(['¿', '¡']);
        if self.table.unspaced {
            return self.table.requests.iter().any(|r| q.starts_with(r));
        }
        crate::text::words(q)
            .first()
            .is_some_and(|w| self.table.requests.contains(&w.as_str()))
    }

    /// True when the question opens with a question word or a request: a question even without
    /// its question mark.
    pub fn opens_question(&self, question: &str) -> bool {
        let q = question.trim().trim_start_matches(['¿', '¡']);
        if self.opens_request(q) {
            return true;
        }
        if self.table.unspaced {
            return self.table.interrogatives.iter().any(|w| q.contains(w));
        }
        crate::text::words(q)
            .first()
            .is_some_and(|w| self.table.interrogatives.contains(&w.as_str()))
    }

    /// Where the question points at the material its writer was shown. "Según la información
    /// de educacionfinanciera.cl" names its source, which a user can know: not a reference.
    pub fn meta_reference(&self, question: &str) -> Option<Range<usize>> {
        let m = self.meta_reference.find(question)?.range();
        let mut rest = question[m.end..].split_whitespace();
        let first = rest.next().unwrap_or("");
        let quoted = |w: &str| w.starts_with(['"', '«', '\u{201c}']);
        let a_name = |w: &str| quoted(w) || w.contains('.') || w.starts_with(char::is_uppercase);
        let of = matches!(first, "de" | "del" | "von" | "des" | "do" | "da" | "du");
        let names_source = quoted(first) || (of && rest.next().is_some_and(a_name));
        (!names_source).then_some(m)
    }

    /// Where the question asks about the text itself.
    pub fn meta_question(&self, question: &str) -> Option<Range<usize>> {
        self.meta_question.find(question).map(|m| m.range())
    }

    /// Where the question points at an earlier turn.
    pub fn earlier_turn(&self, question: &str) -> Option<Range<usize>> {
        self.earlier_turn.find(question).map(|m| m.range())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(code: &str) -> &'static Wording {
        wording(Language::parse(code).unwrap()).unwrap()
    }

    #[test]
    fn yes_no_questions_in_each_language() {
        let es = table("es");
        assert!(es.is_yes_no("¿El plan gratuito incluye copias de seguridad?"));
        assert!(!es.is_yes_no("¿Qué incluye el plan gratuito?"));
        assert!(!es.is_yes_no("¿El plan incluye copias o solo archivos?"));
        assert!(!es.is_yes_no("Explica si el plan incluye copias."));
        let de = table("de");
        assert!(de.is_yes_no("Ist die Universität älter als die Stadt?"));
        assert!(!de.is_yes_no("Wann wurde die Universität gegründet?"));
        let fr = table("fr");
        assert!(fr.is_yes_no("Est-ce que le plan inclut des copies ?"));
        assert!(!fr.is_yes_no("Quand l'université a-t-elle été fondée ?"));
        let zh = table("zh");
        assert!(zh.is_yes_no("免费计划包括备份吗？"));
        assert!(!zh.is_yes_no("大学是什么时候成立的？"));
        assert!(table("pt").is_yes_no("É verdade que o plano inclui cópias?"));
    }

    #[test]
    fn references_to_the_source_and_to_the_text() {
        let es = table("es");
        let q = "Según el texto, ¿cuándo se fundó la universidad?";
        assert_eq!(&q[es.meta_reference(q).unwrap()], "Según el texto");
        assert!(es.meta_reference("¿Qué es el documento de identidad?").is_none());
        assert!(
            es.meta_reference("¿Qué conviene según la información de bancoestado.cl?")
                .is_none()
        );
        assert!(
            es.meta_reference("¿Qué conviene según la información proporcionada?")
                .is_some()
        );
        assert!(es.opens_question("como postulo al subsidio habitacional"));
        assert!(!es.is_yes_no("¿Cual es la renta mínima?"));
        assert!(es.meta_question("¿De qué trata el texto?").is_some());
        assert!(
            table("de")
                .meta_reference("Was steht laut dem Text im Vertrag?")
                .is_some()
        );
        assert!(table("zh").meta_reference("根据上文，大学何时成立？").is_some());
        assert!(table("es").earlier_turn("¿Y la respuesta anterior?").is_some());
        assert!(table("es").opens_question("Cuándo se fundó la universidad"));
        assert!(!table("es").opens_question("La universidad se fundó en 1850"));
        assert!(wording(Language::parse("ko").unwrap()).is_none());
        assert!(readable(Language::ENGLISH));
    }
}
