//! Cutting very long lines before the splitter sees them.
//!
//! `text-splitter` looks for the first sentence (and word) from where each chunk starts; in a
//! line with no sentence break that scan runs to the end of the line, so every chunk of a long
//! one-line file costs the whole rest of the line: 8 s for 1.6 MB, no end in sight for 14 MB.
//! A line longer than [`PIECE_CHUNKS`] chunks is therefore cut into pieces of about that many
//! chunks (at a space when one is near, else between two grapheme clusters), and each piece is
//! split on its own: the work is linear, and a chunk never spans a cut. A document with no such
//! line is one piece, split exactly as before.

use std::ops::Range;

use unicode_segmentation::GraphemeCursor;

/// Chunks' worth of characters a line may hold before it is cut.
pub const PIECE_CHUNKS: usize = 32;

/// Byte ranges covering `text` in order: the whole text, unless a line is longer than
/// `piece_chars` characters; such a line is cut into pieces of at most that many.
pub fn pieces(text: &str, piece_chars: usize) -> Vec<Range<usize>> {
    let piece_chars = piece_chars.max(1);
    let mut cuts = Vec::new();
    let mut line_start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()).chain([text.len()]) {
        let line = &text[line_start..end];
        // A line of fewer bytes than the limit has fewer characters too: not counted.
        if line.len() > piece_chars {
            cut_line(text, line_start, end, piece_chars, &mut cuts);
        }
        line_start = end + 1;
    }
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for cut in cuts {
        out.push(from..cut);
        from = cut;
    }
    out.push(from..text.len());
    out
}

/// Appends the cuts of the line `text[start..end]` to `cuts`.
fn cut_line(text: &str, start: usize, end: usize, piece_chars: usize, cuts: &mut Vec<usize>) {
    let mut piece_start = start;
    loop {
        // The byte `piece_chars` characters on, or the line ends first.
        let Some((limit, _)) = text[piece_start..end].char_indices().nth(piece_chars) else {
            return;
        };
        let limit = piece_start + limit;
        // Look back at most a quarter of a piece for a space to cut after.
        let window_chars = (piece_chars / 4).max(1);
        let window_start = text[piece_start..limit]
            .char_indices()
            .rev()
            .nth(window_chars - 1)
            .map_or(piece_start, |(i, _)| piece_start + i);
        let cut = text[window_start..limit]
            .rfind(char::is_whitespace)
            .map(|i| {
                let at = window_start + i;
                at + text[at..].chars().next().map_or(1, char::len_utf8)
            })
            .filter(|&c| c > piece_start)
            .unwrap_or_else(|| grapheme_boundary(text, limit, piece_start));
        cuts.push(cut);
        piece_start = cut;
    }
}

/// The grapheme cluster boundary at or before `at`, after `floor` (else `at`).
fn grapheme_boundary(text: &str, at: usize, floor: usize) -> usize {
    let mut cursor = GraphemeCursor::new(at, text.len(), true);
    match cursor.is_boundary(text, 0) {
        Ok(true) => at,
        _ => match cursor.prev_boundary(text, 0) {
            Ok(Some(b)) if b > floor => b,
            _ => at,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_one_piece_and_long_ones_are_cut_at_spaces() {
        let text = "short line\nanother\n";
        assert_eq!(pieces(text, 100), vec![0..text.len()]);
        let long = "word ".repeat(100);
        let text = format!("head\n{long}\ntail");
        let p = pieces(&text, 50);
        assert_eq!(p.first().unwrap().start, 0);
        assert_eq!(p.last().unwrap().end, text.len());
        assert!(p.windows(2).all(|w| w[0].end == w[1].start));
        for r in &p[..p.len() - 1] {
            assert!(text[..r.end].ends_with(' '), "cut after a space: {r:?}");
            assert!(text[r.clone()].chars().count() <= 55, "{r:?}");
        }
    }

    #[test]
    fn a_line_without_spaces_is_cut_between_grapheme_clusters() {
        let text = "e\u{301}".repeat(200); // e + combining acute: one cluster, two chars
        for r in pieces(&text, 51) {
            assert!(text.is_char_boundary(r.start));
            assert!(
                !text[r.clone()].starts_with('\u{301}'),
                "a cluster was split at {}",
                r.start
            );
        }
    }
}
