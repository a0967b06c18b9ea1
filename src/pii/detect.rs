//! The detectors: one pattern per kind of personal data, each narrowed by what tells a real
//! one from a look-alike (a checksum, the text around it, the shape of a date or a version).
//! Each returns the byte ranges it claims; [`super::find`] runs them most specific first.

use std::net::Ipv6Addr;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::checks::{iban, luhn};

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("PII patterns are valid")
}

fn char_before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

fn digit_count(s: &str) -> usize {
    s.chars().filter(char::is_ascii_digit).count()
}

static URL: LazyLock<Regex> = LazyLock::new(|| regex(r#"(?i)\b(?:https?|ftp|wss?)://[^\s<>"'`]+"#));

/// URLs with a user part (`user:pass@host`) or a secret-looking query or fragment parameter.
/// Plain links (documentation pages, the product's site) are not personal and stay.
pub(super) fn urls(text: &str) -> Vec<Range<usize>> {
    URL.find_iter(text)
        .filter_map(|m| {
            let url = m
                .as_str()
                .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}']);
            (has_credentials(url) || has_token_param(url)).then(|| m.start()..m.start() + url.len())
        })
        .collect()
}

fn has_credentials(url: &str) -> bool {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or_default();
    authority.contains('@')
}

/// Parameter names that carry secrets, compared lower-cased with `-` read as `_`.
const SECRET_PARAMS: &[&str] = &[
    "token",
    "access_token",
    "id_token",
    "refresh_token",
    "auth",
    "auth_token",
    "authorization",
    "api_key",
    "apikey",
    "key",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "pwd",
    "pass",
    "sig",
    "signature",
    "session",
    "session_id",
    "sessionid",
    "sid",
    "jwt",
    "code",
    "otp",
    "ticket",
    "x_amz_signature",
    "x_amz_credential",
    "x_amz_security_token",
];

fn has_token_param(url: &str) -> bool {
    let Some(pos) = url.find(['?', '#']) else {
        return false;
    };
    url[pos + 1..].split(['&', ';', '?', '#']).any(|pair| {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if value.is_empty() {
            return false;
        }
        let name = name.to_ascii_lowercase().replace('-', "_");
        SECRET_PARAMS.contains(&name.as_str())
            || ["token", "secret", "password", "signature"]
                .iter()
                .any(|s| name.ends_with(s))
            || looks_like_token(value)
    })
}

/// A long opaque value mixing letters and digits, as session ids and API keys are.
fn looks_like_token(value: &str) -> bool {
    value.len() >= 20
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.~+/=%".contains(c))
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
}

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b[a-z0-9][a-z0-9._%+\-]*@[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)*\.[a-z]{2,}\b",
    )
});

pub(super) fn emails(text: &str) -> Vec<Range<usize>> {
    EMAIL.find_iter(text).map(|m| m.range()).collect()
}

static IBAN: LazyLock<Regex> = LazyLock::new(|| regex(r"\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{1,4}){3,8}\b"));

/// IBANs, compact or in groups of four. The pattern may run into a following upper-case word
/// (`… 0130 00 EUR`), so trailing groups are dropped until the checksum holds.
pub(super) fn ibans(text: &str) -> Vec<Range<usize>> {
    IBAN.find_iter(text)
        .filter_map(|m| {
            let mut cand = m.as_str();
            loop {
                if iban(cand) {
                    return Some(m.start()..m.start() + cand.len());
                }
                cand = &cand[..cand.rfind(' ')?];
            }
        })
        .collect()
}

static INTL_PHONE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\+\d{1,3}(?:[ .\-]?(?:\(\d{1,4}\)|\d{1,5})){1,6}"));

/// `+<country code>` followed by groups: 8 to 15 digits in all (E.164 allows 15).
pub(super) fn international_phones(text: &str) -> Vec<Range<usize>> {
    INTL_PHONE
        .find_iter(text)
        .filter(|m| {
            !char_before(text, m.start()).is_some_and(|c| c.is_alphanumeric())
                && (8..=15).contains(&digit_count(m.as_str()))
        })
        .map(|m| m.range())
        .collect()
}

static CARD: LazyLock<Regex> = LazyLock::new(|| regex(r"\b\d(?:[ \-]?\d){12,18}\b"));

/// 13 to 19 digits, optionally grouped by spaces or dashes, that pass the Luhn check.
pub(super) fn cards(text: &str) -> Vec<Range<usize>> {
    CARD.find_iter(text)
        .filter(|m| luhn(m.as_str()))
        .map(|m| m.range())
        .collect()
}

static IPV4: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b")
});

static IPV6: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)[0-9a-f]*(?::[0-9a-f]*){2,8}(?:\.\d{1,3}){0,3}"));

/// IPv4 (four parts, each 0–255, not part of a longer dotted number) and IPv6 (anything the
/// standard library parses as one, with at least three hex digits so `::` in prose is left).
pub(super) fn ips(text: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = IPV4
        .find_iter(text)
        .filter(|m| {
            let before = char_before(text, m.start());
            let after = &text[m.end()..];
            let longer = after.starts_with('.') && after[1..].starts_with(|c: char| c.is_ascii_digit());
            before != Some('.') && !longer
        })
        .map(|m| m.range())
        .collect();
    for m in IPV6.find_iter(text) {
        if char_before(text, m.start()).is_some_and(|c| c.is_alphanumeric() || ":._".contains(c)) {
            continue;
        }
        // A sentence may go on right after the address: "… on fe80::1: failed".
        let full = m.as_str();
        let trimmed = full.trim_end_matches([':', '.']);
        let Some(cand) = [full, trimmed]
            .into_iter()
            .find(|c| c.parse::<Ipv6Addr>().is_ok())
        else {
            continue;
        };
        let end = m.start() + cand.len();
        let mut after = text[end..].chars();
        let ends_cleanly = match after.next() {
            None => true,
            Some(':' | '.') => !after.next().is_some_and(|c| c.is_alphanumeric()),
            Some(c) => !(c.is_alphanumeric() || c == '_'),
        };
        if ends_cleanly && cand.chars().filter(char::is_ascii_hexdigit).count() >= 3 {
            out.push(m.start()..end);
        }
    }
    out
}

static NANP_PHONE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?:\(\d{3}\) ?|\b\d{3}[ .\-])\d{3}[ .\-]\d{4}\b"));

static TRUNK_PHONE: LazyLock<Regex> = LazyLock::new(|| regex(r"\b0\d{1,4}(?:[ /.\-]?\d{2,8}){1,4}\b"));

static DATE_SHAPE: LazyLock<Regex> = LazyLock::new(|| regex(r"^\d{1,2}[./\-]\d{1,2}[./\-]\d{2,4}\b"));

/// North American `(555) 123-4567` / `555-123-4567`, and national numbers with a trunk `0`
/// (`030 1234567`, `020 7946 0958`, `06 12 34 56 78`, `0049 …`) of 9 to 15 digits that do not
/// start like a date (`01.02.2024`).
pub(super) fn national_phones(text: &str) -> Vec<Range<usize>> {
    let nanp = NANP_PHONE.find_iter(text).map(|m| m.range());
    let trunk = TRUNK_PHONE
        .find_iter(text)
        .filter(|m| (9..=15).contains(&digit_count(m.as_str())) && !DATE_SHAPE.is_match(m.as_str()))
        .map(|m| m.range());
    nanp.chain(trunk).collect()
}

static LONG_ID: LazyLock<Regex> = LazyLock::new(|| regex(r"\b\d{9,}\b"));

pub(super) fn long_ids(text: &str) -> Vec<Range<usize>> {
    LONG_ID.find_iter(text).map(|m| m.range()).collect()
}
