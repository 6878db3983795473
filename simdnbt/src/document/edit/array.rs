//! The mutable handle on an array.

use std::marker::PhantomData;

use super::{EditError, MAX_BYTES, flat_room, sealed};
use crate::document::Document;
use crate::document::node::ROOMY;
use crate::tag_id::*;

/// The element types of arrays: `u8` (ByteArray), `i32` (IntArray), `i64`
/// (LongArray). Sealed.
pub trait ArrayElement: Copy + sealed::Sealed {
    #[doc(hidden)]
    const ID: u8;
    #[doc(hidden)]
    const SIZE: usize;
    #[doc(hidden)]
    fn read(b: &[u8]) -> Self;
    #[doc(hidden)]
    fn put(self, b: &mut [u8]);
}

impl sealed::Sealed for u8 {}
impl ArrayElement for u8 {
    const ID: u8 = BYTE_ARRAY;
    const SIZE: usize = 1;
    fn read(b: &[u8]) -> Self {
        b[0]
    }
    fn put(self, b: &mut [u8]) {
        b[0] = self;
    }
}

impl sealed::Sealed for i32 {}
impl ArrayElement for i32 {
    const ID: u8 = INT_ARRAY;
    const SIZE: usize = 4;
    fn read(b: &[u8]) -> Self {
        i32::from_be_bytes(b.try_into().unwrap())
    }
    fn put(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_be_bytes());
    }
}

impl sealed::Sealed for i64 {}
impl ArrayElement for i64 {
    const ID: u8 = LONG_ARRAY;
    const SIZE: usize = 8;
    fn read(b: &[u8]) -> Self {
        i64::from_be_bytes(b.try_into().unwrap())
    }
    fn put(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_be_bytes());
    }
}

/// A mutable handle on a ByteArray, IntArray or LongArray of a
/// [`Document`]: elements are read and set in place, in the stored
/// big-endian bytes; a push writes it again at the end of the bytes with
/// room for as many elements again, which later pushes fill (amortized
/// O(1), as for a list of numbers).
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
///
/// let mut c = NbtCompound::new();
/// c.insert("a", NbtTag::IntArray(vec![1, 2]));
/// let mut doc = simdnbt::document::Document::from_owned(&c.into())?;
/// let mut root = doc.as_compound_mut().unwrap();
/// let mut a = root.int_array_mut("a").unwrap();
/// a.set(0, 10)?;
/// a.push(3)?;
/// assert_eq!(a.to_vec(), [10, 2, 3]);
/// assert_eq!(doc.int_array("a"), Some(vec![10, 2, 3]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ArrayMut<'d, T> {
    pub(crate) doc: &'d mut Document,
    /// The container holding the array, and the array's place in it.
    pub(crate) depth: usize,
    pub(crate) pos: usize,
    pub(crate) _t: PhantomData<T>,
}

impl<T: ArrayElement> ArrayMut<'_, T> {
    /// The array's node index.
    fn index(&self) -> usize {
        self.doc.nodes[self.doc.path[self.depth] as usize].a as usize + self.pos
    }

    /// Where the elements start.
    fn start(&self) -> usize {
        self.doc.nodes[self.index()].a as usize + 4
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.doc.u32_be(self.start() - 4) as usize
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`.
    pub fn get(&self, i: usize) -> Option<T> {
        (i < self.len()).then(|| {
            let at = self.start() + i * T::SIZE;
            T::read(&self.doc.bytes[at..at + T::SIZE])
        })
    }

    /// Sets element `i`, in place.
    pub fn set(&mut self, i: usize, value: T) -> Result<(), EditError> {
        let len = self.len();
        if i >= len {
            return Err(EditError::IndexOutOfBounds { index: i, len });
        }
        let at = self.start() + i * T::SIZE;
        value.put(&mut self.doc.bytes[at..at + T::SIZE]);
        Ok(())
    }

    /// Appends an element.
    pub fn push(&mut self, value: T) -> Result<(), EditError> {
        let len = self.len();
        if len >= i32::MAX as usize {
            return Err(EditError::LengthTooLarge { len: len + 1 });
        }
        let start = self.start();
        let end = start + len * T::SIZE;
        let mut element = [0; 8];
        value.put(&mut element[..T::SIZE]);
        let i = self.index();
        let doc = &mut *self.doc;
        if doc.nodes[i].flags & ROOMY != 0 && len < flat_room(len) {
            doc.bytes[end..end + T::SIZE].copy_from_slice(&element[..T::SIZE]);
        } else if end == doc.bytes.len() {
            if end + T::SIZE > MAX_BYTES {
                return Err(EditError::DocumentTooLarge);
            }
            doc.bytes.extend_from_slice(&element[..T::SIZE]);
            // Past any room it had: its end is the bytes' end.
            doc.nodes[i].flags &= !ROOMY;
        } else {
            // Written again at the end of the bytes (as a whole entry if
            // named), with the new element and room after it.
            let room = flat_room(len + 1);
            let mut data = Vec::with_capacity(room * T::SIZE);
            data.extend_from_slice(&doc.bytes[start..end]);
            data.extend_from_slice(&element[..T::SIZE]);
            data.resize(room * T::SIZE, 0);
            let named = doc.nodes[doc.path[self.depth] as usize].id == COMPOUND;
            let payload = doc.rewrite_leaf(i, named, &(len as u32).to_be_bytes(), &data)?;
            doc.nodes[i].a = payload as u32;
            doc.nodes[i].flags |= ROOMY;
        }
        let start = self.start();
        self.doc.bytes[start - 4..start].copy_from_slice(&(len as u32 + 1).to_be_bytes());
        self.doc.mark_dirty(self.depth);
        self.doc.maybe_compact(Some(self.depth));
        Ok(())
    }

    /// Shortens the array to `len` elements (nothing when it is shorter).
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            let start = self.start();
            self.doc.bytes[start - 4..start].copy_from_slice(&(len as u32).to_be_bytes());
            self.doc.mark_dirty(self.depth);
        }
    }

    /// The elements, in native order.
    pub fn to_vec(&self) -> Vec<T> {
        let start = self.start();
        self.doc.bytes[start..start + self.len() * T::SIZE]
            .chunks_exact(T::SIZE)
            .map(T::read)
            .collect()
    }
}
