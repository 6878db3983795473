//! The validating core as a pull reader: the consumer asks for the next
//! event (a compound's next entry, a list's header, one element, a leaf's
//! payload) instead of being told every event by [`super::parse_in`].
//!
//! serde's visitors pull: a field is read when the derived code asks for it,
//! so a push parse would need a tape (or a coroutine) between the two. This
//! reader is the same core seen from the other side, made of the same
//! pieces as the push loop: [`check`]'s functions in the order `parse_in`
//! calls them (the entry head and [`check::TAG_PREFIX`], the string, array,
//! number and list-header checks, [`check::named_tag_error`] and the other
//! cold paths), the same depth rule (the root is depth 1; a container deeper
//! than [`ReadOptions::max_depth`] fails where `parse_in` fails it) and the
//! same byte budget (the input cut at [`super::budget_end`]). A value the
//! consumer does not want is skipped by `parse_in` itself, through
//! [`Skip`], a sink that keeps nothing: iterative, whatever the depth.
//!
//! So a walk that pulls every event of a value accepts exactly the inputs
//! `parse_in` accepts and fails at the same offset with the same error kind;
//! `tests/serde/pull.rs` and the `serde_roundtrip` fuzz target check it
//! against the borrow reader on the corpus, the hostile table, truncations
//! and byte flips ([`walk`] is that walk). The push loop stays as it is: its
//! state lives in registers across the whole document, which a reader that
//! returns after every event cannot do.
//!
//! The budget's error: an input cut by the budget ends early, and that end
//! reads as [`ErrorKind::UnexpectedEof`] or [`ErrorKind::LengthExceedsInput`]
//! here; [`Pull::budget_error`] turns it into
//! [`ErrorKind::BudgetExceeded`], as [`super::with_budget`] does for a push
//! parse.
// Without `serde` only the tests use the pull reader.
#![cfg_attr(not(feature = "serde"), allow(dead_code))]

use std::marker::PhantomData;

use super::check::*;
use super::wire::{self, BigEndian, Wire};
use super::{Sink, budget_end, parse_in};
use crate::error::{Error, ErrorKind};
use crate::options::ReadOptions;
use crate::tag_id::*;

/// A named tag's head, read by [`Pull::entry`]: its id, where its id byte
/// is, and its name (borrowed from the input). The reader is at its payload,
/// whose smallest size is in the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head<'a> {
    pub id: u8,
    pub at: usize,
    pub name: &'a [u8],
}

/// A point to come back to ([`Pull::mark`], [`Pull::rewind`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pos: usize,
    depth: usize,
}

/// The pull reader over input in form `W`.
///
/// # Invariant
/// `pos <= data.len()`: every method moves `pos` only past bytes it checked
/// are there (the checks' own guarantee), and [`Pull::rewind`] only back to
/// an earlier position. `depth <= max_depth`.
#[derive(Clone, Debug)]
pub(crate) struct Pull<'a, W: Wire = BigEndian> {
    /// The input, cut at the byte budget.
    data: &'a [u8],
    /// Whether the budget cut it (so an end of input is the budget's).
    cut: bool,
    pos: usize,
    /// The depth of the innermost open container (the root is 1; 0 before
    /// it opens).
    depth: usize,
    max_depth: usize,
    form: PhantomData<W>,
}

impl<'a, W: Wire> Pull<'a, W> {
    /// A reader of the value whose payload is at `pos` of `data`, within
    /// `opts`' limits.
    ///
    /// # Errors
    /// [`ErrorKind::InputTooLarge`], as `parse_in`; `pos` past the input is
    /// [`ErrorKind::UnexpectedEof`].
    pub fn new(data: &'a [u8], pos: usize, opts: &ReadOptions) -> Result<Self, Error> {
        if data.len() as u64 > MAX_INPUT {
            return Err(err(ErrorKind::InputTooLarge, 0));
        }
        if pos > data.len() {
            return Err(err(ErrorKind::UnexpectedEof, data.len()));
        }
        let end = budget_end(data, pos, opts);
        Ok(Pull {
            data: &data[..end],
            cut: end < data.len(),
            pos,
            depth: 0,
            max_depth: opts.max_depth as usize,
            form: PhantomData,
        })
    }

    /// The input (cut at the budget): every offset the reader gives is into it.
    #[inline(always)]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Where the reader is: the next byte it will read.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The depth of the innermost open container (the root is 1).
    #[inline(always)]
    pub fn depth(&self) -> usize {
        self.depth
    }

    #[inline(always)]
    pub fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            depth: self.depth,
        }
    }

    /// Goes back to `mark`, taken from this reader: what was read since is
    /// read again (and checked again).
    #[inline]
    pub fn rewind(&mut self, mark: Mark) {
        assert!(mark.pos <= self.data.len() && mark.depth <= self.max_depth);
        self.pos = mark.pos;
        self.depth = mark.depth;
    }

    /// The error `e` as the whole input would report it: an end of input
    /// that is the budget's end is [`ErrorKind::BudgetExceeded`] there.
    #[cold]
    pub fn budget_error(&self, e: Error) -> Error {
        if self.cut
            && matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
            )
        {
            Error::new(ErrorKind::BudgetExceeded, self.data.len())
        } else {
            e
        }
    }

    /// Opens the compound whose payload is at the reader, a child of the
    /// innermost container. `blame` is where a depth error is reported, as
    /// `parse_in` reports it: a named compound's id byte, an element's or
    /// the root's payload.
    #[inline(always)]
    pub fn open_compound(&mut self, blame: usize) -> Result<(), Error> {
        if self.depth >= self.max_depth {
            return Err(err(ErrorKind::MaxDepthExceeded, blame));
        }
        self.depth += 1;
        Ok(())
    }

    /// The next entry of the innermost compound (opened by
    /// [`Pull::open_compound`]), or `None` at its End, which closes it. The
    /// checks of `parse_in`'s tag loop, in its order.
    #[inline(always)]
    pub fn entry(&mut self) -> Result<Option<Head<'a>>, Error> {
        let data = self.data;
        let len = data.len();
        let pos = self.pos;
        if len - pos < W::HEAD_MIN && (pos == len || data[pos] != END) {
            // Not even an End byte, or a tag's id and name length.
            return Err(err(ErrorKind::UnexpectedEof, len));
        }
        let id = data[pos];
        if id == END {
            self.pos = pos + 1;
            self.depth = self.depth.saturating_sub(1);
            return Ok(None);
        }
        let (payload, name) = if W::VARINT {
            let (payload, _) = varint_named_head(data, pos, id)?;
            let mut p = pos + 1;
            let name_len = wire::varint::<5>(data, &mut p)? as usize;
            (payload, &data[payload - name_len..payload])
        } else {
            // SAFETY: three bytes remain at `pos` (checked above, the one
            // byte left being an End otherwise).
            let name_len = unsafe { wire::u16_at::<W>(data, pos + 1) } as usize;
            // Id, name and the smallest payload of this type; an unknown
            // id's entry is too big for any input (`TAG_PREFIX`).
            let skip = name_len + TAG_PREFIX[id as usize] as usize;
            if len - pos < skip {
                return Err(named_tag_error(id, len - pos, name_len, pos));
            }
            let payload = pos + 3 + name_len;
            // SAFETY: `payload <= pos + skip <= len` (checked above): every
            // `TAG_PREFIX` counts the id and the name length's 3 bytes.
            (payload, unsafe { data.get_unchecked(pos + 3..payload) })
        };
        self.pos = payload;
        Ok(Some(Head { id, at: pos, name }))
    }

    /// Reads the number, string or array of type `id` at the reader: its
    /// payload's offset and bytes (a number's own bytes; a string's or
    /// array's without the length prefix). The root leaf's check of
    /// `parse_in` (its smallest payload), then the type's own.
    #[inline(always)]
    pub fn leaf(&mut self, id: u8) -> Result<(usize, &'a [u8]), Error> {
        let data = self.data;
        let at = self.pos;
        if data.len() - at < wire::min_payload::<W>(id) {
            return Err(err(ErrorKind::UnexpectedEof, data.len()));
        }
        let mut pos = at;
        let bytes = match id {
            BYTE..=DOUBLE => {
                number::<W>(data, &mut pos, id)?;
                &data[at..pos]
            }
            // SAFETY: a string or array type, whose prefix's smallest size
            // (its smallest payload) is there (checked above).
            STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => unsafe {
                prefixed::<W>(data, &mut pos, id)?
            },
            _ => return Err(err(ErrorKind::UnknownTagId(id), at)),
        };
        self.pos = pos;
        Ok((at, bytes))
    }

    /// The `N`-byte number at the reader (Byte..=Double in the fixed forms):
    /// [`Pull::leaf`] for one type, its bytes in the input's order.
    #[inline(always)]
    pub fn fixed<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let pos = self.pos;
        match self.data.get(pos..pos + N) {
            Some(b) => {
                self.pos = pos + N;
                let mut out = [0; N];
                out.copy_from_slice(b);
                Ok(out)
            }
            None => Err(err(ErrorKind::UnexpectedEof, self.data.len())),
        }
    }

    /// The string at the reader: [`Pull::leaf`] for String.
    #[inline(always)]
    pub fn string(&mut self) -> Result<&'a [u8], Error> {
        if self.data.len() - self.pos < wire::min_payload::<W>(STRING) {
            return Err(err(ErrorKind::UnexpectedEof, self.data.len()));
        }
        // SAFETY: the prefix's smallest size is there (checked above).
        unsafe { string::<W>(self.data, &mut self.pos) }
    }

    /// The array of type `id` at the reader: [`Pull::leaf`] for the arrays.
    #[inline(always)]
    pub fn array(&mut self, id: u8) -> Result<&'a [u8], Error> {
        if !matches!(id, BYTE_ARRAY | INT_ARRAY | LONG_ARRAY) {
            return Err(err(ErrorKind::UnknownTagId(id), self.pos));
        }
        if self.data.len() - self.pos < wire::min_payload::<W>(id) {
            return Err(err(ErrorKind::UnexpectedEof, self.data.len()));
        }
        // SAFETY: an array type whose prefix's smallest size is there
        // (checked above).
        unsafe { array::<W>(self.data, &mut self.pos, id) }
    }

    /// Opens the list whose header is at the reader, a child of the
    /// innermost container: [`list_header`]'s checks at the list's depth.
    /// Its elements follow; [`Pull::close_list`] closes it after the last.
    #[inline(always)]
    pub fn open_list(&mut self) -> Result<ListHeader, Error> {
        let h = list_header::<W>(
            self.data,
            &mut self.pos,
            self.depth + 1,
            self.max_depth,
            false,
        )?;
        self.depth += 1;
        Ok(h)
    }

    /// Closes the innermost list, after its last element.
    #[inline(always)]
    pub fn close_list(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The next `n` elements of a list of numbers (or End) `elem`, at the
    /// reader: their bytes. The list header's check covered them in the
    /// fixed forms; the network form's VarInts are checked one by one.
    #[inline(always)]
    pub fn numbers(&mut self, elem: u8, n: usize) -> Result<&'a [u8], Error> {
        let data = self.data;
        let at = self.pos;
        if !matches!(elem, END..=DOUBLE) {
            return Err(err(ErrorKind::UnknownTagId(elem), at));
        }
        let mut pos = at;
        if W::VARINT && matches!(elem, INT | LONG) {
            for _ in 0..n {
                number::<W>(data, &mut pos, elem)?;
            }
        } else {
            let size = n.saturating_mul(layout(elem).fixed as usize);
            if data.len() - at < size {
                return Err(err(ErrorKind::LengthExceedsInput, at));
            }
            pos = at + size;
        }
        self.pos = pos;
        Ok(&data[at..pos])
    }

    /// The next element of a list of strings or arrays `elem`: its bytes
    /// (without the length prefix), as `parse_in` reads each.
    #[inline(always)]
    pub fn element(&mut self, elem: u8) -> Result<&'a [u8], Error> {
        if !matches!(elem, STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY) {
            return Err(err(ErrorKind::UnknownTagId(elem), self.pos));
        }
        list_element::<W>(self.data, &mut self.pos, elem)
    }

    /// Reads the compound or list (`id`) at the reader, a child of the
    /// innermost container, into `sink` with `parse_in` itself (no
    /// recursion, whatever the depth): the sink's output. `blame`: as for
    /// [`Pull::open_compound`].
    #[inline]
    pub fn parse_into<S: Sink<'a>>(
        &mut self,
        id: u8,
        blame: usize,
        sink: S,
    ) -> Result<S::Output, Error> {
        debug_assert!(matches!(id, COMPOUND | LIST));
        if id == COMPOUND && self.depth >= self.max_depth {
            return Err(err(ErrorKind::MaxDepthExceeded, blame));
        }
        // The value is the root of this parse: its depth 1 is
        // `self.depth + 1` here.
        let left = (self.max_depth - self.depth) as u32;
        let (out, end) = parse_in::<W, S>(self.data, self.pos, id, left, sink)?;
        self.pos = end;
        Ok(out)
    }

    /// Skips the value of type `id` at the reader, a child of the innermost
    /// container: a leaf by [`Pull::leaf`], a container through `parse_in`
    /// and [`Skip`]. `blame`: as for [`Pull::open_compound`].
    #[inline]
    pub fn skip(&mut self, id: u8, blame: usize) -> Result<(), Error> {
        match id {
            COMPOUND | LIST => self.parse_into(id, blame, Skip),
            _ => self.leaf(id).map(|_| ()),
        }
    }

    /// Skips what is left of the innermost compound, its End included.
    pub fn skip_entries(&mut self) -> Result<(), Error> {
        while let Some(h) = self.entry()? {
            self.skip(h.id, h.at)?;
        }
        Ok(())
    }

    /// Skips the next `n` elements of the innermost list (of `elem`).
    pub fn skip_elements(&mut self, elem: u8, n: usize) -> Result<(), Error> {
        match elem {
            END..=DOUBLE => {
                self.numbers(elem, n)?;
            }
            COMPOUND | LIST => {
                for _ in 0..n {
                    self.skip(elem, self.pos)?;
                }
            }
            _ => {
                for _ in 0..n {
                    self.element(elem)?;
                }
            }
        }
        Ok(())
    }
}

/// The sink that keeps nothing: `parse_in` with it checks a value and finds
/// where it ends.
pub(crate) struct Skip;

impl<'a> Sink<'a> for Skip {
    type Compound = ();
    type Slot = ();
    type Elements = ();
    type Parked = ();
    type PrefixedList = ();
    type Output = ();

    #[inline(always)]
    fn root_compound(&mut self) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn root_list(&mut self, _pos: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn root_leaf(&mut self, _id: u8, _pos: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn named_leaf(&mut self, _c: &mut (), _id: u8, _at: usize, _p: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn named_compound(&mut self, _c: &mut (), _at: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn named_list(&mut self, _c: &mut (), _at: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn close_compound(&mut self, _c: ()) {}
    #[inline(always)]
    fn park_compound(&mut self, _c: ()) {}
    #[inline(always)]
    fn resume_compound(&mut self, _p: ()) {}
    #[inline(always)]
    fn park_elements(&mut self, _e: ()) {}
    #[inline(always)]
    fn resume_elements(&mut self, _p: ()) {}
    #[inline(always)]
    fn element_compound(&mut self, _pos: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn element_list(&mut self, _pos: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn flat_list(&mut self, _slot: (), _elem: u8, _n: u32, _payload: usize) {}
    #[inline(always)]
    fn prefixed_list(&mut self, _e: u8, _n: u32, _p: usize, _len: usize) -> Result<(), Error> {
        Ok(())
    }
    #[inline(always)]
    fn prefixed_element(&mut self, _list: &mut (), _bytes: &'a [u8]) {}
    #[inline(always)]
    fn close_prefixed_list(&mut self, _slot: (), _list: ()) {}
    #[inline(always)]
    fn elements(&mut self, _slot: (), _elem: u8, _n: u32) {}
    #[inline(always)]
    fn close_elements(&mut self, _e: ()) {}
    #[inline(always)]
    fn finish(self, _end: usize) {}
}

/// Checks the value of type `id` whose payload is at `pos` with `parse_in`
/// and [`Skip`], within `opts`' limits: where it ends, or the error every
/// reader reports.
pub(crate) fn check_value<W: Wire>(
    data: &[u8],
    pos: usize,
    id: u8,
    opts: &ReadOptions,
) -> Result<usize, Error> {
    super::read_value_in::<W, Skip>(data, pos, id, opts, |_| Skip).map(|((), end)| end)
}

/// Pulls every event of the value of type `id` whose payload is at `pos`,
/// never skipping (the walk serde makes when it wants every field): where it
/// ends, or the reader's error. What the agreement tests compare with the
/// push readers.
pub(crate) fn walk<W: Wire>(
    data: &[u8],
    pos: usize,
    id: u8,
    opts: &ReadOptions,
) -> Result<usize, Error> {
    let mut r = Pull::<W>::new(data, pos, opts)?;
    walk_in(&mut r, id).map_err(|e| r.budget_error(e))?;
    Ok(r.pos())
}

/// [`walk`]'s loop: a stack of the open lists' element types and counts
/// left (`None` for a compound).
fn walk_in<W: Wire>(r: &mut Pull<'_, W>, root: u8) -> Result<(), Error> {
    let mut open: Vec<Option<(u8, usize)>> = Vec::new();
    // The value to read next: its type and where a depth error names.
    let mut next = Some((root, r.pos()));
    loop {
        if let Some((id, blame)) = next.take() {
            match id {
                COMPOUND => {
                    r.open_compound(blame)?;
                    open.push(None);
                }
                LIST => {
                    let h = r.open_list()?;
                    match h.elem {
                        END..=DOUBLE => {
                            r.numbers(h.elem, h.n as usize)?;
                            r.close_list();
                        }
                        COMPOUND | LIST => open.push(Some((h.elem, h.n as usize))),
                        _ => {
                            for _ in 0..h.n {
                                r.element(h.elem)?;
                            }
                            r.close_list();
                        }
                    }
                }
                _ => {
                    r.leaf(id)?;
                }
            }
        }
        match open.last_mut() {
            None => return Ok(()),
            Some(None) => match r.entry()? {
                Some(h) => next = Some((h.id, h.at)),
                None => {
                    open.pop();
                }
            },
            Some(Some((elem, left))) => {
                if *left == 0 {
                    r.close_list();
                    open.pop();
                } else {
                    *left -= 1;
                    next = Some((*elem, r.pos()));
                }
            }
        }
    }
}
