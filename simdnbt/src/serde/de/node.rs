//! One value of the document as the views give it, and the offsets errors carry.

use super::*;

/// What the walk needs to turn pointers into the input back into offsets.
#[derive(Clone, Copy)]
pub(super) struct Ctx {
    pub(super) base: usize,
}

impl Ctx {
    #[inline]
    pub(super) fn off(self, p: *const u8) -> usize {
        (p as usize).wrapping_sub(self.base)
    }

    /// The offset of a named tag (its id byte) from its key, which is
    /// borrowed from the input just after the id and the key's u16 length.
    #[inline]
    pub(super) fn entry_off(self, key: &Mutf8Str) -> usize {
        self.off(key.as_bytes().as_ptr()).wrapping_sub(3)
    }
}

/// One value of the document, as the views give it.
#[derive(Clone, Copy)]
pub(super) enum Node<'de, 't> {
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    ByteArray(&'de [u8]),
    Str(&'de Mutf8Str),
    List(NbtList<'de, 't>),
    Compound(NbtCompound<'de, 't>),
    IntArray(RawList<'de, i32>),
    LongArray(RawList<'de, i64>),
    /// The End root: no document.
    End,
}

impl<'de, 't> Node<'de, 't> {
    #[inline]
    pub(super) fn from_tag(tag: NbtTag<'de, 't>) -> Self {
        let node = match tag.id() {
            BYTE => tag.byte().map(Node::Byte),
            SHORT => tag.short().map(Node::Short),
            INT => tag.int().map(Node::Int),
            LONG => tag.long().map(Node::Long),
            FLOAT => tag.float().map(Node::Float),
            DOUBLE => tag.double().map(Node::Double),
            BYTE_ARRAY => tag.byte_array().map(Node::ByteArray),
            STRING => tag.string().map(Node::Str),
            LIST => tag.list().map(Node::List),
            COMPOUND => tag.compound().map(Node::Compound),
            INT_ARRAY => tag.int_array_raw().map(Node::IntArray),
            LONG_ARRAY => tag.long_array_raw().map(Node::LongArray),
            _ => None,
        };
        // The views never hold another id; End is the safe answer if one did.
        node.unwrap_or(Node::End)
    }

    /// A list element compound: the 1.21.5 heterogeneous-list wrapper
    /// `{"": value}` reads as `value`.
    #[inline]
    pub(super) fn from_element(c: NbtCompound<'de, 't>) -> Self {
        let mut it = c.iter();
        if let Some((key, tag)) = it.next() {
            if key.is_empty() && it.next().is_none() {
                return Node::from_tag(tag);
            }
        }
        Node::Compound(c)
    }

    /// Where this value's bytes start, when a view can tell (strings and
    /// arrays from their slices, compounds from their first key).
    pub(super) fn offset(&self, ctx: Ctx) -> Option<usize> {
        match self {
            Node::Str(s) => Some(ctx.off(s.as_bytes().as_ptr()).wrapping_sub(2)),
            Node::ByteArray(b) => Some(ctx.off(b.as_ptr()).wrapping_sub(4)),
            Node::IntArray(r) => Some(ctx.off(r.as_big_endian().as_ptr()).wrapping_sub(4)),
            Node::LongArray(r) => Some(ctx.off(r.as_big_endian().as_ptr()).wrapping_sub(4)),
            Node::Compound(c) => c.iter().next().map(|(k, _)| ctx.entry_off(k)),
            _ => None,
        }
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
            Node::List(_) => LIST,
            Node::Compound(_) => COMPOUND,
            Node::IntArray(_) => INT_ARRAY,
            Node::LongArray(_) => LONG_ARRAY,
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
            Node::List(_) => Unexpected::Seq,
            Node::Compound(_) => Unexpected::Map,
            Node::IntArray(_) => Unexpected::Other("int array"),
            Node::LongArray(_) => Unexpected::Other("long array"),
            Node::End => Unexpected::Other("empty document"),
        }
    }
}

/// Hands a MUTF-8 string to a visitor: borrowed when its bytes are UTF-8
/// as they are, decoded otherwise, an error when it is not valid MUTF-8.
#[inline]
pub(super) fn visit_mutf8<'de, V: Visitor<'de>>(
    s: &'de Mutf8Str,
    ctx: Ctx,
    visitor: V,
) -> Result<V::Value> {
    let bytes = s.as_bytes();
    // Keys and most strings are ASCII, the same bytes in MUTF-8 and UTF-8.
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        return visitor.visit_borrowed_str(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    visit_decoded(s, ctx, visitor)
}

/// [`visit_mutf8`] for strings that need decoding.
pub(super) fn visit_decoded<'de, V: Visitor<'de>>(
    s: &'de Mutf8Str,
    ctx: Ctx,
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
