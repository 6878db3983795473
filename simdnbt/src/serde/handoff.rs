//! How [`super::Deserializer`] gives the owned tree's visitors a value it
//! built itself.
//!
//! serde's visitor protocol carries numbers, strings, bytes, sequences and
//! maps, never a value of the visitor's own type. An `owned::NbtCompound` or
//! `owned::NbtList` field read entry by entry through that protocol would
//! recurse once per level of nesting; read back from bytes it would take a
//! write and a second parse. The deserializer's reader is at the value's
//! bytes, so it builds the owned value there with the owned reader's builder
//! (one pass of the core, no recursion on depth), puts it in this thread's slot
//! and calls the visitor's `visit_bytes`, which takes it out. The value
//! never leaves the thread and the slot is emptied when the visitor returns
//! (or unwinds), so a visitor that is not one of ours, or `visit_bytes`
//! called by another format, finds the slot empty.

use std::cell::Cell;

use crate::owned::NbtTag;

thread_local! {
    static SLOT: Cell<Option<NbtTag>> = const { Cell::new(None) };
}

/// Empties the slot when dropped, so nothing handed over outlives the call.
struct Clear;

impl Drop for Clear {
    fn drop(&mut self) {
        drop(SLOT.with(Cell::take));
    }
}

/// Puts `value` in the slot for the duration of `visit`, which is called
/// with the bytes to pass to `visit_bytes`.
#[inline]
pub(super) fn hand_over<T>(value: NbtTag, visit: impl FnOnce(&'static [u8]) -> T) -> T {
    SLOT.with(|slot| slot.set(Some(value)));
    let _clear = Clear;
    visit(&[])
}

/// The value [`hand_over`] put in the slot, if any.
#[inline]
pub(super) fn take() -> Option<NbtTag> {
    SLOT.with(Cell::take)
}
