//! Owned tags.

use super::{NbtCompound, NbtList};
use crate::WriteError;
use crate::mutf8::{Mutf8Str, Mutf8String};
use crate::tag_id;

/// Declares [`NbtTag`] and its `id()` from one table of (variant, payload,
/// tag id, doc), so the type and the ids cannot disagree.
macro_rules! tag_table {
    ($( ($variant:ident, $payload:ty, $id:ident, $doc:literal) ),* $(,)?) => {
        /// One tag of any type (End excepted: it only closes compounds).
        ///
        /// `PartialEq` compares floats by bits, so a document always equals itself
        /// (even with NaN) and `-0.0 != 0.0`: equal documents write equal bytes.
        #[derive(Clone)]
        pub enum NbtTag {
            $( #[doc = $doc] $variant($payload), )*
        }

        impl NbtTag {
            /// The tag id (see [`crate::tag_id`]).
            pub fn id(&self) -> u8 {
                match self {
                    $( NbtTag::$variant(_) => tag_id::$id, )*
                }
            }
        }
    };
}

#[rustfmt::skip]
tag_table! {
    (Byte, i8, BYTE, "i8."), (Short, i16, SHORT, "i16."), (Int, i32, INT, "i32."),
    (Long, i64, LONG, "i64."), (Float, f32, FLOAT, "f32."), (Double, f64, DOUBLE, "f64."),
    (ByteArray, Vec<u8>, BYTE_ARRAY, "Bytes."),
    (String, Mutf8String, STRING, "A MUTF-8 string (raw bytes kept)."),
    (List, NbtList, LIST, "A list."), (Compound, NbtCompound, COMPOUND, "A compound."),
    (IntArray, Vec<i32>, INT_ARRAY, "i32s."), (LongArray, Vec<i64>, LONG_ARRAY, "i64s."),
}

// Keep the tree compact: a tag is its largest payload (24 bytes on 64-bit
// targets) plus the tag.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<NbtTag>() == 32);
// A compound is one `Vec`'s size, its lookup index included (`entries.rs`).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<NbtCompound>() == 24);

macro_rules! accessors {
    ($( $variant:ident, $get:ident, $get_mut:ident, $into:ident, $t:ty, $tm:ty, $owned:ty, $conv:expr; )*) => {$(
        #[doc = concat!("The value if this is a ", stringify!($variant), ".")]
        #[inline]
        pub fn $get(&self) -> Option<$t> {
            match self {
                NbtTag::$variant(v) => {
                    let conv: fn(&$owned) -> $t = $conv;
                    Some(conv(v))
                }
                _ => None,
            }
        }
        #[doc = concat!("The value if this is a ", stringify!($variant), ", mutably.")]
        #[inline]
        pub fn $get_mut(&mut self) -> Option<$tm> {
            match self {
                NbtTag::$variant(v) => Some(v),
                _ => None,
            }
        }
        #[doc = concat!("The value if this is a ", stringify!($variant), ", by value.")]
        #[inline]
        pub fn $into(self) -> Option<$owned> {
            match self {
                NbtTag::$variant(v) => Some(v),
                _ => None,
            }
        }
    )*};
}

impl NbtTag {
    accessors! {
        Byte, byte, byte_mut, into_byte, i8, &mut i8, i8, |v| *v;
        Short, short, short_mut, into_short, i16, &mut i16, i16, |v| *v;
        Int, int, int_mut, into_int, i32, &mut i32, i32, |v| *v;
        Long, long, long_mut, into_long, i64, &mut i64, i64, |v| *v;
        Float, float, float_mut, into_float, f32, &mut f32, f32, |v| *v;
        Double, double, double_mut, into_double, f64, &mut f64, f64, |v| *v;
        ByteArray, byte_array, byte_array_mut, into_byte_array, &[u8], &mut Vec<u8>, Vec<u8>, |v| v.as_slice();
        String, string, string_mut, into_string, &Mutf8Str, &mut Mutf8String, Mutf8String, |v| v.as_str();
        List, list, list_mut, into_list, &NbtList, &mut NbtList, NbtList, |v| v;
        Compound, compound, compound_mut, into_compound, &NbtCompound, &mut NbtCompound, NbtCompound, |v| v;
        IntArray, int_array, int_array_mut, into_int_array, &[i32], &mut Vec<i32>, Vec<i32>, |v| v.as_slice();
        LongArray, long_array, long_array_mut, into_long_array, &[i64], &mut Vec<i64>, Vec<i64>, |v| v.as_slice();
    }

    /// Appends this tag as an unnamed tag: its id, then its payload (the form
    /// [`super::read_tag`] reads, so `read_tag` then `write` gives the bytes back).
    /// See [`super::BaseNbt::write`] for the errors.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// simdnbt::owned::NbtTag::Short(258).write(&mut out).unwrap();
    /// assert_eq!(out, [0x02, 0x01, 0x02]);
    /// ```
    pub fn write(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        data.push(self.id());
        self.write_payload(data)
    }

    /// Appends this tag's payload only (no id, no name), as inside a list.
    pub fn write_payload(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        super::write::tag_payload(self, data)
    }
}

macro_rules! from_impls {
    ($( $t:ty => $variant:ident ),*) => {$(
        impl From<$t> for NbtTag {
            fn from(v: $t) -> Self {
                NbtTag::$variant(v.into())
            }
        }
    )*};
}

from_impls! {
    i8 => Byte, i16 => Short, i32 => Int, i64 => Long, f32 => Float, f64 => Double,
    Vec<u8> => ByteArray, Mutf8String => String, &str => String, String => String,
    &Mutf8Str => String, NbtList => List, NbtCompound => Compound,
    Vec<i32> => IntArray, Vec<i64> => LongArray
}

impl From<bool> for NbtTag {
    /// Minecraft stores booleans as a Byte 0 or 1.
    fn from(v: bool) -> Self {
        NbtTag::Byte(v as i8)
    }
}

/// A list of the elements (see `From<Vec<NbtTag>> for NbtList` for mixed types).
impl<const N: usize, T: Into<NbtTag>> From<[T; N]> for NbtTag {
    fn from(a: [T; N]) -> Self {
        NbtTag::List(a.into())
    }
}

/// The root compound; `Nbt::None` is an empty compound. The root name is dropped.
impl From<super::Nbt> for NbtTag {
    fn from(nbt: super::Nbt) -> Self {
        NbtTag::Compound(match nbt {
            super::Nbt::Some(base) => base.as_compound(),
            super::Nbt::None => NbtCompound::new(),
        })
    }
}

impl<const N: usize, K: Into<Mutf8String>> From<[(K, NbtTag); N]> for NbtTag {
    fn from(a: [(K, NbtTag); N]) -> Self {
        NbtTag::Compound(a.into())
    }
}
