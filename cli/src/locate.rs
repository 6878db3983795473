//! Which value of a broken document an error offset falls in: the reader
//! reports a byte offset; this walks the (big-endian, uncompressed) bytes up
//! to it and names the path, so `check` can say `in Inventory[3].tag`.
//!
//! The walk trusts nothing: lengths are checked against the bytes there are,
//! skipped by arithmetic (nothing is allocated by a length), and nesting is
//! an explicit stack, as in the library's readers.

use simdnbt::tag_id::*;

use crate::steps::Step;

/// An open compound or list.
enum Frame {
    Compound,
    List { id: u8, left: usize, next: usize },
}

struct Walk<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Reading stops before any item that reaches this byte.
    stop: usize,
}

impl Walk<'_> {
    /// The next `n` bytes, unless they reach the stop offset (or the end).
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.pos.checked_add(n)?;
        if end > self.stop {
            return None;
        }
        let taken = &self.bytes[self.pos..end];
        self.pos = end;
        Some(taken)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn len_u16(&mut self) -> Option<usize> {
        self.take(2)
            .map(|b| usize::from(u16::from_be_bytes([b[0], b[1]])))
    }

    fn len_i32(&mut self) -> Option<usize> {
        let b = self.take(4)?;
        usize::try_from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])).ok()
    }

    fn string(&mut self) -> Option<String> {
        let n = self.len_u16()?;
        let bytes = self.take(n)?;
        Some(simdnbt::Mutf8Str::from_slice(bytes).to_str().into_owned())
    }

    /// Skips `count` elements of `size` bytes; if the stop offset is among
    /// them, `Err` with the index of the element it is in.
    fn elements(&mut self, count: usize, size: usize) -> Result<(), usize> {
        let total = count.saturating_mul(size);
        if self.take(total).is_some() {
            return Ok(());
        }
        Err(self.stop.saturating_sub(self.pos) / size.max(1))
    }
}

/// A reader's error on `nbt`, then `note` (which bytes the offset counts),
/// then the path of the value it is in when that is not the root:
/// `unexpected end of input at byte 90, in Inventory[2].id`.
pub fn describe(error: &simdnbt::Error, nbt: &[u8], note: &str) -> String {
    let steps = locate(nbt, error.offset());
    if steps.is_empty() {
        format!("{error}{note}")
    } else {
        format!("{error}{note}, in {}", crate::steps::path_text(&steps))
    }
}

/// Fixed payload sizes by tag id (0 for the others).
fn fixed_size(id: u8) -> usize {
    match id {
        BYTE => 1,
        SHORT => 2,
        INT | FLOAT => 4,
        LONG | DOUBLE => 8,
        _ => 0,
    }
}

/// The path of the innermost value of `nbt` (a named root compound) that
/// byte `offset` is in; empty for the root itself or when it is not inside
/// the root compound.
pub fn locate(nbt: &[u8], offset: usize) -> Vec<Step> {
    let mut walk = Walk {
        bytes: nbt,
        pos: 0,
        stop: offset.min(nbt.len()),
    };
    let mut path = Vec::new();
    if walk.u8() != Some(COMPOUND) || walk.string().is_none() {
        return path;
    }
    let mut stack = vec![Frame::Compound];
    // `path` holds one step per open frame below the root, plus the step of
    // the value being read.
    loop {
        let id = match stack.last_mut() {
            None => return path,
            Some(Frame::Compound) => {
                let Some(id) = walk.u8() else { return path };
                if id == END {
                    stack.pop();
                    path.pop();
                    continue;
                }
                let Some(key) = walk.string() else {
                    return path;
                };
                path.push(Step::Key(key));
                id
            }
            Some(Frame::List { id, left, next }) => {
                if *left == 0 {
                    stack.pop();
                    path.pop();
                    continue;
                }
                *left -= 1;
                path.push(Step::Index(*next));
                *next += 1;
                *id
            }
        };
        // The payload of a value of type `id`, whose step is on `path`.
        let done = match id {
            BYTE | SHORT | INT | LONG | FLOAT | DOUBLE => walk.take(fixed_size(id)).is_some(),
            STRING => walk.string().is_some(),
            BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => {
                let size = match id {
                    BYTE_ARRAY => 1,
                    INT_ARRAY => 4,
                    _ => 8,
                };
                let Some(count) = walk.len_i32() else {
                    return path;
                };
                match walk.elements(count, size) {
                    Ok(()) => true,
                    Err(index) => {
                        path.push(Step::Index(index));
                        return path;
                    }
                }
            }
            COMPOUND => {
                stack.push(Frame::Compound);
                continue;
            }
            LIST => {
                let (Some(elem), Some(count)) = (walk.u8(), walk.len_i32()) else {
                    return path;
                };
                let size = fixed_size(elem);
                if size > 0 {
                    match walk.elements(count, size) {
                        Ok(()) => true,
                        Err(index) => {
                            path.push(Step::Index(index));
                            return path;
                        }
                    }
                } else {
                    stack.push(Frame::List {
                        id: elem,
                        left: count,
                        next: 0,
                    });
                    continue;
                }
            }
            // An unknown tag id: the error is at this value.
            _ => false,
        };
        if !done {
            return path;
        }
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steps::path_text;

    fn doc(snbt: &str) -> Vec<u8> {
        let c = simdnbt::snbt::compound_from_str(snbt).unwrap();
        let mut out = Vec::new();
        simdnbt::owned::BaseNbt::new("", c).write(&mut out).unwrap();
        out
    }

    /// The path at every offset of a cut document: the value the cut falls in.
    #[test]
    fn paths_at_offsets() {
        let bytes = doc("{a: 1b, b: {c: [I; 1, 2, 3], d: [{e: 'xyz'}, {e: 'w'}]}, f: [1L, 2L]}");
        let at = |needle: &[u8], extra: usize| {
            let start = bytes
                .windows(needle.len())
                .position(|w| w == needle)
                .unwrap();
            path_text(&locate(&bytes, start + extra))
        };
        assert_eq!(path_text(&locate(&bytes, 0)), "(root)");
        assert_eq!(at(b"\x01\x00\x01a", 4), "a");
        // Inside the int array: element 2 (bytes 8..12 of the elements).
        assert_eq!(at(b"\x00\x00\x00\x03\x00\x00\x00\x01", 4 + 9), "b.c[2]");
        assert_eq!(at(b"xyz", 1), "b.d[0].e");
        assert_eq!(at(b"\x08\x00\x01e\x00\x01w", 0), "b.d[1]");
        assert_eq!(at(b"\x00\x00\x00\x00\x00\x00\x00\x02", 3), "f[1]");
        // Past the end: the root.
        assert_eq!(path_text(&locate(&bytes, bytes.len() + 5)), "(root)");
    }

    #[test]
    fn hostile_lengths_do_not_allocate_or_panic() {
        // A list claiming i32::MAX compounds, and one of longs, then nothing.
        let mut bytes = vec![10, 0, 0, 9, 0, 1, b'l', 10, 0x7f, 0xff, 0xff, 0xff];
        assert_eq!(path_text(&locate(&bytes, bytes.len())), "l[0]");
        bytes[7] = 4;
        assert_eq!(path_text(&locate(&bytes, bytes.len())), "l[0]");
        for cut in 0..bytes.len() {
            locate(&bytes[..cut], cut);
        }
    }

    /// A small deterministic fuzz: corpus documents with bytes overwritten at
    /// random, located at random offsets. Nothing may panic, and the path is
    /// never deeper than the document could nest.
    #[test]
    fn mutated_corpus_documents() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for name in [
            "bigtest.nbt",
            "complex_player.dat",
            "level.dat",
            "chunk1.14.nbt",
        ] {
            let original = corpus::load(name).unwrap();
            for _ in 0..300 {
                let mut bytes = original.to_vec();
                for _ in 0..(next() % 4 + 1) {
                    let at = (next() % bytes.len() as u64) as usize;
                    bytes[at] = next() as u8;
                }
                let cut = (next() % (bytes.len() as u64 + 1)) as usize;
                let bytes = &bytes[..cut];
                for _ in 0..4 {
                    let offset = (next() % (cut as u64 + 2)) as usize;
                    let steps = locate(bytes, offset);
                    assert!(steps.len() <= bytes.len(), "{name}");
                }
                if let Err(e) = simdnbt::owned::read(&mut std::io::Cursor::new(bytes)) {
                    let _ = describe(&e, bytes, "");
                }
            }
        }
    }
}
