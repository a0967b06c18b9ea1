//! Reading one file of the corpus into a [`Document`], or saying why it is left out.
//!
//! Only regular files are opened (a FIFO would block, a device never ends), and never more
//! than the size limit is read: a pseudo-file such as those under `/proc` reports size 0 and
//! can hold anything, so the limit is enforced on the bytes read, not on what `stat` says.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{DocKind, Document, SkipReason, Skipped, WalkOptions};
use crate::fsutil::relative_slash_path;
use crate::html;

/// Reads one file into a [`Document`], or says why it is skipped.
pub fn read_document(base: &Path, path: &Path, options: &WalkOptions) -> Result<Document, Skipped> {
    let skip = |reason| Skipped {
        path: path.to_path_buf(),
        reason,
    };
    let kind = DocKind::from_path(path).unwrap_or(DocKind::Text);
    let meta = std::fs::metadata(path).map_err(|e| skip(SkipReason::Unreadable(e.to_string())))?;
    if !meta.is_file() {
        return Err(skip(SkipReason::NotRegular));
    }
    let max = options.max_file_bytes;
    if meta.len() > max {
        return Err(skip(SkipReason::TooLarge(meta.len())));
    }
    let bytes =
        read_capped(path, meta.len(), max).map_err(|e| skip(SkipReason::Unreadable(e.to_string())))?;
    if bytes.len() as u64 > max {
        return Err(skip(SkipReason::ReadPastLimit(max)));
    }
    let rel = relative_slash_path(base, path).ok_or_else(|| skip(SkipReason::NonUtf8Name))?;
    if memchr::memchr(0, &bytes).is_some() {
        return Err(skip(SkipReason::Binary));
    }
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let raw =
        String::from_utf8(bytes).map_err(|e| skip(SkipReason::NotUtf8(e.utf8_error().valid_up_to())))?;
    let text = match kind {
        DocKind::Html => html::to_text(&raw),
        _ => raw,
    };
    if text.trim().is_empty() {
        return Err(skip(SkipReason::Empty));
    }
    Ok(Document {
        path: rel,
        text,
        kind,
        sha256,
    })
}

/// At most `max + 1` bytes of the file: one more than allowed tells "too large" apart.
fn read_capped(path: &Path, size_hint: u64, max: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(size_hint.min(max) as usize);
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pseudo_file_that_reports_size_zero_is_read_only_up_to_the_limit() {
        // /proc/self/maps reports 0 bytes and holds several hundred.
        let p = Path::new("/proc/self/maps");
        if std::fs::metadata(p).map(|m| m.len()).unwrap_or(1) != 0 {
            return;
        }
        let options = WalkOptions {
            max_file_bytes: 16,
            ..WalkOptions::default()
        };
        let e = read_document(Path::new("/proc/self"), p, &options).unwrap_err();
        assert_eq!(e.reason, SkipReason::ReadPastLimit(16));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_not_opened() {
        let e =
            read_document(Path::new("/dev"), Path::new("/dev/zero"), &WalkOptions::default()).unwrap_err();
        assert_eq!(e.reason, SkipReason::NotRegular);
    }
}
