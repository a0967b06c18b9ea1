//! `docs/checks.md` is written from the check registry and `docs/checks-measured.csv`: this test
//! fails when the file differs from what they render today. `RAGSYNTH_BLESS=1 cargo test --test
//! docs_checks` rewrites it.

use std::path::Path;

use ragsynth::render::check::checks_markdown;

#[test]
fn the_check_reference_matches_the_registry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let measured = std::fs::read_to_string(root.join("docs/checks-measured.csv")).unwrap_or_default();
    let want = checks_markdown(&measured);
    let path = root.join("docs/checks.md");
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
            "docs/checks.md is stale (first difference at line {}): run \
             `RAGSYNTH_BLESS=1 cargo test --test docs_checks` and commit the file",
            line + 1
        );
    }
}
