//! The validating core: the one loop that reads binary NBT, for every reader.
//!
//! [`parse`] checks everything (lengths against the remaining input, the
//! depth limit, tag ids, list headers) and reports what it finds to a
//! [`Sink`]: the tape sink ([`crate::tape`]) records where each tag is, the
//! owned builder ([`crate::owned`]) builds the tree directly, the error
//! locator ([`crate::path::locate_error`]) keeps the path of what is open.
//! Each is this loop monomorphised, so every reader accepts exactly the same
//! inputs and fails at the same offset with the same error kind.
//!
//! One loop, no recursion: the container being read is kept in locals, its
//! ancestors on a stack of [`Frame`]s whose depth the depth limit bounds. One
//! bounds check covers a tag's id, name and smallest payload (all of it for
//! numbers, see [`check::TAG_PREFIX`]); a sink with a capacity of its own
//! (the tape) checks it at each push, which measured cheaper than folding it
//! into the core's bounds check (`reports/perf.md`).
//!
//! Every number and length of the input is read through [`wire`], in the
//! form the loop is monomorphised for ([`parse_in`]'s `W`: Java big-endian,
//! Bedrock little-endian, Bedrock network VarInts), by [`check`]'s small
//! inline functions (the string, array, number and list-header checks), and
//! every layout fact comes from [`crate::tag_id::LAYOUT`] (and
//! [`wire::VARINT_MIN`] for the network form's smallest payloads). So the
//! three forms are one loop with the same checks, in the same order, with
//! the same error kinds, and every [`ReadOptions`] limit applies to each.

pub(crate) mod check;
mod frames;
pub(crate) mod pull;
pub(crate) mod root;
pub(crate) mod wire;

use std::mem::MaybeUninit;

use crate::error::{Error, ErrorKind};
use crate::options::ReadOptions;
use crate::tag_id::*;
use check::*;
use frames::{COMPOUND_FRAME, Frame, Frames, LIST_OF_LISTS};
use wire::{BigEndian, Wire};

/// What the core reports while it reads. Every offset is into the input the
/// core was given, and everything it names has been checked: a sink may index
/// the input at those offsets without further checks failing.
///
/// Events arrive in document order; the core keeps the per-container state
/// each sink asks for ([`Sink::Compound`], [`Sink::Elements`]) and hands it
/// back, so a sink needs no stack of its own for it. While a child container
/// is read, its parent's state waits on the core's stack as a
/// [`Sink::Parked`] value.
pub(crate) trait Sink<'a> {
    /// A compound being read (the tape: where to patch its header and how
    /// many children it has; the builder: where its entries start).
    type Compound: Copy;
    /// Where a list's result goes once it is read.
    type Slot: Copy;
    /// A list of compounds or lists being read.
    type Elements: Copy;
    /// A compound or a list of containers waiting for its child to be read.
    type Parked: Copy;
    /// A list of strings or arrays being read, element by element.
    type PrefixedList;
    /// The result of a whole parse.
    type Output;

    /// The root is a compound.
    fn root_compound(&mut self) -> Result<Self::Compound, Error>;
    /// The root is a list whose header is at `pos`.
    fn root_list(&mut self, pos: usize) -> Result<Self::Slot, Error>;
    /// The root is a number, string or array whose payload is at `pos`.
    fn root_leaf(&mut self, id: u8, pos: usize) -> Result<(), Error>;

    /// A named number, string or array: its id byte at `at`, its payload at
    /// `payload`.
    fn named_leaf(
        &mut self,
        c: &mut Self::Compound,
        id: u8,
        at: usize,
        payload: usize,
    ) -> Result<(), Error>;
    /// A named compound (id byte at `at`) opens inside `c`.
    fn named_compound(
        &mut self,
        c: &mut Self::Compound,
        at: usize,
    ) -> Result<Self::Compound, Error>;
    /// A named list (id byte at `at`) opens inside `c`; its header follows.
    fn named_list(&mut self, c: &mut Self::Compound, at: usize) -> Result<Self::Slot, Error>;
    /// `c` met its End.
    fn close_compound(&mut self, c: Self::Compound);

    /// `c` waits while a child container is read.
    fn park_compound(&mut self, c: Self::Compound) -> Self::Parked;
    /// The child of `p` (parked by [`park_compound`](Self::park_compound))
    /// was read: `p` goes on.
    fn resume_compound(&mut self, p: Self::Parked) -> Self::Compound;
    /// `e` waits while one of its elements is read.
    fn park_elements(&mut self, e: Self::Elements) -> Self::Parked;
    /// The element of `p` (parked by [`park_elements`](Self::park_elements))
    /// was read: `p` goes on.
    fn resume_elements(&mut self, p: Self::Parked) -> Self::Elements;

    /// The next element of a list of compounds opens at `pos`.
    fn element_compound(&mut self, pos: usize) -> Result<Self::Compound, Error>;
    /// The next element of a list of lists opens; its header is at `pos`.
    fn element_list(&mut self, pos: usize) -> Result<Self::Slot, Error>;

    /// A whole list of numbers (or of End, or an empty list of compounds or
    /// lists): `n` elements of type `elem` from `payload` on.
    fn flat_list(&mut self, slot: Self::Slot, elem: u8, n: u32, payload: usize);
    /// A list of `n` strings or arrays (`elem`) starts at `payload`; the rest
    /// of the input is `len - payload` bytes.
    fn prefixed_list(
        &mut self,
        elem: u8,
        n: u32,
        payload: usize,
        len: usize,
    ) -> Result<Self::PrefixedList, Error>;
    /// One element of that list: its bytes without the length prefix.
    fn prefixed_element(&mut self, list: &mut Self::PrefixedList, bytes: &'a [u8]);
    /// The list's last element was read.
    fn close_prefixed_list(&mut self, slot: Self::Slot, list: Self::PrefixedList);
    /// A list of `n > 0` compounds or lists opens; its elements follow.
    fn elements(&mut self, slot: Self::Slot, elem: u8, n: u32) -> Self::Elements;
    /// That list's last element was read.
    fn close_elements(&mut self, e: Self::Elements);

    /// The next entry (or the End) of the innermost compound is about to be
    /// read at `pos`. Only the error locator needs it
    /// ([`crate::path::locate_error`]); for the others it compiles to nothing.
    #[inline(always)]
    fn entry(&mut self, _pos: usize) {}

    /// The value ended at `end`.
    fn finish(self, end: usize) -> Self::Output;
}

/// Where the read budget of `opts` cuts `data` for a value at `pos`.
#[inline(always)]
pub(crate) fn budget_end(data: &[u8], pos: usize, opts: &ReadOptions) -> usize {
    match opts.max_bytes {
        Some(max) => data.len().min(pos.saturating_add(max)),
        None => data.len(),
    }
}

/// Runs `parse` over `data` cut at the read budget of `opts`: a budget is a
/// shorter input whose end reads as "budget exceeded". Inlined, so that the
/// parse is too: a parse behind a call returns its output through memory,
/// which small documents' reads measurably paid (`reports/code-notes.md`).
#[inline(always)]
pub(crate) fn with_budget<'a, T>(
    data: &'a [u8],
    pos: usize,
    opts: &ReadOptions,
    parse: impl FnOnce(&'a [u8]) -> Result<T, Error>,
) -> Result<T, Error> {
    let limit = budget_end(data, pos, opts);
    match parse(&data[..limit]) {
        Err(e)
            if limit < data.len()
                && matches!(
                    e.kind(),
                    ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
                ) =>
        {
            Err(Error::new(ErrorKind::BudgetExceeded, limit))
        }
        other => other,
    }
}

/// Parses the value of type `root` (its id already read) whose payload is
/// at `pos`, within `opts`' limits, into `sink`. Returns the sink's output
/// and the offset just past the value.
#[inline]
pub(crate) fn read_value<'a, S: Sink<'a>>(
    data: &'a [u8],
    pos: usize,
    root: u8,
    opts: &ReadOptions,
    make: impl FnOnce(&'a [u8]) -> S,
) -> Result<(S::Output, usize), Error> {
    read_value_in::<BigEndian, S>(data, pos, root, opts, make)
}

/// [`read_value`] for input in form `W`.
#[inline]
pub(crate) fn read_value_in<'a, W: Wire, S: Sink<'a>>(
    data: &'a [u8],
    pos: usize,
    root: u8,
    opts: &ReadOptions,
    make: impl FnOnce(&'a [u8]) -> S,
) -> Result<(S::Output, usize), Error> {
    with_budget(data, pos, opts, |bounded| {
        parse_in::<W, S>(bounded, pos, root, opts.max_depth, make(bounded))
    })
}

/// The container being read.
#[derive(Clone, Copy)]
enum Open<C, E> {
    Compound(C),
    /// A list of compounds or lists: `kind` as in [`Frame`], counting the
    /// elements still to open.
    List {
        kind: u32,
        elements: E,
    },
}

/// [`Open`] for sink `S`.
type OpenOf<'a, S> = Open<<S as Sink<'a>>::Compound, <S as Sink<'a>>::Elements>;

/// Reads a list header at `*pos` and, unless its elements are compounds or
/// lists, the elements too. Returns the list to read element by element, if
/// any.
#[inline(always)]
fn open_list<'a, W: Wire, S: Sink<'a>>(
    data: &'a [u8],
    pos: &mut usize,
    sink: &mut S,
    slot: S::Slot,
    depth: usize,
    max_depth: usize,
    header_there: bool,
) -> Result<Option<OpenOf<'a, S>>, Error> {
    let ListHeader { elem, n } = list_header::<W>(data, pos, depth, max_depth, header_there)?;
    match elem {
        INT | LONG if W::VARINT => {
            let at = *pos;
            for _ in 0..n {
                number::<W>(data, pos, elem)?;
            }
            sink.flat_list(slot, elem, n, at);
            Ok(None)
        }
        END..=DOUBLE => {
            sink.flat_list(slot, elem, n, *pos);
            *pos += n as usize * layout(elem).fixed as usize;
            Ok(None)
        }
        COMPOUND | LIST if n == 0 => {
            sink.flat_list(slot, elem, 0, *pos);
            Ok(None)
        }
        COMPOUND | LIST => {
            let kind = if elem == LIST { n | LIST_OF_LISTS } else { n };
            let elements = sink.elements(slot, elem, n);
            Ok(Some(Open::List { kind, elements }))
        }
        _ => {
            let mut list = sink.prefixed_list(elem, n, *pos, data.len())?;
            for _ in 0..n {
                let bytes = list_element::<W>(data, pos, elem)?;
                sink.prefixed_element(&mut list, bytes);
            }
            sink.close_prefixed_list(slot, list);
            Ok(None)
        }
    }
}

/// Parses the Java-form value of type `root` (its id already read) at `pos`
/// into `sink`.
#[inline(always)]
pub(crate) fn parse<'a, S: Sink<'a>>(
    data: &'a [u8],
    pos: usize,
    root: u8,
    max_depth: u32,
    sink: S,
) -> Result<(S::Output, usize), Error> {
    parse_in::<BigEndian, S>(data, pos, root, max_depth, sink)
}

/// Parses the value of type `root` (its id already read) at `pos`, in form
/// `W`, into `sink`: the one loop of every reader and every form.
#[inline]
pub(crate) fn parse_in<'a, W: Wire, S: Sink<'a>>(
    data: &'a [u8],
    mut pos: usize,
    root: u8,
    max_depth: u32,
    mut sink: S,
) -> Result<(S::Output, usize), Error> {
    if data.len() as u64 > MAX_INPUT {
        return Err(err(ErrorKind::InputTooLarge, 0));
    }
    let len = data.len();
    let max_depth = max_depth as usize;
    // The frames of every open container but the innermost; with the
    // innermost, the depth (counting the root as 1) is `stack.len() + 1`.
    let mut inline: frames::Inline<S::Parked> = [const { MaybeUninit::uninit() }; frames::INLINE];
    let mut heap = Vec::new();
    let mut stack = Frames::new(&mut inline, &mut heap);
    let mut cur: OpenOf<'a, S> = match root {
        COMPOUND => {
            if max_depth == 0 {
                return Err(err(ErrorKind::MaxDepthExceeded, pos));
            }
            Open::Compound(sink.root_compound()?)
        }
        LIST => {
            let slot = sink.root_list(pos)?;
            match open_list::<W, S>(data, &mut pos, &mut sink, slot, 1, max_depth, false)? {
                None => return Ok((sink.finish(pos), pos)),
                Some(list) => list,
            }
        }
        _ if is_known(root) && root != END => {
            if len - pos < wire::min_payload::<W>(root) {
                return Err(err(ErrorKind::UnexpectedEof, len));
            }
            let at = pos;
            if root <= DOUBLE {
                number::<W>(data, &mut pos, root)?;
            } else {
                // SAFETY: `root` is a string or array type and its prefix
                // (`min` bytes) is there (checked above).
                unsafe { prefixed::<W>(data, &mut pos, root) }?;
            }
            sink.root_leaf(root, at)?;
            return Ok((sink.finish(pos), pos));
        }
        _ => return Err(err(ErrorKind::UnknownTagId(root), pos.saturating_sub(1))),
    };

    'frames: loop {
        match cur {
            Open::Compound(mut c) => loop {
                sink.entry(pos);
                if len - pos < W::HEAD_MIN && (pos == len || data[pos] != END) {
                    // Not even an End byte, or a tag's id and name length.
                    return Err(err(ErrorKind::UnexpectedEof, len));
                }
                // SAFETY: pos < len (checked just above).
                let id = unsafe { *data.get_unchecked(pos) };
                if id == END {
                    pos += 1;
                    sink.close_compound(c);
                    if let Some(top) = stack.last_mut() {
                        // A list of compounds with elements left: the next
                        // one starts right here, at the same depth (the
                        // common case of lists of items or entities).
                        if top.kind.wrapping_sub(1) < LIST_OF_LISTS - 1 {
                            top.kind -= 1;
                            c = sink.element_compound(pos)?;
                            continue;
                        }
                    }
                    let Some(parent) = stack.pop() else {
                        break 'frames;
                    };
                    if parent.kind == COMPOUND_FRAME {
                        // Back in the parent compound: carry on in this loop.
                        c = sink.resume_compound(parent.parked);
                        continue;
                    }
                    cur = Open::List {
                        kind: parent.kind,
                        elements: sink.resume_elements(parent.parked),
                    };
                    continue 'frames;
                }
                let at = pos;
                let (payload, skip) = if W::VARINT {
                    varint_named_head(data, pos, id)?
                } else {
                    // SAFETY: three bytes remain at `pos` (checked above, the
                    // one byte left being an End otherwise).
                    let name_len = unsafe { wire::u16_at::<W>(data, pos + 1) } as usize;
                    // Id, name and the smallest payload of this type, which
                    // for a number is its whole payload. An unknown id's
                    // entry is too big for any input, so this one check also
                    // catches it.
                    let skip = name_len + TAG_PREFIX[id as usize] as usize;
                    if len - pos < skip {
                        return Err(named_tag_error(id, len - pos, name_len, pos));
                    }
                    (at + 3 + name_len, skip)
                };
                if id <= DOUBLE {
                    if W::VARINT {
                        // Checked before the sink decodes it.
                        pos = payload;
                        number::<W>(data, &mut pos, id)?;
                        sink.named_leaf(&mut c, id, at, payload)?;
                    } else {
                        sink.named_leaf(&mut c, id, at, payload)?;
                        pos += skip;
                    }
                    continue;
                }
                pos = payload;
                if id == STRING {
                    // The next most common tag.
                    // SAFETY: its prefix's smallest size is its smallest
                    // payload, which the bounds check covered.
                    unsafe { string::<W>(data, &mut pos) }?;
                    sink.named_leaf(&mut c, id, at, payload)?;
                    continue;
                }
                match id {
                    COMPOUND => {
                        if stack.len() + 2 > max_depth {
                            return Err(err(ErrorKind::MaxDepthExceeded, at));
                        }
                        let child = sink.named_compound(&mut c, at)?;
                        stack.push(Frame {
                            kind: COMPOUND_FRAME,
                            parked: sink.park_compound(c),
                        });
                        // Into the child compound: carry on in this loop.
                        c = child;
                    }
                    LIST => {
                        let slot = sink.named_list(&mut c, at)?;
                        let depth = stack.len() + 2;
                        if let Some(list) = open_list::<W, S>(
                            data, &mut pos, &mut sink, slot, depth, max_depth, true,
                        )? {
                            stack.push(Frame {
                                kind: COMPOUND_FRAME,
                                parked: sink.park_compound(c),
                            });
                            cur = list;
                            continue 'frames;
                        }
                    }
                    _ => {
                        // An array (the bounds check let no unknown id
                        // through).
                        // SAFETY: its prefix is the smallest payload, which
                        // the bounds check covered.
                        unsafe { prefixed::<W>(data, &mut pos, id) }?;
                        sink.named_leaf(&mut c, id, at, payload)?;
                    }
                }
            },
            Open::List { kind, elements } => {
                if kind & !LIST_OF_LISTS == 0 {
                    sink.close_elements(elements);
                    let Some(parent) = stack.pop() else {
                        break 'frames;
                    };
                    cur = if parent.kind == COMPOUND_FRAME {
                        Open::Compound(sink.resume_compound(parent.parked))
                    } else {
                        Open::List {
                            kind: parent.kind,
                            elements: sink.resume_elements(parent.parked),
                        }
                    };
                    continue;
                }
                let depth = stack.len() + 2;
                if kind < LIST_OF_LISTS {
                    if depth > max_depth {
                        return Err(err(ErrorKind::MaxDepthExceeded, pos));
                    }
                    let child = sink.element_compound(pos)?;
                    stack.push(Frame {
                        kind: kind - 1,
                        parked: sink.park_elements(elements),
                    });
                    cur = Open::Compound(child);
                } else {
                    let slot = sink.element_list(pos)?;
                    match open_list::<W, S>(
                        data, &mut pos, &mut sink, slot, depth, max_depth, false,
                    )? {
                        None => {
                            cur = Open::List {
                                kind: kind - 1,
                                elements,
                            }
                        }
                        Some(list) => {
                            stack.push(Frame {
                                kind: kind - 1,
                                parked: sink.park_elements(elements),
                            });
                            cur = list;
                        }
                    }
                }
            }
        }
    }
    Ok((sink.finish(pos), pos))
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use std::io::Cursor;

    /// Unknown ids are caught by the tag loop's bounds check (`TAG_PREFIX`);
    /// the error is unknown once the id, name and `id & 15`'s smallest
    /// payload are there, truncated before. Both readers agree.
    #[test]
    fn unknown_ids_are_unknown_once_their_smallest_payload_is_there() {
        for id in [13u8, 14, 15, 16, 17, 20, 25, 0x7f, 0x80, 0xff] {
            let min = super::check::min_payload_for_error(id);
            for name_len in [0usize, 1, 5] {
                for present in 0..=name_len + min + 1 {
                    // Root `0a 00 00`, then the tag: id, name length, name, payload.
                    let mut doc = vec![0x0a, 0, 0, id, 0, name_len as u8];
                    doc.extend(std::iter::repeat_n(b'n', name_len.min(present)));
                    doc.extend(std::iter::repeat_n(0, present.saturating_sub(name_len)));
                    let whole = present >= name_len + min;
                    let want = if whole {
                        (ErrorKind::UnknownTagId(id), 3)
                    } else {
                        (ErrorKind::UnexpectedEof, doc.len())
                    };
                    let b = crate::borrow::read(&mut Cursor::new(&doc[..])).unwrap_err();
                    let o = crate::owned::read(&mut Cursor::new(&doc[..])).unwrap_err();
                    let what = format!("id {id}, name {name_len}, {present} bytes after it");
                    assert_eq!((b.kind(), b.offset()), want, "borrow: {what}");
                    assert_eq!((o.kind(), o.offset()), want, "owned: {what}");
                }
            }
        }
    }
}
