//! Corpora and questions in other languages than English, through the binary: each document's
//! language shown by `chunk` (a mixed one marked), `--language` and `[corpus] language`
//! overriding detection, bad codes refused, and the audit reading a Spanish set with Spanish
//! words and rules while a language without word lists is processed with a note.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

const ES_1: &str = "La cuenta de ahorro para la vivienda se abre en cualquier sucursal del banco con un depósito mínimo de media unidad de fomento. El titular debe ser mayor de edad y tener cédula de identidad vigente.";
const ES_2: &str = "El subsidio habitacional se solicita una vez que la cuenta tiene el ahorro exigido. La postulación se hace en línea, y el resultado se publica en el sitio del ministerio tres meses después del cierre.";
const EN: &str = "The housing savings account can be opened at any branch of the bank with a minimum deposit of half a unit. The holder must be of age and hold a valid identity card, and can close the account at any time.";

fn ragsynth(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("ragsynth").unwrap();
    c.env_remove("RAGSYNTH_CONFIG")
        .env("NO_COLOR", "1")
        .current_dir(dir);
    c
}

fn corpus(dir: &Path) {
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    std::fs::write(
        dir.join("corpus/ahorro.md"),
        format!("# Ahorro\n\n{ES_1}\n\n{ES_2}\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("corpus/mixto.md"),
        format!("# Cuenta\n\n{ES_1}\n\n{EN}\n"),
    )
    .unwrap();
}

#[test]
fn chunk_shows_each_documents_language_and_a_mixed_one() {
    let tmp = tempfile::tempdir().unwrap();
    corpus(tmp.path());
    let out = ragsynth(tmp.path()).args(["chunk", "corpus"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let row = |doc: &str| text.lines().find(|l| l.starts_with(doc)).unwrap().to_string();
    assert!(row("ahorro.md").split_whitespace().nth(1) == Some("es"), "{text}");
    let mixed = row("mixto.md");
    assert!(mixed.contains("es+en") || mixed.contains("en+es"), "{text}");
    assert!(text.contains("mixes languages"), "{text}");
    // A configured language replaces detection, from the flag or the configuration file.
    let flag = ragsynth(tmp.path())
        .args(["--language", "pt", "chunk", "corpus"])
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&flag.get_output().stdout).contains("languages: pt 2"));
    std::fs::write(tmp.path().join("ragsynth.toml"), "[corpus]\nlanguage = \"de\"\n").unwrap();
    let file = ragsynth(tmp.path()).args(["chunk", "corpus"]).assert().success();
    assert!(String::from_utf8_lossy(&file.get_output().stdout).contains("languages: de 2"));
}

#[test]
fn unknown_language_codes_are_refused_naming_where_they_came_from() {
    let tmp = tempfile::tempdir().unwrap();
    corpus(tmp.path());
    ragsynth(tmp.path())
        .args(["--language", "klingon", "chunk", "corpus"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--language klingon").and(predicate::str::contains("ISO 639-1")));
    std::fs::write(tmp.path().join("ragsynth.toml"), "[corpus]\nlanguage = \"xx\"\n").unwrap();
    ragsynth(tmp.path())
        .args(["chunk", "corpus"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("corpus.language")
                .and(predicate::str::contains("unknown language \"xx\"")),
        );
}

/// A Spanish set on the Spanish corpus: Spanish wording rules fire, Spanish function words are
/// not content, and a Korean question is processed with a note, its word-list rules skipped.
#[test]
fn audit_reads_spanish_questions_with_spanish_rules() {
    let tmp = tempfile::tempdir().unwrap();
    corpus(tmp.path());
    let at = |quote: &str| {
        let text = std::fs::read_to_string(tmp.path().join("corpus/ahorro.md")).unwrap();
        let byte = text.find(quote).unwrap();
        let start = text[..byte].chars().count();
        format!(
            "{{doc: ahorro.md, start: {start}, end: {}, quote: \"{quote}\"}}",
            start + quote.chars().count()
        )
    };
    let cases = [
        (
            "yes-no",
            "¿La cuenta se puede abrir en cualquier sucursal del banco?",
            "cualquier sucursal del banco",
        ),
        (
            "meta",
            "Según el texto, ¿qué edad debe tener el titular de la cuenta?",
            "El titular debe ser mayor de edad",
        ),
        (
            "copied",
            "¿Qué se publica en el sitio del ministerio tres meses después del cierre?",
            "el resultado se publica en el sitio del ministerio",
        ),
        (
            "plain",
            "¿Qué necesito para abrir una libreta de ahorro para comprar casa?",
            "con un depósito mínimo de media unidad de fomento",
        ),
        (
            "korean",
            "대학교 계좌는 언제 열 수 있나요 지점에서?",
            "cualquier sucursal del banco",
        ),
    ];
    let mut yaml = String::from("ragsynth: 1\ncorpus: {root: corpus}\ncases:\n");
    for (id, q, quote) in cases {
        yaml.push_str(&format!(
            "  - id: {id}\n    question: \"{q}\"\n    relevant:\n      - {}\n    tags: {{type: lookup, source: synthetic}}\n",
            at(quote)
        ));
    }
    std::fs::write(tmp.path().join("set.yaml"), yaml).unwrap();
    let out = ragsynth(tmp.path())
        .args(["audit", "set.yaml", "--format", "json", "--fail-on", "never"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let flagged = |id: &str, code: &str| {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["case"] == id && f["code"] == code)
    };
    assert!(flagged("yes-no", "RS202"), "{v:#}");
    assert!(flagged("meta", "RS205"), "{v:#}");
    assert!(flagged("copied", "RS101"), "{v:#}");
    for code in ["RS101", "RS202", "RS203", "RS205"] {
        assert!(!flagged("plain", code), "{code} on a plain question: {v:#}");
    }
    let notes: Vec<&str> = v["summary"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("4 question(s) in Spanish (es)")),
        "{notes:?}"
    );
    let korean = notes
        .iter()
        .find(|n| n.contains("Korean"))
        .expect("a note on the Korean question");
    assert!(korean.contains("no stopword list and no stemmer"), "{korean}");
    assert!(
        korean.contains("RS101") && korean.contains("did not run"),
        "{korean}"
    );
}
