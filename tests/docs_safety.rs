//! The table of guarded configuration keys in `docs/safety.md` is written from the registry
//! the loader reads: this test fails when the page differs from what the registry renders today.
//! `RAGSYNTH_BLESS=1 cargo test --test docs_safety` rewrites the table in place.

use std::path::Path;

use ragsynth::config::GUARDED;
use ragsynth::render::config::{TABLE_END, TABLE_START, guarded_keys_markdown};

#[test]
fn the_guarded_keys_table_matches_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/safety.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(end)) = (page.find(TABLE_START), page.find(TABLE_END)) else {
        panic!("docs/safety.md lacks the guarded-keys markers");
    };
    let have = &page[start + TABLE_START.len()..end];
    let want = format!("\n{}", guarded_keys_markdown(GUARDED));
    if have == want {
        return;
    }
    if std::env::var_os("RAGSYNTH_BLESS").is_some_and(|v| v == "1") {
        let page = format!("{}{want}{}", &page[..start + TABLE_START.len()], &page[end..]);
        ragsynth::fsutil::write_atomic(&path, page.as_bytes()).unwrap();
        return;
    }
    panic!(
        "the guarded-keys table in docs/safety.md is stale: run `RAGSYNTH_BLESS=1 cargo test --test docs_safety`"
    );
}
