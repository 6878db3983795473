//! The sizes of what the owned writer stores without a room check of its
//! own: the writer reserves them ahead (`write.rs`), and the estimate of a
//! tree's output counts them in (`estimate.rs`).

use crate::mutf8::STRING_SIZE;

/// Bytes of an entry's id and inline name block (`id`, `0`, the block).
pub(super) const HEAD: usize = 2 + STRING_SIZE;

/// The most bytes an entry written without its own room check takes: a
/// String entry whose name and value are both inline (id, a zero, the name
/// block, a zero, the value block); a number with an inline name takes at
/// most `HEAD + 8`, the head of a list of containers `HEAD + 5`.
pub(super) const INLINE_ENTRY_ROOM: usize = HEAD + 1 + STRING_SIZE;
