//! `docs/rules.md` is written from the rule registry: this test fails when the file differs
//! from what the registry renders today. `RAGSYNTH_BLESS=1 cargo test --test docs_rules`
//! rewrites it.

use std::path::Path;

use ragsynth::audit::rules;
use ragsynth::render::audit::rules_markdown;

#[test]
fn the_rule_reference_matches_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let want = rules_markdown(rules::all());
    if std::env::var_os("RAGSYNTH_BLESS").is_some_and(|v| v == "1") {
        ragsynth::fsutil::write_atomic(&path, want.as_bytes()).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
        panic!(
            "docs/rules.md is stale (first difference at line {}): run \
             `RAGSYNTH_BLESS=1 cargo test --test docs_rules` and commit the file",
            line + 1
        );
    }
}
