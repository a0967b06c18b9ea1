//! Checksums that tell real card numbers and IBANs from digit runs that only look like them.
//! A pattern alone would scrub order numbers and keep nothing; the checksum is what makes a
//! 16-digit run a card.

/// Luhn (mod 10) check over the digits of `s`; other characters are ignored.
pub fn luhn(s: &str) -> bool {
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() < 2 {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let d2 = d * 2;
                if d2 > 9 { d2 - 9 } else { d2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// ISO 13616 check: letters and digits only (spaces ignored), 15 to 34 characters, two
/// letters, two check digits, and the rearranged number is 1 modulo 97.
pub fn iban(s: &str) -> bool {
    let compact: Vec<char> = s.chars().filter(|c| *c != ' ').collect();
    if !(15..=34).contains(&compact.len())
        || !compact[..2].iter().all(char::is_ascii_uppercase)
        || !compact[2..4].iter().all(char::is_ascii_digit)
        || !compact.iter().all(char::is_ascii_alphanumeric)
    {
        return false;
    }
    // Move the first four characters to the end, read letters as 10..35, reduce digit by digit.
    let mut rem: u32 = 0;
    for c in compact[4..].iter().chain(&compact[..4]) {
        let v = match c.to_digit(36) {
            Some(v) => v,
            None => return false,
        };
        rem = if v < 10 {
            (rem * 10 + v) % 97
        } else {
            (rem * 100 + v) % 97
        };
    }
    rem == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luhn_accepts_test_cards_and_rejects_neighbours() {
        assert!(luhn("4111 1111 1111 1111"));
        assert!(luhn("5500-0000-0000-0004"));
        assert!(luhn("378282246310005"));
        assert!(!luhn("4111 1111 1111 1112"));
        assert!(!luhn("1234567890123456"));
    }

    #[test]
    fn iban_accepts_valid_and_rejects_altered() {
        assert!(iban("DE89 3704 0044 0532 0130 00"));
        assert!(iban("GB82WEST12345698765432"));
        assert!(iban("FR1420041010050500013M02606"));
        assert!(!iban("DE89 3704 0044 0532 0130 01"));
        assert!(!iban("GB82WEST1234"));
    }
}
