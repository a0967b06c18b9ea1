//! Character offsets to byte offsets and back: labels count Unicode scalar values, Rust slices
//! count bytes.

/// Maps character offsets of one text to byte offsets and back, in O(log n) per lookup after
/// one pass. Labels are in characters; Rust slices are in bytes.
pub struct CharIndex<'a> {
    text: &'a str,
    /// Byte offset of every 64th character, so memory is 1/64 of the char count.
    marks: Vec<usize>,
    chars: usize,
}

const MARK_EVERY: usize = 64;

impl<'a> CharIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut marks = Vec::with_capacity(text.len() / MARK_EVERY + 1);
        let mut chars = 0;
        for (i, (b, _)) in text.char_indices().enumerate() {
            if i % MARK_EVERY == 0 {
                marks.push(b);
            }
            chars = i + 1;
        }
        CharIndex { text, marks, chars }
    }

    /// Number of characters.
    pub fn char_len(&self) -> usize {
        self.chars
    }

    /// Byte offset of character `c` (`c == char_len()` gives the text length); `None` past it.
    pub fn byte_of(&self, c: usize) -> Option<usize> {
        if c > self.chars {
            return None;
        }
        if c == self.chars {
            return Some(self.text.len());
        }
        let mark = self.marks[c / MARK_EVERY];
        let rest = c % MARK_EVERY;
        self.text[mark..].char_indices().nth(rest).map(|(b, _)| mark + b)
    }

    /// Character offset of byte `b` (which must be a char boundary).
    pub fn char_of(&self, b: usize) -> usize {
        let m = self.marks.partition_point(|&x| x <= b).saturating_sub(1);
        m * MARK_EVERY
            + self.text[self.marks.get(m).copied().unwrap_or(0)..b]
                .chars()
                .count()
    }

    /// The text between two character offsets, `None` if out of range.
    pub fn slice(&self, start: usize, end: usize) -> Option<&'a str> {
        if start > end {
            return None;
        }
        Some(&self.text[self.byte_of(start)?..self.byte_of(end)?])
    }
}
