//! A remap report in each format: [`text()`] lines for people, [`json()`] Lines for scripts.

mod json;
mod text;

pub use json::json;
pub use text::text;
