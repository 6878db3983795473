//! Reading the owned tree in one pass: the owned model's [`Sink`] for the
//! validating core, which builds the tree while the input is checked (no
//! tape).
//!
//! Entries of every open compound wait on one shared scratch stack
//! (`entries`); when a compound closes, its entries are moved off the top
//! into one exact-size `Vec`, so a compound costs one allocation and never
//! regrows. Each entry is written once into the scratch stack, where it
//! stays until its compound closes. The scratch stack grows by doubling,
//! bounded by the input (every entry stands for at least 4 input bytes), is
//! reused for the whole document and kept by the thread for its next read. A list knows its length from its header, which the core
//! checked against the remaining input (at least one byte per element): its
//! `Vec` is allocated once, exactly, when it opens, and its elements go
//! straight into it.

use std::marker::PhantomData;
use std::mem::ManuallyDrop;

use super::{NbtCompound, NbtList, NbtTag};
use crate::error::Error;
use crate::kept::{self, RawVec};
use crate::mutf8::Mutf8String;
use crate::read::Sink;
use crate::read::wire::{BigEndian, Encoding, Wire, value};
use crate::simd;
use crate::tag_id::*;

/// "No name": a list element or the root.
const NO_NAME: usize = usize::MAX;

/// An entry of an open compound: its name and value.
type Entry = (Mutf8String, NbtTag);

/// Appends to `entries` the entry named by the string (form `W`) at `name`,
/// with its value written by `value` into the slot (a `*mut NbtTag`) it
/// names. The name and value are written where the entry stays, not built
/// elsewhere and moved in (a `push` of the 56-byte pair assembled it on the
/// stack first and copied it). A macro, not a function taking a closure:
/// the closure was not inlined.
macro_rules! push_entry {
    ($entries:expr, $d:expr, $name:expr, |$tag:ident| $value:expr) => {{
        let entries: &mut Vec<Entry> = $entries;
        if entries.len() == entries.capacity() {
            grow(entries);
        }
        let len = entries.len();
        // SAFETY: `len < capacity` (ensured above), so the slot at `len` is
        // allocated and unused; the name is written, then the tag, by
        // `$value` through its slot's pointer (valid for that one write),
        // before the length takes the slot in.
        unsafe {
            let slot = entries.as_mut_ptr().add(len);
            let name = std::ptr::addr_of_mut!((*slot).0);
            if matches!(W::ENCODING, Encoding::BigEndian) {
                Mutf8String::write_prefixed(name, $d, $name);
            } else {
                name.write(string_at::<W>($d, $name));
            }
            let $tag: *mut NbtTag = std::ptr::addr_of_mut!((*slot).1);
            $value;
            entries.set_len(len + 1);
        }
    }};
}

/// Doubles the scratch stack (out of line: it is sized for typical
/// documents up front).
#[cold]
#[inline(never)]
fn grow(entries: &mut Vec<Entry>) {
    entries.reserve(1);
}

/// The owned tree being built from input in form `W` (Java's by default;
/// Bedrock's strings are UTF-8 and become MUTF-8 as in
/// [`crate::bedrock`]'s conversion).
pub(crate) struct OwnedSink<'a, W: Wire = BigEndian> {
    form: PhantomData<W>,
    data: &'a [u8],
    /// Named entries of every open compound, innermost last.
    entries: ManuallyDrop<Vec<Entry>>,
    /// Every open list of compounds, innermost last.
    compound_lists: ManuallyDrop<Vec<Vec<NbtCompound>>>,
    /// Every open list of lists, innermost last.
    list_lists: ManuallyDrop<Vec<Vec<NbtList>>>,
    /// The root value, once read.
    root: Option<NbtTag>,
}

/// A compound being read: its entries are `entries[start..]`; `name` is the
/// offset of its name's length (or `NO_NAME`).
#[derive(Clone, Copy)]
pub(crate) struct OpenOwnedCompound {
    start: usize,
    name: usize,
}

/// A list of compounds or lists being read: its elements go into the last
/// of `compound_lists` or `list_lists`.
#[derive(Clone, Copy)]
pub(crate) struct OpenList {
    elem: u8,
    name: usize,
}

/// A compound or a list of containers waiting for its child: an
/// [`OpenOwnedCompound`]'s `start`, or an [`OpenList`]'s `elem` there; `name` as in
/// both.
#[derive(Clone, Copy)]
pub(crate) struct Parked {
    start: usize,
    name: usize,
}

/// A list of strings or arrays being filled (capacity: its exact length).
pub(crate) enum PrefixedList {
    Strings(Vec<Mutf8String>),
    ByteArrays(Vec<Vec<u8>>),
    IntArrays(Vec<Vec<i32>>),
    LongArrays(Vec<Vec<i64>>),
}

impl<'a, W: Wire> OwnedSink<'a, W> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        let (entries, compound_lists, list_lists) =
            kept::take_if(&SCRATCH, |_| true).unwrap_or(kept::Parts::NONE);
        // SAFETY: kept by `Drop` below, taken back once.
        let (mut entries, compound_lists, list_lists) = unsafe {
            (
                entries.into_vec(),
                compound_lists.into_vec(),
                list_lists.into_vec(),
            )
        };
        // Room for the open compounds' entries of a typical document, so the
        // scratch stack does not regrow in every read; a named tag takes at
        // least 4 input bytes, so small inputs get less.
        let room = (data.len() / 4).clamp(4, 64);
        if entries.capacity() < room {
            entries.reserve_exact(room);
        }
        Self {
            form: PhantomData,
            data,
            // The three stacks are handed back or dropped by `Drop`.
            entries: ManuallyDrop::new(entries),
            compound_lists: ManuallyDrop::new(compound_lists),
            list_lists: ManuallyDrop::new(list_lists),
            root: None,
        }
    }

    /// Hands a finished list to its compound (named), list of lists or the
    /// root.
    #[inline(always)]
    fn place_list(&mut self, name: usize, list: NbtList) {
        if name == NO_NAME {
            match self.list_lists.last_mut() {
                Some(parent) => parent.push(list),
                None => self.root = Some(NbtTag::List(list)),
            }
        } else {
            push_entry!(&mut self.entries, self.data, name, |tag| tag
                .write(NbtTag::List(list)));
        }
    }
}

/// The string whose length prefix (form `W`) is at `off`, as MUTF-8.
#[inline(always)]
pub(crate) fn string_at<W: Wire>(d: &[u8], off: usize) -> Mutf8String {
    if matches!(W::ENCODING, Encoding::BigEndian) {
        Mutf8String::from_prefixed(d, off)
    } else {
        from_bedrock(value::string::<W>(d, off))
    }
}

/// A Bedrock (UTF-8) string as MUTF-8: re-encoded when it is valid UTF-8
/// and not plain ASCII without U+0000 (the same bytes in both), its bytes
/// kept as they are otherwise (nothing lost).
#[inline]
pub(crate) fn from_bedrock(bytes: &[u8]) -> Mutf8String {
    if simd::is_ascii(bytes) && !bytes.contains(&0) {
        return Mutf8String::from_slice(bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Mutf8String::from_string(s.to_owned()),
        Err(_) => Mutf8String::from_slice(bytes),
    }
}

/// Moves `v[start..]` into a new `Vec` of exactly that length (one
/// allocation, none when empty, one copy of the entries).
#[inline(always)]
fn take_tail<T>(v: &mut Vec<T>, start: usize) -> Vec<T> {
    if start > 0 {
        v.split_off(start)
    } else {
        // `split_off(0)` would hand over the whole scratch buffer, excess
        // capacity included, and allocate a new one.
        let mut all = Vec::with_capacity(v.len());
        all.append(v);
        all
    }
}

/// The number, string or array of type `id` whose payload (form `W`,
/// checked by the core) is at `p`. Numbers and strings (most tags) are made
/// inline, arrays out of line.
#[inline(always)]
pub(crate) fn leaf_at<W: Wire>(d: &[u8], id: u8, p: usize) -> NbtTag {
    match id {
        BYTE => NbtTag::Byte(d[p] as i8),
        SHORT => NbtTag::Short(value::short::<W>(d, p)),
        INT => NbtTag::Int(value::int::<W>(d, p).0),
        LONG => NbtTag::Long(value::long::<W>(d, p).0),
        FLOAT => NbtTag::Float(value::float::<W>(d, p)),
        DOUBLE => NbtTag::Double(value::double::<W>(d, p)),
        STRING => NbtTag::String(string_at::<W>(d, p)),
        _ => array_at::<W>(d, id, p),
    }
}

/// Writes [`leaf_at`]'s tag into `dst`, each variant stored where it stays
/// (its id and value, not a whole tag moved in).
///
/// # Safety
/// `dst` is valid for writing a tag.
#[inline(always)]
unsafe fn write_leaf_at<W: Wire>(dst: *mut NbtTag, d: &[u8], id: u8, p: usize) {
    // SAFETY: (every arm) the caller's promise.
    unsafe {
        match id {
            BYTE => dst.write(NbtTag::Byte(d[p] as i8)),
            SHORT => dst.write(NbtTag::Short(value::short::<W>(d, p))),
            INT => dst.write(NbtTag::Int(value::int::<W>(d, p).0)),
            LONG => dst.write(NbtTag::Long(value::long::<W>(d, p).0)),
            FLOAT => dst.write(NbtTag::Float(value::float::<W>(d, p))),
            DOUBLE => dst.write(NbtTag::Double(value::double::<W>(d, p))),
            STRING => dst.write(NbtTag::String(string_at::<W>(d, p))),
            _ => dst.write(array_at::<W>(d, id, p)),
        }
    }
}

/// [`leaf_at`] for arrays.
#[inline(never)]
fn array_at<W: Wire>(d: &[u8], id: u8, p: usize) -> NbtTag {
    let (n, elements) = value::array::<W>(d, id, p);
    match id {
        BYTE_ARRAY => NbtTag::ByteArray(elements.to_vec()),
        INT_ARRAY => NbtTag::IntArray(value::ints::<W>(elements, n)),
        _ => NbtTag::LongArray(value::longs::<W>(elements, n)),
    }
}

/// The list of `n` numbers of type `elem` from `p` on (or of End, or an empty
/// list of compounds or lists).
#[inline(never)]
pub(crate) fn flat_list_at<W: Wire>(d: &[u8], elem: u8, n: usize, p: usize) -> NbtList {
    if !matches!(W::ENCODING, Encoding::BigEndian) {
        return bedrock_flat_list_at::<W>(d, elem, n, p);
    }
    let numbers = &d[p..p + n * layout(elem).fixed as usize];
    match elem {
        BYTE => NbtList::Byte(numbers.iter().map(|&b| b as i8).collect()),
        SHORT => NbtList::Short(simd::from_be_bytes(numbers)),
        INT => NbtList::Int(simd::from_be_bytes(numbers)),
        LONG => NbtList::Long(simd::from_be_bytes(numbers)),
        FLOAT => NbtList::Float(simd::from_be_bytes(numbers)),
        DOUBLE => NbtList::Double(simd::from_be_bytes(numbers)),
        COMPOUND => NbtList::Compound(Vec::new()),
        LIST => NbtList::List(Vec::new()),
        _ => NbtList::Empty,
    }
}

/// [`flat_list_at`] for the Bedrock forms.
fn bedrock_flat_list_at<W: Wire>(d: &[u8], elem: u8, n: usize, p: usize) -> NbtList {
    match elem {
        BYTE => NbtList::Byte(d[p..p + n].iter().map(|&b| b as i8).collect()),
        SHORT => NbtList::Short((0..n).map(|i| value::short::<W>(d, p + 2 * i)).collect()),
        INT => NbtList::Int(value::ints::<W>(&d[p..], n)),
        LONG => NbtList::Long(value::longs::<W>(&d[p..], n)),
        FLOAT => NbtList::Float((0..n).map(|i| value::float::<W>(d, p + 4 * i)).collect()),
        DOUBLE => NbtList::Double((0..n).map(|i| value::double::<W>(d, p + 8 * i)).collect()),
        COMPOUND => NbtList::Compound(Vec::new()),
        LIST => NbtList::List(Vec::new()),
        _ => NbtList::Empty,
    }
}

impl<'a, W: Wire> Sink<'a> for OwnedSink<'a, W> {
    type Compound = OpenOwnedCompound;
    /// The offset of the list's name, or `NO_NAME`.
    type Slot = usize;
    type Elements = OpenList;
    type Parked = Parked;
    type PrefixedList = PrefixedList;
    type Output = NbtTag;

    #[inline(always)]
    fn root_compound(&mut self) -> Result<OpenOwnedCompound, Error> {
        Ok(OpenOwnedCompound {
            start: 0,
            name: NO_NAME,
        })
    }

    #[inline(always)]
    fn root_list(&mut self, _pos: usize) -> Result<usize, Error> {
        Ok(NO_NAME)
    }

    fn root_leaf(&mut self, id: u8, pos: usize) -> Result<(), Error> {
        self.root = Some(leaf_at::<W>(self.data, id, pos));
        Ok(())
    }

    #[inline(always)]
    fn named_leaf(
        &mut self,
        _c: &mut OpenOwnedCompound,
        id: u8,
        at: usize,
        payload: usize,
    ) -> Result<(), Error> {
        let d = self.data;
        push_entry!(&mut self.entries, d, at + 1, |tag| write_leaf_at::<W>(
            tag, d, id, payload
        ));
        Ok(())
    }

    #[inline(always)]
    fn named_compound(
        &mut self,
        _c: &mut OpenOwnedCompound,
        at: usize,
    ) -> Result<OpenOwnedCompound, Error> {
        Ok(OpenOwnedCompound {
            start: self.entries.len(),
            name: at + 1,
        })
    }

    #[inline(always)]
    fn named_list(&mut self, _c: &mut OpenOwnedCompound, at: usize) -> Result<usize, Error> {
        Ok(at + 1)
    }

    #[inline(always)]
    fn close_compound(&mut self, c: OpenOwnedCompound) {
        let compound = NbtCompound::from_values(take_tail(&mut self.entries, c.start));
        if c.name == NO_NAME {
            match self.compound_lists.last_mut() {
                Some(parent) => parent.push(compound),
                None => self.root = Some(NbtTag::Compound(compound)),
            }
        } else {
            push_entry!(&mut self.entries, self.data, c.name, |tag| tag
                .write(NbtTag::Compound(compound)));
        }
    }

    #[inline(always)]
    fn park_compound(&mut self, c: OpenOwnedCompound) -> Parked {
        Parked {
            start: c.start,
            name: c.name,
        }
    }

    #[inline(always)]
    fn resume_compound(&mut self, p: Parked) -> OpenOwnedCompound {
        OpenOwnedCompound {
            start: p.start,
            name: p.name,
        }
    }

    #[inline(always)]
    fn park_elements(&mut self, e: OpenList) -> Parked {
        Parked {
            start: e.elem as usize,
            name: e.name,
        }
    }

    #[inline(always)]
    fn resume_elements(&mut self, p: Parked) -> OpenList {
        OpenList {
            elem: p.start as u8,
            name: p.name,
        }
    }

    #[inline(always)]
    fn element_compound(&mut self, _pos: usize) -> Result<OpenOwnedCompound, Error> {
        Ok(OpenOwnedCompound {
            start: self.entries.len(),
            name: NO_NAME,
        })
    }

    #[inline(always)]
    fn element_list(&mut self, _pos: usize) -> Result<usize, Error> {
        Ok(NO_NAME)
    }

    #[inline(always)]
    fn flat_list(&mut self, slot: usize, elem: u8, n: u32, payload: usize) {
        let list = flat_list_at::<W>(self.data, elem, n as usize, payload);
        self.place_list(slot, list);
    }

    #[inline(always)]
    fn prefixed_list(
        &mut self,
        elem: u8,
        n: u32,
        _payload: usize,
        _len: usize,
    ) -> Result<PrefixedList, Error> {
        // The core checked `n` against the remaining input (≥ 2 bytes per
        // string, ≥ 4 per array), so this allocation is bounded by it.
        let n = n as usize;
        Ok(match elem {
            STRING => PrefixedList::Strings(Vec::with_capacity(n)),
            BYTE_ARRAY => PrefixedList::ByteArrays(Vec::with_capacity(n)),
            INT_ARRAY => PrefixedList::IntArrays(Vec::with_capacity(n)),
            _ => PrefixedList::LongArrays(Vec::with_capacity(n)),
        })
    }

    #[inline(always)]
    fn prefixed_element(&mut self, list: &mut PrefixedList, bytes: &'a [u8]) {
        if !matches!(W::ENCODING, Encoding::BigEndian) {
            return bedrock_element::<W>(list, bytes);
        }
        match list {
            PrefixedList::Strings(v) => v.push(Mutf8String::from_slice(bytes)),
            PrefixedList::ByteArrays(v) => v.push(bytes.to_vec()),
            PrefixedList::IntArrays(v) => v.push(simd::from_be_bytes(bytes)),
            PrefixedList::LongArrays(v) => v.push(simd::from_be_bytes(bytes)),
        }
    }

    #[inline(always)]
    fn close_prefixed_list(&mut self, slot: usize, list: PrefixedList) {
        let list = match list {
            PrefixedList::Strings(v) => NbtList::String(v),
            PrefixedList::ByteArrays(v) => NbtList::ByteArray(v),
            PrefixedList::IntArrays(v) => NbtList::IntArray(v),
            PrefixedList::LongArrays(v) => NbtList::LongArray(v),
        };
        self.place_list(slot, list);
    }

    #[inline(always)]
    fn elements(&mut self, slot: usize, elem: u8, n: u32) -> OpenList {
        // `n` was checked against the remaining input: at most one element
        // per byte, so this allocation is bounded by it.
        let n = n as usize;
        if elem == COMPOUND {
            self.compound_lists.push(Vec::with_capacity(n));
        } else {
            self.list_lists.push(Vec::with_capacity(n));
        }
        OpenList { elem, name: slot }
    }

    #[inline(always)]
    fn close_elements(&mut self, e: OpenList) {
        let list = if e.elem == COMPOUND {
            NbtList::Compound(self.compound_lists.pop().unwrap_or_default())
        } else {
            NbtList::List(self.list_lists.pop().unwrap_or_default())
        };
        self.place_list(e.name, list);
    }

    fn finish(mut self, _end: usize) -> NbtTag {
        // The core reports a root before it finishes.
        self.root.take().unwrap_or(NbtTag::List(NbtList::Empty))
    }
}

/// The builder's scratch stacks, kept by each thread from one read to the
/// next (emptied, `crate::kept`), so that a read allocates only the tree it
/// returns: the entries stack of a typical document is over 1 KiB, a size
/// that allocators serve on a slower path, and it and the two list stacks
/// were three allocations and frees per read.
type Scratch = (
    RawVec<Entry>,
    RawVec<Vec<NbtCompound>>,
    RawVec<Vec<NbtList>>,
);

/// Stacks larger than this many entries (a document with a compound of
/// more) are freed after the read rather than kept by the thread.
const KEEP_ENTRIES: usize = 1024;

kept::kept_by_thread!(SCRATCH, OWNER: Scratch);

/// Hands the scratch stacks back to the thread, emptied (after an error,
/// the partial entries and lists are dropped here).
impl<W: Wire> Drop for OwnedSink<'_, W> {
    fn drop(&mut self) {
        let keepable = self.entries.capacity() <= KEEP_ENTRIES;
        // SAFETY: each stack is given up once, here, and not used after.
        let scratch = unsafe {
            (
                RawVec::take(&mut self.entries),
                RawVec::take(&mut self.compound_lists),
                RawVec::take(&mut self.list_lists),
            )
        };
        // SAFETY: the three allocations, given up just above.
        unsafe { kept::keep(&SCRATCH, &OWNER, scratch, keepable) };
    }
}

/// [`Sink::prefixed_element`] for the Bedrock forms.
fn bedrock_element<W: Wire>(list: &mut PrefixedList, bytes: &[u8]) {
    let n = |size: usize| {
        if W::VARINT {
            value::count_varints(bytes)
        } else {
            bytes.len() / size
        }
    };
    match list {
        PrefixedList::Strings(v) => v.push(from_bedrock(bytes)),
        PrefixedList::ByteArrays(v) => v.push(bytes.to_vec()),
        PrefixedList::IntArrays(v) => v.push(value::ints::<W>(bytes, n(4))),
        PrefixedList::LongArrays(v) => v.push(value::longs::<W>(bytes, n(8))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{NbtCompound, NbtList, NbtTag};
    use std::io::Cursor;

    /// One tag of every shape the builder places differently: leaves in a
    /// compound, lists of each element kind, lists of lists of compounds,
    /// empty containers, a compound inside a list inside a compound.
    fn shapes() -> Vec<NbtTag> {
        let mut leafy = NbtCompound::new();
        leafy.insert("b", 1i8);
        leafy.insert("s", 2i16);
        leafy.insert("i", 3i32);
        leafy.insert("l", 4i64);
        leafy.insert("f", 5.5f32);
        leafy.insert("d", 6.5f64);
        leafy.insert("short", "abc");
        leafy.insert("long", "a string longer than fifteen bytes");
        leafy.insert("ba", NbtTag::ByteArray(vec![1, 2, 3]));
        leafy.insert("ia", NbtTag::IntArray(vec![-1, 2]));
        leafy.insert("la", NbtTag::LongArray(vec![i64::MIN]));
        leafy.insert("empty", NbtCompound::new());
        let mut outer = NbtCompound::new();
        outer.insert("first", leafy.clone());
        outer.insert(
            "items",
            NbtList::Compound(vec![leafy.clone(), NbtCompound::new(), leafy.clone()]),
        );
        outer.insert(
            "nested",
            NbtList::List(vec![
                NbtList::Compound(vec![leafy.clone()]),
                NbtList::Int(vec![1, 2]),
                NbtList::String(vec!["x".into(), "a string longer than fifteen".into()]),
                NbtList::Empty,
                NbtList::List(vec![NbtList::Compound(vec![]), NbtList::List(vec![])]),
            ]),
        );
        outer.insert("ints", NbtList::Int(vec![7; 3]));
        outer.insert("bytes", NbtList::ByteArray(vec![vec![1], vec![]]));
        outer.insert("ints2", NbtList::IntArray(vec![vec![1, 2], vec![]]));
        outer.insert("longs2", NbtList::LongArray(vec![vec![3]]));
        outer.insert("after", 9i32);
        vec![
            NbtTag::Compound(outer.clone()),
            NbtTag::List(NbtList::Compound(vec![outer.clone(), leafy])),
            NbtTag::List(NbtList::List(vec![NbtList::Compound(vec![outer])])),
            NbtTag::List(NbtList::Empty),
            NbtTag::List(NbtList::Double(vec![1.0, -2.0])),
            NbtTag::List(NbtList::String(vec!["a".into()])),
            NbtTag::Int(-5),
            NbtTag::String("root".into()),
            NbtTag::LongArray(vec![1, 2, 3]),
        ]
    }

    /// The one-pass builder makes the same tree as converting the tape, and
    /// on every truncation fails with the same kind at the same offset.
    #[test]
    fn one_pass_build_equals_the_tape_conversion() {
        for tag in shapes() {
            let mut bytes = Vec::new();
            tag.write(&mut bytes).unwrap();
            let mut c = Cursor::new(&bytes[..]);
            let built = super::super::read_tag(&mut c).unwrap();
            assert_eq!(c.position() as usize, bytes.len());
            let via_tape = crate::borrow::read_tag(&mut Cursor::new(&bytes[..])).unwrap();
            assert!(built == via_tape.as_tag().to_owned(), "{tag:?}");
            assert!(built == tag, "{tag:?}");
            // Miri interprets slowly: every 17th cut there.
            let step = if cfg!(miri) { 17 } else { 1 };
            for cut in (0..bytes.len()).step_by(step) {
                let o = super::super::read_tag(&mut Cursor::new(&bytes[..cut])).unwrap_err();
                let b = crate::borrow::read_tag(&mut Cursor::new(&bytes[..cut])).unwrap_err();
                assert_eq!(
                    (o.kind(), o.offset()),
                    (b.kind(), b.offset()),
                    "{tag:?} cut at {cut}"
                );
            }
        }
    }
}
