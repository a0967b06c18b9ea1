//! The table of configuration keys a file found in the working directory may not set, for
//! `docs/safety.md`, written from the registry the loader reads (`config::trust::GUARDED`), so
//! the page cannot drift from what ragsynth does. `tests/docs_safety.rs` checks the page.

use crate::config::Guarded;

/// The markers the table sits between in `docs/safety.md`.
pub const TABLE_START: &str = "<!-- guarded-keys: written from config::trust::GUARDED; `RAGSYNTH_BLESS=1 cargo test --test docs_safety` rewrites it -->";
/// See [`TABLE_START`].
pub const TABLE_END: &str = "<!-- end of guarded-keys -->";

/// One Markdown table: each guarded key, what it names, what an untrusted file may still set
/// and why the rest is refused.
pub fn guarded_keys_markdown(rows: &[Guarded]) -> String {
    let mut out =
        String::from("| key | names | from an untrusted `ragsynth.toml` | why |\n|---|---|---|---|\n");
    for row in rows {
        out.push_str(&format!(
            "| `[{}] {}` | {} | {} | {} |\n",
            row.section,
            row.key,
            row.names.label(),
            row.names.untrusted(),
            row.why
        ));
    }
    out
}
