//! `arrow_scan`: `simdnbt-arrow`'s row extraction for every table (the
//! built-in ones with their `snbt` column, and a custom one) takes any chunk
//! or file to rows, never a panic, with every column as long as the rows.
//!
//! Input: `0x0a` first: a chunk's (or file's) NBT as it is; any other first
//! byte: the rest made into a chunk by [`crate::chunk::build`] (either
//! layout and packing, palettes of 0 to 65,537 entries, data of the right
//! length or one off, indices past the palette).
//!
//! And the `blocks` table agrees with the library's chunk helpers
//! (`simdnbt::region::chunk`): where those decode a chunk and the table
//! skips no section, the chunk's blocks per name are the same (per name, not
//! per section: the helpers read a `Y` of another type than Byte as 0).

use std::collections::BTreeMap;
use std::io::Cursor;

use simdnbt::owned::BaseNbt;
use simdnbt::region::chunk::Chunk;

/// The `arrow_scan` target.
pub fn arrow_scan(data: &[u8]) {
    match data.first() {
        None => {}
        Some(0x0a) => check(data),
        Some(_) => {
            let (root, _) = crate::chunk::build(&data[1..]);
            let mut bytes = Vec::new();
            if BaseNbt::new("", root).write(&mut bytes).is_ok() {
                check(&bytes);
            }
        }
    }
}

fn check(nbt: &[u8]) {
    simdnbt_arrow::extract_all(nbt);
    let Ok(simdnbt::borrow::Nbt::Some(doc)) = simdnbt::borrow::read(&mut Cursor::new(nbt)) else {
        return;
    };
    let Ok(chunk) = Chunk::from_nbt(&doc.as_compound()) else {
        return;
    };
    let (rows, warnings) = simdnbt_arrow::block_rows(nbt);
    if !warnings.is_empty() || rows.iter().any(|(_, s, _)| s.starts_with("legacy:")) {
        return;
    }
    let mut ours: BTreeMap<String, u64> = BTreeMap::new();
    for (_, state, n) in rows {
        let name = state.split('[').next().unwrap_or_default().to_owned();
        *ours.entry(name).or_default() += u64::from(n);
    }
    let mut theirs: BTreeMap<String, u64> = BTreeMap::new();
    for section in chunk.sections() {
        let Some(blocks) = section.blocks() else {
            continue;
        };
        for (name, n) in blocks.palette().iter().zip(blocks.counts()) {
            if n > 0 {
                *theirs.entry(name.clone()).or_default() += n;
            }
        }
    }
    assert_eq!(ours, theirs, "blocks per name");
}
