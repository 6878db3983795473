//! How many bytes the owned writer reserves before writing a compound: an
//! estimate of the output's size from a bounded look at the tree
//! ([`reserve_for`]), so that the output is allocated once.

use super::layout::INLINE_ENTRY_ROOM;
use super::{NbtCompound, NbtList, NbtTag};

/// The cap on the bytes reserved up front: an estimate past it (a huge tree,
/// or a list whose sampled elements are unlike the rest) grows from there by
/// doubling instead.
pub(super) const RESERVE_CAP: usize = 1 << 20;

/// How many entries of compounds outside lists the estimate reads at most;
/// a compound it does not read counts [`UNREAD_ENTRY`] bytes per entry.
const ESTIMATE_BUDGET: usize = 24;
const UNREAD_ENTRY: usize = 96;
/// A list of containers up to this long has every element read; a longer
/// one is sized from three. The corpus's chunks need this many read whole
/// (their sections differ: bedrock, stone, air; `reports/code-notes.md`).
const LIST_READ_ALL: usize = 32;
/// How deep the estimate looks at most (lists and compounds).
const ESTIMATE_DEPTH: usize = 8;

/// Bytes worth reserving before writing compound `c` (its payload), capped
/// at [`RESERVE_CAP`]: an estimate of the output's size plus the room the
/// writer asks for ahead of its stores
/// ([`reserve_entries`](super::write::reserve_entries)), so that the
/// output is allocated once.
///
/// Why: growing by doubling from a small guess copies the output again at
/// every step, and a copy costs about an instruction per byte: the regrowth
/// was most of the write of a big document (`reports/code-notes.md`).
///
/// What it reads, and why no more: sizing an entry costs about a quarter of
/// writing it, so reading every entry cost more than the regrowth it saved
/// on documents of many small entries. The estimate reads the
/// entries of a compound only while its [`ESTIMATE_BUDGET`] lasts (the
/// thin wrappers around a document's bulk: `Level`, `Data`, a list's
/// elements), counts [`UNREAD_ENTRY`] bytes per entry of a compound it does
/// not read, reads the elements of a list of containers (every one, up to
/// [`LIST_READ_ALL`] of them; else the first, middle and last, for all), and
/// counts the arrays, number lists and strings it reads exactly. The result
/// is raised by a quarter (a regrowth costs as much as the output so far;
/// room to spare costs nothing), plus the writer's room ahead.
pub(crate) fn reserve_for(c: &NbtCompound) -> usize {
    let mut e = Estimate {
        budget: ESTIMATE_BUDGET,
        in_list: false,
        widest: 0,
    };
    let bytes = e.compound(c, 0);
    let ahead = INLINE_ENTRY_ROOM.wrapping_mul(e.widest).wrapping_add(64);
    bytes
        .wrapping_add(bytes / 4)
        .wrapping_add(ahead)
        .min(RESERVE_CAP)
}

/// The state of one [`reserve_for`]. Its sums wrap instead of checking: a
/// wrapped estimate is only a smaller reservation.
struct Estimate {
    /// Entries of compounds outside lists the estimate may still read.
    budget: usize,
    /// Whether a list's elements are being read (no budget: they are read
    /// once each, as many as the list sampling picks).
    in_list: bool,
    /// The most entries of a compound seen.
    widest: usize,
}

impl Estimate {
    /// The estimated payload size of compound `c` at depth `depth`.
    fn compound(&mut self, c: &NbtCompound, depth: usize) -> usize {
        let len = c.values.len();
        self.widest = self.widest.max(len);
        if depth >= ESTIMATE_DEPTH || (!self.in_list && len > self.budget) {
            return UNREAD_ENTRY.wrapping_mul(len).wrapping_add(1);
        }
        if !self.in_list {
            self.budget -= len;
        }
        let mut n: usize = 1; // the End
        for (name, tag) in &c.values {
            let payload = match tag {
                NbtTag::Byte(_) => 1,
                NbtTag::Short(_) => 2,
                NbtTag::Int(_) | NbtTag::Float(_) => 4,
                NbtTag::Long(_) | NbtTag::Double(_) => 8,
                NbtTag::ByteArray(v) => 4 + v.len(),
                NbtTag::String(s) => 2 + s.len(),
                NbtTag::IntArray(v) => 4usize.wrapping_add(v.len().wrapping_mul(4)),
                NbtTag::LongArray(v) => 4usize.wrapping_add(v.len().wrapping_mul(8)),
                NbtTag::Compound(c) => self.compound(c, depth + 1),
                NbtTag::List(l) => self.list(l, depth + 1),
            };
            n = n.wrapping_add(3 + name.len()).wrapping_add(payload);
        }
        n
    }

    /// The estimated payload size of list `l` (element id, length, elements).
    fn list(&mut self, l: &NbtList, depth: usize) -> usize {
        if depth >= ESTIMATE_DEPTH {
            return UNREAD_ENTRY.wrapping_mul(l.len()).wrapping_add(5);
        }
        let elements = match l {
            NbtList::Empty => 0,
            NbtList::Byte(v) => v.len(),
            NbtList::Short(v) => v.len().wrapping_mul(2),
            NbtList::Int(v) => v.len().wrapping_mul(4),
            NbtList::Float(v) => v.len().wrapping_mul(4),
            NbtList::Long(v) => v.len().wrapping_mul(8),
            NbtList::Double(v) => v.len().wrapping_mul(8),
            NbtList::ByteArray(v) => sampled(v, |a| 4 + a.len()),
            NbtList::String(v) => sampled(v, |s| 2 + s.len()),
            NbtList::IntArray(v) => sampled(v, |a| 4usize.wrapping_add(a.len().wrapping_mul(4))),
            NbtList::LongArray(v) => sampled(v, |a| 4usize.wrapping_add(a.len().wrapping_mul(8))),
            NbtList::Compound(v) => self.elements(v, |e, c| e.compound(c, depth)),
            NbtList::List(v) => self.elements(v, |e, l| e.list(l, depth + 1)),
        };
        elements.wrapping_add(5)
    }

    /// The size of a list's containers, read as [`reserve_for`] says.
    fn elements<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T) -> usize) -> usize {
        let outer = std::mem::replace(&mut self.in_list, true);
        let n = if items.len() <= LIST_READ_ALL {
            items
                .iter()
                .fold(0usize, |n, item| n.wrapping_add(each(self, item)))
        } else {
            sampled(items, |item| each(self, item))
        };
        self.in_list = outer;
        n
    }
}

/// The size of `items`, from the first, middle and last (all of them when
/// there are at most three).
fn sampled<T>(items: &[T], mut each: impl FnMut(&T) -> usize) -> usize {
    match items {
        [] => 0,
        [a] => each(a),
        [a, b] => each(a).wrapping_add(each(b)),
        [first, .., last] => {
            let mid = &items[items.len() / 2];
            let three = each(first).wrapping_add(each(mid)).wrapping_add(each(last));
            (three / 3).wrapping_mul(items.len())
        }
    }
}
