//! Personal data in imported questions: found, counted and replaced by typed placeholders
//! before anything is written.
//!
//! Real questions come from logs and tickets, so they carry e-mail addresses, phone numbers,
//! card numbers and account ids. A test set is shared, committed and sent to LLM providers, so
//! none of that may reach it. Each kind has a pattern and, where one exists, a checksum (Luhn
//! for cards, mod-97 for IBANs) so that look-alikes — dates, times, version numbers, prices,
//! order numbers that fail the checksum, error codes like `TP-412` — stay as written.
//!
//! Detectors run from the most specific to the least (a URL holds an e-mail-like user part, a
//! card number is also a long digit run); a later detector never claims text an earlier one
//! already replaced.

mod checks;
mod detect;

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::Serialize;

pub use checks::{iban, luhn};

/// A kind of personal data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// An e-mail address.
    Email,
    /// A phone number, international (`+44 20 …`) or in a common national format.
    Phone,
    /// A payment-card number (13–19 digits, spaces or dashes allowed, Luhn-valid).
    Card,
    /// An IBAN (mod-97 valid).
    Iban,
    /// An IPv4 or IPv6 address.
    Ip,
    /// A URL carrying credentials (`user:pass@`) or a token-like query parameter.
    Url,
    /// A run of nine or more digits no other kind claimed (account, order, customer ids).
    Id,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 7] = [
        Kind::Email,
        Kind::Phone,
        Kind::Card,
        Kind::Iban,
        Kind::Ip,
        Kind::Url,
        Kind::Id,
    ];

    /// The text that replaces it.
    pub fn placeholder(self) -> &'static str {
        match self {
            Kind::Email => "<EMAIL>",
            Kind::Phone => "<PHONE>",
            Kind::Card => "<CARD>",
            Kind::Iban => "<IBAN>",
            Kind::Ip => "<IP>",
            Kind::Url => "<URL>",
            Kind::Id => "<ID>",
        }
    }

    /// The name used in summaries.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Email => "email",
            Kind::Phone => "phone",
            Kind::Card => "card",
            Kind::Iban => "iban",
            Kind::Ip => "ip",
            Kind::Url => "url",
            Kind::Id => "id",
        }
    }
}

/// One piece of personal data: its kind and byte range in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What it is.
    pub kind: Kind,
    /// Byte range in the scanned text.
    pub range: Range<usize>,
}

/// How many of each kind were replaced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Counts(BTreeMap<Kind, usize>);

impl Counts {
    /// Adds one of `kind`.
    pub fn add(&mut self, kind: Kind) {
        *self.0.entry(kind).or_default() += 1;
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Counts) {
        for (k, n) in &other.0 {
            *self.0.entry(*k).or_default() += n;
        }
    }

    /// How many of `kind`.
    pub fn get(&self, kind: Kind) -> usize {
        self.0.get(&kind).copied().unwrap_or(0)
    }

    /// How many in all.
    pub fn total(&self) -> usize {
        self.0.values().sum()
    }
}

impl fmt::Display for Counts {
    /// `2 email, 1 phone` (kinds with a count only), or `nothing`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.total() == 0 {
            return f.write_str("nothing");
        }
        let parts: Vec<String> = Kind::ALL
            .iter()
            .filter(|k| self.get(**k) > 0)
            .map(|k| format!("{} {}", self.get(*k), k.as_str()))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// Text with its personal data replaced, and what was replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scrubbed {
    /// The text with placeholders.
    pub text: String,
    /// Replacements by kind.
    pub counts: Counts,
}

/// Replaces every finding in `text` by its placeholder.
pub fn scrub(text: &str) -> Scrubbed {
    let findings = find(text);
    let mut out = String::with_capacity(text.len());
    let mut counts = Counts::default();
    let mut at = 0;
    for f in findings {
        out.push_str(&text[at..f.range.start]);
        out.push_str(f.kind.placeholder());
        counts.add(f.kind);
        at = f.range.end;
    }
    out.push_str(&text[at..]);
    Scrubbed { text: out, counts }
}

/// Finds personal data in `text`: non-overlapping findings in text order.
pub fn find(text: &str) -> Vec<Finding> {
    type Detector = fn(&str) -> Vec<Range<usize>>;
    // Most specific first: each later detector only gets text no earlier one claimed.
    let detectors: [(Kind, Detector); 8] = [
        (Kind::Url, detect::urls),
        (Kind::Email, detect::emails),
        (Kind::Iban, detect::ibans),
        (Kind::Phone, detect::international_phones),
        (Kind::Card, detect::cards),
        (Kind::Ip, detect::ips),
        (Kind::Phone, detect::national_phones),
        (Kind::Id, detect::long_ids),
    ];
    let mut found: Vec<Finding> = Vec::new();
    for (kind, detect) in detectors {
        for range in detect(text) {
            let overlaps = found
                .iter()
                .any(|f| f.range.start < range.end && range.start < f.range.end);
            if !overlaps {
                found.push(Finding { kind, range });
            }
        }
    }
    found.sort_by_key(|f| f.range.start);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, String)> {
        find(text)
            .into_iter()
            .map(|f| (f.kind, text[f.range].to_string()))
            .collect()
    }

    #[test]
    fn each_kind_is_found_with_its_extent() {
        let cases: &[(&str, Kind, &str)] = &[
            (
                "mail jane.doe+tp@example.co.uk now",
                Kind::Email,
                "jane.doe+tp@example.co.uk",
            ),
            ("call +44 20 7946 0958.", Kind::Phone, "+44 20 7946 0958"),
            ("call +1 (555) 123-4567", Kind::Phone, "+1 (555) 123-4567"),
            ("call (555) 123-4567 today", Kind::Phone, "(555) 123-4567"),
            ("ring 030 1234567 please", Kind::Phone, "030 1234567"),
            ("tel 06 12 34 56 78", Kind::Phone, "06 12 34 56 78"),
            (
                "card 4111 1111 1111 1111 failed",
                Kind::Card,
                "4111 1111 1111 1111",
            ),
            ("card 5500-0000-0000-0004", Kind::Card, "5500-0000-0000-0004"),
            (
                "iban DE89 3704 0044 0532 0130 00 EUR",
                Kind::Iban,
                "DE89 3704 0044 0532 0130 00",
            ),
            (
                "iban GB82WEST12345698765432.",
                Kind::Iban,
                "GB82WEST12345698765432",
            ),
            ("host 192.168.10.24 down", Kind::Ip, "192.168.10.24"),
            (
                "host 2001:db8::8a2e:370:7334 down",
                Kind::Ip,
                "2001:db8::8a2e:370:7334",
            ),
            (
                "agent on fe80::1ff:fe23:4567:890a: failed",
                Kind::Ip,
                "fe80::1ff:fe23:4567:890a",
            ),
            (
                "see https://bob:hunter2@tp.example.com/x",
                Kind::Url,
                "https://bob:hunter2@tp.example.com/x",
            ),
            (
                "open https://tp.example.com/r?id=3&token=abc123.",
                Kind::Url,
                "https://tp.example.com/r?id=3&token=abc123",
            ),
            ("my account 123456789 is locked", Kind::Id, "123456789"),
        ];
        for (text, kind, extent) in cases {
            assert_eq!(kinds(text), vec![(*kind, extent.to_string())], "in {text:?}");
        }
    }

    #[test]
    fn look_alikes_are_kept() {
        for text in [
            "upgrade to 2.4.1 on 2024-01-15 at 10:30:00",
            "backup from 15.03.2024 failed, then 01/02/2024 10:15",
            "it costs $1,299.99 or €49.90 per month",
            "error TP-412 after 3 retries on port 8750/tcp",
            "order 12345678 and ticket 4111 1111 1111 1112",
            "a run of 1234567890123456 digits fails Luhn",
            "see https://docs.tidepool.example/guides/restore?lang=en",
            "use std::fs and Vec::new in Rust; a::b is not an address",
            "ISO time 2024-01-15T10:30:00Z and C++14",
        ] {
            let found = kinds(text);
            // The 16-digit run fails Luhn, so it is an id, not a card.
            if text.starts_with("a run of") {
                assert_eq!(found, vec![(Kind::Id, "1234567890123456".to_string())]);
            } else {
                assert!(found.is_empty(), "{text:?}: {found:?}");
            }
        }
    }

    #[test]
    fn scrub_replaces_and_counts() {
        let s =
            scrub("I'm bob@example.com, card 4111-1111-1111-1111, call +49 30 1234567 or bob@example.com");
        assert_eq!(s.text, "I'm <EMAIL>, card <CARD>, call <PHONE> or <EMAIL>");
        assert_eq!(s.counts.get(Kind::Email), 2);
        assert_eq!(s.counts.total(), 4);
        assert_eq!(s.counts.to_string(), "2 email, 1 phone, 1 card");
        assert_eq!(scrub("nothing here").counts.to_string(), "nothing");
    }
}
