//! Owned lists.

use super::{NbtCompound, NbtTag};
use crate::WriteError;
use crate::mutf8::Mutf8String;
use crate::tag_id;

/// Declares [`NbtList`], its `id()` and `len()` from one table of (variant,
/// element type, element tag id), so they cannot disagree.
macro_rules! list_table {
    ($( ($variant:ident, $elem:ty, $id:ident) ),* $(,)?) => {
        /// A list: elements of one type.
        ///
        /// Unlike upstream simdnbt, an empty list keeps its element type (`Int(vec![])`
        /// is written as a list of Int, `Empty` as a list of End), so reading and
        /// writing any file reproduces it byte for byte.
        #[derive(Default)]
        pub enum NbtList {
            /// A list with element type End (always empty).
            #[default]
            Empty,
            $( #[doc = concat!("Elements of type `", stringify!($elem), "`.")] $variant(Vec<$elem>), )*
        }

        impl NbtList {
            /// The element tag id (0 for `Empty`).
            pub fn id(&self) -> u8 {
                match self {
                    NbtList::Empty => tag_id::END,
                    $( NbtList::$variant(_) => tag_id::$id, )*
                }
            }

            /// The number of elements.
            pub fn len(&self) -> usize {
                match self {
                    NbtList::Empty => 0,
                    $( NbtList::$variant(v) => v.len(), )*
                }
            }
        }
    };
}

#[rustfmt::skip]
list_table! {
    (Byte, i8, BYTE), (Short, i16, SHORT), (Int, i32, INT), (Long, i64, LONG),
    (Float, f32, FLOAT), (Double, f64, DOUBLE), (ByteArray, Vec<u8>, BYTE_ARRAY),
    (String, Mutf8String, STRING), (List, NbtList, LIST), (Compound, NbtCompound, COMPOUND),
    (IntArray, Vec<i32>, INT_ARRAY), (LongArray, Vec<i64>, LONG_ARRAY),
}

macro_rules! accessors {
    ($( $variant:ident, $get:ident, $into:ident, $t:ty, $owned:ty, $conv:expr; )*) => {$(
        #[doc = concat!("The elements if this is a list of ", stringify!($variant), ".")]
        pub fn $get(&self) -> Option<$t> {
            match self {
                NbtList::$variant(v) => {
                    let conv: fn(&$owned) -> $t = $conv;
                    Some(conv(v))
                }
                _ => None,
            }
        }
        #[doc = concat!("The elements if this is a list of ", stringify!($variant), ", by value.")]
        pub fn $into(mut self) -> Option<$owned> {
            // `NbtList` has a `Drop`, so the `Vec` is taken, not moved out.
            match &mut self {
                NbtList::$variant(v) => Some(std::mem::take(v)),
                _ => None,
            }
        }
    )*};
}

impl NbtList {
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the element type is End.
    pub fn empty(&self) -> bool {
        matches!(self, NbtList::Empty)
    }

    accessors! {
        Byte, bytes, into_bytes, &[i8], Vec<i8>, |v| v.as_slice();
        Short, shorts, into_shorts, Vec<i16>, Vec<i16>, |v| v.clone();
        Int, ints, into_ints, Vec<i32>, Vec<i32>, |v| v.clone();
        Long, longs, into_longs, Vec<i64>, Vec<i64>, |v| v.clone();
        Float, floats, into_floats, Vec<f32>, Vec<f32>, |v| v.clone();
        Double, doubles, into_doubles, Vec<f64>, Vec<f64>, |v| v.clone();
        ByteArray, byte_arrays, into_byte_arrays, &[Vec<u8>], Vec<Vec<u8>>, |v| v.as_slice();
        String, strings, into_strings, &[Mutf8String], Vec<Mutf8String>, |v| v.as_slice();
        List, lists, into_lists, &[NbtList], Vec<NbtList>, |v| v.as_slice();
        Compound, compounds, into_compounds, &[NbtCompound], Vec<NbtCompound>, |v| v.as_slice();
        IntArray, int_arrays, into_int_arrays, &[Vec<i32>], Vec<Vec<i32>>, |v| v.as_slice();
        LongArray, long_arrays, into_long_arrays, &[Vec<i64>], Vec<Vec<i64>>, |v| v.as_slice();
    }

    /// The elements as tags (cloned).
    pub fn as_nbt_tags(&self) -> Vec<NbtTag> {
        fn all<T: Clone + Into<NbtTag>>(v: &[T]) -> Vec<NbtTag> {
            v.iter().cloned().map(Into::into).collect()
        }
        match self {
            NbtList::Empty => Vec::new(),
            NbtList::Byte(v) => all(v),
            NbtList::Short(v) => all(v),
            NbtList::Int(v) => all(v),
            NbtList::Long(v) => all(v),
            NbtList::Float(v) => all(v),
            NbtList::Double(v) => all(v),
            NbtList::ByteArray(v) => all(v),
            NbtList::String(v) => all(v),
            NbtList::List(v) => all(v),
            NbtList::Compound(v) => all(v),
            NbtList::IntArray(v) => all(v),
            NbtList::LongArray(v) => all(v),
        }
    }

    /// Appends this list's payload (element id, i32 length, elements).
    /// See [`super::BaseNbt::write`] for the errors.
    pub fn write(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        super::write::list_payload(self, data)
    }
}

macro_rules! from_vec {
    ($( $t:ty => $variant:ident ),*) => {$(
        impl From<Vec<$t>> for NbtList {
            fn from(v: Vec<$t>) -> Self {
                NbtList::$variant(v)
            }
        }
    )*};
}

from_vec! {
    i8 => Byte, i16 => Short, i32 => Int, i64 => Long, f32 => Float, f64 => Double,
    Vec<u8> => ByteArray, Mutf8String => String, NbtList => List, NbtCompound => Compound,
    Vec<i32> => IntArray, Vec<i64> => LongArray
}

impl From<Vec<String>> for NbtList {
    fn from(v: Vec<String>) -> Self {
        NbtList::String(v.into_iter().map(Mutf8String::from).collect())
    }
}

impl From<Vec<NbtTag>> for NbtList {
    /// Tags of one type become a list of that type; tags of mixed types become a
    /// list of compounds `{"": tag}` (Minecraft 1.21.5's heterogeneous lists).
    fn from(tags: Vec<NbtTag>) -> Self {
        let Some(first) = tags.first() else {
            return NbtList::Empty;
        };
        let id = first.id();
        if tags.iter().any(|t| t.id() != id) {
            return NbtList::Compound(tags.into_iter().map(NbtCompound::from).collect());
        }
        macro_rules! collect {
            ($variant:ident, $into:ident) => {
                NbtList::$variant(tags.into_iter().filter_map(NbtTag::$into).collect())
            };
        }
        match id {
            tag_id::BYTE => collect!(Byte, into_byte),
            tag_id::SHORT => collect!(Short, into_short),
            tag_id::INT => collect!(Int, into_int),
            tag_id::LONG => collect!(Long, into_long),
            tag_id::FLOAT => collect!(Float, into_float),
            tag_id::DOUBLE => collect!(Double, into_double),
            tag_id::BYTE_ARRAY => collect!(ByteArray, into_byte_array),
            tag_id::STRING => collect!(String, into_string),
            tag_id::LIST => collect!(List, into_list),
            tag_id::COMPOUND => collect!(Compound, into_compound),
            tag_id::INT_ARRAY => collect!(IntArray, into_int_array),
            _ => collect!(LongArray, into_long_array),
        }
    }
}

impl<const N: usize, T: Into<NbtTag>> From<[T; N]> for NbtList {
    fn from(tags: [T; N]) -> Self {
        tags.into_iter()
            .map(Into::into)
            .collect::<Vec<NbtTag>>()
            .into()
    }
}
