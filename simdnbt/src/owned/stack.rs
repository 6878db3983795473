//! The explicit stack the owned tree's walks (the writer, the drop) keep
//! their open containers on instead of recursing.

use std::mem::MaybeUninit;

/// A stack whose first [`INLINE`] items live in an array, so typical
/// documents (Minecraft nests a few levels) allocate nothing; deeper ones
/// spill to a `Vec`.
pub(super) struct Stack<T> {
    len: usize,
    /// Items `0..len.min(INLINE)`, initialized.
    inline: [MaybeUninit<T>; INLINE],
    /// Items `INLINE..len`.
    spill: Vec<T>,
}

/// Items kept inline.
const INLINE: usize = 8;

impl<T> Stack<T> {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Stack {
            len: 0,
            inline: [const { MaybeUninit::uninit() }; INLINE],
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub(super) fn push(&mut self, item: T) {
        match self.inline.get_mut(self.len) {
            Some(slot) => {
                slot.write(item);
            }
            None => self.spill.push(item),
        }
        self.len += 1;
    }

    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<T> {
        self.len = self.len.checked_sub(1)?;
        match self.inline.get(self.len) {
            // SAFETY: slots below the old `len` (and under `INLINE`) are
            // initialized; the length no longer covers this one, so it is
            // read out once.
            Some(slot) => Some(unsafe { slot.assume_init_read() }),
            None => self.spill.pop(),
        }
    }
}

impl<T> Drop for Stack<T> {
    fn drop(&mut self) {
        let live = self.len.min(INLINE);
        // SAFETY: the first `live` slots are initialized and dropped once
        // here (the spilled items drop with `spill`).
        unsafe {
            for slot in &mut self.inline[..live] {
                slot.assume_init_drop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{INLINE, Stack};

    /// Items come back in reverse order across the inline part and the
    /// spill, and the ones left are dropped with the stack (Miri checks
    /// that nothing leaks or is dropped twice).
    #[test]
    fn pops_in_reverse_across_the_spill_and_drops_the_rest() {
        let mut s = Stack::new();
        for i in 0..INLINE * 2 + 3 {
            s.push(i.to_string());
        }
        assert_eq!(s.len(), INLINE * 2 + 3);
        for i in (INLINE - 2..INLINE * 2 + 3).rev() {
            assert_eq!(s.pop(), Some(i.to_string()));
        }
        assert_eq!(s.len(), INLINE - 2);
        s.push("again".to_string());
        assert_eq!(s.pop().as_deref(), Some("again"));
        drop(s);
        let mut empty = Stack::<String>::new();
        assert_eq!(empty.pop(), None);
    }
}
