//! Lists and arrays as serde sequences.

use super::*;

/// The elements of a list or array, by element type.
pub(super) enum Elems<'de> {
    Empty,
    /// A ByteArray's bytes (or a List of Byte's, as `u8`).
    Bytes(std::slice::Iter<'de, u8>),
    /// A List of Byte's bytes, as `i8`.
    ByteList(std::slice::Iter<'de, u8>),
    Shorts(raw_list::Iter<'de, i16>),
    Ints(raw_list::Iter<'de, i32>),
    Longs(raw_list::Iter<'de, i64>),
    Floats(raw_list::Iter<'de, f32>),
    Doubles(raw_list::Iter<'de, f64>),
    /// A list of strings, arrays, lists or compounds (`elem`): each element
    /// pulled when serde asks for it, `left` of them still to come.
    Pulled {
        elem: u8,
        left: usize,
    },
}

pub(super) struct SeqDe<'a, 'de> {
    pub(super) r: &'a mut Reader<'de>,
    pub(super) elems: Elems<'de>,
    pub(super) index: usize,
    /// For fixed-size elements: offset of the first, and the element size
    /// (`stride` 0 for the others, which know their own offset).
    pub(super) first: usize,
    pub(super) stride: usize,
    /// A pulled list is open in the reader (closed after its last element).
    pub(super) open: bool,
}

impl<'a, 'de> SeqDe<'a, 'de> {
    /// The elements of an array already read.
    pub(super) fn array(
        r: &'a mut Reader<'de>,
        elems: Elems<'de>,
        bytes: &[u8],
        stride: usize,
    ) -> Self {
        let first = r.ctx.off(bytes.as_ptr());
        SeqDe {
            r,
            elems,
            index: 0,
            first,
            stride,
            open: false,
        }
    }

    /// Opens the list whose header is at the reader. A list of numbers is
    /// read (and closed) at once; the others are pulled element by element.
    pub(super) fn list(r: &'a mut Reader<'de>) -> Result<Self> {
        let h = r.pull.open_list()?;
        let n = h.n as usize;
        macro_rules! numbers {
            ($variant:ident, $size:expr) => {{
                let b = r.pull.numbers(h.elem, n)?;
                r.pull.close_list();
                let elems = Elems::$variant(RawList::new(b).iter());
                return Ok(Self::array(r, elems, b, $size));
            }};
        }
        match h.elem {
            END => {
                r.pull.close_list();
                Ok(Self::array(r, Elems::Empty, &[], 0))
            }
            BYTE => {
                let b = r.pull.numbers(BYTE, n)?;
                r.pull.close_list();
                Ok(Self::array(r, Elems::ByteList(b.iter()), b, 1))
            }
            SHORT => numbers!(Shorts, 2),
            INT => numbers!(Ints, 4),
            LONG => numbers!(Longs, 8),
            FLOAT => numbers!(Floats, 4),
            DOUBLE => numbers!(Doubles, 8),
            elem => Ok(SeqDe {
                r,
                elems: Elems::Pulled { elem, left: n },
                index: 0,
                first: 0,
                stride: 0,
                open: true,
            }),
        }
    }

    pub(super) fn remaining(&self) -> usize {
        match &self.elems {
            Elems::Empty => 0,
            Elems::Bytes(it) => it.len(),
            Elems::ByteList(it) => it.len(),
            Elems::Shorts(it) => it.len(),
            Elems::Ints(it) => it.len(),
            Elems::Longs(it) => it.len(),
            Elems::Floats(it) => it.len(),
            Elems::Doubles(it) => it.len(),
            Elems::Pulled { left, .. } => *left,
        }
    }

    /// Skips what the visitor left of a pulled list and closes it.
    #[inline(always)]
    pub(super) fn finish(self) -> Result<()> {
        if let (true, Elems::Pulled { elem, left }) = (self.open, self.elems) {
            self.r.pull.skip_elements(elem, left)?;
            self.r.pull.close_list();
        }
        Ok(())
    }

    #[cold]
    pub(super) fn element_error(&self, e: Error, index: usize, off: Option<usize>) -> Error {
        // An element that cannot tell its offset takes the list's, which
        // the list's container adds (`Error::at` keeps the first offset set).
        let off = if self.stride != 0 {
            Some(self.first + index * self.stride)
        } else {
            off
        };
        match off {
            Some(off) => e.at(off),
            None => e,
        }
        .in_index(index)
    }

    /// The next element of a pulled list of `elem`, and what finishes it:
    /// its type, payload and the End of a `{"": v}` wrapper to read after.
    #[inline(always)]
    fn pull_element(&mut self, elem: u8) -> Result<(Node<'de>, u8, usize, bool)> {
        let p = &mut self.r.pull;
        let pos = p.pos();
        let node = match elem {
            STRING => Node::Str(Mutf8Str::from_slice(p.element(STRING)?)),
            BYTE_ARRAY => Node::ByteArray(p.element(BYTE_ARRAY)?),
            INT_ARRAY => Node::IntArray(RawList::new(p.element(INT_ARRAY)?)),
            LONG_ARRAY => Node::LongArray(RawList::new(p.element(LONG_ARRAY)?)),
            LIST => Node::List,
            _ => {
                // A 1.21.5 heterogeneous-list wrapper `{"": v}` reads as `v`:
                // a first entry with an empty name, and nothing after it.
                let maybe = matches!(p.data().get(pos..pos + 3), Some(&[id, 0, 0]) if id != END);
                if maybe {
                    if let Some((id, at)) = wrapped(p, pos)? {
                        return Ok((Node::read(p, id, at)?, id, at + 3, true));
                    }
                }
                Node::Compound { blame: pos }
            }
        };
        Ok((node, elem, pos, false))
    }
}

/// Whether the compound element at `pos` is `{"": v}`: then the reader is
/// left inside it at `v`'s payload, and `v`'s type and entry offset are
/// returned; else the reader is back at `pos`.
#[cold]
fn wrapped(p: &mut Pull<'_>, pos: usize) -> Result<Option<(u8, usize)>> {
    let outside = p.mark();
    p.open_compound(pos)?;
    let Some(h) = p.entry()? else {
        p.rewind(outside);
        return Ok(None);
    };
    let inside = p.mark();
    p.skip(h.id, h.at)?;
    let alone = p.entry()?.is_none();
    if h.name.is_empty() && alone {
        p.rewind(inside);
        Ok(Some((h.id, h.at)))
    } else {
        p.rewind(outside);
        Ok(None)
    }
}

impl<'de> SeqAccess<'de> for SeqDe<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let node = match &mut self.elems {
            Elems::Empty => None,
            Elems::Bytes(it) => it.next().map(|&b| Node::Byte(b as i8)),
            Elems::ByteList(it) => it.next().map(|&b| Node::Byte(b as i8)),
            Elems::Shorts(it) => it.next().map(Node::Short),
            Elems::Ints(it) => it.next().map(Node::Int),
            Elems::Longs(it) => it.next().map(Node::Long),
            Elems::Floats(it) => it.next().map(Node::Float),
            Elems::Doubles(it) => it.next().map(Node::Double),
            Elems::Pulled { elem, left } => {
                if *left == 0 {
                    if self.open {
                        self.r.pull.close_list();
                        self.open = false;
                    }
                    return Ok(None);
                }
                *left -= 1;
                let elem = *elem;
                let index = self.index;
                self.index += 1;
                let pos = self.r.pull.pos();
                let (node, id, payload, wrapper) = self
                    .pull_element(elem)
                    .map_err(|e| self.element_error(e, index, Some(pos)))?;
                let start = self.r.pull.pos();
                let value = seed
                    .deserialize(ValueDe {
                        r: &mut *self.r,
                        node,
                    })
                    .and_then(|v| {
                        let blame = if wrapper { payload - 3 } else { payload };
                        self.r.finish_value(id, start, blame)?;
                        if wrapper {
                            // The wrapper's End (checked by `wrapped`).
                            self.r.pull.entry()?;
                        }
                        Ok(v)
                    });
                let d = self.r.pull.data();
                return match value {
                    Ok(v) => Ok(Some(v)),
                    Err(e) => Err(self.element_error(e, index, element_offset(d, id, payload))),
                };
            }
        };
        let Some(node) = node else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        match seed.deserialize(ValueDe {
            r: &mut *self.r,
            node,
        }) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(self.element_error(e, index, None)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining())
    }
}
