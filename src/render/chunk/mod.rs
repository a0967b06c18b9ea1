//! The chunks of a corpus in each format: a [`Table`] of per-document statistics for people,
//! [`jsonl()`] with one chunk a line for scripts. Both take documents as they stream in.

mod jsonl;
mod text;

pub use jsonl::jsonl;
pub use text::Table;
