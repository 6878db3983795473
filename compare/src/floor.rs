//! The floor: the least work any serial reader of Java (big-endian) NBT must
//! do, as a yardstick for the others.
//!
//! [`walk`] checks what a validating reader cannot skip — the root's tag id
//! and name, every tag id, every name, string and array length against what
//! is left, every list header (a known element type, a count that is not
//! negative, that the rest of the input could hold at the element type's
//! smallest size, and no elements of type End) and the depth limit — and
//! records nothing. It accepts exactly what `simdnbt::borrow::read` accepts
//! and ends where it ends (`tests/floor.rs` checks that on the corpus, every
//! truncation, overwrites, bit flips and depth chains), so the time between
//! the two is what building the tape costs.
//!
//! Like `borrow::read`, it does not check MUTF-8: the borrowed reader keeps
//! strings as raw slices and validates them only when they are decoded.
//!
//! Each tag's position is known only once the previous length has been
//! loaded, so even this walker waits on one chain of dependent loads; a
//! reader's time over the floor's ([`crate::Peer`] `floor`, the `race` binary)
//! says how much room it leaves, which an instruction count does not
//! (`reports/perf.md`, "Against the floor").
//!
//! ```
//! // `0a 00 00` (a compound named ""), a byte `b` = 1, End.
//! let doc = [0x0a, 0, 0, 1, 0, 1, b'b', 1, 0];
//! assert_eq!(compare::floor::walk(&doc), Some(doc.len()));
//! assert_eq!(compare::floor::walk(&doc[..8]), None);
//! ```

/// The deepest nesting accepted, counting the root compound as 1: vanilla's
/// limit and `simdnbt::borrow::read`'s default. Every list counts, a list of
/// numbers too.
pub const MAX_DEPTH: usize = 512;

const END: u8 = 0;
const DOUBLE: u8 = 6;
const BYTE_ARRAY: u8 = 7;
const STRING: u8 = 8;
const LIST: u8 = 9;
const COMPOUND: u8 = 10;
const INT_ARRAY: u8 = 11;
const LONG_ARRAY: u8 = 12;

/// The payload size of each number type (Byte..=Double), by id; 0 for End.
const FIXED: [usize; 7] = [0, 1, 2, 4, 8, 4, 8];

/// The fewest bytes a list element of each type takes, by id (End: a list of
/// End must be empty, which [`open_list`] checks by itself).
const ELEMENT_MIN: [u64; 13] = [0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4, 4];

/// A compound waiting on the stack for its child.
const COMPOUND_FRAME: u32 = u32::MAX;
/// Set in a list frame when its elements are lists; the rest of the frame is
/// the number of elements still to open (below `i32::MAX` for any input under
/// 10 GiB, which keeps a list frame from reading as [`COMPOUND_FRAME`]).
const LIST_OF_LISTS: u32 = 1 << 31;

/// Frames held in the walker's own stack frame; deeper documents (rare) go on
/// to a `Vec`.
const INLINE: usize = 32;

/// The open containers but the innermost: each a compound or a list of
/// containers with its elements still to open.
struct Stack {
    inline: [u32; INLINE],
    len: usize,
    deep: Vec<u32>,
}

impl Stack {
    #[inline(always)]
    fn push(&mut self, frame: u32) {
        if self.len < INLINE {
            self.inline[self.len] = frame;
        } else {
            self.deep.push(frame);
        }
        self.len += 1;
    }

    /// The top frame.
    #[inline(always)]
    fn top(&mut self) -> Option<&mut u32> {
        match self.len {
            0 => None,
            n if n <= INLINE => Some(&mut self.inline[n - 1]),
            _ => self.deep.last_mut(),
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if self.len < INLINE {
            Some(self.inline[self.len])
        } else {
            self.deep.pop()
        }
    }
}

#[inline(always)]
fn be16(data: &[u8], at: usize) -> Option<usize> {
    let b = data.get(at..at + 2)?;
    Some(u16::from_be_bytes([b[0], b[1]]) as usize)
}

#[inline(always)]
fn be_i32(data: &[u8], at: usize) -> Option<i32> {
    let b = data.get(at..at + 4)?;
    Some(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Where the string or array payload of type `id` at `at` ends, if it fits.
#[inline(always)]
fn prefixed(data: &[u8], at: usize, id: u8) -> Option<usize> {
    if id == STRING {
        let start = at + 2;
        let len = be16(data, at)?;
        return (data.len() - start >= len).then_some(start + len);
    }
    let n = be_i32(data, at)?;
    let start = at + 4;
    let size = match id {
        BYTE_ARRAY => 1,
        INT_ARRAY => 4,
        _ => 8,
    };
    // u64: n < 2^31 and size <= 8 cannot overflow it, on any target.
    if n < 0 || ((data.len() - start) as u64) < n as u64 * size {
        return None;
    }
    Some(start + n as usize * size as usize)
}

/// Reads the list header at `*pos` of a list `depth` levels deep (the root
/// is level one) and, unless its elements are containers, its elements;
/// leaves `*pos` after what it read. Returns the list's frame when it has
/// containers to open, `Some(None)` when it was read whole, `None` when it is
/// invalid.
#[inline(always)]
fn open_list(data: &[u8], pos: &mut usize, depth: usize) -> Option<Option<u32>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let at = *pos;
    let elem = *data.get(at)?;
    let n = be_i32(data, at + 1)?;
    let start = at + 5;
    if n < 0 || elem > LONG_ARRAY || (elem == END && n != 0) {
        return None;
    }
    let rest = (data.len() - start) as u64;
    if n as u64 * ELEMENT_MIN[elem as usize] > rest {
        return None;
    }
    let n = n as u32;
    *pos = start;
    match elem {
        END..=DOUBLE => {
            *pos += n as usize * FIXED[elem as usize];
            Some(None)
        }
        COMPOUND | LIST if n == 0 => Some(None),
        COMPOUND => Some(Some(n)),
        LIST => Some(Some(n | LIST_OF_LISTS)),
        _ => {
            for _ in 0..n {
                *pos = prefixed(data, *pos, elem)?;
            }
            Some(None)
        }
    }
}

/// Walks the document at the start of `data` (named root compound, or an End
/// root meaning "no document") and returns the offset just past it, or
/// `None` where `simdnbt::borrow::read` returns an error.
pub fn walk(data: &[u8]) -> Option<usize> {
    match *data.first()? {
        END => return Some(1),
        COMPOUND => {}
        _ => return None,
    }
    let payload = 3 + be16(data, 1)?;
    if payload > data.len() {
        return None;
    }
    walk_compound(data, payload)
}

/// Walks the payload of the root compound at `pos`; returns where it ends.
fn walk_compound(data: &[u8], mut pos: usize) -> Option<usize> {
    let len = data.len();
    let mut stack = Stack {
        inline: [0; INLINE],
        len: 0,
        deep: Vec::new(),
    };
    // The innermost open container, at depth `stack.len + 1`.
    let mut cur = COMPOUND_FRAME;
    'containers: loop {
        if cur == COMPOUND_FRAME {
            // The tags of a compound, until its End.
            loop {
                let id = *data.get(pos)?;
                if id == END {
                    pos += 1;
                    // In a list of compounds with elements left, the next
                    // one starts here, at the same depth.
                    if let Some(top) = stack.top() {
                        if top.wrapping_sub(1) < LIST_OF_LISTS - 1 {
                            *top -= 1;
                            continue;
                        }
                    }
                    match stack.pop() {
                        None => return Some(pos),
                        Some(COMPOUND_FRAME) => continue,
                        Some(parent) => {
                            cur = parent;
                            continue 'containers;
                        }
                    }
                }
                // Id, name length, name: the payload starts at `p`.
                let p = pos + 3 + be16(data, pos + 1)?;
                if id <= DOUBLE {
                    pos = p + FIXED[id as usize];
                    if pos > len {
                        return None;
                    }
                    continue;
                }
                if p > len {
                    return None;
                }
                if id == STRING {
                    pos = prefixed(data, p, STRING)?;
                    continue;
                }
                match id {
                    COMPOUND => {
                        if stack.len + 2 > MAX_DEPTH {
                            return None;
                        }
                        stack.push(COMPOUND_FRAME);
                        pos = p;
                    }
                    LIST => {
                        pos = p;
                        if let Some(list) = open_list(data, &mut pos, stack.len + 2)? {
                            stack.push(COMPOUND_FRAME);
                            cur = list;
                            continue 'containers;
                        }
                    }
                    BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => pos = prefixed(data, p, id)?,
                    _ => return None,
                }
            }
        }
        let left = cur & !LIST_OF_LISTS;
        if left == 0 {
            cur = stack.pop()?;
            continue;
        }
        let depth = stack.len + 2;
        let rest = cur - 1;
        if cur & LIST_OF_LISTS == 0 {
            if depth > MAX_DEPTH {
                return None;
            }
            stack.push(rest);
            cur = COMPOUND_FRAME;
        } else {
            match open_list(data, &mut pos, depth)? {
                None => cur = rest,
                Some(list) => {
                    stack.push(rest);
                    cur = list;
                }
            }
        }
    }
}
