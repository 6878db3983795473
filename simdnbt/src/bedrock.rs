//! Bedrock Edition NBT: the little-endian variant, and the `level.dat` header.
//!
//! Bedrock stores NBT with the same tags and layout as Java
//! ([`crate::tag_id`]), but every number and
//! length prefix is **little-endian** and strings are **UTF-8** instead of
//! MUTF-8. `level.dat` adds an 8-byte header before the document: a
//! little-endian `i32` storage version and a little-endian `u32` length of the
//! rest of the file. (The LevelDB records of a Bedrock world — block entities,
//! entities — hold NBT of this variant too, several roots one after another;
//! [`to_big_endian_prefix`] reads one of them and says where it ended. The
//! network protocol's variable-length integer form is not handled here.)
//!
//! This module **transcodes**: [`to_big_endian`] turns a Bedrock document into
//! the Java form, which every reader of this crate then reads ([`crate::borrow`],
//! [`crate::owned`], [`crate::serde`]); [`to_little_endian`] turns Java-form
//! bytes (for example from an owned writer) into the Bedrock form. The walk checks
//! what the readers check — tag ids, the depth limit, every length against the
//! remaining input, lists of End — and reports it as an [`Error`] with the
//! offset **in the input it was given**, so a broken Bedrock file is reported
//! where it is broken. It recurses on nothing (an explicit stack), allocates at
//! most about twice its input, and never panics.
//!
//! Why a transcoder and not a second reader: the crate keeps one validating
//! reader core; a Bedrock document costs one linear copy before it. Making that
//! core generic over byte order would remove the copy; until then, this is the
//! one place that knows about little-endian NBT.
//!
//! # Strings
//!
//! A Bedrock string that is valid UTF-8 is re-encoded as MUTF-8 (U+0000 as
//! `C0 80`, characters above U+FFFF as surrogate pairs), so it decodes to the
//! same text here. A string that is not valid UTF-8 — or whose MUTF-8 form would
//! pass the 65535-byte limit — keeps its bytes unchanged: nothing is lost, and
//! converting back gives the original bytes (decoding it in between replaces
//! what is not MUTF-8 with U+FFFD). In the other direction, a string in
//! canonical MUTF-8 becomes UTF-8 and anything else (an unpaired surrogate, a
//! raw `00`) keeps its bytes. So Bedrock → Java → Bedrock is byte-exact for
//! every document whose strings are valid UTF-8, and after one trip either way
//! every further trip is exact.
//!
//! ```
//! use simdnbt::{bedrock, owned::{BaseNbt, Nbt, NbtCompound, NbtTag}};
//!
//! // A Java-form document, written by the owned writer...
//! let nbt = Nbt::Some(BaseNbt::new("", NbtCompound::from_values(vec![
//!     ("LevelName".into(), NbtTag::String("Ünïcode 😀".into())),
//!     ("StorageVersion".into(), NbtTag::Int(10)),
//! ])));
//! let mut java = Vec::new();
//! nbt.write(&mut java).unwrap();
//!
//! // ...as a Bedrock level.dat...
//! let body = bedrock::to_little_endian(&java).unwrap();
//! let mut level_dat = Vec::new();
//! bedrock::write_level_header(10, &body, &mut level_dat);
//!
//! // ...and back.
//! let (header, le) = bedrock::split_level_header(&level_dat).unwrap();
//! assert_eq!(header.version, 10);
//! let back = simdnbt::owned::read(&mut std::io::Cursor::new(&bedrock::to_big_endian(le).unwrap()[..])).unwrap();
//! assert_eq!(back, nbt);
//! ```

use crate::read::check::min_payload_for_error;
use crate::tag_id::*;
use crate::{Error, ErrorKind, ReadOptions, mutf8};

/// The 8-byte header of a Bedrock `level.dat`, before the little-endian document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelHeader {
    /// The storage version the file was saved with (also in its `StorageVersion` tag).
    pub version: i32,
    /// The length in bytes of the document after the header.
    pub length: u32,
}

/// Splits a Bedrock `level.dat` into its header and the little-endian document.
///
/// Returns `None` when `bytes` does not start with a header whose length field
/// equals the number of bytes after it (so a plain NBT document is never taken
/// for a `level.dat` by accident).
///
/// ```
/// let mut file = vec![10, 0, 0, 0, 1, 0, 0, 0, 0];
/// let (header, body) = simdnbt::bedrock::split_level_header(&file).unwrap();
/// assert_eq!((header.version, header.length, body), (10, 1, &[0u8][..]));
/// file.push(0); // one byte more than the header says
/// assert!(simdnbt::bedrock::split_level_header(&file).is_none());
/// ```
pub fn split_level_header(bytes: &[u8]) -> Option<(LevelHeader, &[u8])> {
    let (head, body) = bytes.split_first_chunk::<8>()?;
    let version = i32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let length = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    (usize::try_from(length).ok() == Some(body.len()))
        .then_some((LevelHeader { version, length }, body))
}

/// Appends a `level.dat` header for `body` (storage `version`, `body`'s length), then `body`.
///
/// # Panics
/// If `body` is 4 GiB or longer (its length does not fit the header).
///
/// ```
/// let mut out = Vec::new();
/// simdnbt::bedrock::write_level_header(10, &[0], &mut out);
/// assert_eq!(out, [10, 0, 0, 0, 1, 0, 0, 0, 0]);
/// ```
pub fn write_level_header(version: i32, body: &[u8], out: &mut Vec<u8>) {
    let length = u32::try_from(body.len()).expect("a level.dat body is shorter than 4 GiB");
    out.reserve(8 + body.len());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&length.to_le_bytes());
    out.extend_from_slice(body);
}

/// Turns a little-endian (Bedrock) document into the big-endian (Java) form
/// that this crate's readers read.
///
/// The whole input must be one document (tag id, name, payload — or a single
/// End byte); use [`split_level_header`] first for a `level.dat`.
///
/// # Errors
/// The first structural problem, with its offset in `le`: what
/// [`crate::borrow::read`] would report on the Java form, plus
/// [`ErrorKind::LengthExceedsInput`] at the end of the document when bytes
/// follow it.
///
/// ```
/// // {"": {n: 1}} in Bedrock form: Int payload and name lengths little-endian.
/// let le = [10, 0, 0, 3, 1, 0, b'n', 1, 0, 0, 0, 0];
/// let java = simdnbt::bedrock::to_big_endian(&le).unwrap();
/// assert_eq!(java, [10, 0, 0, 3, 0, 1, b'n', 0, 0, 0, 1, 0]);
/// ```
pub fn to_big_endian(le: &[u8]) -> Result<Vec<u8>, Error> {
    whole(le, Order::LittleToBig, &ReadOptions::default())
}

/// [`to_big_endian`] with a depth limit from `opts` ([`ReadOptions::max_depth`]).
pub fn to_big_endian_with(le: &[u8], opts: &ReadOptions) -> Result<Vec<u8>, Error> {
    whole(le, Order::LittleToBig, opts)
}

/// Transcodes the first little-endian document of `le` and returns it with the
/// number of input bytes it took, for records that hold several roots in a row.
///
/// ```
/// let two = [1, 0, 0, 7, 1, 0, 0, 9]; // two Byte roots
/// let (java, used) = simdnbt::bedrock::to_big_endian_prefix(&two).unwrap();
/// assert_eq!((java, used), (vec![1, 0, 0, 7], 4));
/// ```
pub fn to_big_endian_prefix(le: &[u8]) -> Result<(Vec<u8>, usize), Error> {
    let mut t = Transcoder::new(le, Order::LittleToBig, false);
    t.document(ReadOptions::default().max_depth)?;
    let used = t.pos;
    Ok((t.finish(), used))
}

/// Turns a big-endian (Java) document into the little-endian (Bedrock) form.
///
/// # Errors
/// As [`to_big_endian`], with offsets in `be`.
///
/// ```
/// let java = [10, 0, 0, 3, 0, 1, b'n', 0, 0, 0, 1, 0];
/// let le = simdnbt::bedrock::to_little_endian(&java).unwrap();
/// assert_eq!(le, [10, 0, 0, 3, 1, 0, b'n', 1, 0, 0, 0, 0]);
/// ```
pub fn to_little_endian(be: &[u8]) -> Result<Vec<u8>, Error> {
    whole(be, Order::BigToLittle, &ReadOptions::default())
}

fn whole(input: &[u8], order: Order, opts: &ReadOptions) -> Result<Vec<u8>, Error> {
    let mut t = Transcoder::new(input, order, true);
    t.document(opts.max_depth)?;
    if t.pos != input.len() {
        return Err(Error::new(ErrorKind::LengthExceedsInput, t.pos));
    }
    Ok(t.finish())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    LittleToBig,
    BigToLittle,
}

/// An open container on the walk's explicit stack.
enum Frame {
    Compound,
    /// A list with `left` more payloads of tag `id`.
    List {
        id: u8,
        left: u32,
    },
}

/// A string whose bytes change: at input offset `at` (its length prefix),
/// `old` bytes (prefix included) become `new` (prefix included).
struct Patch {
    at: usize,
    old: usize,
    new: Vec<u8>,
}

/// The walk. Layout is the same in both byte orders, so the output starts as a
/// copy of the input and every number is reversed in place at its own offset;
/// the rare string that must be re-encoded (and so may change length) is
/// recorded as a [`Patch`] and spliced in by [`finish`](Self::finish).
struct Transcoder<'a> {
    input: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    order: Order,
    patches: Vec<Patch>,
}

impl<'a> Transcoder<'a> {
    /// `whole`: the document is all of `input`, so copy it at once; otherwise
    /// (a document followed by others) copy as the walk goes, so reading many
    /// roots from one buffer stays linear.
    fn new(input: &'a [u8], order: Order, whole: bool) -> Self {
        Self {
            input,
            pos: 0,
            out: if whole { input.to_vec() } else { Vec::new() },
            order,
            patches: Vec::new(),
        }
    }

    /// The output, with the input copied at least up to `end`.
    #[inline(always)]
    fn out_to(&mut self, end: usize) -> &mut Vec<u8> {
        if self.out.len() < end {
            self.copy_ahead(end);
        }
        &mut self.out
    }

    #[cold]
    fn copy_ahead(&mut self, end: usize) {
        let to = end.max(self.out.len() + (64 << 10)).min(self.input.len());
        let from = self.out.len();
        self.out.extend_from_slice(&self.input[from..to]);
    }

    /// The output: the document's bytes with every patch applied.
    fn finish(mut self) -> Vec<u8> {
        let end = self.pos;
        self.out_to(end).truncate(end);
        if self.patches.is_empty() {
            return self.out;
        }
        let grown: usize = self.patches.iter().map(|p| p.new.len()).sum();
        let mut spliced = Vec::with_capacity(self.out.len() + grown);
        let mut from = 0;
        for patch in &self.patches {
            spliced.extend_from_slice(&self.out[from..patch.at]);
            spliced.extend_from_slice(&patch.new);
            from = patch.at + patch.old;
        }
        spliced.extend_from_slice(&self.out[from..]);
        spliced
    }

    /// `need` more bytes at the current position, or the readers' truncation error.
    #[inline(always)]
    fn ensure(&self, need: usize) -> Result<(), Error> {
        if self.input.len() - self.pos < need {
            return Err(Error::new(ErrorKind::UnexpectedEof, self.input.len()));
        }
        Ok(())
    }

    /// Skips `n` bytes copied as they are.
    #[inline(always)]
    fn skip(&mut self, n: usize) -> Result<(), Error> {
        self.ensure(n)?;
        self.pos += n;
        Ok(())
    }

    #[inline(always)]
    fn tag_id(&mut self) -> Result<u8, Error> {
        self.ensure(1)?;
        let id = self.input[self.pos];
        if !is_known(id) {
            return Err(Error::new(ErrorKind::UnknownTagId(id), self.pos));
        }
        self.pos += 1;
        Ok(id)
    }

    /// Reverses one `N`-byte number in the output and returns it in
    /// big-endian order (so callers use `from_be_bytes` either way).
    #[inline(always)]
    fn number<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        self.ensure(N)?;
        let at = self.pos;
        self.pos += N;
        let mut bytes: [u8; N] = self.input[at..at + N].try_into().expect("N bytes");
        let order = self.order;
        let out = &mut self.out_to(at + N)[at..at + N];
        if order == Order::LittleToBig {
            bytes.reverse();
            out.copy_from_slice(&bytes);
        } else {
            out.copy_from_slice(&bytes);
            out.reverse();
        }
        Ok(bytes)
    }

    /// A non-negative `i32` element count, checked against the remaining input
    /// at `width` bytes per element.
    #[inline(always)]
    fn count(&mut self, width: usize) -> Result<u32, Error> {
        let at = self.pos;
        let n = i32::from_be_bytes(self.number::<4>()?);
        if n < 0 {
            return Err(Error::new(ErrorKind::NegativeLength(n), at));
        }
        let left = self.input.len() - self.pos;
        if (n as usize).saturating_mul(width) > left {
            return Err(Error::new(ErrorKind::LengthExceedsInput, at));
        }
        Ok(n as u32)
    }

    /// Reverses `n` elements of `width` (4 or 8) bytes in place.
    fn elements(&mut self, n: u32, width: usize) -> Result<(), Error> {
        let len = n as usize * width;
        self.ensure(len)?;
        let at = self.pos;
        self.pos += len;
        let out = &mut self.out_to(at + len)[at..at + len];
        if width == 4 {
            for lane in out.chunks_exact_mut(4) {
                let v = u32::from_ne_bytes(lane.try_into().expect("4 bytes"));
                lane.copy_from_slice(&v.swap_bytes().to_ne_bytes());
            }
        } else {
            for lane in out.chunks_exact_mut(8) {
                let v = u64::from_ne_bytes(lane.try_into().expect("8 bytes"));
                lane.copy_from_slice(&v.swap_bytes().to_ne_bytes());
            }
        }
        Ok(())
    }

    /// A string (u16 length + bytes), re-encoded between UTF-8 and MUTF-8.
    #[inline(always)]
    fn string(&mut self) -> Result<(), Error> {
        let at = self.pos;
        let len = usize::from(u16::from_be_bytes(self.number::<2>()?));
        self.ensure(len)?;
        let bytes = &self.input[self.pos..self.pos + len];
        self.pos += len;
        // Names and most values are ASCII: the same bytes in both encodings
        // (a raw 00 only matters one way: UTF-8 U+0000 becomes C0 80, while
        // Java's raw 00 is not canonical and stays), so no decoding for them.
        let plain = crate::simd::is_ascii(bytes)
            && (self.order == Order::BigToLittle || !bytes.contains(&0));
        if !plain {
            if let Some(converted) = reencode(bytes, self.order) {
                // Fits: MUTF-8 was limited to 65535 bytes, and UTF-8 is never
                // longer than the MUTF-8 it came from.
                let n = converted.len() as u16;
                let mut new = Vec::with_capacity(2 + converted.len());
                new.extend_from_slice(&match self.order {
                    Order::LittleToBig => n.to_be_bytes(),
                    Order::BigToLittle => n.to_le_bytes(),
                });
                new.extend_from_slice(&converted);
                self.patches.push(Patch {
                    at,
                    old: 2 + len,
                    new,
                });
            }
        }
        Ok(())
    }

    /// One root: id, then (unless End) name and payload.
    fn document(&mut self, max_depth: u32) -> Result<(), Error> {
        let id = self.tag_id()?;
        if id == END {
            return Ok(());
        }
        self.string()?;
        let mut stack = Vec::new();
        self.payload(id, None, &mut stack, max_depth)?;
        while let Some(frame) = stack.last_mut() {
            match frame {
                Frame::Compound => self.entry(&mut stack, max_depth)?,
                Frame::List { left: 0, .. } => {
                    stack.pop();
                }
                Frame::List { id, left } => {
                    *left -= 1;
                    let id = *id;
                    self.element_prefix(id)?;
                    self.payload(id, None, &mut stack, max_depth)?;
                }
            }
        }
        Ok(())
    }

    /// One named tag of a compound, or its End. The checks come in the
    /// readers' order: id, name and smallest payload all present (an
    /// unknown id is reported only once they are), then the payload.
    #[inline(always)]
    fn entry(&mut self, stack: &mut Vec<Frame>, max_depth: u32) -> Result<(), Error> {
        let at = self.pos;
        self.ensure(1)?;
        let id = self.input[at];
        if id == END {
            self.pos += 1;
            stack.pop();
            return Ok(());
        }
        self.ensure(3)?;
        let name_len = usize::from(u16::from_be_bytes(self.name_len_at(at + 1)));
        let left = self.input.len() - at;
        if left < 3 + name_len + min_payload_for_error(id) {
            return Err(Error::new(ErrorKind::UnexpectedEof, self.input.len()));
        }
        if !is_known(id) {
            return Err(Error::new(ErrorKind::UnknownTagId(id), at));
        }
        self.pos += 1;
        self.string()?;
        self.payload(id, Some(at), stack, max_depth)
    }

    /// The two name-length bytes at `at`, in big-endian order.
    fn name_len_at(&self, at: usize) -> [u8; 2] {
        let bytes = [self.input[at], self.input[at + 1]];
        match self.order {
            Order::LittleToBig => [bytes[1], bytes[0]],
            Order::BigToLittle => bytes,
        }
    }

    /// A list element's length prefix must be there before it is read (what a
    /// named tag's smallest-payload check gives the others).
    fn element_prefix(&self, id: u8) -> Result<(), Error> {
        self.ensure(layout(id).prefix as usize)
    }

    /// One payload of tag `id`; containers are pushed, to be walked by `document`.
    ///
    /// `entry_at` is the offset of the tag id when the payload belongs to a
    /// compound entry: a compound entry too deep is reported there, everything
    /// else too deep at its payload (as the readers do).
    #[inline(always)]
    fn payload(
        &mut self,
        id: u8,
        entry_at: Option<usize>,
        stack: &mut Vec<Frame>,
        max_depth: u32,
    ) -> Result<(), Error> {
        match id {
            BYTE => drop(self.number::<1>()?),
            SHORT => drop(self.number::<2>()?),
            INT | FLOAT => drop(self.number::<4>()?),
            LONG | DOUBLE => drop(self.number::<8>()?),
            BYTE_ARRAY => {
                let n = self.count(1)?;
                self.skip(n as usize)?;
            }
            STRING => self.string()?,
            INT_ARRAY | LONG_ARRAY => {
                let width = layout(id).element as usize;
                let n = self.count(width)?;
                self.elements(n, width)?;
            }
            _ => {
                // List or compound; ids were checked before.
                // The new container's level counts the root as 1.
                let at = self.pos;
                if stack.len() + 1 > max_depth as usize {
                    let at = entry_at.filter(|_| id == COMPOUND).unwrap_or(at);
                    return Err(Error::new(ErrorKind::MaxDepthExceeded, at));
                }
                if id == COMPOUND {
                    stack.push(Frame::Compound);
                } else {
                    // Header: element id and count, then the count's checks
                    // in the readers' order; the element id is judged last.
                    self.ensure(5)?;
                    let element = self.input[self.pos];
                    self.pos += 1;
                    let count_at = self.pos;
                    let left = self.count(layout(element).min as usize)?;
                    if element == END && left != 0 {
                        return Err(Error::new(ErrorKind::ListOfEndNotEmpty, count_at));
                    }
                    if !is_known(element) {
                        return Err(Error::new(ErrorKind::UnknownTagId(element), at));
                    }
                    stack.push(Frame::List { id: element, left });
                }
            }
        }
        Ok(())
    }
}

/// A string's bytes in the other encoding, or `None` to keep them as they are
/// (unchanged by the conversion, or not convertible: see the module docs).
#[cold]
fn reencode(bytes: &[u8], order: Order) -> Option<Vec<u8>> {
    match order {
        Order::LittleToBig => match mutf8::encode(std::str::from_utf8(bytes).ok()?) {
            std::borrow::Cow::Owned(m) if m.len() <= u16::MAX as usize => Some(m),
            _ => None,
        },
        // Only canonical MUTF-8 (what `encode` gives back): a raw 00, which
        // the decoder also accepts, would otherwise come back from Bedrock as
        // C0 80.
        Order::BigToLittle => match mutf8::decode(bytes).ok()? {
            std::borrow::Cow::Owned(s) if mutf8::encode(&s)[..] == *bytes => Some(s.into_bytes()),
            _ => None,
        },
    }
}
