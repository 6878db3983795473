//! The append buffer behind the owned writer's raw-pointer stores: elements
//! are stored straight into a `Vec`'s spare capacity and the end moves on,
//! with the `Vec`'s start, end and capacity cached in the buffer as pointers.
//!
//! Why a cache: the writer is inlined into one hot loop. Going through the
//! `Vec` for every store would reload its fields from memory after every
//! store (the store might alias them); the cached copies are plain locals
//! that stay in registers. Pointers rather than a length: an append then
//! needs one live register (the end), not two (start and length). The `Vec`
//! is brought up to date only when it is needed: to grow (through
//! [`AppendBuf::with_backing`]) and at the end ([`AppendBuf::finish`]).
//!
//! A buffer can also be the backing of another buffer ([`AppendBuf::cursor`]):
//! a loop that must pass its buffer to out-of-line calls (which makes that
//! buffer live in memory) works on a cursor instead, a second cache that
//! never escapes, and hands the buffer to those calls through the cursor's
//! `with_backing`.
//!
//! All of the owned writer's `unsafe` of "write into spare capacity, move the
//! end" is in this module; callers that store through [`AppendBuf::tail`]
//! themselves keep to [`AppendBuf::advance`]'s contract. The tape sink
//! (`tape/sink.rs`) writes its words into spare capacity too, with its own
//! proof there: on this buffer the borrow read measured slower
//! (`reports/code-notes.md`).

/// A buffer's cached raw parts: `start..cap_end` is the allocation (valid for
/// reads and writes), `start..end` its initialised prefix.
#[derive(Clone, Copy)]
pub(crate) struct Parts<T> {
    start: *mut T,
    end: *mut T,
    cap_end: *mut T,
}

impl<T> Parts<T> {
    /// The parts of `vec`.
    #[inline(always)]
    fn of(vec: &mut Vec<T>) -> Self {
        let start = vec.as_mut_ptr();
        // SAFETY: `len <= capacity`, both within (or one past) the allocation.
        unsafe {
            Parts {
                start,
                end: start.add(vec.len()),
                cap_end: start.add(vec.capacity()),
            }
        }
    }

    /// The number of initialised elements.
    #[inline(always)]
    fn len(&self) -> usize {
        // SAFETY: `start <= end`, both in (or one past) one allocation, and
        // `T` is not zero-sized (see `AppendBuf::check_size`).
        unsafe { self.end.offset_from(self.start) as usize }
    }
}

/// Where an [`AppendBuf`]'s elements live: a borrowed `Vec` or, for a
/// cursor, another `AppendBuf`.
///
/// # Safety
/// Given parts that hold their invariant, `lend` and `store` keep the backing
/// consistent with them, and `lend` leaves `parts` holding it again.
pub(crate) unsafe trait Backing<T: Copy> {
    /// What [`AppendBuf::with_backing`] lends out.
    type Lent;

    /// The current parts.
    fn load(&mut self) -> Parts<T>;

    /// Sets the backing's length to `parts`' (it was at most that).
    ///
    /// # Safety
    /// `parts` are this backing's (from `load`, or moved on over initialised
    /// elements within the capacity).
    unsafe fn store(&mut self, parts: &Parts<T>);

    /// The backing to lend out.
    fn lent(&mut self) -> &mut Self::Lent;

    /// Makes room for at least `n` more elements (amortised growth).
    fn grow(lent: &mut Self::Lent, n: usize);
}

/// Grows a `Vec` by `Vec::reserve`, out of line (the fast path only checks
/// the spare capacity).
#[cold]
#[inline(never)]
fn grow_vec<T>(vec: &mut Vec<T>, n: usize) {
    vec.reserve(n);
}

// SAFETY: `Parts::of` describes the `Vec`; `set_len` to an initialised prefix
// within the capacity changes nothing else.
unsafe impl<T: Copy> Backing<T> for &mut Vec<T> {
    type Lent = Vec<T>;

    #[inline(always)]
    fn load(&mut self) -> Parts<T> {
        Parts::of(self)
    }

    #[inline(always)]
    unsafe fn store(&mut self, parts: &Parts<T>) {
        // SAFETY: the caller: `parts` are this `Vec`'s, moved on only over
        // initialised elements within its capacity.
        unsafe { self.set_len(parts.len()) }
    }

    #[inline(always)]
    fn lent(&mut self) -> &mut Vec<T> {
        self
    }

    #[inline(always)]
    fn grow(lent: &mut Vec<T>, n: usize) {
        grow_vec(lent, n);
    }
}

// SAFETY: a cursor's parts are its buffer's except for the end, which is
// handed back (`store`) before the buffer is used.
unsafe impl<T: Copy, B: Backing<T>> Backing<T> for &mut AppendBuf<T, B> {
    type Lent = AppendBuf<T, B>;

    #[inline(always)]
    fn load(&mut self) -> Parts<T> {
        self.parts
    }

    #[inline(always)]
    unsafe fn store(&mut self, parts: &Parts<T>) {
        self.parts.end = parts.end;
    }

    #[inline(always)]
    fn lent(&mut self) -> &mut AppendBuf<T, B> {
        self
    }

    #[inline(always)]
    fn grow(lent: &mut AppendBuf<T, B>, n: usize) {
        lent.grow_out_of_line(n);
    }
}

/// An append-only writer into the spare capacity of a borrowed `Vec` or of
/// another `AppendBuf` (a [cursor](AppendBuf::cursor)).
///
/// Invariants: `parts` are the backing's parts except for the end, which is
/// at or ahead of the backing's length (every element before it
/// initialised). The backing's length is set from `parts` before the backing
/// is used ([`with_backing`](Self::with_backing)) and by
/// [`finish`](Self::finish).
///
/// There is no `Drop`: a buffer dropped without `finish` (an early return,
/// an unwinding panic) leaves its backing valid, at the length it was last
/// brought up to date to; the elements appended since are lost. (A `Drop`
/// would hand the end back on every path, but its landing pads make the
/// owned writer's cursor live in memory, `reports/code-notes.md`.)
///
/// The safe API keeps the invariants whatever the caller does: [`put`]
/// checks the room (one compare on the fast path) and grows by the backing's
/// amortised policy otherwise, and [`reserve_with`] grows by the caller's
/// own policy. Raw stores go through [`tail`] and the `unsafe` [`advance`].
///
/// `T` may not be zero-sized (the end is a pointer).
///
/// [`put`]: Self::put
/// [`reserve_with`]: Self::reserve_with
/// [`tail`]: Self::tail
/// [`advance`]: Self::advance
pub(crate) struct AppendBuf<T: Copy, B: Backing<T>> {
    backing: B,
    parts: Parts<T>,
}

impl<T: Copy, B: Backing<T>> AppendBuf<T, B> {
    /// A buffer appending to `backing`.
    #[inline(always)]
    pub(crate) fn new(mut backing: B) -> Self {
        const {
            assert!(
                std::mem::size_of::<T>() > 0,
                "AppendBuf of a zero-sized type"
            )
        };
        let parts = backing.load();
        AppendBuf { backing, parts }
    }

    /// The number of elements that fit before the buffer must grow.
    #[inline(always)]
    pub(crate) fn spare(&self) -> usize {
        // SAFETY: `end <= cap_end` in one allocation; `T` is not zero-sized.
        unsafe { self.parts.cap_end.offset_from(self.parts.end) as usize }
    }

    /// Brings the backing's length up to date.
    #[inline(always)]
    pub(crate) fn finish(&mut self) {
        // SAFETY: `parts` hold their invariant (see the type).
        unsafe { self.backing.store(&self.parts) }
    }

    /// Runs `f` on the backing, its length brought up to date, then reloads
    /// the cache from it (`f` may grow, shrink or rewrite it).
    #[inline(always)]
    pub(crate) fn with_backing<R>(&mut self, f: impl FnOnce(&mut B::Lent) -> R) -> R {
        self.finish();
        let r = f(self.backing.lent());
        self.parts = self.backing.load();
        r
    }

    /// Makes room for `n` more elements with `grow`, called (on the backing,
    /// brought up to date) only when fewer are spare. `grow` need not make
    /// the room (it may fail): check [`spare`](Self::spare) if it matters.
    #[inline(always)]
    pub(crate) fn reserve_with<R>(
        &mut self,
        n: usize,
        grow: impl FnOnce(&mut B::Lent) -> R,
    ) -> Option<R> {
        if self.spare() < n {
            Some(self.with_backing(grow))
        } else {
            None
        }
    }

    /// Makes room for `n` more elements (the backing's amortised growth).
    #[inline(always)]
    pub(crate) fn reserve(&mut self, n: usize) {
        self.reserve_with(n, |b| B::grow(b, n));
    }

    /// The out-of-line growth a cursor calls on its buffer (the buffer lives
    /// in memory anyway; the cursor, passing only this pointer, does not).
    #[cold]
    #[inline(never)]
    fn grow_out_of_line(&mut self, n: usize) {
        self.with_backing(|b| B::grow(b, n));
    }

    /// Makes room for `n` elements and returns a pointer to the end: valid for
    /// writes of `n` elements until the buffer is next used other than
    /// through [`advance`](Self::advance).
    #[inline(always)]
    pub(crate) fn tail(&mut self, n: usize) -> *mut T {
        self.reserve(n);
        self.parts.end
    }

    /// The end, for stores into room made earlier ([`reserve`](Self::reserve),
    /// [`tail`]): valid for writes of as many elements as are
    /// [`spare`](Self::spare), until the buffer is next used other than
    /// through [`advance`](Self::advance).
    ///
    /// [`tail`]: Self::tail
    #[inline(always)]
    pub(crate) fn end(&self) -> *mut T {
        self.parts.end
    }

    /// Moves the end forward over `n` elements stored through [`tail`].
    ///
    /// # Safety
    /// At least `n` elements are spare (as the last [`tail`] or
    /// [`reserve`](Self::reserve) made sure), and the first `n` of them have
    /// been written since.
    ///
    /// [`tail`]: Self::tail
    #[inline(always)]
    pub(crate) unsafe fn advance(&mut self, n: usize) {
        debug_assert!(n <= self.spare());
        // SAFETY: the caller: the result stays within the allocation.
        self.parts.end = unsafe { self.parts.end.add(n) };
    }

    /// Appends `values`, with one room check.
    #[inline(always)]
    pub(crate) fn put<const N: usize>(&mut self, values: [T; N]) {
        let dst = self.tail(N);
        // SAFETY: `tail` made room for `N` elements at `dst` (`[T; N]` has
        // `T`'s alignment); they are written before the end moves over them.
        unsafe {
            dst.cast::<[T; N]>().write(values);
            self.advance(N);
        }
    }

    /// A cursor: a buffer over this one, for a loop that keeps it in
    /// registers while this one is passed to out-of-line calls (through the
    /// cursor's [`with_backing`](Self::with_backing)). Its
    /// [`finish`](Self::finish) hands the end back.
    #[inline(always)]
    pub(crate) fn cursor(&mut self) -> AppendBuf<T, &mut Self> {
        AppendBuf::new(self)
    }
}

#[cfg(test)]
mod tests {
    //! Small enough for Miri (`.ci/miri.sh` runs the lib tests).
    use super::*;

    impl<T: Copy, B: Backing<T>> AppendBuf<T, B> {
        fn len(&self) -> usize {
            self.parts.len()
        }

        fn capacity(&self) -> usize {
            self.len() + self.spare()
        }
    }

    #[test]
    fn put_across_growth() {
        let mut v = Vec::<u64>::new();
        let mut buf = AppendBuf::new(&mut v);
        for i in 0..100 {
            buf.put([i]);
            assert_eq!(buf.len() as u64, i + 1);
        }
        buf.put([7, 8, 9]);
        buf.finish();
        let mut want: Vec<u64> = (0..100).collect();
        want.extend([7, 8, 9]);
        assert_eq!(v, want);
    }

    #[test]
    fn appends_after_existing_elements() {
        let mut v = vec![1u8, 2];
        let mut buf = AppendBuf::new(&mut v);
        assert_eq!(buf.len(), 2);
        buf.put([3, 4]);
        buf.finish();
        assert_eq!(v, [1, 2, 3, 4]);
    }

    #[test]
    fn tail_and_advance() {
        let mut v = vec![0xAAu8];
        let mut buf = AppendBuf::new(&mut v);
        let dst = buf.tail(40);
        assert!(buf.spare() >= 40);
        // SAFETY: `tail` made room for 40 bytes at `dst`; 37 are written.
        unsafe {
            for i in 0..37 {
                dst.add(i).write(i as u8);
            }
            buf.advance(37);
        }
        buf.put([99]);
        buf.finish();
        assert_eq!(v.len(), 39);
        assert!(v[1..38].iter().copied().eq(0..37));
        assert_eq!(v[38], 99);
    }

    #[test]
    fn caller_growth_policy() {
        let mut v = Vec::<u16>::new();
        let mut buf = AppendBuf::new(&mut v);
        let grown = buf.reserve_with(3, |v| {
            assert_eq!(v.len(), 0);
            v.reserve_exact(5);
            "grown"
        });
        assert_eq!(grown, Some("grown"));
        let cap = buf.capacity();
        assert!(cap >= 5);
        assert_eq!(buf.reserve_with(cap, |_| unreachable!()), None);
        // A policy that does not make the room: the checked appends still do.
        buf.put([1, 2, 3]);
        assert_eq!(buf.reserve_with(cap, |_| ()), Some(()));
        buf.put([4; 9]);
        buf.finish();
        assert_eq!(v, [1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
    }

    #[test]
    fn shrink_above_and_below_len() {
        let mut v = Vec::<u64>::with_capacity(64);
        let mut buf = AppendBuf::new(&mut v);
        buf.put([1, 2, 3, 4, 5, 6]);
        buf.with_backing(|v| v.shrink_to(10));
        assert!(buf.capacity() >= 10 && buf.capacity() < 64);
        // Below the length: `shrink_to` keeps the elements.
        buf.with_backing(|v| v.shrink_to(2));
        assert!(buf.capacity() >= 6);
        buf.put([7]);
        buf.finish();
        assert_eq!(v, [1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn backing_may_be_rewritten() {
        let mut v = vec![1u8, 2, 3];
        let mut buf = AppendBuf::new(&mut v);
        buf.put([4]);
        buf.with_backing(|v| {
            assert_eq!(v[..], [1, 2, 3, 4]);
            v.truncate(1);
            v.shrink_to_fit();
        });
        assert_eq!(buf.len(), 1);
        buf.put([9]);
        buf.finish();
        assert_eq!(v, [1, 9]);
    }

    #[test]
    fn drop_without_finish_keeps_the_vec_valid() {
        let mut v = b"ab".to_vec();
        let mut buf = AppendBuf::new(&mut v);
        buf.put(*b"hello");
        buf.with_backing(|v| assert_eq!(v, b"abhello"));
        buf.put([b'!']);
        // The buffer's borrow ends here, without `finish`. The length is the one last brought up to date: `!` is lost.
        assert_eq!(v, b"abhello");
        v.push(b'?');
        assert_eq!(v, b"abhello?");
    }

    #[test]
    fn zero_elements() {
        let mut v = Vec::<u8>::new();
        let mut buf = AppendBuf::new(&mut v);
        buf.put([]);
        let dst = buf.tail(0);
        // SAFETY: zero elements, trivially written.
        unsafe { buf.advance(0) };
        assert!(!dst.is_null());
        buf.reserve(0);
        buf.finish();
        assert!(v.is_empty());
    }

    #[test]
    fn cursor_hands_the_length_back() {
        let mut v = vec![0u8];
        let mut buf = AppendBuf::new(&mut v);
        buf.put([1]);
        {
            let mut c = buf.cursor();
            c.put([2, 3]);
            // Out-of-line work on the buffer, between the cursor's stores.
            c.with_backing(|b| {
                assert_eq!(b.len(), 4);
                b.with_backing(|v| v.extend_from_slice(&[4; 100]));
            });
            c.put([5]);
            // Growth through the cursor reallocates the buffer's Vec.
            for _ in 0..1000 {
                c.put([6]);
            }
            c.finish();
        }
        assert_eq!(buf.len(), 1105);
        buf.put([7]);
        buf.finish();
        assert_eq!(v[..4], [0, 1, 2, 3]);
        assert!(v[4..104].iter().all(|&b| b == 4));
        assert_eq!(v[104], 5);
        assert!(v[105..1105].iter().all(|&b| b == 6));
        assert_eq!(v[1105..], [7]);
    }

    #[test]
    fn unwinding_leaves_the_vec_valid() {
        use std::panic::{AssertUnwindSafe, catch_unwind};
        // A panic while appending: the Vec keeps what was brought up to date.
        let mut v = vec![1u32];
        let r = catch_unwind(AssertUnwindSafe(|| {
            let mut buf = AppendBuf::new(&mut v);
            buf.put([2, 3]);
            buf.with_backing(|_| ());
            buf.put([4]);
            panic!("while appending");
        }));
        assert!(r.is_err());
        assert_eq!(v, [1, 2, 3]);
        // A panic inside `with_backing` after the backing was emptied: the
        // cursor and the buffer are dropped without touching it.
        let mut v = vec![1u32; 64];
        let r = catch_unwind(AssertUnwindSafe(|| {
            let mut buf = AppendBuf::new(&mut v);
            let mut c = buf.cursor();
            c.put([2; 8]);
            c.with_backing(|b| {
                b.with_backing(|v| {
                    v.clear();
                    v.shrink_to_fit();
                    panic!("in the policy");
                })
            });
        }));
        assert!(r.is_err());
        assert!(v.is_empty());
        v.push(5);
        assert_eq!(v, [5]);
    }
}
