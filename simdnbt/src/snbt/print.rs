//! The SNBT printer: an explicit stack over the owned tree (no recursion, so a
//! tree of any depth prints), compact or pretty.

use super::error::PrintError;
use super::parse::{MAX_DEPTH, is_wrapper};
use super::string;
use crate::owned::{NbtCompound, NbtList, NbtTag};

/// What to print: a tag, or a compound or list on its own.
#[derive(Clone, Copy)]
pub(super) enum Item<'a> {
    Tag(&'a NbtTag),
    Compound(&'a NbtCompound),
    List(&'a NbtList),
}

/// Indentation of the pretty form.
const INDENT: &[u8] = b"    ";

/// ANSI colours of the coloured form: keys, strings, numbers, and back to plain.
const KEY_COLOR: &[u8] = b"\x1b[36m";
const STRING_COLOR: &[u8] = b"\x1b[32m";
const NUMBER_COLOR: &[u8] = b"\x1b[33m";
const RESET: &[u8] = b"\x1b[0m";

struct Out {
    buf: Vec<u8>,
    pretty: bool,
    /// Wrap keys, strings and numbers in ANSI colours (for a terminal).
    color: bool,
}

impl Out {
    /// Starts a coloured span (nothing when colours are off).
    fn paint(&mut self, color: &'static [u8]) {
        if self.color {
            self.buf.extend_from_slice(color);
        }
    }

    /// Ends a span [`paint`](Self::paint) started.
    fn unpaint(&mut self) {
        if self.color {
            self.buf.extend_from_slice(RESET);
        }
    }

    /// Before an element of a compound or a multi-line list.
    fn element_start(&mut self, first: bool, depth: usize) {
        if !first {
            self.buf.push(b',');
        }
        if self.pretty {
            self.buf.push(b'\n');
            for _ in 0..depth {
                self.buf.extend_from_slice(INDENT);
            }
        }
    }

    /// Closes a compound or a multi-line list at `depth` (its own level).
    fn close(&mut self, bracket: u8, depth: usize) {
        if self.pretty {
            self.buf.push(b'\n');
            for _ in 0..depth {
                self.buf.extend_from_slice(INDENT);
            }
        }
        self.buf.push(bracket);
    }

    /// Between two elements of a one-line list or array.
    fn inline_sep(&mut self) {
        self.buf.push(b',');
        if self.pretty {
            self.buf.push(b' ');
        }
    }

    fn int(&mut self, v: impl itoa::Integer, suffix: Option<u8>) {
        self.paint(NUMBER_COLOR);
        for &d in itoa::Buffer::new().format(v).as_bytes() {
            self.buf.push(d);
        }
        if let Some(suffix) = suffix {
            self.buf.push(suffix);
        }
        self.unpaint();
    }

    /// Shortest text that parses back to the same bits (ryu); NaN and
    /// infinities have no SNBT form.
    fn float<F: ryu::Float>(&mut self, v: F, finite: bool, suffix: u8) -> Result<(), PrintError> {
        if !finite {
            return Err(PrintError::NonFiniteNumber);
        }
        self.paint(NUMBER_COLOR);
        self.buf
            .extend_from_slice(ryu::Buffer::new().format_finite(v).as_bytes());
        self.buf.push(suffix);
        self.unpaint();
        Ok(())
    }

    fn string(&mut self, s: &[u8]) -> Result<(), PrintError> {
        self.paint(STRING_COLOR);
        string::write_quoted(&mut self.buf, s)?;
        self.unpaint();
        Ok(())
    }

    /// `[` and an array prefix (`B;`), with room for `len` short elements up
    /// front so that most pushes skip growing.
    fn open_inline(&mut self, prefix: &[u8], len: usize) {
        self.buf.reserve(len * 8 + 8);
        self.buf.push(b'[');
        self.buf.extend_from_slice(prefix);
        if !prefix.is_empty() && self.pretty && len > 0 {
            self.buf.push(b' ');
        }
    }

    /// `[` + prefix, the elements (each written by `each`), `]`, on one line.
    fn inline<T: Copy>(
        &mut self,
        prefix: &[u8],
        items: &[T],
        mut each: impl FnMut(&mut Self, T) -> Result<(), PrintError>,
    ) -> Result<(), PrintError> {
        self.open_inline(prefix, items.len());
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                self.inline_sep();
            }
            each(self, x)?;
        }
        self.buf.push(b']');
        Ok(())
    }

    /// Writes a tag that needs no frame (not a non-empty compound or list of
    /// compounds/lists); returns `false` for those. `depth`: the open frames.
    fn leaf(&mut self, tag: &NbtTag, depth: usize) -> Result<bool, PrintError> {
        match tag {
            NbtTag::Byte(v) => self.int(*v, Some(b'b')),
            NbtTag::Short(v) => self.int(*v, Some(b's')),
            NbtTag::Int(v) => self.int(*v, None),
            NbtTag::Long(v) => self.int(*v, Some(b'L')),
            NbtTag::Float(v) => self.float(*v, v.is_finite(), b'f')?,
            NbtTag::Double(v) => self.float(*v, v.is_finite(), b'd')?,
            NbtTag::String(s) => self.string(s.as_bytes())?,
            NbtTag::ByteArray(v) => self.ints_as(b"B;", v, Some(b'b'), |x| x as i8)?,
            NbtTag::IntArray(v) => self.ints(b"I;", v, None)?,
            NbtTag::LongArray(v) => self.ints(b"L;", v, Some(b'L'))?,
            NbtTag::Compound(c) if c.is_empty() => {
                check_depth(depth)?;
                self.buf.extend_from_slice(b"{}")
            }
            NbtTag::Compound(_) => return Ok(false),
            NbtTag::List(l) => return self.leaf_list(l, depth),
        }
        Ok(true)
    }

    /// Integers on one line, each with `suffix`.
    fn ints<T: itoa::Integer + Copy>(
        &mut self,
        prefix: &[u8],
        items: &[T],
        suffix: Option<u8>,
    ) -> Result<(), PrintError> {
        self.ints_as(prefix, items, suffix, |x| x)
    }

    /// [`ints`](Self::ints) of elements converted first (bytes as `i8`).
    fn ints_as<S: Copy, T: itoa::Integer>(
        &mut self,
        prefix: &[u8],
        items: &[S],
        suffix: Option<u8>,
        conv: impl Fn(S) -> T,
    ) -> Result<(), PrintError> {
        // The hot loop of arrays and number lists: one formatter, inlined.
        self.open_inline(prefix, items.len());
        // One colour span for the whole run, so the loop stays as it is.
        self.paint(NUMBER_COLOR);
        let mut digits = itoa::Buffer::new();
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
                if self.pretty {
                    self.buf.push(b' ');
                }
            }
            // Byte by byte: these runs are short, and a `memcpy` call per
            // number cost more than the copy (measured with callgrind).
            for &d in digits.format(conv(x)).as_bytes() {
                self.buf.push(d);
            }
            if let Some(suffix) = suffix {
                self.buf.push(suffix);
            }
        }
        self.unpaint();
        self.buf.push(b']');
        Ok(())
    }

    /// Lists of numbers, strings and arrays print on one line; `false` for a
    /// non-empty list of compounds or lists.
    fn leaf_list(&mut self, list: &NbtList, depth: usize) -> Result<bool, PrintError> {
        check_depth(depth)?;
        match list {
            NbtList::Empty => self.buf.extend_from_slice(b"[]"),
            NbtList::Byte(v) => self.ints(b"", v, Some(b'b'))?,
            NbtList::Short(v) => self.ints(b"", v, Some(b's'))?,
            NbtList::Int(v) => self.ints(b"", v, None)?,
            NbtList::Long(v) => self.ints(b"", v, Some(b'L'))?,
            NbtList::Float(v) => self.inline(b"", v, |o, x| o.float(x, x.is_finite(), b'f'))?,
            NbtList::Double(v) => self.inline(b"", v, |o, x| o.float(x, x.is_finite(), b'd'))?,
            NbtList::String(v) => {
                let refs: Vec<&[u8]> = v.iter().map(|s| s.as_bytes()).collect();
                self.inline(b"", &refs, |o, s| o.string(s))?
            }
            NbtList::ByteArray(v) => {
                let refs: Vec<&[u8]> = v.iter().map(|a| a.as_slice()).collect();
                self.inline(b"", &refs, |o, a| {
                    o.ints_as(b"B;", a, Some(b'b'), |x| x as i8)
                })?
            }
            NbtList::IntArray(v) => {
                let refs: Vec<&[i32]> = v.iter().map(|a| a.as_slice()).collect();
                self.inline(b"", &refs, |o, a| o.ints(b"I;", a, None))?
            }
            NbtList::LongArray(v) => {
                let refs: Vec<&[i64]> = v.iter().map(|a| a.as_slice()).collect();
                self.inline(b"", &refs, |o, a| o.ints(b"L;", a, Some(b'L')))?
            }
            NbtList::Compound(v) if v.is_empty() => self.buf.extend_from_slice(b"[]"),
            NbtList::List(v) if v.is_empty() => self.buf.extend_from_slice(b"[]"),
            NbtList::Compound(_) | NbtList::List(_) => return Ok(false),
        }
        Ok(true)
    }
}

/// Whether a list of compounds is a heterogeneous list in wrapper form that
/// prints as a plain list and reads back as the same compounds: some element
/// is a wrapper `{"": value}`, the unwrapped values are not all of one type
/// (else they would read back as a plain typed list), and no wrapper holds a
/// compound that is not itself wrapper-shaped (that one would read back
/// unwrapped).
fn prints_unwrapped(list: &[NbtCompound]) -> bool {
    let mut any_wrapper = false;
    let mut first_id = None;
    let mut mixed = false;
    for c in list {
        let id = if is_wrapper(c) {
            any_wrapper = true;
            match c.values().next() {
                Some(NbtTag::Compound(inner)) if !is_wrapper(inner) => return false,
                Some(inner) => inner.id(),
                None => return false,
            }
        } else {
            crate::tag_id::COMPOUND
        };
        match first_id {
            None => first_id = Some(id),
            Some(f) if f != id => mixed = true,
            Some(_) => {}
        }
    }
    any_wrapper && mixed
}

/// A compound or list may open at `depth` open frames: at most 512 levels,
/// counting the root, as the parser (and vanilla) read.
fn check_depth(depth: usize) -> Result<(), PrintError> {
    if depth >= MAX_DEPTH {
        return Err(PrintError::MaxDepthExceeded);
    }
    Ok(())
}

/// An open compound or multi-line list.
enum Frame<'a, C> {
    Compound {
        iter: C,
        first: bool,
    },
    List {
        list: &'a NbtList,
        next: usize,
        unwrap: bool,
    },
}

/// Prints `root` as SNBT; `color` wraps keys, strings and numbers in ANSI colours.
pub(super) fn print(root: Item<'_>, pretty: bool, color: bool) -> Result<String, PrintError> {
    let mut out = Out {
        buf: Vec::with_capacity(256),
        pretty,
        color,
    };
    let mut stack = Vec::new();
    let mut item = Some(root);
    loop {
        // Write the pending item, opening a frame if it has elements to walk.
        if let Some(it) = item.take() {
            match it {
                Item::Tag(tag) if out.leaf(tag, stack.len())? => {}
                Item::List(list) if out.leaf_list(list, stack.len())? => {}
                Item::Tag(NbtTag::Compound(c)) | Item::Compound(c) => {
                    check_depth(stack.len())?;
                    if c.is_empty() {
                        out.buf.extend_from_slice(b"{}");
                    } else {
                        out.buf.push(b'{');
                        stack.push(Frame::Compound {
                            iter: c.iter(),
                            first: true,
                        });
                    }
                }
                Item::Tag(NbtTag::List(list)) | Item::List(list) => {
                    check_depth(stack.len())?;
                    let unwrap = matches!(list, NbtList::Compound(v) if prints_unwrapped(v));
                    out.buf.push(b'[');
                    stack.push(Frame::List {
                        list,
                        next: 0,
                        unwrap,
                    });
                }
                Item::Tag(_) => {}
            }
        }
        let depth = stack.len();
        match stack.last_mut() {
            None => break,
            Some(Frame::Compound { iter, first }) => match iter.next() {
                Some((key, value)) => {
                    out.element_start(*first, depth);
                    *first = false;
                    out.paint(KEY_COLOR);
                    string::write_key(&mut out.buf, key.as_bytes())?;
                    out.unpaint();
                    out.buf.push(b':');
                    if out.pretty {
                        out.buf.push(b' ');
                    }
                    item = Some(Item::Tag(value));
                }
                None => {
                    out.close(b'}', depth - 1);
                    stack.pop();
                }
            },
            Some(Frame::List { list, next, unwrap }) => {
                let i = *next;
                let element = match list {
                    NbtList::Compound(v) => v.get(i).map(|c| match c.values().next() {
                        Some(inner) if *unwrap && is_wrapper(c) => Item::Tag(inner),
                        _ => Item::Compound(c),
                    }),
                    NbtList::List(v) => v.get(i).map(Item::List),
                    _ => None,
                };
                match element {
                    Some(e) => {
                        out.element_start(i == 0, depth);
                        *next += 1;
                        item = Some(e);
                    }
                    None => {
                        out.close(b']', depth - 1);
                        stack.pop();
                    }
                }
            }
        }
    }
    // What the printer made itself is ASCII or whole UTF-8 characters; the
    // runs `string::write_quoted` copied from strings as they are are checked
    // here, in one pass over the text: SIMD validation (`simdutf8`), where
    // std's `String::from_utf8` was a fifth of printing non-ASCII text
    // (reports/code-notes.md).
    if simdutf8::basic::from_utf8(&out.buf).is_err() {
        return Err(PrintError::InvalidString);
    }
    // SAFETY: the bytes were just checked to be UTF-8.
    Ok(unsafe { String::from_utf8_unchecked(out.buf) })
}
