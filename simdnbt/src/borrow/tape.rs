//! The tape: one validating pass over the input that records where every tag is.
//!
//! Like simdjson's tape, it is a flat `Vec<u64>` of fixed-size words pointing into
//! the input; nothing is decoded or copied and nothing is allocated per tag. Both
//! readers start here (the owned tree is built from the tape), so they accept
//! exactly the same inputs.
//!
//! Word layouts (`id` = tag id in the top 8 bits, `off` = input offset, 56 bits):
//!
//! | what | words |
//! |---|---|
//! | named child of a compound | `id<<56 \| name_off`, then for a compound or list one *container word* |
//! | compound inside a list, or as a root value | `COMPOUND<<56 \| end` |
//! | list inside a list, or as a root value | `LIST<<56 \| payload_off`, then a container word |
//! | any other root value | `id<<56 \| payload_off` |
//!
//! A container word is `side_start<<32 \| end`: `end` is the tape index just past
//! the container's last word (so skipping a container is one load), `side_start`
//! indexes [`Tape::side`] where a list of strings or arrays keeps one slice per
//! element. `name_off` points at the name's u16 length; the payload follows the name.

use crate::error::{Error, ErrorKind};
use crate::options::ReadOptions;
use crate::tag_id::*;

pub(crate) const OFFSET_MASK: u64 = (1 << 56) - 1;

/// The parsed index of one document.
pub(crate) struct Tape<'a> {
    /// The whole input (offsets are relative to its start).
    pub data: &'a [u8],
    pub words: Vec<u64>,
    /// One slice per element of every list of strings, byte arrays, int arrays
    /// or long arrays: the element's bytes without its length prefix.
    pub side: Vec<&'a [u8]>,
}

/// A tag's value as found on the tape: enough to read it without rescanning.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Value {
    pub id: u8,
    /// Offset of the payload in the input (for a list: its element-type byte).
    pub payload: usize,
    /// For compounds and lists of compounds/lists: tape index of the first child.
    pub start: u32,
    /// For containers: tape index just past the last word.
    pub end: u32,
    /// For lists of strings/arrays: index of the first element in `Tape::side`.
    pub side: u32,
}

#[inline(always)]
pub(crate) fn word_id(word: u64) -> u8 {
    (word >> 56) as u8
}

#[inline(always)]
pub(crate) fn word_offset(word: u64) -> usize {
    (word & OFFSET_MASK) as usize
}

impl<'a> Tape<'a> {
    #[inline(always)]
    pub fn u16_at(&self, off: usize) -> u16 {
        u16::from_be_bytes([self.data[off], self.data[off + 1]])
    }

    #[inline(always)]
    pub fn u32_at(&self, off: usize) -> u32 {
        u32::from_be_bytes(self.data[off..off + 4].try_into().unwrap())
    }

    /// The bytes of a u16-length-prefixed string at `off`.
    #[inline(always)]
    pub fn str_at(&self, off: usize) -> &'a [u8] {
        let len = self.u16_at(off) as usize;
        &self.data[off + 2..off + 2 + len]
    }

    /// Reads the named child whose first word is at tape index `i`.
    /// Returns its name's offset, its value and the index of the next sibling.
    #[inline(always)]
    pub fn named(&self, i: u32) -> (usize, Value, u32) {
        let word = self.words[i as usize];
        let id = word_id(word);
        let name_off = word_offset(word);
        let payload = name_off + 2 + self.u16_at(name_off) as usize;
        if id == COMPOUND || id == LIST {
            let c = self.words[i as usize + 1];
            let end = c as u32;
            let value = Value {
                id,
                payload,
                start: i + 2,
                end,
                side: (c >> 32) as u32,
            };
            (name_off, value, end)
        } else {
            (
                name_off,
                Value {
                    id,
                    payload,
                    start: i + 1,
                    end: i + 1,
                    side: 0,
                },
                i + 1,
            )
        }
    }

    /// Reads the unnamed value (list element or root) whose first word is at `i`.
    /// Returns the value and the index just past it.
    #[inline(always)]
    pub fn unnamed(&self, i: u32) -> (Value, u32) {
        let word = self.words[i as usize];
        let id = word_id(word);
        match id {
            COMPOUND => {
                let end = word as u32;
                (
                    Value {
                        id,
                        payload: 0,
                        start: i + 1,
                        end,
                        side: 0,
                    },
                    end,
                )
            }
            LIST => {
                let c = self.words[i as usize + 1];
                let end = c as u32;
                let value = Value {
                    id,
                    payload: word_offset(word),
                    start: i + 2,
                    end,
                    side: (c >> 32) as u32,
                };
                (value, end)
            }
            _ => (
                Value {
                    id,
                    payload: word_offset(word),
                    start: i + 1,
                    end: i + 1,
                    side: 0,
                },
                i + 1,
            ),
        }
    }
}

/// What the parser is in the middle of.
enum Frame {
    /// Reading named children until End; on End, `words[patch] = bits | end`.
    Compound { patch: u32, bits: u64 },
    /// Reading `remaining` unnamed compounds or lists; when done, `words[patch] = end`.
    List {
        remaining: u32,
        elem: u8,
        patch: u32,
    },
}

/// A bounds-checked reader over `data[..limit]`.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    #[inline(always)]
    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    #[inline(always)]
    fn u8(&mut self) -> Result<u8, Error> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(eof(self.pos)),
        }
    }

    #[inline(always)]
    fn u16(&mut self) -> Result<u16, Error> {
        match self.data.get(self.pos..self.pos + 2) {
            Some(b) => {
                self.pos += 2;
                Ok(u16::from_be_bytes([b[0], b[1]]))
            }
            None => Err(eof(self.data.len())),
        }
    }

    #[inline(always)]
    fn i32(&mut self) -> Result<i32, Error> {
        match self.data.get(self.pos..self.pos + 4) {
            Some(b) => {
                self.pos += 4;
                Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            }
            None => Err(eof(self.data.len())),
        }
    }

    #[inline(always)]
    fn skip(&mut self, n: usize) -> Result<(), Error> {
        if n <= self.remaining() {
            self.pos += n;
            Ok(())
        } else {
            Err(eof(self.data.len()))
        }
    }

    /// Skips a u16-length-prefixed string and returns its bytes.
    #[inline(always)]
    fn string(&mut self) -> Result<&'a [u8], Error> {
        let len = self.u16()? as usize;
        let start = self.pos;
        self.skip(len)?;
        Ok(&self.data[start..self.pos])
    }

    /// Reads an i32 element count and checks that `count × min_size` bytes remain,
    /// so nothing sized by it can be over-allocated.
    #[inline(always)]
    fn count(&mut self, min_size: usize) -> Result<u32, Error> {
        let at = self.pos;
        let len = self.i32()?;
        if len < 0 {
            return Err(Error::new(ErrorKind::NegativeLength(len), at));
        }
        // u64 arithmetic: cannot overflow for len < 2^31 and min_size <= 8.
        if len as u64 * min_size as u64 > self.remaining() as u64 {
            return Err(self.too_long(at));
        }
        Ok(len as u32)
    }

    /// An array: i32 count of `size`-byte elements; returns the bytes.
    #[inline(always)]
    fn array(&mut self, size: usize) -> Result<&'a [u8], Error> {
        let n = self.count(size)? as usize * size;
        let start = self.pos;
        self.pos += n;
        Ok(&self.data[start..self.pos])
    }

    /// A length prefix that promises more than the rest of the input holds is
    /// reported at the prefix, before anything is allocated for it.
    #[cold]
    fn too_long(&self, at: usize) -> Error {
        Error::new(ErrorKind::LengthExceedsInput, at)
    }
}

#[cold]
fn eof(at: usize) -> Error {
    Error::new(ErrorKind::UnexpectedEof, at)
}

#[inline(always)]
fn push(words: &mut Vec<u64>, word: u64) {
    words.push(word);
}

/// Parses one value of type `id` (already read) at the reader's position and
/// appends it to the tape as a root/unnamed value. `depth` is the depth the value
/// would have if it is a container.
pub(crate) fn parse_root<'a>(
    data: &'a [u8],
    pos: usize,
    id: u8,
    opts: &ReadOptions,
) -> Result<(Tape<'a>, usize), Error> {
    // A budget is a shorter input whose end reads as "budget exceeded".
    let limit = match opts.max_bytes {
        Some(max) => data.len().min(pos.saturating_add(max)),
        None => data.len(),
    };
    let budgeted = limit < data.len();
    let result = parse_value(&data[..limit], data, pos, id, opts.max_depth);
    match result {
        Err(e)
            if budgeted
                && matches!(
                    e.kind(),
                    ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
                ) =>
        {
            Err(Error::new(ErrorKind::BudgetExceeded, limit))
        }
        other => other,
    }
}

fn parse_value<'a>(
    bounded: &'a [u8],
    data: &'a [u8],
    pos: usize,
    id: u8,
    max_depth: u32,
) -> Result<(Tape<'a>, usize), Error> {
    if bounded.len() as u64 > OFFSET_MASK {
        return Err(Error::new(ErrorKind::InputTooLarge, 0));
    }
    let mut r = Reader { data: bounded, pos };
    // Every tape word stands for at least one input byte, and a typical tag
    // needs 6–10 bytes per word; start with room for that and grow as needed.
    let mut words: Vec<u64> = Vec::with_capacity((r.remaining() / 8).clamp(4, 1 << 20));
    let mut side: Vec<&'a [u8]> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();

    let id64 = (id as u64) << 56;
    match id {
        COMPOUND => {
            check_depth(1, max_depth, r.pos)?;
            push(&mut words, id64);
            stack.push(Frame::Compound {
                patch: 0,
                bits: id64,
            });
        }
        LIST => {
            push(&mut words, id64 | r.pos as u64);
            push(&mut words, 0);
            list(&mut r, &mut words, &mut side, &mut stack, 1, max_depth)?;
        }
        BYTE..=DOUBLE => {
            push(&mut words, id64 | r.pos as u64);
            r.skip(FIXED_SIZE[id as usize] as usize)?;
        }
        STRING => {
            push(&mut words, id64 | r.pos as u64);
            r.string()?;
        }
        BYTE_ARRAY => {
            push(&mut words, id64 | r.pos as u64);
            r.array(1)?;
        }
        INT_ARRAY => {
            push(&mut words, id64 | r.pos as u64);
            r.array(4)?;
        }
        LONG_ARRAY => {
            push(&mut words, id64 | r.pos as u64);
            r.array(8)?;
        }
        _ => return Err(Error::new(ErrorKind::UnknownTagId(id), r.pos - 1)),
    }

    while let Some(frame) = stack.last_mut() {
        match frame {
            Frame::Compound { patch, bits } => {
                let (patch, bits) = (*patch, *bits);
                // Named children until End or until a child container opens.
                loop {
                    let at = r.pos;
                    let id = r.u8()?;
                    if id == END {
                        let end = tape_index(&words, r.pos)?;
                        words[patch as usize] = bits | end as u64;
                        stack.pop();
                        break;
                    }
                    let word = ((id as u64) << 56) | r.pos as u64;
                    r.string()?;
                    push(&mut words, word);
                    match id {
                        BYTE..=DOUBLE => r.skip(FIXED_SIZE[id as usize] as usize)?,
                        STRING => {
                            r.string()?;
                        }
                        BYTE_ARRAY => {
                            r.array(1)?;
                        }
                        INT_ARRAY => {
                            r.array(4)?;
                        }
                        LONG_ARRAY => {
                            r.array(8)?;
                        }
                        COMPOUND => {
                            let depth = stack.len() as u32 + 1;
                            check_depth(depth, max_depth, at)?;
                            let patch = words.len() as u32;
                            push(&mut words, 0);
                            stack.push(Frame::Compound { patch, bits: 0 });
                            break;
                        }
                        LIST => {
                            push(&mut words, 0);
                            let depth = stack.len() as u32 + 1;
                            if list(&mut r, &mut words, &mut side, &mut stack, depth, max_depth)? {
                                break;
                            }
                        }
                        _ => return Err(Error::new(ErrorKind::UnknownTagId(id), at)),
                    }
                }
            }
            Frame::List {
                remaining,
                elem,
                patch,
            } => {
                if *remaining == 0 {
                    let patch = *patch as usize;
                    let end = tape_index(&words, r.pos)?;
                    words[patch] |= end as u64;
                    stack.pop();
                    continue;
                }
                *remaining -= 1;
                let elem = *elem;
                let depth = stack.len() as u32 + 1;
                if elem == COMPOUND {
                    check_depth(depth, max_depth, r.pos)?;
                    let patch = words.len() as u32;
                    push(&mut words, (COMPOUND as u64) << 56);
                    stack.push(Frame::Compound {
                        patch,
                        bits: (COMPOUND as u64) << 56,
                    });
                } else {
                    push(&mut words, ((LIST as u64) << 56) | r.pos as u64);
                    push(&mut words, 0);
                    list(&mut r, &mut words, &mut side, &mut stack, depth, max_depth)?;
                }
            }
        }
    }
    let _ = data;
    Ok((Tape { data, words, side }, r.pos))
}

#[inline(always)]
fn check_depth(depth: u32, max_depth: u32, at: usize) -> Result<(), Error> {
    if depth > max_depth {
        Err(Error::new(ErrorKind::MaxDepthExceeded, at))
    } else {
        Ok(())
    }
}

/// The tape index a container ends at, which must fit the 32-bit container word.
#[inline(always)]
fn tape_index(words: &[u64], at: usize) -> Result<u32, Error> {
    u32::try_from(words.len()).map_err(|_| Error::new(ErrorKind::InputTooLarge, at))
}

/// Parses a list header (element id + count) and, for lists of scalars, strings
/// and arrays, its elements. The list's container word is the last word on the
/// tape. Returns `true` when a frame was pushed (list of compounds or lists).
#[inline(always)]
fn list<'a>(
    r: &mut Reader<'a>,
    words: &mut Vec<u64>,
    side: &mut Vec<&'a [u8]>,
    stack: &mut Vec<Frame>,
    depth: u32,
    max_depth: u32,
) -> Result<bool, Error> {
    let at = r.pos;
    check_depth(depth, max_depth, at)?;
    let container = words.len() - 1;
    let elem = r.u8()?;
    let count_at = r.pos;
    let end = words.len() as u64;
    match elem {
        END => {
            let n = r.count(0)?;
            if n != 0 {
                return Err(Error::new(ErrorKind::ListOfEndNotEmpty, count_at));
            }
            words[container] = end;
        }
        BYTE..=DOUBLE => {
            let size = FIXED_SIZE[elem as usize] as usize;
            r.array(size)?;
            words[container] = end;
        }
        STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => {
            let n = r.count(min_element_size(elem))?;
            let side_start =
                u32::try_from(side.len()).map_err(|_| Error::new(ErrorKind::InputTooLarge, at))?;
            // Exact: the count was checked against the remaining input.
            side.reserve_exact(n as usize);
            for _ in 0..n {
                let bytes = match elem {
                    STRING => r.string()?,
                    BYTE_ARRAY => r.array(1)?,
                    INT_ARRAY => r.array(4)?,
                    _ => r.array(8)?,
                };
                side.push(bytes);
            }
            words[container] = ((side_start as u64) << 32) | end;
        }
        COMPOUND | LIST => {
            let n = r.count(min_element_size(elem))?;
            if n == 0 {
                words[container] = end;
                return Ok(false);
            }
            // Every element takes at least one tape word.
            words.reserve(n as usize);
            stack.push(Frame::List {
                remaining: n,
                elem,
                patch: container as u32,
            });
            return Ok(true);
        }
        _ => return Err(Error::new(ErrorKind::UnknownTagId(elem), at)),
    }
    Ok(false)
}
