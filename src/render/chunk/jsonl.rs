//! Chunks as JSON Lines: `{id, doc, start, end, text}` per chunk.

use std::io::{self, Write};

use crate::chunk::Chunk;

/// Writes one line per chunk.
pub fn jsonl(out: &mut dyn Write, chunks: &[Chunk]) -> io::Result<()> {
    for c in chunks {
        serde_json::to_writer(&mut *out, c)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
