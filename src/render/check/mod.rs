//! `ragsynth check`'s report: [`text`] for people, [`json`] (one object per case and line) for
//! scripts, and the registry itself ([`list`], [`explain`], and the `docs/checks.md` page,
//! [`reference`]).

pub mod json;
pub mod reference;
pub mod text;

pub use json::json;
pub use reference::{checks_markdown, explain, list};
pub use text::text;
