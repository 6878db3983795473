//! Turning one binary form into another: a [`Sink`] of the validating core
//! that writes, event by event, what the core read in form `F` as form `T`.
//!
//! The core checks everything (so every form's errors are the readers'
//! errors, at the same offsets, under every [`ReadOptions`] limit); this
//! sink only re-encodes numbers, lengths and strings. The output is at most
//! 8× the input: a network VarInt of one byte becomes four or eight bytes
//! (a list of one-byte Longs, 8×; `tests/memory/network.rs`), a string grows
//! by at most half as MUTF-8; the fixed forms keep their size.

use std::marker::PhantomData;

use crate::error::{Error, ErrorKind};
use crate::mutf8;
use crate::options::ReadOptions;
use crate::read::check::list_element;
use crate::read::wire::{
    Encoding, Wire, put_varint, put_zigzag32, put_zigzag64, value, zigzag32, zigzag64,
};
use crate::read::{Sink, parse_in, with_budget};
use crate::tag_id::*;

/// The output of a document in form `T`, read from form `F`.
pub(crate) struct Transcode<'a, F: Wire, T: Wire> {
    data: &'a [u8],
    out: Vec<u8>,
    /// The first string the output form could not hold, or where the
    /// output passed `limit` (reported at the end, or at the next event
    /// that can fail: the core's events that carry strings return nothing).
    failed: Option<Error>,
    /// The most output bytes (the output may pass it by one event's bytes
    /// before the read stops; [`document_within`] checks the total).
    limit: usize,
    forms: PhantomData<(F, T)>,
}

/// Transcodes the document (a named root tag of any type, or a lone End) at
/// `start` of `data` from form `F` to form `T`, within `opts`. Returns the
/// output and the offset just past the document. `whole`: the document is
/// expected to fill the input, whose size then sizes the output once (a
/// record among many starts small, so reading many stays linear).
pub(crate) fn document<F: Wire, T: Wire>(
    data: &[u8],
    start: usize,
    opts: &ReadOptions,
    whole: bool,
) -> Result<(Vec<u8>, usize), Error> {
    document_within::<F, T>(data, start, opts, whole, usize::MAX)
}

/// [`document`] with an output of at most `limit` bytes: a larger one is
/// [`ErrorKind::InputTooLarge`] at the input offset where the output passed
/// it, found while transcoding (the output grows no further than one
/// event's bytes past the limit: a network input's Java form can be 8× its
/// size, and a document holds at most 2 GiB).
pub(crate) fn document_within<F: Wire, T: Wire>(
    data: &[u8],
    start: usize,
    opts: &ReadOptions,
    whole: bool,
    limit: usize,
) -> Result<(Vec<u8>, usize), Error> {
    with_budget(data, start, opts, |data| {
        let mut sink = Transcode::<F, T> {
            data,
            // Most documents keep their size: ample for the fixed forms.
            out: Vec::with_capacity(if whole { data.len() - start + 16 } else { 64 }),
            failed: None,
            limit,
            forms: PhantomData,
        };
        let Some(&id) = data.get(start) else {
            return Err(Error::new(ErrorKind::UnexpectedEof, start));
        };
        sink.out.push(id);
        if id == END {
            return Ok((sink.out, start + 1));
        }
        if !is_known(id) {
            return Err(crate::read::root::root_type_error(data, start));
        }
        let mut pos = start + 1;
        let name = list_element::<F>(data, &mut pos, STRING)?;
        sink.string(name);
        let (out, end) = parse_in::<F, _>(data, pos, id, opts.max_depth, sink)?;
        let out = out?;
        if out.len() > limit {
            return Err(Error::new(ErrorKind::InputTooLarge, end));
        }
        Ok((out, end))
    })
}

impl<'a, F: Wire, T: Wire> Transcode<'a, F, T> {
    /// Fails when the output has passed its limit (at the input offset
    /// `at`, unless an earlier failure was recorded).
    #[inline(always)]
    fn within_limit(&mut self, at: usize) -> Result<(), Error> {
        if self.out.len() > self.limit {
            return Err(self.too_large(at));
        }
        Ok(())
    }

    /// The error for an output past its limit at `at`, or the first one
    /// recorded; from now on every event that can fail fails.
    #[cold]
    fn too_large(&mut self, at: usize) -> Error {
        self.limit = 0;
        *self
            .failed
            .get_or_insert_with(|| Error::new(ErrorKind::InputTooLarge, at))
    }

    /// Whether `n` numbers of `size` bytes each (in a fixed-width output;
    /// up to 10 in a VarInt one) after a header of `head` would pass the
    /// limit; if so, the failure is recorded at `at` and the caller writes
    /// nothing (so that a long list or array is refused before its output
    /// is allocated).
    #[inline(always)]
    fn would_pass(&mut self, head: usize, n: usize, size: usize, at: usize) -> bool {
        let size = if T::VARINT { 10 } else { size };
        let more = n.saturating_mul(size).saturating_add(head);
        if self.out.len().saturating_add(more) > self.limit {
            self.too_large(at);
            return true;
        }
        false
    }

    /// The offset of `bytes` (a slice of the input) in the input.
    fn offset_of(&self, bytes: &[u8]) -> usize {
        bytes.as_ptr() as usize - self.data.as_ptr() as usize
    }

    #[inline(always)]
    fn count(&mut self, n: usize) {
        let n = n as i32;
        match T::ENCODING {
            Encoding::BigEndian => self.out.extend_from_slice(&n.to_be_bytes()),
            Encoding::LittleEndian => self.out.extend_from_slice(&n.to_le_bytes()),
            Encoding::Network => put_zigzag32(&mut self.out, n),
        }
    }

    /// `N` bytes of a fixed-width number, reversed between the byte orders.
    #[inline(always)]
    fn fixed<const N: usize>(&mut self, p: usize) {
        let mut b: [u8; N] = self.data[p..p + N].try_into().unwrap();
        if matches!(F::ENCODING, Encoding::BigEndian) != matches!(T::ENCODING, Encoding::BigEndian)
        {
            b.reverse();
        }
        self.out.extend_from_slice(&b);
    }

    #[inline(always)]
    fn int(&mut self, v: i32) {
        match T::ENCODING {
            Encoding::BigEndian => self.out.extend_from_slice(&v.to_be_bytes()),
            Encoding::LittleEndian => self.out.extend_from_slice(&v.to_le_bytes()),
            Encoding::Network => put_zigzag32(&mut self.out, v),
        }
    }

    #[inline(always)]
    fn long(&mut self, v: i64) {
        match T::ENCODING {
            Encoding::BigEndian => self.out.extend_from_slice(&v.to_be_bytes()),
            Encoding::LittleEndian => self.out.extend_from_slice(&v.to_le_bytes()),
            Encoding::Network => put_zigzag64(&mut self.out, v),
        }
    }

    /// A string's bytes (checked by the core) with its length prefix, in the
    /// output's encoding: MUTF-8 for Java, UTF-8 for Bedrock, re-encoded
    /// where both can hold the text, kept as they are otherwise.
    fn string(&mut self, bytes: &[u8]) {
        let to_java = matches!(T::ENCODING, Encoding::BigEndian);
        let from_java = matches!(F::ENCODING, Encoding::BigEndian);
        let converted = if to_java == from_java {
            None
        } else {
            reencode(bytes, to_java)
        };
        let text = converted.as_deref().unwrap_or(bytes);
        if T::VARINT {
            put_varint(&mut self.out, text.len() as u64);
        } else {
            let Ok(n) = u16::try_from(text.len()) else {
                // Only a network-form string can be this long.
                if self.failed.is_none() {
                    let at = self.offset_of(bytes);
                    self.failed = Some(Error::new(ErrorKind::StringTooLong, at));
                }
                return;
            };
            self.out.extend_from_slice(&match T::ENCODING {
                Encoding::LittleEndian => n.to_le_bytes(),
                _ => n.to_be_bytes(),
            });
        }
        match converted {
            None => self.input_bytes(text),
            Some(_) => self.out.extend_from_slice(text),
        }
    }

    /// Appends `bytes`, a slice of the input. Most are names and short
    /// values: those are copied as the 16 input bytes from their start (a
    /// fixed-size copy, not a `memcpy` call) and cut back to their length.
    #[inline(always)]
    fn input_bytes(&mut self, bytes: &[u8]) {
        let at = self.offset_of(bytes);
        match self.data.get(at..at + 16) {
            Some(window) if bytes.len() <= 16 => {
                let end = self.out.len() + bytes.len();
                let window: &[u8; 16] = window.try_into().unwrap();
                self.out.extend_from_slice(window);
                self.out.truncate(end);
            }
            _ => self.out.extend_from_slice(bytes),
        }
    }

    /// A named tag's id and name (its length prefix at `at + 1`).
    #[inline(always)]
    fn head(&mut self, id: u8, at: usize) {
        self.out.push(id);
        let name = value::string::<F>(self.data, at + 1);
        self.string(name);
    }

    /// The payload of a number, string or array of type `id` at `p`.
    fn leaf(&mut self, id: u8, p: usize) {
        match id {
            BYTE => self.out.push(self.data[p]),
            SHORT => self.fixed::<2>(p),
            INT => self.int(value::int::<F>(self.data, p).0),
            LONG => self.long(value::long::<F>(self.data, p).0),
            FLOAT => self.fixed::<4>(p),
            DOUBLE => self.fixed::<8>(p),
            STRING => {
                let s = value::string::<F>(self.data, p);
                self.string(s);
            }
            _ => {
                let (n, elements) = value::array::<F>(self.data, id, p);
                if self.would_pass(5, n, layout(id).element as usize, p) {
                    return;
                }
                self.count(n);
                self.elements(id, elements);
            }
        }
    }

    /// An array's elements (`bytes`, checked by the core).
    fn elements(&mut self, id: u8, bytes: &[u8]) {
        if id == BYTE_ARRAY {
            self.out.extend_from_slice(bytes);
            return;
        }
        let size = layout(id).element as usize;
        if !F::VARINT && !T::VARINT {
            if matches!(F::ENCODING, Encoding::BigEndian)
                == matches!(T::ENCODING, Encoding::BigEndian)
            {
                self.out.extend_from_slice(bytes);
            } else {
                crate::simd::extend_swapped(size, &mut self.out, bytes);
            }
            return;
        }
        let mut q = 0;
        while q < bytes.len() {
            if F::VARINT {
                if size == 4 {
                    let v = zigzag32(bytes, &mut q).expect("checked by the core");
                    self.int(v);
                } else {
                    let v = zigzag64(bytes, &mut q).expect("checked by the core");
                    self.long(v);
                }
            } else {
                let at = q;
                q += size;
                let b = &bytes[at..q];
                if size == 4 {
                    let v: [u8; 4] = b.try_into().unwrap();
                    self.int(match F::ENCODING {
                        Encoding::LittleEndian => i32::from_le_bytes(v),
                        _ => i32::from_be_bytes(v),
                    });
                } else {
                    let v: [u8; 8] = b.try_into().unwrap();
                    self.long(match F::ENCODING {
                        Encoding::LittleEndian => i64::from_le_bytes(v),
                        _ => i64::from_be_bytes(v),
                    });
                }
            }
        }
    }
}

/// A string's bytes in the other encoding (`to_java`: UTF-8 to MUTF-8, else
/// MUTF-8 to UTF-8), or `None` to keep them as they are: unchanged by the
/// conversion, or not convertible (see [`crate::bedrock`]'s "Strings").
fn reencode(bytes: &[u8], to_java: bool) -> Option<Vec<u8>> {
    // Names and most values are ASCII: the same bytes in both encodings (a
    // raw 00 only matters one way: UTF-8 U+0000 becomes C0 80, while Java's
    // raw 00 is not canonical and stays).
    let same = if to_java {
        ascii_without_nul(bytes)
    } else {
        crate::simd::is_ascii(bytes)
    };
    if same {
        return None;
    }
    reencode_text(bytes, to_java)
}

/// Whether every byte is in `01..=7F`, in one pass with no early exit (so it
/// vectorises): a byte has its top bit clear in both itself and itself minus
/// one only then. `is_ascii` and then a separate search for a 00 took a
/// large share of the transcode to Java, and a word at a time cost more, its
/// names being short (`reports/code-notes.md`).
#[inline]
fn ascii_without_nul(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .fold(0u8, |acc, &b| acc | b | b.wrapping_sub(1))
        & 0x80
        == 0
}

#[cold]
fn reencode_text(bytes: &[u8], to_java: bool) -> Option<Vec<u8>> {
    if to_java {
        match mutf8::encode(std::str::from_utf8(bytes).ok()?) {
            std::borrow::Cow::Owned(m) if m.len() <= u16::MAX as usize => Some(m),
            _ => None,
        }
    } else {
        // Only canonical MUTF-8 (what `encode` gives back): a raw 00, which
        // the decoder also accepts, would otherwise come back from Bedrock as
        // C0 80.
        match mutf8::decode(bytes).ok()? {
            std::borrow::Cow::Owned(s) if mutf8::encode(&s)[..] == *bytes => Some(s.into_bytes()),
            _ => None,
        }
    }
}

impl<'a, F: Wire, T: Wire> Sink<'a> for Transcode<'a, F, T> {
    type Compound = ();
    type Slot = ();
    type Elements = ();
    type Parked = ();
    /// The element type.
    type PrefixedList = u8;
    type Output = Result<Vec<u8>, Error>;

    fn root_compound(&mut self) -> Result<(), Error> {
        Ok(())
    }

    fn root_list(&mut self, _pos: usize) -> Result<(), Error> {
        Ok(())
    }

    fn root_leaf(&mut self, id: u8, pos: usize) -> Result<(), Error> {
        self.leaf(id, pos);
        self.within_limit(pos)
    }

    fn named_leaf(&mut self, _c: &mut (), id: u8, at: usize, payload: usize) -> Result<(), Error> {
        self.within_limit(at)?;
        self.head(id, at);
        self.leaf(id, payload);
        Ok(())
    }

    fn named_compound(&mut self, _c: &mut (), at: usize) -> Result<(), Error> {
        self.within_limit(at)?;
        self.head(COMPOUND, at);
        Ok(())
    }

    fn named_list(&mut self, _c: &mut (), at: usize) -> Result<(), Error> {
        self.within_limit(at)?;
        self.head(LIST, at);
        Ok(())
    }

    fn close_compound(&mut self, _c: ()) {
        self.out.push(END);
    }

    fn park_compound(&mut self, _c: ()) {}
    fn resume_compound(&mut self, _p: ()) {}
    fn park_elements(&mut self, _e: ()) {}
    fn resume_elements(&mut self, _p: ()) {}

    fn element_compound(&mut self, pos: usize) -> Result<(), Error> {
        self.within_limit(pos)
    }

    fn element_list(&mut self, pos: usize) -> Result<(), Error> {
        self.within_limit(pos)
    }

    fn flat_list(&mut self, _slot: (), elem: u8, n: u32, payload: usize) {
        if self.would_pass(6, n as usize, layout(elem).fixed as usize, payload) {
            return;
        }
        self.out.push(elem);
        self.count(n as usize);
        let fixed = layout(elem).fixed as usize;
        match elem {
            BYTE => self
                .out
                .extend_from_slice(&self.data[payload..payload + n as usize]),
            INT | LONG if F::VARINT || T::VARINT => {
                let mut p = payload;
                for _ in 0..n {
                    if elem == INT {
                        let (v, next) = value::int::<F>(self.data, p);
                        self.int(v);
                        p = next;
                    } else {
                        let (v, next) = value::long::<F>(self.data, p);
                        self.long(v);
                        p = next;
                    }
                }
            }
            SHORT..=DOUBLE => {
                let bytes = &self.data[payload..payload + n as usize * fixed];
                if matches!(F::ENCODING, Encoding::BigEndian)
                    == matches!(T::ENCODING, Encoding::BigEndian)
                {
                    self.out.extend_from_slice(bytes);
                } else {
                    crate::simd::extend_swapped(fixed, &mut self.out, bytes);
                }
            }
            // End, or an empty list of compounds or lists: the header only.
            _ => {}
        }
    }

    fn prefixed_list(
        &mut self,
        elem: u8,
        n: u32,
        payload: usize,
        _len: usize,
    ) -> Result<u8, Error> {
        self.within_limit(payload)?;
        self.out.push(elem);
        self.count(n as usize);
        Ok(elem)
    }

    fn prefixed_element(&mut self, elem: &mut u8, bytes: &'a [u8]) {
        // Past the limit already: nothing more is written.
        if self.out.len() > self.limit {
            return;
        }
        if *elem == STRING {
            self.string(bytes);
            // A string adds little (at most 1.5× 65535 bytes): checked after.
            if self.out.len() > self.limit {
                self.too_large(self.offset_of(bytes));
            }
            return;
        }
        let n = if F::VARINT && *elem != BYTE_ARRAY {
            value::count_varints(bytes)
        } else {
            bytes.len() / layout(*elem).element as usize
        };
        let size = layout(*elem).element as usize;
        if self.would_pass(5, n, size, self.offset_of(bytes)) {
            return;
        }
        self.count(n);
        self.elements(*elem, bytes);
    }

    fn close_prefixed_list(&mut self, _slot: (), _elem: u8) {}

    fn elements(&mut self, _slot: (), elem: u8, n: u32) {
        self.out.push(elem);
        self.count(n as usize);
    }

    fn close_elements(&mut self, _e: ()) {}

    fn finish(self, _end: usize) -> Result<Vec<u8>, Error> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ascii_without_nul;

    #[test]
    fn ascii_without_nul_refuses_a_zero_or_a_high_byte_anywhere() {
        assert!(ascii_without_nul(b""));
        for len in 1..40 {
            let plain: Vec<u8> = (0..len).map(|i| 1 + (i * 37 % 127) as u8).collect();
            assert!(ascii_without_nul(&plain), "{len}");
            for at in 0..len {
                for bad in [0x00, 0x80, 0xff, 0xc0] {
                    let mut v = plain.clone();
                    v[at] = bad;
                    assert!(!ascii_without_nul(&v), "{len} {at} {bad:#x}");
                }
            }
        }
        // Bytes next to the edges pass.
        assert!(ascii_without_nul(&[
            0x01, 0x7f, 0x01, 0x7f, 0x01, 0x7f, 0x01, 0x7f, 0x7f
        ]));
    }
}
