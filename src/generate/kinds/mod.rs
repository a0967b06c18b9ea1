//! The table of question kinds `generate` writes, one file each (as the audit's rules are one
//! file each): the file builds its kind's request, checks the reply, and declares its
//! [`KindInfo`] row; this table is what every other part of a run enumerates.

pub mod comparison;
pub mod identifier;
pub mod lookup;
pub mod multi_hop;
pub mod unanswerable;

use super::candidate::Kind;
use super::kind::KindInfo;

/// Every kind, in report order.
pub static KINDS: [&KindInfo; 5] = [
    &lookup::INFO,
    &identifier::INFO,
    &comparison::INFO,
    &multi_hop::INFO,
    &unanswerable::INFO,
];

/// The kind that takes the slots of a kind with too few targets (every corpus has lookups).
pub const FALLBACK: Kind = Kind::Lookup;

/// The row of `kind`, when `generate` writes it.
pub fn find(kind: Kind) -> Option<&'static KindInfo> {
    KINDS.iter().copied().find(|k| k.kind == kind)
}

/// The row of a kind the run plans; every task's kind comes from this table.
pub fn info(kind: Kind) -> &'static KindInfo {
    find(kind).unwrap_or_else(|| unreachable!("{kind:?} is planned but has no row in KINDS"))
}

/// The names `--mix` takes, comma separated.
pub fn names() -> String {
    KINDS
        .iter()
        .map(|k| k.kind.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_each_kind_once_and_default_shares_sum_to_one() {
        let mut kinds: Vec<Kind> = KINDS.iter().map(|k| k.kind).collect();
        kinds.dedup();
        assert_eq!(kinds.len(), KINDS.len());
        let total: f64 = KINDS.iter().map(|k| k.default_share).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert!(KINDS.iter().all(|k| k.per_call >= 1 && k.calls_per_task >= 1));
        assert_eq!(find(FALLBACK).map(|k| k.kind), Some(FALLBACK));
    }
}
