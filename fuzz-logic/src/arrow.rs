//! `arrow_scan`: `simdnbt-arrow`'s row extraction for every table (the
//! built-in ones with their `snbt` column, and a custom one) takes any chunk
//! or file to rows, never a panic, with every column as long as the rows.
//!
//! Input: `0x0a` first: a chunk's (or file's) NBT as it is; any other first
//! byte: the rest made into a chunk by [`crate::chunk::build`] (either
//! layout and packing, palettes of 0 to 65,537 entries, data of the right
//! length or one off, indices past the palette).

use simdnbt::owned::BaseNbt;

/// The `arrow_scan` target.
pub fn arrow_scan(data: &[u8]) {
    match data.first() {
        None => {}
        Some(0x0a) => {
            simdnbt_arrow::extract_all(data);
        }
        Some(_) => {
            let (root, _) = crate::chunk::build(&data[1..]);
            let mut bytes = Vec::new();
            if BaseNbt::new("", root).write(&mut bytes).is_ok() {
                simdnbt_arrow::extract_all(&bytes);
            }
        }
    }
}
