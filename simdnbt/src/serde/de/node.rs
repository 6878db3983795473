//! One value of the document as the pull reader gives it, and the offsets errors carry.

use super::*;

/// The whole input: errors turn pointers into it back into offsets, and
/// short strings are checked with word loads that may reach past their end.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'de> {
    pub(super) input: &'de [u8],
}

impl Ctx<'_> {
    #[inline]
    pub(super) fn off(self, p: *const u8) -> usize {
        (p as usize).wrapping_sub(self.input.as_ptr() as usize)
    }

    /// Whether `s`, a string of the input, is ASCII. Keys and most strings
    /// are short, where `<[u8]>::is_ascii` goes byte by byte: up to 8 bytes
    /// are one word load (the input's bytes after the string masked off),
    /// up to 64 word loads inside the string.
    #[inline(always)]
    pub(super) fn is_ascii(self, s: &[u8]) -> bool {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let len = s.len();
        if len <= 8 {
            // The 8 bytes at the string's address, when the input has them:
            // its first `len` are the string's own.
            let at = self.off(s.as_ptr());
            if let Some(w) = self.input.get(at..).and_then(|r| r.first_chunk::<8>()) {
                let keep = u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0);
                return u64::from_le_bytes(*w) & keep & HIGH == 0;
            }
        } else if len <= 16 {
            if let (Some(a), Some(b)) = (s.first_chunk::<8>(), s.last_chunk::<8>()) {
                return (u64::from_le_bytes(*a) | u64::from_le_bytes(*b)) & HIGH == 0;
            }
        } else if len <= 64 {
            // Item ids and names: every whole word, and the last 8 bytes.
            let mut any = s.last_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w));
            for w in s.chunks_exact(8) {
                any |= w.first_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w));
            }
            return any & HIGH == 0;
        }
        s.is_ascii()
    }
}

/// One value of the document: a leaf read by the pull reader, or a
/// container not opened yet (its payload at the reader).
#[derive(Clone, Copy)]
pub(super) enum Node<'de> {
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    ByteArray(&'de [u8]),
    Str(&'de Mutf8Str),
    /// A list whose header is at the reader.
    List,
    /// A compound whose payload is at the reader; `blame`, where a depth
    /// error names (see [`Pull::open_compound`]).
    Compound {
        blame: usize,
    },
    IntArray(RawList<'de, i32>),
    LongArray(RawList<'de, i64>),
    /// A number, string or array of type `id` whose payload is at the
    /// reader, not read yet: a map's value, read by the typed method serde
    /// calls in one step (no dispatch on a type read first), by any other
    /// after [`Node::read`]. `blame`: as for `Compound`.
    Leaf {
        id: u8,
        blame: usize,
    },
    /// The End root: no document.
    End,
}

impl<'de> Node<'de> {
    /// The value of type `id` at the reader (its head read), nothing read:
    /// a map's value.
    #[inline(always)]
    pub(super) fn pending(id: u8, blame: usize) -> Self {
        match id {
            LIST => Node::List,
            COMPOUND => Node::Compound { blame },
            _ => Node::Leaf { id, blame },
        }
    }

    /// The value of type `id` at the reader (its head read): a leaf is read
    /// now, a container is left for the deserializer that wants it.
    ///
    /// Inlined into the map and sequence accessors in optimized builds (one
    /// dispatch on the type, the value in registers); out of line in debug
    /// builds, where an inlined body's locals stay in the frame of every
    /// level of a recursive type (512 levels must fit a 2 MiB test thread).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline(never))]
    pub(super) fn read(p: &mut Pull<'de>, id: u8, blame: usize) -> Result<Self> {
        Ok(match id {
            BYTE => Node::Byte(p.fixed::<1>()?[0] as i8),
            SHORT => Node::Short(i16::from_be_bytes(p.fixed()?)),
            INT => Node::Int(i32::from_be_bytes(p.fixed()?)),
            LONG => Node::Long(i64::from_be_bytes(p.fixed()?)),
            FLOAT => Node::Float(f32::from_be_bytes(p.fixed()?)),
            DOUBLE => Node::Double(f64::from_be_bytes(p.fixed()?)),
            STRING => Node::Str(Mutf8Str::from_slice(p.string()?)),
            BYTE_ARRAY => Node::ByteArray(p.array(BYTE_ARRAY)?),
            INT_ARRAY => Node::IntArray(RawList::new(p.array(INT_ARRAY)?)),
            LONG_ARRAY => Node::LongArray(RawList::new(p.array(LONG_ARRAY)?)),
            LIST => Node::List,
            COMPOUND => Node::Compound { blame },
            // The reader's heads carry no other id.
            _ => return Err(crate::Error::new(crate::ErrorKind::UnknownTagId(id), blame).into()),
        })
    }

    pub(super) fn id(&self) -> u8 {
        match self {
            Node::Byte(_) => BYTE,
            Node::Short(_) => SHORT,
            Node::Int(_) => INT,
            Node::Long(_) => LONG,
            Node::Float(_) => FLOAT,
            Node::Double(_) => DOUBLE,
            Node::ByteArray(_) => BYTE_ARRAY,
            Node::Str(_) => STRING,
            Node::List => LIST,
            Node::Compound { .. } => COMPOUND,
            Node::IntArray(_) => INT_ARRAY,
            Node::LongArray(_) => LONG_ARRAY,
            Node::Leaf { id, .. } => *id,
            Node::End => END,
        }
    }

    pub(super) fn unexpected(&self) -> Unexpected<'static> {
        match *self {
            Node::Byte(v) => Unexpected::Signed(v.into()),
            Node::Short(v) => Unexpected::Signed(v.into()),
            Node::Int(v) => Unexpected::Signed(v.into()),
            Node::Long(v) => Unexpected::Signed(v),
            Node::Float(v) => Unexpected::Float(v.into()),
            Node::Double(v) => Unexpected::Float(v),
            Node::ByteArray(_) => Unexpected::Other("byte array"),
            Node::Str(_) => Unexpected::Other("string"),
            Node::List => Unexpected::Seq,
            Node::Compound { .. } => Unexpected::Map,
            Node::IntArray(_) => Unexpected::Other("int array"),
            Node::LongArray(_) => Unexpected::Other("long array"),
            // Every caller of this reads a pending leaf first.
            Node::Leaf { .. } => Unexpected::Other("value"),
            Node::End => Unexpected::Other("empty document"),
        }
    }
}

/// Where an element's errors point, as a view of the element would tell:
/// a string's or array's length prefix, a compound's first entry; `None`
/// (the list's container names it) for numbers, lists and an empty compound.
pub(super) fn element_offset(data: &[u8], id: u8, payload: usize) -> Option<usize> {
    match id {
        STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => Some(payload),
        COMPOUND if data.get(payload).is_some_and(|&b| b != END) => Some(payload),
        _ => None,
    }
}

/// Hands a MUTF-8 string to a visitor: borrowed when its bytes are UTF-8
/// as they are, decoded otherwise, an error when it is not valid MUTF-8.
#[inline]
pub(super) fn visit_mutf8<'de, V: Visitor<'de>>(
    s: &'de Mutf8Str,
    ctx: Ctx<'de>,
    visitor: V,
) -> Result<V::Value> {
    let bytes = s.as_bytes();
    // Keys and most strings are ASCII, the same bytes in MUTF-8 and UTF-8.
    if ctx.is_ascii(bytes) {
        // SAFETY: ASCII bytes are valid UTF-8.
        return visitor.visit_borrowed_str(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    visit_decoded(s, ctx, visitor)
}

/// [`visit_mutf8`] for strings that need decoding.
pub(super) fn visit_decoded<'de, V: Visitor<'de>>(
    s: &'de Mutf8Str,
    ctx: Ctx<'de>,
    visitor: V,
) -> Result<V::Value> {
    match mutf8::decode(s.as_bytes()) {
        Ok(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
        Ok(Cow::Owned(s)) => visitor.visit_string(s),
        Err(e) => Err(Error::msg_at(
            format_args!("invalid MUTF-8 string: {e}"),
            ctx.off(s.as_bytes().as_ptr()) + e.valid_up_to(),
        )),
    }
}
