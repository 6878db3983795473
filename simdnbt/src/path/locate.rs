//! Where in a document a read error is: the reader core run again over the
//! same bytes with a sink that keeps only the path of what is open.
//!
//! The core's [`Error`] carries a byte offset; a person fixing a file wants
//! `Inventory[3].tag` too. Keeping that path in the readers themselves would
//! cost every successful read; running the one core once more, after a
//! failure, costs nothing until then and needs no second parser: the core
//! fails at the same place with the same error, and the sink's stack is the
//! answer.

use super::NbtPath;
use crate::ReadOptions;
use crate::error::Error;
use crate::mutf8::Mutf8Str;
use crate::read::root::{RootPrefix, root_prefix};
use crate::read::{Sink, read_value};
use crate::tag_id::COMPOUND;

/// One open step, outermost first.
enum Open {
    /// A compound key (the offset of its name's length prefix), holding a
    /// compound (`true`) or a list.
    Key(usize, bool),
    /// An element of the list below: a compound (`true`) or a list.
    Index(usize, bool),
    /// A list whose element `next` is the next one to be read.
    List { next: usize },
}

/// The sink: every container event pushes or pops a step. The stack lives
/// outside (`open`), because the core drops its sink when it fails.
struct PathSink<'s> {
    open: &'s mut Vec<Open>,
    /// Where the innermost compound's current entry starts.
    entry: &'s mut usize,
}

impl PathSink<'_> {
    /// Pushes a step. The first push allocates room for 16 at once (real
    /// documents are rarely deeper), so a document with no container
    /// allocates nothing and one with containers allocates once.
    #[inline(always)]
    fn push(&mut self, step: Open) {
        if self.open.capacity() == 0 {
            *self.open = Vec::with_capacity(16);
        }
        self.open.push(step);
    }

    /// A named container opens: its key, and how deep to cut when it closes.
    fn key(&mut self, at: usize, compound: bool) -> usize {
        let restore = self.open.len();
        self.push(Open::Key(at + 1, compound));
        restore
    }

    /// The next element of the list on top opens.
    fn element(&mut self, compound: bool) -> usize {
        let restore = self.open.len();
        let index = match self.open.last_mut() {
            Some(Open::List { next }) => {
                *next += 1;
                *next - 1
            }
            // The core opens elements only inside a list.
            _ => 0,
        };
        self.push(Open::Index(index, compound));
        restore
    }

    fn list(&mut self) {
        self.push(Open::List { next: 0 });
    }
}

impl<'a> Sink<'a> for PathSink<'_> {
    /// How deep the stack was before the container opened.
    type Compound = usize;
    type Slot = usize;
    type Elements = usize;
    type Parked = usize;
    type PrefixedList = ();
    type Output = ();

    fn root_compound(&mut self) -> Result<usize, Error> {
        Ok(0)
    }
    fn root_list(&mut self, _pos: usize) -> Result<usize, Error> {
        Ok(0)
    }
    fn root_leaf(&mut self, _id: u8, _pos: usize) -> Result<(), Error> {
        Ok(())
    }
    fn named_leaf(
        &mut self,
        _c: &mut usize,
        _id: u8,
        _at: usize,
        _payload: usize,
    ) -> Result<(), Error> {
        Ok(())
    }
    fn named_compound(&mut self, _c: &mut usize, at: usize) -> Result<usize, Error> {
        Ok(self.key(at, true))
    }
    fn named_list(&mut self, _c: &mut usize, at: usize) -> Result<usize, Error> {
        Ok(self.key(at, false))
    }
    fn close_compound(&mut self, c: usize) {
        self.open.truncate(c);
    }
    fn park_compound(&mut self, c: usize) -> usize {
        c
    }
    fn resume_compound(&mut self, p: usize) -> usize {
        p
    }
    fn park_elements(&mut self, e: usize) -> usize {
        e
    }
    fn resume_elements(&mut self, p: usize) -> usize {
        p
    }
    fn element_compound(&mut self, _pos: usize) -> Result<usize, Error> {
        Ok(self.element(true))
    }
    fn element_list(&mut self, _pos: usize) -> Result<usize, Error> {
        Ok(self.element(false))
    }
    fn flat_list(&mut self, slot: usize, _elem: u8, _n: u32, _payload: usize) {
        self.open.truncate(slot);
    }
    fn prefixed_list(
        &mut self,
        _elem: u8,
        _n: u32,
        _payload: usize,
        _len: usize,
    ) -> Result<(), Error> {
        self.list();
        Ok(())
    }
    fn prefixed_element(&mut self, _list: &mut (), _bytes: &'a [u8]) {
        if let Some(Open::List { next }) = self.open.last_mut() {
            *next += 1;
        }
    }
    fn close_prefixed_list(&mut self, slot: usize, _list: ()) {
        self.open.truncate(slot);
    }
    fn elements(&mut self, slot: usize, _elem: u8, _n: u32) -> usize {
        self.list();
        slot
    }
    fn close_elements(&mut self, e: usize) {
        self.open.truncate(e);
    }
    fn entry(&mut self, pos: usize) {
        *self.entry = pos;
    }
    fn finish(self, _end: usize) {}
}

/// Reads `input` as [`crate::borrow::read`] does (a named root compound, or
/// End) and, when that fails, returns the error with the path of where it
/// happened: the innermost value being read — the tag whose key the compound
/// entry names when that key is there to read, else the compound, list or list
/// element around it.
///
/// `None` when `input` reads. The error is exactly the reader's (same kind,
/// same offset): this runs the reader's core again, keeping track of the path.
///
/// ```
/// use simdnbt::path::locate_error;
///
/// // {Inventory: [{id: "a"}, {id: <string cut short>}]}
/// let mut doc = vec![0x0a, 0, 0, 0x09, 0, 9];
/// doc.extend_from_slice(b"Inventory");
/// doc.extend_from_slice(&[0x0a, 0, 0, 0, 2]);
/// doc.extend_from_slice(&[0x08, 0, 2, b'i', b'd', 0, 1, b'a', 0]);
/// doc.extend_from_slice(&[0x08, 0, 2, b'i', b'd', 0, 9, b'b']);
///
/// let (error, path) = locate_error(&doc).unwrap();
/// assert_eq!(error.offset(), doc.len());
/// assert_eq!(path.to_string(), "Inventory[1].id");
/// assert!(locate_error(&[0x0a, 0, 0, 0]).is_none());
/// ```
pub fn locate_error(input: &[u8]) -> Option<(Error, NbtPath)> {
    locate_error_with(input, &ReadOptions::default())
}

/// [`locate_error`] with the limits a reader was given.
pub fn locate_error_with(input: &[u8], opts: &ReadOptions) -> Option<(Error, NbtPath)> {
    let payload = match root_prefix(input, 0, true) {
        Ok(RootPrefix::End { .. }) => return None,
        Ok(RootPrefix::Compound { payload, .. }) => payload,
        Err(e) => return Some((e, NbtPath::new())),
    };
    let (mut open, mut entry) = (Vec::new(), payload);
    let result = read_value(input, payload, COMPOUND, opts, |_| PathSink {
        open: &mut open,
        entry: &mut entry,
    });
    let error = result.err()?;
    let mut path = NbtPath::new();
    match open.last() {
        // A list was reading element `next` when it failed.
        Some(&Open::List { next }) => path.push_index_front(next),
        // A compound was reading the entry at `entry`: name it, if its
        // name is there (a cut or broken file may end inside it).
        None | Some(Open::Key(_, true) | Open::Index(_, true)) => {
            if let Some(key) = input
                .get(entry)
                .filter(|&&id| id != 0)
                .and(key_at(input, entry + 1))
            {
                path.push_key_front(key);
            }
        }
        // A list's own header.
        Some(_) => {}
    }
    for step in open.iter().rev() {
        match *step {
            Open::Key(name, _) => path.push_key_front(key_at(input, name).unwrap_or_default()),
            Open::Index(i, _) => path.push_index_front(i),
            Open::List { .. } => {}
        }
    }
    Some((error, path))
}

/// The key whose length prefix is at `at`, if all of it is in `input`.
fn key_at(input: &[u8], at: usize) -> Option<String> {
    let len = input.get(at..at + 2)?;
    let len = usize::from(u16::from_be_bytes([len[0], len[1]]));
    let name = input.get(at + 2..at + 2 + len)?;
    Some(Mutf8Str::from_slice(name).to_str().into_owned())
}
