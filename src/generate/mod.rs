//! `generate`: turns a corpus into synthetic test cases a person can review (pipeline steps
//! 3–6 of the design). [`plan`] picks chunks and kinds, [`prompts`] renders the templates,
//! the LLM writes candidates, [`verify`] keeps the ones whose quotes are really in the corpus
//! and that are not repeats, [`merge`] appends them to the test set and [`summary`] accounts
//! for every candidate.

pub mod merge;
pub mod pairs;
pub mod plan;
pub mod prompts;
pub mod summary;
pub mod verify;
